/* From the window's two ends to rates and percentages the rules read. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "procfs/hostread.h"
#include "procfs/limits.h"
#include "pidstat/table.h"
#include "procfs/task_info.h"
#include "report/collect.h"
#include "report/rules.h"
#include "report/thresholds.h"

#define RP_PLACEMENT_PROCS 32 /* processes whose allowed CPUs and cgroup are read */

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

bool report_cpu_pct(const struct cpu_times *a, const struct cpu_times *b, struct rp_cpu_pct *o)
{
	uint64_t tot = sub(procfs_cpu_times_total(b), procfs_cpu_times_total(a));

	o->usr = pct(sub(b->user + b->nice, a->user + a->nice), tot);
	o->sys = pct(sub(b->system, a->system), tot);
	o->iowait = pct(sub(b->iowait, a->iowait), tot);
	o->irq = pct(sub(b->irq + b->softirq, a->irq + a->softirq), tot);
	o->steal = pct(sub(b->steal, a->steal), tot);
	o->softirq = pct(sub(b->softirq, a->softirq), tot);
	o->busy = pct(sub(procfs_cpu_times_busy(b), procfs_cpu_times_busy(a)), tot);
	o->nice = pct(sub(b->nice, a->nice), tot);
	o->idle = pct(sub(b->idle, a->idle), tot);
	return tot > 0;
}

static void cpu_results(const struct window *w, struct report_data *d)
{
	const struct cpu_stat *a = &w->h[0].cpu, *b = &w->h[1].cpu;

	if (!w->h[0].have_cpu || !w->h[1].have_cpu) {
		report_skip(d, "cpu", "/proc/stat could not be read");
		return;
	}
	report_cpu_pct(&a->all, &b->all, &d->all);
	d->ncpu_lines = b->ncpu;
	for (int c = 0; c < b->ncpu; c++) {
		d->cpu_online[c] = a->online[c] && b->online[c];
		if (d->cpu_online[c])
			report_cpu_pct(&a->cpu[c], &b->cpu[c], &d->cpu[c]);
	}
	d->runnable_avg = w->runnable_n ? w->runnable_sum / w->runnable_n : 0;
	/* processes created over the window: /proc/stat's "processes" counter */
	d->have_forks =
	    !(w->src->lacks & REPORT_LACKS_FORKS) && b->forks >= a->forks && d->seconds > 0;
	if (d->have_forks)
		d->forks_per_s = (double)(b->forks - a->forks) / d->seconds;
}

/* Per CPU, the softirq vector that ran most over the window (the CPU's irq time says how much). */
static void softirq_results(const struct window *w, struct report_data *d)
{
	const struct report_host_snap *a = &w->h[0], *b = &w->h[1];

	d->have_softirqs = a->have_softirqs && b->have_softirqs && d->seconds > 0;
	if (!d->have_softirqs) {
		if (!(w->src->lacks & REPORT_LACKS_SOFTIRQS))
			report_skip(d, "softirqs", "/proc/softirqs could not be read");
		return;
	}
	for (int c = 0; c < d->ncpu_lines && c < HOST_MAX_CPUS; c++) {
		uint64_t runs;
		int v = procfs_softirqs_top_vector(&a->softirqs, &b->softirqs, c, &runs);

		if (v < 0)
			continue;
		snprintf(d->softirq_top[c], sizeof(d->softirq_top[c]), "%s", b->softirqs.name[v]);
		d->softirq_top_s[c] = (double)runs / d->seconds;
	}
}

/* The conntrack table at the window's end; nothing when conntrack is not loaded. */
static void conntrack_results(const struct window *w, struct report_data *d)
{
	const struct report_host_snap *b = &w->h[1];

	d->have_conntrack = b->have_ct && b->ct.max > 0;
	d->conntrack_count = b->ct.count;
	d->conntrack_max = b->ct.max;
}

