/*
 * triage record: every interval, the pidstat core reads every process and
 * thread (the counters pidstat shows, raw), the procfs host readers the
 * host (/proc/stat per CPU, memory, load, PSI, disks, network), the load
 * core judges the threads in D; all of it goes into the file in one
 * transaction, so a kill loses at most the interval being written. Every
 * window the report core's rules run over what was committed, and
 * retention deletes the oldest intervals when the file is too big or old.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "load/snapshot.h"
#include "pidstat/pidstat.h"
#include "procfs/hostread.h"
#include "procfs/task_info.h"
#include "record/internal.h"
#include "record/more.h"
#include "record/tcache.h"
#include "record/record.h"
#include "report/source.h"
#include "report/sources.h"
#include "runloop/clock.h"
#include "util/grow.h"
#include "util/outfile.h"
#include "util/text.h"
#include "util/mathx.h"

enum {
	S_IV,
	S_CPU,
	S_PSI,
	S_DISK,
	S_NET,
	S_TCP,
	S_DISK_RATE,
	S_PROC_RATE,
	S_CPU_RATE,
	S_NET_RATE,
	S_TASK,
	S_SAMPLE,
	S_DTASK,
	S_FINISH,
	S_BEGIN,
	S_COMMIT,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	"INSERT INTO interval(run, prev, ts, dur, uptime_cs, jiffies, memtotal_kb,"
	" mem_available_kb, swap_total_kb, swap_free_kb, pswpin, pswpout, pgmajfault, oom_kill,"
	" load1, load5, load15, procs_running, procs_blocked, runnable, d_counted, d_frozen,"
	" ntasks, kernel_runnable, kernel_tasks)"
	" VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO cpu VALUES(?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO psi VALUES(?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO disk VALUES(?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO net VALUES(?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO tcp VALUES(?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO disk_rate VALUES(?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO proc_rate VALUES(?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO cpu_rate VALUES(?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO net_rate VALUES(?,?,?,?)",
	"INSERT INTO task(tgid, tid, thread, start, comm, uid, cmdline) VALUES(?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO sample "
	"VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO dtask VALUES(?,?,?,?,?,?,?,?,?)",
	"UPDATE interval SET run = ?, runnable = ?, d_counted = ?, d_frozen = ?, ntasks = ?,"
	" ncarried = ?, carried = ? WHERE id = ?",
	"BEGIN",
	"COMMIT",
};

struct recorder {
	const struct record_opts *o;
	struct record_error *err;
	sqlite3 *db;
	sqlite3_stmt *st[S_COUNT];
	struct record_more more; /* schema 5's tables */
	struct procfs *pf;
	struct host_facts host;
	struct pidstat_opts popts;
	struct pidstat_run run;
	bool run_ok;
	/* the report's window, fed from run's table each interval (no second read) */
	struct task_sampler *win;
	struct runloop_clock clk;
	pid_t self;
	int lock_fd; /* the file, held open for its one-writer lock */
	int64_t run_id, prev_iv, win_from;
	int64_t iv; /* the interval being written (insert_proc_rate's) */
	uint64_t prev_uptime;
	double win_start;
	struct tcache cache;
	/* the host as the report's live source reads it: what a replay reads back */
	struct report_host_reader rd;
	struct report_host_snap *snap;
	struct report_host_snap *prev; /* the previous interval's (its disks' rates start there) */
	bool find_netns;	       /* look for network namespaces again (each window's start) */
	/* this interval's counts */
	unsigned runnable, d_counted, d_frozen;
	size_t nstored;
	int64_t *carried; /* threads carried over unchanged */
	size_t ncarried, carried_cap;
	int64_t *stray; /* sort_carried()'s ids out of order */
	size_t stray_cap;
	unsigned char *blob;
	size_t blob_cap;
};

static int fail(struct recorder *r, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct recorder *r, int rc, const char *fmt, ...)
{
	va_list ap;

	if (r->err->what[0])
		return rc;
	va_start(ap, fmt);
	vsnprintf(r->err->what, sizeof(r->err->what), fmt, ap);
	va_end(ap);
	return rc;
}

static int step_done(struct recorder *r, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return 0;
	return fail(r, -EIO, "cannot write '%s': %s", r->o->path, sqlite3_errmsg(r->db));
}

/* Binds n int64 values from column first on. */
static void bind_i64s(sqlite3_stmt *st, int first, const int64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, first + i, v[i]);
}

/* Binds n double values from column first on. */
static void bind_doubles(sqlite3_stmt *st, int first, const double *v, int n)
{
	for (int i = 0; i < n; i++)
		sqlite3_bind_double(st, first + i, v[i]);
}

/* Writes a device's or an interface's row: the interval, its name, then the values bound from 3. */
static int step_named(struct recorder *r, sqlite3_stmt *st, int64_t iv, const char *name)
{
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	return step_done(r, st);
}

/*
 * A process row's command line, read once as its row goes in (pidstat -l
 * in a replay); "" for an empty one (kernel threads), NULL when it could
 * not be read. Thread rows have none: -l shows it on processes only.
 */
static void bind_cmdline(struct recorder *r, sqlite3_stmt *st, int col,
			 const struct pidstat_task *t)
{
	char buf[PROCFS_CMDLINE_SIZE];

	if (!t->leader && procfs_read_cmdline(r->pf, t->pid, buf, sizeof(buf)) >= 0)
		sqlite3_bind_text(st, col, buf, -1, SQLITE_TRANSIENT);
}

