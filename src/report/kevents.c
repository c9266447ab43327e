/*
 * Kernel log events for the report: /dev/kmsg records of the window and
 * the REPORT_KMSG_RECENT_S before it, classified (OOM kills, hung tasks,
 * lockups, I/O errors, segfaults, other errors, the file-handle and
 * conntrack tables full). The two lines the kernel logs per OOM kill
 * ("oom-kill:..." and "Killed process ...") become one event; so do a hung
 * task's reports (the kernel re-reports it every check while it stays
 * blocked), with the lock owner the kernel names after its dump; and so do
 * the repeats of a full table's line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/hostread.h"
#include "report/collect.h"
#include "report/thresholds.h"

struct kctx {
	struct report_data *d;
	uint64_t start_us, end_us, from_us;
	uint64_t netns; /* our network namespace's inode, 0 when unknown */
};

/* The earlier line of the same OOM kill, if this one completes it. */
static struct rp_kevent *same_oom_kill(struct report_data *d, const struct kmsg_class *c)
{
	for (size_t i = d->nkevents; i-- > 0;) {
		struct rp_kevent *e = &d->kevents[i];

		if (e->event == KMSG_OOM_KILL && c->pid && e->pid == c->pid)
			return e;
	}
	return NULL;
}

static void merge_oom(struct rp_kevent *e, const struct kmsg_class *c)
{
	if (!e->comm[0])
		snprintf(e->comm, sizeof(e->comm), "%s", c->comm);
	if (!e->cgroup[0])
		snprintf(e->cgroup, sizeof(e->cgroup), "%s", c->cgroup);
}

/* The event this record repeats or completes, or NULL when it is a new one. */
static struct rp_kevent *earlier_event(struct report_data *d, const struct kmsg_class *c)
{
	for (size_t i = d->nkevents; i-- > 0;) {
		struct rp_kevent *e = &d->kevents[i];

		switch (c->event) {
		case KMSG_HUNG_TASK:
		case KMSG_HUNG_BLOCKER:
			if (e->event == KMSG_HUNG_TASK && c->pid && e->pid == c->pid &&
			    !strcmp(e->comm, c->comm))
				return e;
			break;
		case KMSG_FILE_MAX:
		case KMSG_CONNTRACK_FULL:
			if (e->event == c->event)
				return e;
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}

static void stamp(const struct kctx *k, const struct kmsg_record *r, struct rp_kevent *e)
{
	e->in_window = e->in_window || r->ts_us >= k->start_us;
	e->age_s = r->ts_us < k->end_us ? (double)(k->end_us - r->ts_us) / 1e6 : 0;
}

/* A repeat of e (a hung task re-reported, a table still full), or its blocker line. */
static void merge_repeat(const struct kctx *k, const struct kmsg_record *r,
			 const struct kmsg_class *c, struct rp_kevent *e)
{
	if (c->event == KMSG_HUNG_BLOCKER) {
		snprintf(e->lock, sizeof(e->lock), "%s", c->lock);
		e->owner_pid = c->owner_pid;
		snprintf(e->owner_comm, sizeof(e->owner_comm), "%s", c->owner_comm);
		return;
	}
	e->reports++;
	if (c->blocked_s > e->blocked_s)
		e->blocked_s = c->blocked_s;
	snprintf(e->text, sizeof(e->text), "%s", r->text);
	stamp(k, r, e);
}

static void on_record(void *ctx, const struct kmsg_record *r)
{
	struct kctx *k = ctx;
	struct report_data *d = k->d;
	struct kmsg_class c;
	struct rp_kevent *e;

	if (r->ts_us < k->from_us)
		return;
	procfs_kmsg_classify(r, &c);
	if (c.event == KMSG_NONE)
		return;
	/* another namespace's conntrack table is not the one the report reads */
	if (c.event == KMSG_CONNTRACK_FULL && c.netns && k->netns && c.netns != k->netns)
		return;
	if (c.event == KMSG_OOM_KILL && (e = same_oom_kill(d, &c))) {
		merge_oom(e, &c);
		return;
	}
	if ((e = earlier_event(d, &c))) {
		merge_repeat(k, r, &c, e);
		return;
	}
	/* a blocker line whose hung-task line came before the look-back says too little */
	if (c.event == KMSG_HUNG_BLOCKER || d->nkevents >= RP_MAX_KEVENTS)
		return;
	e = &d->kevents[d->nkevents++];
	memset(e, 0, sizeof(*e));
	e->event = c.event;
	e->pid = c.pid;
	snprintf(e->comm, sizeof(e->comm), "%s", c.comm);
	snprintf(e->device, sizeof(e->device), "%s", c.device);
	snprintf(e->cgroup, sizeof(e->cgroup), "%s", c.cgroup);
	snprintf(e->text, sizeof(e->text), "%s", r->text);
	e->reports = 1;
	e->blocked_s = c.blocked_s;
	stamp(k, r, e);
}

/* The inode of our network namespace ("net:[4026531840]"), 0 when unknown (a fixture). */
static uint64_t own_netns(const struct procfs *pf)
{
	char id[64];
	const char *open;

	if (procfs_hostread_netns_id(pf, 0, id, sizeof(id)) || !(open = strchr(id, '[')))
		return 0;
	return strtoull(open + 1, NULL, 10);
}

void report_kmsg_results(const struct window *w, struct report_data *d)
{
	struct kctx k = { d, 0, 0, 0, own_netns(w->pf) };
	int rc;

	if (!w->h[0].have_uptime || !w->h[1].have_uptime) {
		report_skip(d, "kernel-log",
			    "/proc/uptime could not be read to place records in time");
		return;
	}
	k.start_us = w->h[0].uptime_cs * 10000;
	k.end_us = w->h[1].uptime_cs * 10000;
	k.from_us = k.start_us > REPORT_KMSG_RECENT_S * 1e6
			? k.start_us - (uint64_t)(REPORT_KMSG_RECENT_S * 1e6)
			: 0;
	rc = procfs_hostread_kmsg(w->pf, on_record, &k);
	d->have_kmsg = rc == 0;
	if (rc)
		report_skip(d, "kernel-log", "/dev/kmsg: %s%s", strerror(-rc),
			    rc == -EPERM || rc == -EACCES ? " (needs root or CAP_SYSLOG)" : "");
}