static void psi_results(const struct window *w, struct report_data *d)
{
	static const char *const names[RP_PSI_COUNT] = { "cpu", "memory", "io" };
	double us = d->seconds * 1e6;

	for (int r = 0; r < RP_PSI_COUNT; r++) {
		const struct psi *a = &w->h[0].psi[r], *b = &w->h[1].psi[r];

		d->have_psi[r] = w->h[0].have_psi[r] && w->h[1].have_psi[r] && us > 0;
		if (!d->have_psi[r]) {
			report_skip(d,
				    names[r][0] == 'c'	 ? "psi-cpu"
				    : names[r][0] == 'm' ? "psi-memory"
							 : "psi-io",
				    "/proc/pressure/%s is missing (kernel without CONFIG_PSI or "
				    "booted without psi=1)",
				    names[r]);
			continue;
		}
		d->psi_some[r] = 100.0 * (double)sub(b->some.total_us, a->some.total_us) / us;
		d->psi_full[r] = 100.0 * (double)sub(b->full.total_us, a->full.total_us) / us;
	}
}

static void load_results(const struct window *w, struct report_data *d)
{
	if (!w->have_load) {
		report_skip(d, "load", "/proc/loadavg could not be read");
		return;
	}
	d->have_load = true;
	memcpy(d->load, w->load.load, sizeof(d->load));
	d->nd_counted = w->d1.counted;
	memcpy(d->dtasks, w->d1.t, w->d1.n * sizeof(d->dtasks[0]));
	d->ndtasks = w->d1.n;
}

static void mem_results(const struct window *w, struct report_data *d)
{
	const struct vmstat *a = &w->h[0].vm, *b = &w->h[1].vm;

	d->have_mem = w->h[1].have_mem;
	d->mem = w->h[1].mem;
	if (!d->have_mem)
		report_skip(d, "memory", "/proc/meminfo could not be read");
	d->have_vmstat = w->h[0].have_vm && w->h[1].have_vm && d->seconds > 0;
	if (!d->have_vmstat) {
		report_skip(d, "vmstat", "/proc/vmstat could not be read");
		return;
	}
	d->swapin_s = (double)sub(b->pswpin, a->pswpin) / d->seconds;
	d->swapout_s = (double)sub(b->pswpout, a->pswpout) / d->seconds;
	d->majflt_s = (double)sub(b->pgmajfault, a->pgmajfault) / d->seconds;
	d->have_oom_counter = a->has_oom_kill && b->has_oom_kill;
	d->oom_kills = sub(b->oom_kill, a->oom_kill);
}

void report_disk_rates(const struct disk_stat *a, const struct disk_stat *b, double s,
		       struct rp_disk *o)
{
	uint64_t ios = sub(b->rd_ios, a->rd_ios) + sub(b->wr_ios, a->wr_ios);

	snprintf(o->name, sizeof(o->name), "%s", b->name);
	o->r_s = (double)sub(b->rd_ios, a->rd_ios) / s;
	o->w_s = (double)sub(b->wr_ios, a->wr_ios) / s;
	o->rkb_s = (double)sub(b->rd_sectors, a->rd_sectors) / 2 / s;
	o->wkb_s = (double)sub(b->wr_sectors, a->wr_sectors) / 2 / s;
	o->await_ms =
	    ios ? (double)(sub(b->rd_ticks, a->rd_ticks) + sub(b->wr_ticks, a->wr_ticks)) /
		      (double)ios
		: 0;
	o->util_pct = 100.0 * (double)sub(b->io_ticks, a->io_ticks) / (s * 1000);
	if (o->util_pct > 100)
		o->util_pct = 100;
	o->aqu_sz = (double)sub(b->time_in_queue, a->time_in_queue) / (s * 1000);
}

static void disk_results(const struct window *w, struct report_data *d)
{
	const struct disk_stats *a = &w->h[0].disks, *b = &w->h[1].disks;

	d->have_disks = w->h[0].have_disks && w->h[1].have_disks && d->seconds > 0;
	if (!d->have_disks) {
		report_skip(d, "disk", "/proc/diskstats could not be read");
		return;
	}
	for (size_t i = 0; i < b->n; i++) {
		for (size_t j = 0; j < a->n; j++) {
			if (strcmp(a->d[j].name, b->d[i].name))
				continue;
			/* iostat -z: devices with no I/O in the window are left out */
			if (b->d[i].rd_ios + b->d[i].wr_ios == a->d[j].rd_ios + a->d[j].wr_ios &&
			    b->d[i].io_ticks == a->d[j].io_ticks)
				break;
			report_disk_rates(&a->d[j], &b->d[i], d->seconds, &d->disks[d->ndisks++]);
			break;
		}
	}
}

/* The namespace at the window's end that is id (k when both ends list the same). */
/*
 * A namespace's UDP drops over the window: the MIB's deltas (v4 + v6), and
 * the end's most-dropping socket with its drops since the start (all of
 * them when the socket is newer than the window).
 */