/* The task's entry in the cache, its task row inserted when new (or renamed, or reused). */
static int task_id(struct recorder *r, const struct pidstat_task *t, struct tkey **slot)
{
	struct tcache *c = &r->cache;
	pid_t tgid = t->leader ? t->leader->pid : t->pid;
	int thread = t->leader != NULL;
	sqlite3_stmt *st = r->st[S_TASK];
	struct tkey *k;
	int rc = record_tcache_find(c, tgid, thread ? t->pid : 0, &k);

	if (!rc && !k)
		rc = record_tcache_add(c, tgid, t->pid, thread, &k);
	if (rc)
		return fail(r, rc, "out of memory");
	*slot = k;
	if (k->id && k->start == t->start && k->uid == t->uid && !strcmp(k->comm, t->comm))
		return 0;
	sqlite3_bind_int64(st, 1, tgid);
	sqlite3_bind_int64(st, 2, t->pid);
	sqlite3_bind_int64(st, 3, thread);
	sqlite3_bind_int64(st, 4, (int64_t)t->start);
	sqlite3_bind_text(st, 5, t->comm, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, t->uid);
	bind_cmdline(r, st, 7, t);
	if ((rc = step_done(r, st)))
		return rc;
	k->start = t->start;
	k->uid = t->uid;
	k->id = sqlite3_last_insert_rowid(r->db);
	k->has_v = false;
	text_copy(k->comm, sizeof(k->comm), t->comm);
	return 0;
}

/* ---- tasks ---- */

static int carry(struct recorder *r, int64_t id)
{
	if (util_grow(&r->carried, &r->carried_cap, r->ncarried + 1, sizeof(*r->carried)))
		return fail(r, -ENOMEM, "out of memory");
	r->carried[r->ncarried++] = id;
	return 0;
}

/*
 * A task's row. A thread whose every value equals its last stored row is
 * not stored again: the interval lists it as carried (interval.carried).
 */
static int insert_sample(struct recorder *r, int64_t iv, struct tkey *k,
			 const struct pidstat_task *t, const struct pidstat_snap *s)
{
	sqlite3_stmt *st = r->st[S_SAMPLE];
	bool no_io = t->flags & TASK_NO_IO;
	const int64_t v[NVALS] = { (int64_t)s->utime,
				   (int64_t)s->stime,
				   (int64_t)s->gtime,
				   (int64_t)s->wtime,
				   s->cutime,
				   s->cstime,
				   s->cgtime,
				   (int64_t)s->minflt,
				   (int64_t)s->majflt,
				   (int64_t)s->cminflt,
				   (int64_t)s->cmajflt,
				   (int64_t)s->vsz,
				   (int64_t)s->rss,
				   (int64_t)s->blkio,
				   no_io ? 0 : (int64_t)s->read_bytes,
				   no_io ? 0 : (int64_t)s->write_bytes,
				   no_io ? 0 : (int64_t)s->cancelled_write_bytes,
				   no_io,
				   (int64_t)s->nvcsw,
				   (int64_t)s->nivcsw,
				   t->nthreads,
				   s->processor,
				   s->priority,
				   s->policy };
	char state[2] = { t->state ? t->state : '?', '\0' };

	if (k->thread && k->has_v && k->state == state[0] && !memcmp(k->v, v, sizeof(v)))
		return carry(r, k->id);
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, k->id);
	bind_i64s(st, 3, v, NVALS);
	sqlite3_bind_text(st, 27, state, 1, SQLITE_TRANSIENT);
	if (!k->thread && t->ppid > 0) /* its parent: the report's zombies and spawners */
		sqlite3_bind_int64(st, 28, t->ppid);
	if (!k->thread && s->anon_ok) /* what memory-growth judges */
		sqlite3_bind_int64(st, 29, (int64_t)s->rss_anon);
	memcpy(k->v, v, sizeof(v));
	k->state = state[0];
	k->has_v = true;
	r->nstored++;
	return step_done(r, st);
}

/* The load core's judgement of a thread in D: where it waits, whether it counts. */
static int insert_dtask(struct recorder *r, int64_t iv, const struct pidstat_task *t)
{
	sqlite3_stmt *st = r->st[S_DTASK];
	struct load_task lt;
	struct task_cgroups cg;
	int frozen = 0;

	memset(&lt, 0, sizeof(lt));
	lt.pid = t->leader->pid;
	lt.tid = t->pid;
	lt.state = 'D';
	lt.starttime = t->start;
	snprintf(lt.comm, sizeof(lt.comm), "%s", t->comm);
	if (procfs_task_read_cgroups(r->pf, lt.pid, &cg) == 0) {
		frozen = procfs_cgroup_is_frozen(r->pf, &cg);
		snprintf(lt.cgroup, sizeof(lt.cgroup), "%s", cg.display);
	}
	if (procfs_task_read_wchan(r->pf, lt.pid, lt.tid, lt.wchan, sizeof(lt.wchan)) < 0)
		lt.wchan[0] = '\0';
	if (procfs_task_read_stack(r->pf, lt.pid, lt.tid, &lt.stack) < 0)
		lt.stack.nframes = 0;
	load_task_judge(&lt, frozen);
	r->d_counted += lt.counts;
	r->d_frozen += lt.frozen;
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, lt.pid);
	sqlite3_bind_int64(st, 3, lt.tid);
	sqlite3_bind_text(st, 4, lt.comm, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, load_dreason_key(lt.why.reason), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, lt.wchan, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 7, lt.cgroup, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 8, lt.counts);
	sqlite3_bind_int(st, 9, lt.frozen);
	return step_done(r, st);
}

static int insert_tasks(struct recorder *r, int64_t iv, int curr)
{
	const struct pidstat_table *tb = &r->run.table;
	int rc = 0;

	record_tcache_begin(&r->cache);
	for (size_t i = 0; i < tb->len && !rc; i++) {
		const struct pidstat_task *t = tb->order[i];
		pid_t tgid = t->leader ? t->leader->pid : t->pid;
		struct tkey *k = NULL;

		rc = task_id(r, t, &k);
		rc = rc ? rc : insert_sample(r, iv, k, t, &t->snap[curr]);
		if (rc || !t->leader)
			continue;
		/* the kernel's runnable count less ourselves, and D by cause */
		if (t->state == 'R' && tgid != r->self)
			r->runnable++;
		else if (t->state == 'D')
			rc = insert_dtask(r, iv, t);
	}
	if (!rc && record_tcache_end(&r->cache))
		rc = fail(r, -ENOMEM, "out of memory");
	return rc;
}

