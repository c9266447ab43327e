/*
 * The host's counters now, through /proc under a root: the live source's
 * reader, and what triage record stores every interval (source.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/hostread.h"
#include "procfs/netq.h"
#include "procfs/procfs.h"
#include "report/source.h"
#include "util/text.h"

#define STAT_BUF (1 << 18)

void report_host_reader_init(struct report_host_reader *r, const struct procfs *pf)
{
	char buf[8];

	memset(r, 0, sizeof(*r));
	r->pf = pf;
	r->have_sys_block = procfs_read_root(pf, "sys/block", buf, sizeof(buf)) != -ENOENT;
	r->nns = 1;
	r->ns[0].ours = true;
}

void report_host_find_netns(struct report_host_reader *r)
{
	struct id_list pids = { 0 };
	char ours[RP_NETNS_ID_MAX], id[RP_NETNS_ID_MAX];

	r->nns = 1;
	memset(&r->ns[0], 0, sizeof(r->ns[0]));
	r->ns[0].ours = true;
	r->ns_id[0][0] = '\0';
	if (procfs_hostread_netns_id(r->pf, 0, ours, sizeof(ours)) ||
	    procfs_list_pids(r->pf, &pids))
		goto out;
	snprintf(r->ns_id[0], sizeof(r->ns_id[0]), "%s", ours);
	for (size_t i = 0; i < pids.len; i++) {
		size_t k;

		if (procfs_hostread_netns_id(r->pf, pids.ids[i], id, sizeof(id)) ||
		    !strcmp(id, ours))
			continue;
		for (k = 1; k < r->nns && strcmp(r->ns_id[k], id); k++)
			;
		if (k == r->nns) {
			if (r->nns >= RP_MAX_NETNS + 1)
				continue;
			memset(&r->ns[k], 0, sizeof(r->ns[k]));
			snprintf(r->ns_id[k], sizeof(r->ns_id[k]), "%s", id);
			r->nns++;
		}
		if (r->ns[k].npids < RP_MAX_PIDS)
			r->ns[k].pids[r->ns[k].npids++] = pids.ids[i];
	}
out:
	procfs_id_list_release(&pids);
}

/* How full a listener's accept queue is, as a share of its backlog (or its length alone). */
static double queue_fill(const struct net_sock *s)
{
	if (!s->has_backlog)
		return (double)s->rx_queue;
	return s->backlog ? (double)s->rx_queue / (double)s->backlog : (double)s->rx_queue + 1;
}

/*
 * The namespace's listener with the fullest accept queue, when one is
 * full (queue above its backlog: the kernel then drops SYNs and ACKs), and
 * its owner. The owners' walk over every process's descriptors is made
 * only then, so a quiet machine pays one sock_diag dump per namespace.
 */
static void read_full_listener(const struct procfs *pf, pid_t pid, struct rp_netns *ns)
{
	struct net_socks s = { 0 };
	const struct net_sock *b = NULL;
	pid_t owner = 0;

	ns->has_full = false;
	if (procfs_netread_tcp_listeners(pf, pid, &s))
		return;
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].has_backlog ? s.v[i].rx_queue > s.v[i].backlog : s.v[i].rx_queue > 0)
			if (!b || queue_fill(&s.v[i]) > queue_fill(b))
				b = &s.v[i];
	if (b) {
		if (procfs_socket_owners(pf, NULL, &b->inode, 1, &owner))
			owner = 0;
		text_copy(ns->full.addr, sizeof(ns->full.addr), b->addr);
		ns->full.port = b->port;
		ns->full.queue = b->rx_queue;
		ns->full.backlog = b->backlog;
		ns->full.has_backlog = b->has_backlog;
		ns->full.pid = owner;
		ns->has_full = true;
	}
	procfs_net_socks_release(&s);
}

void report_host_read_tcp(const struct report_host_reader *r, struct report_host_snap *h)
{
	h->nns = r->nns;
	for (size_t k = 0; k < r->nns; k++) {
		char dir[16];

		h->ns[k] = r->ns[k];
		memcpy(h->ns_id[k], r->ns_id[k], sizeof(h->ns_id[k]));
		snprintf(dir, sizeof(dir), "%d", k ? (int)r->ns[k].pids[0] : 0);
		h->have_tcp[k] = !procfs_hostread_tcp(r->pf, k ? dir : NULL, &h->tcp[k]);
	}
}

/*
 * The namespace's UDP socket with the most drops (cumulative, since it
 * was made) and, when it dropped any, its owner.
 */