static void udp_window(const struct report_host_snap *h0, size_t k,
		       const struct report_host_snap *h1, size_t e, struct rp_netns *o)
{
	const struct udp_counters *x = &h0->udp[k], *y = &h1->udp[e];
	const struct rp_netns *a = &h0->ns[k], *b = &h1->ns[e];

	o->has_udp = h0->have_udp[k] && h1->have_udp[e];
	o->has_udp_top = false;
	if (!o->has_udp)
		return;
	o->udp_rcvbuf_errors =
	    sub(y->rcvbuf_errors, x->rcvbuf_errors) + sub(y->rcvbuf_errors6, x->rcvbuf_errors6);
	o->udp_in_errors = sub(y->in_errors, x->in_errors) + sub(y->in_errors6, x->in_errors6);
	if (!b->has_udp_top)
		return;
	o->udp_top = b->udp_top;
	if (a->has_udp_top && a->udp_top.inode == b->udp_top.inode)
		o->udp_top.drops = sub(b->udp_top.drops, a->udp_top.drops);
	o->has_udp_top = o->udp_top.drops > 0;
}

static size_t end_netns(const struct report_host_snap *h1, const char *id, size_t k)
{
	if (k < h1->nns && !strcmp(h1->ns_id[k], id))
		return k;
	for (size_t e = 0; e < h1->nns; e++)
		if (!strcmp(h1->ns_id[e], id))
			return e;
	return h1->nns;
}

void report_iface_rates(const struct iface_stat *x, const struct iface_stat *y, double s,
			struct rp_iface *o)
{
	snprintf(o->name, sizeof(o->name), "%s", y->name);
	o->rx_kb_s = (double)sub(y->rx_bytes, x->rx_bytes) / 1024 / s;
	o->tx_kb_s = (double)sub(y->tx_bytes, x->tx_bytes) / 1024 / s;
	o->rx_drop = sub(y->rx_drop, x->rx_drop);
	o->tx_drop = sub(y->tx_drop, x->tx_drop);
	o->rx_errs = sub(y->rx_errs, x->rx_errs);
	o->tx_errs = sub(y->tx_errs, x->tx_errs);
}

static void net_results(const struct window *w, struct report_data *d)
{
	const struct iface_stats *a = &w->h[0].ifaces, *b = &w->h[1].ifaces;

	d->have_ifaces = w->h[0].have_ifaces && w->h[1].have_ifaces && d->seconds > 0;
	if (!d->have_ifaces)
		report_skip(d, "network", "/proc/net/dev could not be read");
	for (size_t i = 0; d->have_ifaces && i < b->n; i++) {
		for (size_t j = 0; j < a->n; j++) {
			if (strcmp(a->i[j].name, b->i[i].name))
				continue;
			report_iface_rates(&a->i[j], &b->i[i], d->seconds,
					   &d->ifaces[d->nifaces++]);
			break;
		}
	}
	for (size_t k = 0; k < w->h[0].nns; k++) {
		const struct report_host_snap *h0 = &w->h[0], *h1 = &w->h[1];
		size_t e = end_netns(h1, h0->ns_id[k], k);
		const struct tcp_counters *x = &h0->tcp[k], *y = &h1->tcp[e];
		struct rp_netns *o;

		if (e >= h1->nns || !h0->have_tcp[k] || !h1->have_tcp[e])
			continue;
		o = &d->netns[d->nnetns++];
		*o = h0->ns[k];
		o->out_segs = sub(y->out_segs, x->out_segs);
		o->retrans_segs = sub(y->retrans_segs, x->retrans_segs);
		o->listen_overflows = sub(y->listen_overflows, x->listen_overflows);
		o->listen_drops = sub(y->listen_drops, x->listen_drops);
		o->syn_retrans = sub(y->syn_retrans, x->syn_retrans);
		if (h1->ns[e].has_full) { /* the end's fullest listener, else the start's */
			o->full = h1->ns[e].full;
			o->has_full = true;
		}
		udp_window(h0, k, h1, e, o);
		o->has_ext = x->has_ext && y->has_ext;
	}
	if (!d->nnetns && !(w->src->lacks & REPORT_LACKS_TCP))
		report_skip(d, "tcp", "/proc/net/snmp could not be read");
}