/* ---- host ---- */

static int insert_cpu_line(struct recorder *r, int64_t iv, int cpu, const struct cpu_times *c)
{
	const int64_t v[] = { iv,
			      cpu,
			      (int64_t)c->user,
			      (int64_t)c->nice,
			      (int64_t)c->system,
			      (int64_t)c->idle,
			      (int64_t)c->iowait,
			      (int64_t)c->irq,
			      (int64_t)c->softirq,
			      (int64_t)c->steal };

	bind_i64s(r->st[S_CPU], 1, v, 10);
	return step_done(r, r->st[S_CPU]);
}

static int insert_cpus(struct recorder *r, int64_t iv)
{
	const struct cpu_stat *cs = &r->snap->cpu;
	int rc = insert_cpu_line(r, iv, -1, &cs->all);

	for (int c = 0; c < cs->ncpu && !rc; c++)
		if (cs->online[c])
			rc = insert_cpu_line(r, iv, c, &cs->cpu[c]);
	return rc;
}

/* One CPU's (-1: all) modes over the interval, as the report computes them (v_cpu reads these). */
static int insert_cpu_rate(struct recorder *r, int64_t iv, int cpu, const struct cpu_times *a,
			   const struct cpu_times *b)
{
	sqlite3_stmt *st = r->st[S_CPU_RATE];
	struct rp_cpu_pct o;

	if (!report_cpu_pct(a, b, &o))
		return 0; /* no tick between the readings */
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int(st, 2, cpu);
	bind_doubles(
	    st, 3,
	    (const double[]){ o.usr, o.nice, o.sys, o.iowait, o.irq, o.softirq, o.steal, o.idle },
	    8);
	return step_done(r, st);
}

static int insert_cpu_rates(struct recorder *r, int64_t iv)
{
	const struct cpu_stat *a = &r->prev->cpu, *b = &r->snap->cpu;
	int rc;

	if (!r->prev_iv || !r->prev->have_cpu || !r->snap->have_cpu)
		return 0;
	rc = insert_cpu_rate(r, iv, -1, &a->all, &b->all);
	for (int c = 0; c < b->ncpu && !rc; c++)
		if (a->online[c] && b->online[c])
			rc = insert_cpu_rate(r, iv, c, &a->cpu[c], &b->cpu[c]);
	return rc;
}

static int insert_psi(struct recorder *r, int64_t iv)
{
	static const char names[RP_PSI_COUNT][8] = { "cpu", "memory", "io" };
	sqlite3_stmt *st = r->st[S_PSI];
	int rc = 0;

	for (int i = 0; i < RP_PSI_COUNT && !rc; i++) {
		const struct psi *p = &r->snap->psi[i];

		if (!r->snap->have_psi[i])
			continue;
		sqlite3_bind_int64(st, 1, iv);
		sqlite3_bind_text(st, 2, names[i], -1, SQLITE_STATIC);
		if (p->some.present) {
			sqlite3_bind_int64(st, 3, (int64_t)p->some.total_us);
			sqlite3_bind_double(st, 5, p->some.avg10);
		}
		if (p->full.present) {
			sqlite3_bind_int64(st, 4, (int64_t)p->full.total_us);
			sqlite3_bind_double(st, 6, p->full.avg10);
		}
		rc = step_done(r, st);
	}
	return rc;
}

/* The whole devices (the reader keeps only those, as iostat shows them). */
static int insert_disks(struct recorder *r, int64_t iv)
{
	const struct disk_stats *ds = &r->snap->disks;
	sqlite3_stmt *st = r->st[S_DISK];
	int rc = 0;

	for (size_t i = 0; r->snap->have_disks && i < ds->n && !rc; i++) {
		const struct disk_stat *d = &ds->d[i];
		const int64_t v[] = { (int64_t)d->rd_ios,	(int64_t)d->rd_sectors,
				      (int64_t)d->rd_ticks,	(int64_t)d->wr_ios,
				      (int64_t)d->wr_sectors,	(int64_t)d->wr_ticks,
				      (int64_t)d->in_flight,	(int64_t)d->io_ticks,
				      (int64_t)d->time_in_queue };

		bind_i64s(st, 3, v, 9);
		rc = step_named(r, st, iv, d->name);
	}
	return rc;
}

/*
 * The interval's rates of each device or interface present at both its
 * ends (name: the n-th entry's name at an end): rate() writes row i of the
 * interval's end against row j of its start, as the report pairs them.
 */
static int insert_pairs(struct recorder *r, int64_t iv, double seconds, bool have, size_t na,
			size_t nb, const char *(*name)(const struct report_host_snap *, size_t),
			int (*rate)(struct recorder *, int64_t, double, size_t, size_t))
{
	int rc = 0;

	if (!r->prev_iv || seconds <= 0 || !have)
		return 0;
	for (size_t i = 0; i < nb && !rc; i++)
		for (size_t j = 0; j < na; j++)
			if (!strcmp(name(r->prev, j), name(r->snap, i))) {
				rc = rate(r, iv, seconds, i, j);
				break;
			}
	return rc;
}

static const char *disk_name(const struct report_host_snap *h, size_t i)
{
	return h->disks.d[i].name;
}

/* One disk's iostat figures over the interval, as the report computes them (v_disk reads these). */
static int insert_disk_rate(struct recorder *r, int64_t iv, double seconds, size_t i, size_t j)
{
	const struct disk_stat *b = &r->snap->disks.d[i];
	sqlite3_stmt *st = r->st[S_DISK_RATE];
	struct rp_disk o;

	report_disk_rates(&r->prev->disks.d[j], b, seconds, &o);
	bind_doubles(
	    st, 3,
	    (const double[]){ o.r_s, o.w_s, o.rkb_s, o.wkb_s, o.await_ms, o.aqu_sz, o.util_pct },
	    7);
	return step_named(r, st, iv, b->name);
}