static void read_udp_top(const struct procfs *pf, const char *dir, struct rp_netns *ns)
{
	struct net_socks s = { 0 };
	const struct net_sock *b = NULL;
	pid_t owner = 0;

	ns->has_udp_top = false;
	if (procfs_netread_udp_socks(pf, dir, &s))
		return;
	for (size_t i = 0; i < s.n; i++)
		if (s.v[i].drops && (!b || s.v[i].drops > b->drops))
			b = &s.v[i];
	if (b) {
		if (procfs_socket_owners(pf, NULL, &b->inode, 1, &owner))
			owner = 0;
		text_copy(ns->udp_top.addr, sizeof(ns->udp_top.addr), b->addr);
		ns->udp_top.port = b->port;
		ns->udp_top.inode = b->inode;
		ns->udp_top.drops = b->drops;
		ns->udp_top.pid = owner;
		ns->has_udp_top = true;
	}
	procfs_net_socks_release(&s);
}

/*
 * The listeners and UDP are read at the window's ends only
 * (report_host_read), not every step.
 */
static void read_listeners(const struct report_host_reader *r, struct report_host_snap *h)
{
	for (size_t k = 0; k < h->nns; k++) {
		char dir[16];

		snprintf(dir, sizeof(dir), "%d", k ? (int)r->ns[k].pids[0] : 0);
		read_full_listener(r->pf, k ? r->ns[k].pids[0] : 0, &h->ns[k]);
		h->have_udp[k] = !procfs_netread_udp_counters(r->pf, k ? dir : NULL, &h->udp[k]);
		read_udp_top(r->pf, k ? dir : NULL, &h->ns[k]);
	}
}

/* iostat's whole devices: those under /sys/block when the root has one. */
static bool whole_device(struct report_host_reader *r, size_t i, const char *name)
{
	char path[96], buf[8];

	if (!r->have_sys_block)
		return true;
	if (i < HOST_MAX_DISKS && r->kind[i].name[0] && !strcmp(r->kind[i].name, name))
		return r->kind[i].whole;
	snprintf(path, sizeof(path), "sys/block/%s/dev", name);
	if (i >= HOST_MAX_DISKS)
		return procfs_read_root(r->pf, path, buf, sizeof(buf)) >= 0;
	r->kind[i].whole = procfs_read_root(r->pf, path, buf, sizeof(buf)) >= 0;
	text_copy(r->kind[i].name, sizeof(r->kind[i].name), name);
	return r->kind[i].whole;
}

static void read_disks(struct report_host_reader *r, struct report_host_snap *h)
{
	size_t kept = 0;

	h->have_disks = !procfs_hostread_diskstats(r->pf, &h->disks);
	for (size_t i = 0; h->have_disks && i < h->disks.n; i++)
		if (whole_device(r, i, h->disks.d[i].name))
			h->disks.d[kept++] = h->disks.d[i];
	h->disks.n = h->have_disks ? kept : 0;
}

/* /proc/stat once: the CPU lines for the report, pidstat's total for a replayed pidstat. */
static void read_stat(const struct procfs *pf, struct report_host_snap *h)
{
	char *buf = malloc(STAT_BUF);
	struct sys_stat ss;
	ssize_t n = buf ? procfs_read(pf, "stat", buf, STAT_BUF) : -ENOMEM;

	h->have_cpu = n > 0 && !procfs_cpu_stat_parse(buf, (size_t)n, &h->cpu);
	if (n > 0 && !procfs_sys_stat_parse(buf, (size_t)n, &ss))
		h->jiffies = procfs_sys_stat_total(&ss);
	free(buf);
}

void report_host_read(struct report_host_reader *r, struct report_host_snap *h)
{
	static const char *const psi_names[RP_PSI_COUNT] = { "cpu", "memory", "io" };

	read_stat(r->pf, h);
	for (int k = 0; k < RP_PSI_COUNT; k++)
		h->have_psi[k] = !procfs_hostread_psi(r->pf, psi_names[k], &h->psi[k]);
	h->have_mem = !procfs_hostread_meminfo(r->pf, &h->mem);
	h->have_vm = !procfs_hostread_vmstat(r->pf, &h->vm);
	read_disks(r, h);
	h->have_ifaces = !procfs_hostread_netdev(r->pf, NULL, &h->ifaces);
	h->have_uptime = !procfs_hostread_uptime_cs(r->pf, &h->uptime_cs);
	h->have_softirqs = !procfs_softirqs_read(r->pf, &h->softirqs);
	h->have_ct = !procfs_limits_read_conntrack(r->pf, &h->ct);
	h->have_softnet = !procfs_netread_softnet(r->pf, &h->softnet);
	h->have_fs = r->statfs && !procfs_fsread_usage(r->pf, r->statfs, &h->fs);
	h->have_files = !procfs_limits_read_file_handles(r->pf, &h->files);
	h->have_caps = !procfs_limits_read_task_caps(r->pf, &h->caps);
	report_host_read_tcp(r, h);
	read_listeners(r, h);
}