/* Its main thread's nice (/proc/PID/stat field 19): how much it asked to yield. */
static void read_nice(const struct procfs *pf, struct rp_proc *p)
{
	char path[48], buf[1024];
	struct pid_stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%d/stat", (int)p->pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	p->has_nice = n > 0 && !procfs_pid_stat_parse(buf, (size_t)n, &st);
	p->nice = p->has_nice ? (int)st.nice : 0;
}

int report_read_placement(const struct procfs *pf, struct rp_proc *p)
{
	char path[48], buf[4096];
	struct task_cgroups cg;
	ssize_t n;
	int rc;

	snprintf(path, sizeof(path), "%d/status", (int)p->pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	p->has_allowed = n > 0 && !procfs_status_cpus_allowed_parse(buf, (size_t)n, &p->allowed);
	read_nice(pf, p);
	rc = procfs_task_read_cgroups(pf, p->pid, &cg);
	if (!rc) {
		snprintf(p->cgroup, sizeof(p->cgroup), "%s", cg.display);
		for (int c = 0; c < CGC_COUNT; c++)
			snprintf(p->cgroups[c], sizeof(p->cgroups[c]), "%s",
				 procfs_task_cgroups_path(&cg, (enum cg_controller)c));
	}
	return p->has_allowed || !rc ? 0 : -ENOENT;
}

static const struct fs_usage *fs_at_start(const struct fs_usages *a, const struct fs_usage *u)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->u[i].m.major == u->m.major && a->u[i].m.minor == u->m.minor &&
		    !strcmp(a->u[i].m.mnt, u->m.mnt))
			return &a->u[i];
	return NULL;
}

/* One filesystem at the window's end, with its fill rates since the start (0 when new). */
static void fs_one(const struct fs_usage *u, const struct fs_usage *u0, double seconds,
		   struct rp_fs *o)
{
	const struct fs_space *s = &u->s;

	snprintf(o->mount, sizeof(o->mount), "%s", u->m.mnt);
	snprintf(o->device, sizeof(o->device), "%s", u->m.source);
	snprintf(o->fstype, sizeof(o->fstype), "%s", u->m.fstype);
	o->used_pct = procfs_fs_space_used_pct(s);
	o->inodes_pct = procfs_fs_inodes_used_pct(s);
	o->size_bytes = s->blocks * s->frsize;
	o->avail_bytes = s->bavail * s->frsize;
	o->files = s->files;
	o->files_free = s->ffree;
	if (u0 && seconds > 0) {
		o->fill_bytes_s =
		    ((double)u0->s.bavail * (double)u0->s.frsize - (double)o->avail_bytes) /
		    seconds;
		o->fill_inodes_s = ((double)u0->s.ffree - (double)s->ffree) / seconds;
	}
}

/*
 * The filesystems at the window's end; for those at FS_FILLING_PCT or more
 * (space or inodes), the processes writing to them (one look at every
 * descriptor, only then).
 */
static void fs_results(const struct window *w, struct report_data *d)
{
	const struct fs_usages *a = &w->h[0].fs, *b = &w->h[1].fs;

	if (!w->h[1].have_fs) {
		if (!(w->src->lacks & REPORT_LACKS_FS))
			report_skip(d, "filesystem", "/proc/self/mountinfo could not be read");
		return;
	}
	d->have_fs = true;
	for (size_t i = 0; i < b->n && d->nfs < RP_MAX_FS; i++) {
		struct rp_fs *o = &d->fs[d->nfs++];

		fs_one(&b->u[i], w->h[0].have_fs ? fs_at_start(a, &b->u[i]) : NULL, d->seconds, o);
		if (w->src->read_fs_writers &&
		    (o->used_pct >= FS_FILLING_PCT || o->inodes_pct >= FS_FILLING_PCT))
			(void)w->src->read_fs_writers(w->src->ctx, b->u[i].m.id, o->writers,
						      RP_MAX_PIDS, &o->nwriters);
	}
}

/*
 * Every sampled process's descriptors against its soft RLIMIT_NOFILE, once
 * at the window's end (a stat of its fd/ where the kernel counts there),
 * and the system's file handles.
 */