static int insert_disk_rates(struct recorder *r, int64_t iv, double seconds)
{
	return insert_pairs(r, iv, seconds, r->prev->have_disks && r->snap->have_disks,
			    r->prev->disks.n, r->snap->disks.n, disk_name, insert_disk_rate);
}

/*
 * One process's row of proc_rate: the report's figures over the interval;
 * none for a process that did nothing in it (v_group takes its memory and
 * threads from its sample row, its rates as 0).
 */
static int insert_proc_rate(void *ctx, const struct rp_proc *p)
{
	struct recorder *r = ctx;
	sqlite3_stmt *st = r->st[S_PROC_RATE];
	const double v[] = { p->usr_pct,  p->sys_pct,  p->cswch_s,  p->nvcswch_s,
			     p->wait_pct, p->read_Bps, p->write_Bps };
	bool any = false;

	for (int i = 0; i < (int)(sizeof(v) / sizeof(v[0])); i++) {
		sqlite3_bind_double(st, 3 + i, v[i]);
		any = any || v[i] != 0;
	}
	if (!any) {
		sqlite3_clear_bindings(st);
		return 0;
	}
	sqlite3_bind_int64(st, 1, r->iv);
	sqlite3_bind_int64(st, 2, p->pid);
	return step_done(r, st);
}

/*
 * The report's window takes the table just read (no second read), and each
 * process's figures over this interval alone come from it, computed by the
 * report's own code (report_task_sampler_each_step): what v_group sums,
 * so that plot draws the number a report over that interval judges.
 */
static int insert_proc_rates(struct recorder *r, int64_t iv, int curr, double seconds)
{
	int rc = report_task_sampler_feed(r->win, &r->run.table, curr);

	if (rc)
		return fail(r, rc, "cannot follow the window: %s", strerror(-rc));
	if (!r->prev_iv || seconds <= 0)
		return 0;
	r->iv = iv;
	return report_task_sampler_each_step(r->win, seconds, r->self, insert_proc_rate, r);
}

static int insert_net(struct recorder *r, int64_t iv)
{
	const struct iface_stats *is = &r->snap->ifaces;
	sqlite3_stmt *st = r->st[S_NET];
	int rc = 0;

	for (size_t i = 0; r->snap->have_ifaces && i < is->n && !rc; i++) {
		const struct iface_stat *s = &is->i[i];
		const int64_t v[] = { (int64_t)s->rx_bytes, (int64_t)s->rx_packets,
				      (int64_t)s->rx_errs,  (int64_t)s->rx_drop,
				      (int64_t)s->tx_bytes, (int64_t)s->tx_packets,
				      (int64_t)s->tx_errs,  (int64_t)s->tx_drop };

		bind_i64s(st, 3, v, 8);
		rc = step_named(r, st, iv, s->name);
	}
	return rc;
}

static const char *iface_name(const struct report_host_snap *h, size_t i)
{
	return h->ifaces.i[i].name;
}

/* One interface's throughput over the interval, as the report computes it (v_net reads these). */
static int insert_net_rate(struct recorder *r, int64_t iv, double seconds, size_t i, size_t j)
{
	const struct iface_stat *b = &r->snap->ifaces.i[i];
	sqlite3_stmt *st = r->st[S_NET_RATE];
	struct rp_iface o;

	report_iface_rates(&r->prev->ifaces.i[j], b, seconds, &o);
	bind_doubles(st, 3, (const double[]){ o.rx_kb_s, o.tx_kb_s }, 2);
	return step_named(r, st, iv, b->name);
}

static int insert_net_rates(struct recorder *r, int64_t iv, double seconds)
{
	return insert_pairs(r, iv, seconds, r->prev->have_ifaces && r->snap->have_ifaces,
			    r->prev->ifaces.n, r->snap->ifaces.n, iface_name, insert_net_rate);
}

