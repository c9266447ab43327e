/*
 * Kernel log events for the report: /dev/kmsg records of the window and
 * the REPORT_KMSG_RECENT_S before it, classified (OOM kills, hung tasks,
 * lockups, I/O errors, segfaults, other errors). The two lines the kernel
 * logs per OOM kill ("oom-kill:..." and "Killed process ...") become one
 * event.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "procfs/hostread.h"
#include "report/collect.h"
#include "report/thresholds.h"

struct kctx {
	struct report_data *d;
	uint64_t start_us, end_us, from_us;
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

static void on_record(void *ctx, const struct kmsg_record *r)
{
	struct kctx *k = ctx;
	struct report_data *d = k->d;
	struct kmsg_class c;
	struct rp_kevent *e;

	if (r->ts_us < k->from_us)
		return;
	kmsg_classify(r, &c);
	if (c.event == KMSG_NONE)
		return;
	if (c.event == KMSG_OOM_KILL && (e = same_oom_kill(d, &c))) {
		merge_oom(e, &c);
		return;
	}
	if (d->nkevents >= RP_MAX_KEVENTS)
		return;
	e = &d->kevents[d->nkevents++];
	memset(e, 0, sizeof(*e));
	e->event = c.event;
	e->pid = c.pid;
	snprintf(e->comm, sizeof(e->comm), "%s", c.comm);
	snprintf(e->device, sizeof(e->device), "%s", c.device);
	snprintf(e->cgroup, sizeof(e->cgroup), "%s", c.cgroup);
	snprintf(e->text, sizeof(e->text), "%s", r->text);
	e->in_window = r->ts_us >= k->start_us;
	e->age_s = r->ts_us < k->end_us ? (double)(k->end_us - r->ts_us) / 1e6 : 0;
}

void kmsg_results(const struct window *w, struct report_data *d)
{
	struct kctx k = { d, 0, 0, 0 };
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
	rc = hostread_kmsg(w->pf, on_record, &k);
	d->have_kmsg = rc == 0;
	if (rc)
		report_skip(d, "kernel-log", "/dev/kmsg: %s%s", strerror(-rc),
			    rc == -EPERM || rc == -EACCES ? " (needs root or CAP_SYSLOG)" : "");
}