static void fd_results(const struct window *w, struct report_data *d)
{
	const struct report_host_snap *h = &w->h[1];

	d->have_files = h->have_files;
	if (d->have_files) {
		d->files_alloc = h->files.allocated;
		d->files_max = h->files.max;
	} else if (!(w->src->lacks & REPORT_LACKS_FD)) {
		report_skip(d, "fd", "/proc/sys/fs/file-nr could not be read");
	}
	for (size_t i = 0; w->src->read_fd_usage && i < d->nprocs && d->nfdprocs < RP_MAX_FDPROCS;
	     i++) {
		const struct rp_proc *p = &d->procs[i];
		struct fd_usage u;
		struct rp_fdproc *o;

		if (p->exited || w->src->read_fd_usage(w->src->ctx, p->pid, &u) ||
		    u.soft == LIMIT_NONE || !u.soft ||
		    100.0 * u.open / (double)u.soft < FD_WARN_PCT)
			continue;
		o = &d->fdprocs[d->nfdprocs++];
		o->pid = p->pid;
		snprintf(o->comm, sizeof(o->comm), "%s", p->comm);
		o->open = u.open;
		o->soft = u.soft;
	}
}

/*
 * The lock-contention candidates' threads in a futex wait, one look at the
 * window's end: only processes that switch a lot on little CPU are asked,
 * so a quiet machine costs nothing here.
 */
static void futex_results(const struct window *w, struct report_data *d)
{
	for (size_t i = 0; w->src->read_futex_waiters && i < d->nprocs; i++) {
		struct rp_proc *p = &d->procs[i];
		struct futex_waiters fw;

		if (!report_lock_contention_candidate(p) ||
		    w->src->read_futex_waiters(w->src->ctx, p->pid, &fw))
			continue;
		p->has_futex = true;
		p->futex_threads = fw.threads;
		p->futex_waiting = fw.waiting;
		p->futex_same_word = fw.same_word;
		p->futex_no_word = fw.no_word;
	}
}

/* Allowed CPUs and cgroup of the busiest processes, read once at the end. */
static void placement(const struct window *w, struct report_data *d)
{
	for (size_t i = 0; i < d->nprocs && i < RP_PLACEMENT_PROCS; i++) {
		struct rp_proc *p = &d->procs[i];

		if (p->exited) /* its PID may be another process's by now */
			continue;
		w->src->read_placement(w->src->ctx, p);
	}
}