/* "12,13,14": the processes in a namespace (history.c reads them back). */
static void pids_text(const struct rp_netns *ns, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ns->npids && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%d", i ? "," : "", (int)ns->pids[i]);

		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

/* TCP per network namespace, each named by its id and the processes in it. */
static int insert_tcp(struct recorder *r, int64_t iv)
{
	const struct report_host_snap *h = r->snap;
	sqlite3_stmt *st = r->st[S_TCP];
	int rc = 0;

	for (size_t k = 0; k < h->nns && !rc; k++) {
		const struct tcp_counters *t = &h->tcp[k];
		char pids[RP_MAX_PIDS * 12];
		const int64_t v[] = { (int64_t)t->out_segs,
				      (int64_t)t->retrans_segs,
				      (int64_t)t->in_errs,
				      (int64_t)t->listen_overflows,
				      (int64_t)t->listen_drops,
				      h->have_tcp[k] && t->has_snmp,
				      t->has_ext };

		pids_text(&h->ns[k], pids, sizeof(pids));
		sqlite3_bind_int64(st, 1, iv);
		sqlite3_bind_int64(st, 2, (int64_t)k);
		sqlite3_bind_text(st, 3, h->ns_id[k], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, pids, -1, SQLITE_TRANSIENT);
		bind_i64s(st, 5, v, 7);
		rc = step_done(r, st);
	}
	return rc;
}

/* The interval's row: host figures that are one per sample. */
static int insert_interval(struct recorder *r, double ts, uint64_t uptime, int64_t *iv)
{
	sqlite3_stmt *st = r->st[S_IV];
	const struct report_host_snap *h = r->snap;
	struct loadavg la;

	sqlite3_bind_int64(st, 1, r->run_id);
	if (r->prev_iv) {
		sqlite3_bind_int64(st, 2, r->prev_iv);
		sqlite3_bind_double(st, 4, (double)(uptime - r->prev_uptime) / 100.0);
	}
	sqlite3_bind_double(st, 3, ts);
	sqlite3_bind_int64(st, 5, (int64_t)uptime);
	/* pidstat's own total of the cpu line, from the same bytes */
	if (h->have_cpu)
		sqlite3_bind_int64(st, 6, (int64_t)h->jiffies);
	if (h->have_mem) {
		sqlite3_bind_int64(st, 7, (int64_t)h->mem.total);
		if (h->mem.has_available)
			sqlite3_bind_int64(st, 8, (int64_t)h->mem.available);
		sqlite3_bind_int64(st, 9, (int64_t)h->mem.swap_total);
		sqlite3_bind_int64(st, 10, (int64_t)h->mem.swap_free);
	}
	if (h->have_vm) {
		sqlite3_bind_int64(st, 11, (int64_t)h->vm.pswpin);
		sqlite3_bind_int64(st, 12, (int64_t)h->vm.pswpout);
		sqlite3_bind_int64(st, 13, (int64_t)h->vm.pgmajfault);
		if (h->vm.has_oom_kill)
			sqlite3_bind_int64(st, 14, (int64_t)h->vm.oom_kill);
	}
	/* the live source's run-queue reader (report/source.h: read_load) */
	if (!procfs_hostread_loadavg(r->pf, &la)) {
		sqlite3_bind_double(st, 15, la.load[0]);
		sqlite3_bind_double(st, 16, la.load[1]);
		sqlite3_bind_double(st, 17, la.load[2]);
		sqlite3_bind_int64(st, 24, la.runnable);
		sqlite3_bind_int64(st, 25, la.total);
	}
	if (h->have_cpu) {
		sqlite3_bind_int64(st, 18, (int64_t)h->cpu.procs_running);
		sqlite3_bind_int64(st, 19, (int64_t)h->cpu.procs_blocked);
	}
	/* 20-23: counts, filled once the tasks are in */
	if (step_done(r, st))
		return -EIO;
	*iv = sqlite3_last_insert_rowid(r->db);
	if (!r->run_id)
		r->run_id = *iv;
	return h->have_cpu ? insert_cpus(r, *iv) : 0;
}

/* The carried ids, ascending (record_sort_ids). */
static int sort_carried(struct recorder *r)
{
	if (record_sort_ids(r->carried, r->ncarried, &r->stray, &r->stray_cap))
		return fail(r, -ENOMEM, "out of memory");
	return 0;
}

/* The carried task ids, ascending, as LEB128 varints of their differences. */
static int encode_carried(struct recorder *r, size_t *len)
{
	int64_t prev = 0;

	*len = 0;
	if (sort_carried(r))
		return -ENOMEM;
	if (util_grow(&r->blob, &r->blob_cap, r->ncarried * 10 + 1, 1))
		return fail(r, -ENOMEM, "out of memory");
	for (size_t i = 0; i < r->ncarried; i++) {
		uint64_t d = (uint64_t)(r->carried[i] - prev);

		prev = r->carried[i];
		do {
			r->blob[(*len)++] = (unsigned char)((d & 0x7f) | (d > 0x7f ? 0x80 : 0));
			d >>= 7;
		} while (d);
	}
	return 0;
}

static int finish_interval(struct recorder *r, int64_t iv)
{
	sqlite3_stmt *st = r->st[S_FINISH];
	size_t len;
	int rc = encode_carried(r, &len);

	if (rc)
		return rc;
	sqlite3_bind_int64(st, 1, r->run_id);
	sqlite3_bind_int64(st, 2, r->runnable);
	sqlite3_bind_int64(st, 3, r->d_counted);
	sqlite3_bind_int64(st, 4, r->d_frozen);
	sqlite3_bind_int64(st, 5, (int64_t)r->nstored);
	sqlite3_bind_int64(st, 6, (int64_t)r->ncarried);
	sqlite3_bind_blob(st, 7, r->blob, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, iv);
	return step_done(r, st);
}

static double wall_now(const struct recorder *r)
{
	struct timespec ts;

	if (r->host.fixture)
		return (double)runloop_clock_now(&r->clk);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One interval, in one transaction. */
static int take_interval(struct recorder *r, unsigned k, int64_t *iv)
{
	struct report_host_snap *snap;
	double ts = wall_now(r), seconds;
	uint64_t uptime = 0;
	int curr = (int)(k & 1), rc;

	if (procfs_hostread_uptime_cs(r->pf, &uptime))
		return fail(r, -EIO, "cannot read %s/proc/uptime", r->o->root ? r->o->root : "");
	rc = pidstat_read_tasks(&r->run, curr);
	if (rc)
		return fail(r, rc, "cannot read the tasks: %s", strerror(-rc));
	r->runnable = r->d_counted = r->d_frozen = 0;
	r->nstored = r->ncarried = 0;
	if (r->find_netns)
		report_host_find_netns(&r->rd);
	r->find_netns = false;
	report_host_read(&r->rd, r->snap);
	if (sqlite3_step(r->st[S_BEGIN]) != SQLITE_DONE || sqlite3_reset(r->st[S_BEGIN]))
		return fail(r, -EIO, "cannot write '%s': %s", r->o->path, sqlite3_errmsg(r->db));
	seconds = (double)(uptime - r->prev_uptime) / 100.0;
	rc = insert_interval(r, ts, uptime, iv);
	rc = rc ? rc : insert_tasks(r, *iv, curr);
	rc = rc ? rc : insert_proc_rates(r, *iv, curr, seconds);
	rc = rc ? rc : insert_cpu_rates(r, *iv);
	rc = rc ? rc : insert_psi(r, *iv);
	rc = rc ? rc : insert_disks(r, *iv);
	rc = rc ? rc : insert_disk_rates(r, *iv, seconds);
	rc = rc ? rc : insert_net(r, *iv);
	rc = rc ? rc : insert_net_rates(r, *iv, seconds);
	rc = rc ? rc : insert_tcp(r, *iv);
	rc = rc ? rc : record_more_insert(&r->more, *iv, r->snap);
	rc = rc ? rc : finish_interval(r, *iv);
	if (rc) {
		record_exec(r->db, "ROLLBACK");
		return rc;
	}
	if (sqlite3_step(r->st[S_COMMIT]) != SQLITE_DONE || sqlite3_reset(r->st[S_COMMIT]))
		return fail(r, -EIO, "cannot commit to '%s': %s", r->o->path,
			    sqlite3_errmsg(r->db));
	r->prev_iv = *iv;
	r->prev_uptime = uptime;
	snap = r->prev; /* this interval's readings start the next one's rates */
	r->prev = r->snap;
	r->snap = snap;
	return 0;
}

static double file_mb(sqlite3 *db)
{
	int64_t pages = 0, size = 0;

	record_query_i64(db, "PRAGMA page_count", &pages);
	record_query_i64(db, "PRAGMA page_size", &size);
	return (double)pages * (double)size / (1024.0 * 1024.0);
}

static int sample(void *ctx, unsigned k)
{
	struct recorder *r = ctx;
	int64_t iv = 0;
	int rc = take_interval(r, k, &iv);
	double ts;

	if (rc)
		return rc;
	ts = wall_now(r);
	if (!k) {
		r->win_from = iv;
		r->win_start = ts;
	} else if (ts - r->win_start >= r->o->window - 1e-6) {
		if (record_findings(r->db, r->win_from, iv, r->win, r->pf))
			return fail(r, -EIO, "cannot evaluate the window: %s",
				    sqlite3_errmsg(r->db));
		report_task_sampler_rebase(r->win); /* this interval starts the next window */
		r->find_netns = true;		    /* its namespaces, from the next interval */
		r->win_from = iv;
		r->win_start = ts;
	}
	if ((r->o->max_size_mb > 0 || r->o->keep_hours > 0) &&
	    record_retain(r->db, r->o->max_size_mb, r->o->keep_hours, ts))
		return fail(r, -EIO, "retention failed: %s", sqlite3_errmsg(r->db));
	if (r->o->progress)
		r->o->progress(r->o->progress_ctx, k, file_mb(r->db));
	return 0;
}

/* ---- set-up ---- */

static int write_meta(struct recorder *r)
{
	char buf[64];
	int rc = 0;
	const struct {
		const char *k, *v;
	} text[] = { { "hostname", r->host.nodename }, { "kernel", r->host.release },
		     { "sysname", r->host.sysname },   { "release", r->host.release },
		     { "nodename", r->host.nodename }, { "machine", r->host.machine } };

	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]) && !rc; i++)
		rc = record_meta_set(r->db, text[i].k, text[i].v);
#define META_NUM(key, fmt, val)                                  \
	do {                                                     \
		snprintf(buf, sizeof(buf), fmt, val);            \
		rc = rc ? rc : record_meta_set(r->db, key, buf); \
	} while (0)
	META_NUM("ncpu", "%d", pidstat_cpu_count(r->pf, &r->host));
	META_NUM("hz", "%ld", r->host.hz);
	META_NUM("pagesize", "%ld", r->host.pagesize);
	META_NUM("interval", "%g", r->o->interval);
	META_NUM("window", "%g", r->o->window);
	META_NUM("fixture", "%d", r->host.fixture ? 1 : 0);
	META_NUM("recorder_pid", "%d", (int)r->self);
	META_NUM("triage_version", "%s", TRIAGE_VERSION);
#undef META_NUM
	return rc ? fail(r, rc, "cannot write '%s': %s", r->o->path, sqlite3_errmsg(r->db)) : 0;
}

static int open_reader(struct recorder *r)
{
	struct pidstat_env env = {
		.out = stderr, .fd_budget = r->o->fd_budget, .taskstats = true, .anon = true
	};

	r->popts.act = ACT_CPU | ACT_MEM | ACT_IO | ACT_CTXSW | ACT_RT;
	r->popts.tsk = TSK_TASK | TSK_CHILD;
	r->popts.threads = true;
	r->popts.all_pids = !r->o->npids;
	r->popts.pid_given = r->o->npids > 0;
	for (size_t i = 0; i < r->o->npids; i++)
		if (pidstat_opts_add_pid(&r->popts, r->o->pids[i]))
			return fail(r, -ENOMEM, "out of memory");
	r->popts.dec = -1;
	r->popts.interval = 1;
	env.s_colors = "never";
	if (pidstat_run_init(&r->run, &r->popts, r->pf, &r->host, &env))
		return fail(r, -ENOMEM, "out of memory");
	r->run_ok = true;
	r->run.lazy_thread_io = true;
	return 0;
}

/*
 * The report's sampler, fed from run's table: it reads nothing itself (as in
 * a replay). It follows the findings' window, and each interval's step.
 */
static int open_window(struct recorder *r)
{
	struct host_facts h = r->host;
	int rc;

	h.fixture = true; /* no door of its own to the kernel */
	rc = report_task_sampler_open(&r->win, NULL, &h, NULL, 0, 0, false);
	return rc ? fail(r, rc, "cannot open the findings window: %s", strerror(-rc)) : 0;
}

/*
 * Opens the record file as util/outfile.h has it (a regular file or a new
 * one, no link followed; its -wal and -shm beside it too) and takes the
 * one-writer lock: two recorders interleaving in one file would corrupt
 * each other's carried threads and retention.
 */
static int claim_file(struct recorder *r)
{
	static const char *const side[] = { "-wal", "-shm" };
	const char *path = r->o->path;
	char aux[4096];
	pid_t holder;
	int rc;

	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		snprintf(aux, sizeof(aux), "%s%s", path, side[i]);
		rc = outfile_check(aux);
		if (rc)
			return fail(r, rc, "cannot write '%s': %s", aux, outfile_strerror(rc));
	}
	rc = outfile_open_rw(path, &r->lock_fd);
	if (rc)
		return fail(r, rc, "cannot open '%s' for writing: %s", path, outfile_strerror(rc));
	rc = outfile_lock(r->lock_fd, &holder);
	if (rc == -EAGAIN && holder > 0)
		return fail(r, rc, "'%s' is being recorded by PID %d (one recorder per file)", path,
			    (int)holder);
	if (rc == -EAGAIN)
		return fail(r, rc,
			    "'%s' is being recorded by another process (one recorder per file)",
			    path);
	return rc ? fail(r, rc, "cannot lock '%s': %s", path, strerror(-rc)) : 0;
}