static int by_zombies(const void *a, const void *b)
{
	const struct rp_zparent *x = a, *y = b;

	if (x->zombies != y->zombies)
		return x->zombies < y->zombies ? 1 : -1;
	return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

/* Counts tb's zombies per parent into all (as long as the table: every parent fits). */
static size_t count_zombies(const struct pidstat_table *tb, struct rp_zparent *all)
{
	size_t n = 0;

	for (size_t i = 0; i < tb->len; i++) {
		const struct pidstat_task *t = tb->order[i];
		size_t k;

		/* a leader in Z whose other threads still run is not a child to reap */
		if (t->leader || t->state != 'Z' || t->nthreads > 1 || t->ppid <= 0)
			continue;
		for (k = 0; k < n && all[k].ppid != t->ppid; k++)
			;
		if (k == n)
			all[n++] = (struct rp_zparent){ .ppid = t->ppid };
		all[k].zombies++;
	}
	return n;
}

/*
 * Zombies by parent in the last task sample (the sampler's own table: no
 * second walk of /proc), most first, with the parent's name where it was
 * sampled too.
 */
static int zombie_results(const struct window *w, struct report_data *d)
{
	int curr;
	const struct pidstat_table *tb = report_task_sampler_table(w->ts, &curr);
	struct rp_zparent *all;
	size_t n;

	if (!tb || !tb->len || (w->src->lacks & REPORT_LACKS_PARENTS))
		return 0;
	if (!(all = calloc(tb->len, sizeof(*all))))
		return -ENOMEM;
	n = count_zombies(tb, all);
	qsort(all, n, sizeof(*all), by_zombies);
	for (size_t i = 0; i < n && d->nzparents < RP_MAX_ZPARENTS; i++) {
		struct rp_zparent *z = &d->zparents[d->nzparents++];
		const struct pidstat_task *p =
		    pidstat_table_find((struct pidstat_table *)tb, NULL, all[i].ppid);

		*z = all[i];
		if (p)
			snprintf(z->comm, sizeof(z->comm), "%s", p->comm);
	}
	free(all);
	return 0;
}

static int task_results(struct window *w, struct report_data *d)
{
	double s = w->host.fixture ? d->seconds : w->t1 - w->t0;
	int rc =
	    report_task_sampler_results(w->ts, s, w->self, &d->procs, &d->nprocs, &d->threads_seen);

	if (rc)
		return rc;
	d->task_samples = w->task_samples;
	if (w->src->read_placement)
		placement(w, d);
	fd_results(w, d);
	futex_results(w, d);
	report_growth_results(w, s, d);
	rc = report_spawner_results(w, d);
	return rc ? rc : zombie_results(w, d);
}

static void host_results(const struct window *w, struct report_data *d)
{
	struct utsname u;

	snprintf(d->hostname, sizeof(d->hostname), "%s", w->host.nodename);
	snprintf(d->release, sizeof(d->release), "%s", w->host.release);
	if (!w->host.fixture && !uname(&u))
		snprintf(d->version, sizeof(d->version), "%s", u.version);
	d->ncpu = w->host.ncpu > 0 ? w->host.ncpu : w->h[1].cpu.ncpu;
	d->self = w->self;
	d->start = w->wall0;
	d->end = w->wall0 + (time_t)(d->seconds + 0.5);
}

static double window_seconds(const struct window *w)
{
	const struct report_host_snap *a = &w->h[0], *b = &w->h[1];

	if (a->have_uptime && b->have_uptime && b->uptime_cs > a->uptime_cs)
		return (double)(b->uptime_cs - a->uptime_cs) / 100.0;
	return w->host.fixture ? 0 : w->t1 - w->t0;
}

/* What the source could not supply, in one line: "not recorded: cgroups, kernel log". */
static void lacks_results(const struct window *w, struct report_data *d)
{
	static const struct {
		unsigned bit;
		const char *what;
	} parts[] = {
		{ REPORT_LACKS_CGROUPS, "cgroups" },
		{ REPORT_LACKS_KMSG, "kernel log" },
		{ REPORT_LACKS_TCP, "TCP counters" },
		{ REPORT_LACKS_PLACEMENT, "processes' allowed CPUs and cgroups" },
		{ REPORT_LACKS_EBPF, "eBPF" },
		{ REPORT_LACKS_SOFTIRQS, "softirqs" },
		{ REPORT_LACKS_CONNTRACK, "conntrack table" },
		{ REPORT_LACKS_FS, "filesystems" },
		{ REPORT_LACKS_FD, "descriptors" },
		{ REPORT_LACKS_PARENTS, "parents" },
		{ REPORT_LACKS_FORKS, "forks" },
		{ REPORT_LACKS_FUTEX, "futex waits" },
		{ REPORT_LACKS_SOFTNET, "softnet backlog" },
		{ REPORT_LACKS_PIDS, "pid_max and threads-max" },
		{ REPORT_LACKS_LISTENERS, "listening sockets" },
		{ REPORT_LACKS_UDP_SOCKS, "UDP counters and sockets" },
	};
	char list[280] = "";
	size_t used = 0;

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		int n;

		if (!(w->src->lacks & parts[i].bit) || used >= sizeof(list))
			continue;
		n = snprintf(list + used, sizeof(list) - used, "%s%s", used ? ", " : "",
			     parts[i].what);
		if (n > 0)
			used += (size_t)n;
	}
	if (used)
		report_skip(d, "source", "%s: %s",
			    w->src->lacks_why ? w->src->lacks_why : "not supplied", list);
}

int report_window_results(struct window *w, struct report_data *d)
{
	int rc;

	d->seconds = window_seconds(w);
	host_results(w, d);
	cpu_results(w, d);
	softirq_results(w, d);
	conntrack_results(w, d);
	report_softnet_results(w, d);
	psi_results(w, d);
	load_results(w, d);
	mem_results(w, d);
	disk_results(w, d);
	net_results(w, d);
	fs_results(w, d);
	report_pids_results(w, d);
	lacks_results(w, d);
	if (w->pf) {
		d->ncgroups =
		    report_cg_results(w->pf, w->cg_prefix, &w->cg, d->cgroups, RP_MAX_CGROUPS);
		d->have_cgroups = w->cg_mounted;
		if (!w->cg_mounted)
			report_skip(d, "cgroups", "no cgroup hierarchy under /sys/fs/cgroup");
		report_kmsg_results(w, d);
	}
	rc = task_results(w, d);
	return rc;
}