static int open_all(struct recorder *r)
{
	const struct record_opts *o = r->o;
	int rc = procfs_open(&r->pf, o->root);

	if (rc) {
		r->err->on = o->root ? RECORD_FAULT_ROOT : RECORD_FAULT_SYSTEM;
		return fail(r, rc, "cannot open root '%s': %s", o->root, strerror(-rc));
	}
	if (procfs_host_facts_load(&r->host, r->pf))
		return fail(r, -EINVAL, "bad fixture meta in '%s'", o->root);
	rc = runloop_clock_open(&r->clk, o->stop, r->pf, &r->host, &(struct timespec){ 0, 0 });
	if (rc)
		return fail(r, rc, "fixture '%s' has no step1/proc", o->root);
	if (!r->host.fixture)
		r->clk.interval = runloop_seconds(o->interval);
	r->self = r->host.fixture ? 0 : getpid();
	r->snap = malloc(sizeof(*r->snap));
	r->prev = calloc(1, sizeof(*r->prev));
	if (!r->snap || !r->prev)
		return fail(r, -ENOMEM, "out of memory");
	report_host_reader_init(&r->rd, r->pf);
	r->rd.statfs = procfs_fs_statvfs_for(r->host.fixture); /* the filesystems, as live */
	r->find_netns = true;
	rc = claim_file(r);
	if (rc) {
		r->err->on = RECORD_FAULT_FILE;
		return rc;
	}
	rc = record_db_open(&r->db, o->path, true);
	if (rc)
		r->err->on = RECORD_FAULT_FILE;
	if (rc == -EPROTO)
		return fail(r, rc, "'%s' is not a triage record file of schema version %s", o->path,
			    RECORD_SCHEMA_VERSIONS);
	if (rc)
		return fail(r, rc, "cannot open '%s' for writing: %s", o->path,
			    rc == -EINVAL ? "not an SQLite database" : strerror(-rc));
	for (int i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(r->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &r->st[i],
				       NULL) != SQLITE_OK)
			return fail(r, -EIO, "%s", sqlite3_errmsg(r->db));
	if (record_more_open(&r->more, r->db))
		return fail(r, -EIO, "%s", sqlite3_errmsg(r->db));
	rc = write_meta(r);
	rc = rc ? rc : open_reader(r);
	return rc ? rc : open_window(r);
}

static void close_all(struct recorder *r)
{
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(r->st[i]);
	record_more_close(&r->more);
	record_db_close(r->db);
	if (r->lock_fd >= 0)
		close(r->lock_fd); /* the lock goes with it */
	report_task_sampler_close(r->win);
	if (r->run_ok)
		pidstat_run_release(&r->run);
	pidstat_opts_release(&r->popts);
	procfs_close(r->pf);
	record_tcache_release(&r->cache);
	free(r->carried);
	free(r->stray);
	free(r->blob);
	free(r->snap);
	free(r->prev);
}

int record_run(const struct record_opts *o, struct record_error *err)
{
	struct recorder *r = calloc(1, sizeof(*r));
	unsigned count = 0;
	int rc;

	err->what[0] = '\0';
	err->on = RECORD_FAULT_SYSTEM;
	if (!r) {
		snprintf(err->what, sizeof(err->what), "out of memory");
		return -ENOMEM;
	}
	r->o = o;
	r->err = err;
	r->lock_fd = -1;
	rc = open_all(r);
	if (!rc) {
		if (o->duration > 0)
			count = (unsigned)util_llround(o->duration / o->interval) + 1;
		runloop_clock_arm(&r->clk);
		rc = runloop_run(&r->clk, count, sample, r);
	}
	/* the last window's findings, if it has at least one interval */
	if (!rc && r->prev_iv > r->win_from && r->win_from &&
	    record_findings(r->db, r->win_from, r->prev_iv, r->win, r->pf))
		rc = fail(r, -EIO, "cannot evaluate the window: %s", sqlite3_errmsg(r->db));
	if (!rc && r->db)
		record_exec(r->db, "PRAGMA wal_checkpoint(TRUNCATE)");
	close_all(r);
	free(r);
	return rc;
}

/* ---- retention ---- */

/*
 * Makes interval cut stand alone before the ones under it are deleted: the
 * threads it carries get a copy of their last stored row at cut.
 */
static int rebase(sqlite3 *db, int64_t cut)
{
	sqlite3_stmt *get = NULL, *copy = NULL;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	int rc = -EIO;

	if (sqlite3_prepare_v2(db, "SELECT carried FROM interval WHERE id = ?", -1, &get, NULL) ||
	    sqlite3_prepare_v2(
		db,
		"INSERT OR IGNORE INTO sample SELECT ?1, task, utime, stime, gtime,"
		" wtime, cutime, cstime, cgtime, minflt, majflt, cminflt, cmajflt,"
		" vsz_kb, rss_kb, blkio, read_bytes, write_bytes,"
		" cancelled_write_bytes, no_io, nvcsw, nivcsw, nthreads, processor,"
		" rt_priority, policy, state, ppid, rss_anon_kb FROM sample WHERE task = ?2 AND"
		" iv < ?1"
		" ORDER BY iv DESC LIMIT 1",
		-1, &copy, NULL))
		goto out;
	sqlite3_bind_int64(get, 1, cut);
	if (sqlite3_step(get) != SQLITE_ROW) {
		rc = 0;
		goto out;
	}
	if (record_carried_decode(sqlite3_column_blob(get, 0), sqlite3_column_bytes(get, 0), &ids,
				  &n, &cap))
		goto out;
	rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_bind_int64(copy, 1, cut);
		sqlite3_bind_int64(copy, 2, ids[i]);
		rc = sqlite3_step(copy) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_reset(copy);
	}
	if (!rc) {
		char sql[128];

		snprintf(sql, sizeof(sql),
			 "UPDATE interval SET carried = NULL, ncarried = 0, ntasks = ntasks + %zu"
			 " WHERE id = %lld",
			 n, (long long)cut);
		rc = record_exec(db, sql);
	}
out:
	sqlite3_finalize(get);
	sqlite3_finalize(copy);
	free(ids);
	return rc;
}

static int delete_before(sqlite3 *db, int64_t cut)
{
	static const char *const sql[] = {
		"DELETE FROM sample WHERE iv < ?1",
		"DELETE FROM cpu WHERE iv < ?1",
		"DELETE FROM psi WHERE iv < ?1",
		"DELETE FROM disk WHERE iv < ?1",
		"DELETE FROM net WHERE iv < ?1",
		"DELETE FROM tcp WHERE iv < ?1",
		"DELETE FROM disk_rate WHERE iv < ?1",
		"DELETE FROM proc_rate WHERE iv < ?1",
		"DELETE FROM cpu_rate WHERE iv < ?1",
		"DELETE FROM net_rate WHERE iv < ?1",
		"DELETE FROM placement WHERE iv < ?1",
		"DELETE FROM dtask WHERE iv < ?1",
		"DELETE FROM host_more WHERE iv < ?1",
		"DELETE FROM softirq WHERE iv < ?1",
		"DELETE FROM softnet WHERE iv < ?1",
		"DELETE FROM fs WHERE iv < ?1",
		"DELETE FROM udp WHERE iv < ?1",
		"DELETE FROM sock WHERE iv < ?1",
		"DELETE FROM window_end WHERE iv < ?1",
		"DELETE FROM fd_usage WHERE iv < ?1",
		"DELETE FROM futex WHERE iv < ?1",
		"DELETE FROM fs_writer WHERE iv < ?1",
		"DELETE FROM finding WHERE iv_to < ?1",
		"DELETE FROM interval WHERE id < ?1",
		/* tasks with no row left (threads and processes long gone) */
		"DELETE FROM task WHERE NOT EXISTS (SELECT 1 FROM sample s WHERE s.task = task.id)",
	};
	int rc = record_exec(db, "BEGIN");

	rc = rc ? rc : rebase(db, cut);
	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]) && !rc; i++) {
		sqlite3_stmt *st;

		if (sqlite3_prepare_v2(db, sql[i], -1, &st, NULL) != SQLITE_OK) {
			rc = -EIO;
			break;
		}
		if (sqlite3_bind_parameter_count(st))
			sqlite3_bind_int64(st, 1, cut);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_finalize(st);
	}
	if (rc) {
		record_exec(db, "ROLLBACK");
		return rc;
	}
	rc = record_exec(db, "COMMIT");
	/* give the freed pages back to the file system; keep the WAL small */
	rc = rc ? rc : record_exec(db, "PRAGMA incremental_vacuum");
	if (!rc)
		record_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
	return rc;
}

/* Bytes of the file at path + suffix on disk (0 when absent). */
static double file_bytes(const char *path, const char *suffix)
{
	char name[4096];
	struct stat st;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return stat(name, &st) ? 0 : (double)st.st_size;
}

/*
 * What the record takes on disk: the database as SQLite sees it (its pages,
 * some still only in the WAL) or as the file is, whichever is more, plus
 * the WAL file, which --max-size bounds too.
 */
static double disk_mb(sqlite3 *db, double *wal_mb)
{
	const char *path = sqlite3_db_filename(db, "main");
	int64_t pages = 0, size = 0;
	double main_bytes;

	record_query_i64(db, "PRAGMA page_count", &pages);
	record_query_i64(db, "PRAGMA page_size", &size);
	main_bytes = (double)pages * (double)size;
	if (!path || !path[0]) {
		*wal_mb = 0;
		return main_bytes / (1024.0 * 1024.0);
	}
	*wal_mb = file_bytes(path, "-wal") / (1024.0 * 1024.0);
	if (file_bytes(path, "") > main_bytes)
		main_bytes = file_bytes(path, "");
	return main_bytes / (1024.0 * 1024.0) + *wal_mb;
}

/*
 * The size bound: the database and its WAL together under max_mb. They are
 * brought under seven eighths of it, so that the next interval and the
 * WAL the next deletion writes (about an eighth of the pages) fit in the
 * rest: on disk they stay under max_mb plus about one interval.
 */
static int retain_size(sqlite3 *db, double max_mb, int64_t first, int64_t last)
{
	double target = max_mb * 7 / 8, wal_mb;
	int rc = 0;

	if (disk_mb(db, &wal_mb) <= target)
		return 0;
	/* first the WAL: its pages move into the database and the file is cut */
	if (wal_mb > 0)
		record_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
	/* then an eighth of what is left at a time, never the last interval */
	while (!rc && disk_mb(db, &wal_mb) > target && first < last) {
		int64_t cut = first + (last - first + 7) / 8;

		rc = delete_before(db, cut > last ? last : cut);
		if (record_query_i64(db, "SELECT min(id) FROM interval", &first))
			break;
	}
	return rc;
}

int record_retain(sqlite3 *db, double max_mb, double keep_hours, double now)
{
	int64_t first, last, cut;
	char sql[128];
	int rc = 0;

	if (record_query_i64(db, "SELECT min(id) FROM interval", &first) ||
	    record_query_i64(db, "SELECT max(id) FROM interval", &last))
		return 0;
	if (keep_hours > 0) {
		snprintf(sql, sizeof(sql),
			 "SELECT coalesce(min(id), %lld) FROM interval WHERE ts >= %.3f",
			 (long long)last, now - keep_hours * 3600);
		if (!record_query_i64(db, sql, &cut) && cut > first) {
			rc = delete_before(db, cut);
			first = cut;
		}
	}
	if (!rc && max_mb > 0)
		rc = retain_size(db, max_mb, first, last);
	return rc;
}
