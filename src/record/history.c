/*
 * A recorded window through the report and load cores: the host counters
 * at its two ends become the report's window ends, the task samples go
 * through the report's own task sampler (fed by the pidstat source over
 * the recording), and the report's results, rules and renderers do the
 * rest. The load explainer gets the snapshot of one interval.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/snapshot.h"
#include "pidstat/pidstat.h"
#include "record/internal.h"
#include "record/more.h"
#include "record/record.h"
#include "record/rows.h"
#include "report/source.h"
#include "report/sources.h"
#include "util/grow.h"

/* ---- rows both cores read ---- */

/* Where a row of PSI figures goes: a core's psi[] and have[], in its own order. */
struct psi_dest {
	struct psi *psi;
	bool *have;
	int cpu, memory, io; /* the indexes of the three resources */
};

static void on_psi(void *ctx, sqlite3_stmt *st)
{
	const struct psi_dest *d = ctx;
	const char *res = row_text(st, 0);
	int r = !strcmp(res, "cpu") ? d->cpu : !strcmp(res, "memory") ? d->memory : d->io;
	struct psi *p = &d->psi[r];

	d->have[r] = true;
	p->some.present = !row_isnull(st, 1);
	p->some.total_us = (uint64_t)row_int(st, 1);
	p->some.avg10 = sqlite3_column_double(st, 3);
	p->full.present = !row_isnull(st, 2);
	p->full.total_us = (uint64_t)row_int(st, 2);
	p->full.avg10 = sqlite3_column_double(st, 4);
}

/* The PSI figures of interval iv into psi[] and have[], cpu, memory and io their indexes. */
static int load_psi(sqlite3 *db, int64_t iv, struct psi *psi, bool *have, int cpu, int memory,
		    int io)
{
	struct psi_dest d = { psi, have, cpu, memory, io };

	return row_each(db,
			"SELECT resource, some_total_us, full_total_us, some_avg10, full_avg10"
			" FROM psi WHERE iv = ?1",
			iv, on_psi, &d);
}

/*
 * Where a row of load averages goes: load1, load5, load15, a run-queue figure,
 * and a task count when the query has a fifth column.
 */
struct loadavg_dest {
	struct loadavg *l;
	bool *have;
};

static void on_loadavg(void *ctx, sqlite3_stmt *st)
{
	const struct loadavg_dest *d = ctx;

	*d->have = !row_isnull(st, 0);
	for (int i = 0; i < 3; i++)
		d->l->load[i] = sqlite3_column_double(st, i);
	d->l->runnable = (unsigned)row_int(st, 3);
	if (sqlite3_column_count(st) > 4)
		d->l->total = (unsigned)row_int(st, 4);
}

/* The D-state reason a recorded key names; false for a key of no reason. */
static bool dreason_of(const char *key, enum d_reason *out)
{
	for (int r = 0; r < D_REASON_COUNT; r++)
		if (!strcmp(load_dreason_key((enum d_reason)r), key)) {
			*out = (enum d_reason)r;
			return true;
		}
	return false;
}

/* ---- host counters at one end ---- */

static void on_interval(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;

	h->uptime_cs = (uint64_t)row_int(st, 0);
	h->have_uptime = true;
	h->have_mem = !row_isnull(st, 1);
	h->mem.total = (uint64_t)row_int(st, 1);
	h->mem.has_available = !row_isnull(st, 2);
	h->mem.available = (uint64_t)row_int(st, 2);
	h->mem.swap_total = (uint64_t)row_int(st, 3);
	h->mem.swap_free = (uint64_t)row_int(st, 4);
	h->have_vm = !row_isnull(st, 5);
	h->vm.pswpin = (uint64_t)row_int(st, 5);
	h->vm.pswpout = (uint64_t)row_int(st, 6);
	h->vm.pgmajfault = (uint64_t)row_int(st, 7);
	h->vm.has_oom_kill = !row_isnull(st, 8);
	h->vm.oom_kill = (uint64_t)row_int(st, 8);
	h->cpu.procs_running = (uint64_t)row_int(st, 9);
	h->cpu.procs_blocked = (uint64_t)row_int(st, 10);
	h->jiffies = (uint64_t)row_int(st, 11);
}

static void on_cpu(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	int c = (int)row_int(st, 0);
	struct cpu_times t = { (uint64_t)row_int(st, 1), (uint64_t)row_int(st, 2),
			       (uint64_t)row_int(st, 3), (uint64_t)row_int(st, 4),
			       (uint64_t)row_int(st, 5), (uint64_t)row_int(st, 6),
			       (uint64_t)row_int(st, 7), (uint64_t)row_int(st, 8) };

	h->have_cpu = true;
	if (c < 0) {
		h->cpu.all = t;
	} else if (c < HOST_MAX_CPUS) {
		h->cpu.cpu[c] = t;
		h->cpu.online[c] = true;
		if (c + 1 > h->cpu.ncpu)
			h->cpu.ncpu = c + 1;
	}
}

static void on_disk(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	struct disk_stat *d;

	h->have_disks = true;
	if (h->disks.n >= HOST_MAX_DISKS)
		return;
	d = &h->disks.d[h->disks.n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", row_text(st, 0));
	ROW_U64S(st, 1, &d->rd_ios, &d->rd_sectors, &d->rd_ticks, &d->wr_ios, &d->wr_sectors,
		 &d->wr_ticks, &d->in_flight, &d->io_ticks, &d->time_in_queue);
}

static void on_net(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	struct iface_stat *s;

	h->have_ifaces = true;
	if (h->ifaces.n >= HOST_MAX_IFACES)
		return;
	s = &h->ifaces.i[h->ifaces.n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", row_text(st, 0));
	ROW_U64S(st, 1, &s->rx_bytes, &s->rx_packets, &s->rx_errs, &s->rx_drop, &s->tx_bytes,
		 &s->tx_packets, &s->tx_errs, &s->tx_drop);
}

/* One namespace's TCP counters; the first row is ours. */
static void on_tcp(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	struct tcp_counters *t;
	struct rp_netns *ns;
	const char *p = row_text(st, 1);
	size_t k = h->nns;

	if (k >= RP_MAX_NETNS + 1)
		return;
	h->nns++;
	ns = &h->ns[k];
	memset(ns, 0, sizeof(*ns));
	ns->ours = k == 0;
	snprintf(h->ns_id[k], sizeof(h->ns_id[k]), "%s", row_text(st, 0));
	while (*p && ns->npids < RP_MAX_PIDS) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		ns->pids[ns->npids++] = (pid_t)pid;
		p = *end == ',' ? end + 1 : end;
	}
	t = &h->tcp[k];
	ROW_U64S(st, 2, &t->out_segs, &t->retrans_segs, &t->in_errs, &t->listen_overflows,
		 &t->listen_drops);
	t->has_snmp = row_int(st, 7) != 0;
	t->has_ext = row_int(st, 8) != 0;
	h->have_tcp[k] = t->has_snmp;
}

/* tcp: schema 3's TCP counters; more: schema 5's tables (record/more.c) */
static int load_host_snap(sqlite3 *db, int64_t iv, bool tcp, bool more, struct report_host_snap *h)
{
	int rc;

	memset(h, 0, sizeof(*h));
	rc = row_each(db,
		      "SELECT uptime_cs, memtotal_kb, mem_available_kb, swap_total_kb,"
		      " swap_free_kb, pswpin, pswpout, pgmajfault, oom_kill, procs_running,"
		      " procs_blocked, jiffies FROM interval WHERE id = ?1",
		      iv, on_interval, h);
	rc = rc ? rc
		: row_each(db,
			   "SELECT cpu, user, nice, system, idle, iowait, irq, softirq, steal"
			   " FROM cpu WHERE iv = ?1 ORDER BY cpu",
			   iv, on_cpu, h);
	rc = rc ? rc : load_psi(db, iv, h->psi, h->have_psi, RP_PSI_CPU, RP_PSI_MEM, RP_PSI_IO);
	rc = rc ? rc
		: row_each(db,
			   "SELECT device, rd_ios, rd_sectors, rd_ticks, wr_ios, wr_sectors,"
			   " wr_ticks, in_flight, io_ticks, time_in_queue FROM disk WHERE iv = ?1"
			   " ORDER BY device",
			   iv, on_disk, h);
	rc = rc ? rc
		: row_each(db,
			   "SELECT iface, rx_bytes, rx_packets, rx_errs, rx_drop, tx_bytes,"
			   " tx_packets, tx_errs, tx_drop FROM net WHERE iv = ?1 ORDER BY iface",
			   iv, on_net, h);
	if (tcp)
		rc = rc ? rc
			: row_each(db,
				   "SELECT ns_id, pids, out_segs, retrans_segs, in_errs,"
				   " listen_overflows, listen_drops, has_snmp, has_ext FROM tcp"
				   " WHERE iv = ?1 ORDER BY ns",
				   iv, on_tcp, h);
	return rc || !more ? rc : record_more_load(db, iv, h);
}

/* ---- the report's window: a source over the recording ---- */

/* What a file older than schema 5 did not keep (record/more.c keeps it now). */
#define REPORT_LACKS_BEFORE_5                                                                    \
	(REPORT_LACKS_SOFTIRQS | REPORT_LACKS_CONNTRACK | REPORT_LACKS_FS | REPORT_LACKS_FD |    \
	 REPORT_LACKS_PARENTS | REPORT_LACKS_FORKS | REPORT_LACKS_FUTEX | REPORT_LACKS_SOFTNET | \
	 REPORT_LACKS_PIDS | REPORT_LACKS_LISTENERS | REPORT_LACKS_UDP_SOCKS)

/* The recorded intervals a..b as a report_source (report/source.h). */
struct rec_source {
	sqlite3 *db;
	const struct record_window *rw;
	size_t k, b; /* the current interval, the last */
	int step;    /* k + 1: the pidstat source's current sample */
	bool tcp;    /* schema 3: TCP counters per namespace */
	bool placed; /* schema 3: the busiest processes' placement at the window's end */
	bool more;   /* schema 5: the host_more tables and each process's parent */
	bool ended;  /* schema 5: the window's last interval has its end-of-window reads */
	const struct procfs *pf; /* the recorder's: placement read now and stored */
	struct pidstat_replay *rp;
	struct report_source src;
};

static int rec_read_host(void *ctx, struct report_host_snap *h)
{
	struct rec_source *r = ctx;

	return load_host_snap(r->db, r->rw->ids[r->k], r->tcp, r->more, h);
}

static void on_loadavg_row(void *ctx, sqlite3_stmt *st)
{
	struct loadavg *l = ctx;

	if (row_isnull(st, 0) || row_isnull(st, 3))
		return;
	for (int i = 0; i < 3; i++)
		l->load[i] = sqlite3_column_double(st, i);
	l->runnable = (unsigned)row_int(st, 3);
	l->total = (unsigned)row_int(st, 4);
	l->last_pid = 1; /* seen */
}

static int rec_read_load(void *ctx, struct loadavg *la)
{
	struct rec_source *r = ctx;
	int rc;

	memset(la, 0, sizeof(*la));
	rc = row_each(r->db,
		      "SELECT load1, load5, load15, kernel_runnable, kernel_tasks FROM interval"
		      " WHERE id = ?1",
		      r->rw->ids[r->k], on_loadavg_row, la);
	if (!rc && !la->last_pid)
		rc = -ENOENT;
	la->last_pid = 0;
	return rc;
}

static void on_dtask(void *ctx, sqlite3_stmt *st)
{
	struct dtask_look *d = ctx;
	struct rp_dtask *t;
	const char *key = row_text(st, 3);
	enum d_reason r;

	d->counted++;
	if (d->n >= RP_MAX_DTASKS)
		return;
	t = &d->t[d->n++];
	memset(t, 0, sizeof(*t));
	t->pid = (pid_t)row_int(st, 0);
	t->tid = (pid_t)row_int(st, 1);
	snprintf(t->comm, sizeof(t->comm), "%s", row_text(st, 2));
	snprintf(t->reason_key, sizeof(t->reason_key), "%s", key);
	if (dreason_of(key, &r))
		snprintf(t->reason, sizeof(t->reason), "%s", load_dreason_words(r, false));
}

/* The D threads as the recorder's load core judged them; whether each slept through. */
static int rec_read_dtasks(void *ctx, struct task_sampler *ts, struct dtask_look *out)
{
	struct rec_source *r = ctx;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = row_each(r->db,
		      "SELECT tgid, tid, comm, reason FROM dtask WHERE iv = ?1 AND counts"
		      " ORDER BY tgid, tid",
		      r->rw->ids[r->k], on_dtask, out);
	if (!rc)
		report_task_sampler_mark_whole_window(ts, out);
	return rc;
}

/* What the recorder read of one process at the window's end, for later replays. */
static int store_placement(struct rec_source *r, const struct rp_proc *p)
{
	sqlite3_stmt *st;
	char allowed[HOST_MAX_CPUS * 4];
	int rc;

	if (sqlite3_prepare_v2(r->db,
			       "INSERT OR REPLACE INTO placement(iv, tgid, allowed, cgroup, nice)"
			       " VALUES(?, ?, ?, ?, ?)",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	procfs_cpulist_format(&p->allowed, allowed, sizeof(allowed));
	sqlite3_bind_int64(st, 1, r->rw->ids[r->k]);
	sqlite3_bind_int64(st, 2, p->pid);
	if (p->has_allowed)
		sqlite3_bind_text(st, 3, allowed, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, p->cgroup, -1, SQLITE_TRANSIENT);
	if (p->has_nice)
		sqlite3_bind_int(st, 5, p->nice);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return rc;
}

static void on_placement(void *ctx, sqlite3_stmt *st)
{
	struct rp_proc *p = ctx;
	const char *allowed = row_text(st, 0);

	p->has_allowed =
	    !row_isnull(st, 0) && !procfs_cpulist_parse(allowed, strlen(allowed), &p->allowed);
	snprintf(p->cgroup, sizeof(p->cgroup), "%s", row_text(st, 1));
	/* schema 4: its nice (a schema 3 file has no such column: not known) */
	p->has_nice = sqlite3_column_count(st) > 2 && !row_isnull(st, 2);
	p->nice = p->has_nice ? sqlite3_column_int(st, 2) : 0;
}

static int rec_read_placement(void *ctx, struct rp_proc *p)
{
	struct rec_source *r = ctx;
	sqlite3_stmt *st;
	int rc;

	if (r->pf) /* recording: read it now, keep it */
		return report_read_placement(r->pf, p) ? -ENOENT : store_placement(r, p);
	if (sqlite3_prepare_v2(
		r->db, "SELECT allowed, cgroup, nice FROM placement WHERE iv = ?1 AND tgid = ?2",
		-1, &st, NULL) != SQLITE_OK &&
	    sqlite3_prepare_v2(r->db,
			       "SELECT allowed, cgroup FROM placement WHERE iv = ?1 AND tgid = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->rw->ids[r->k]);
	sqlite3_bind_int64(st, 2, p->pid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		on_placement(p, st);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : -EIO;
}

/*
 * What the report asks at the window's end: while recording (pf), read now
 * as the live source does and kept; in a replay, what was kept then.
 */
static int rec_read_fs_writers(void *ctx, int mnt_id, pid_t *pids, size_t max, size_t *n)
{
	struct rec_source *r = ctx;
	int64_t iv = r->rw->ids[r->k];
	int rc;

	if (!r->pf)
		return record_more_get_writers(r->db, iv, mnt_id, pids, max, n);
	rc = procfs_fsread_writers(r->pf, mnt_id, pids, max, n);
	return rc ? rc : record_more_put_writers(r->db, iv, mnt_id, pids, *n);
}

static int rec_read_fd_usage(void *ctx, pid_t pid, struct fd_usage *out)
{
	struct rec_source *r = ctx;
	int64_t iv = r->rw->ids[r->k];
	int rc;

	if (!r->pf)
		return record_more_get_fd(r->db, iv, pid, out);
	rc = procfs_limits_read_fd_usage(r->pf, pid, out);
	return rc ? rc : record_more_put_fd(r->db, iv, pid, out);
}

static int rec_read_futex_waiters(void *ctx, pid_t pid, struct futex_waiters *out)
{
	struct rec_source *r = ctx;
	int64_t iv = r->rw->ids[r->k];
	int rc;

	if (!r->pf)
		return record_more_get_futex(r->db, iv, pid, out);
	rc = procfs_task_read_futex_waiters(r->pf, pid, out);
	return rc ? rc : record_more_put_futex(r->db, iv, pid, out);
}

static int rec_next(void *ctx)
{
	struct rec_source *r = ctx;

	if (r->k >= r->b)
		return -ENOENT;
	r->k++;
	r->step = (int)r->k + 1;
	return 0;
}

/* Whether sql (a count) is above 0. */
static bool any_row(sqlite3 *db, const char *sql)
{
	int64_t n = 0;

	return !record_query_i64(db, sql, &n) && n > 0;
}

static int rec_source_open(struct rec_source *r, sqlite3 *db, const struct record_window *rw,
			   size_t a, size_t b, bool read_tasks)
{
	const struct pidstat_source *tasks = NULL;
	int64_t n = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->db = db;
	r->rw = rw;
	r->k = a;
	r->b = b;
	r->step = (int)a + 1;
	r->tcp = !record_query_i64(db,
				   "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND"
				   " name = 'tcp'",
				   &n) &&
		 n > 0;
	if (r->tcp) { /* the busiest processes' placement, kept at this window's end */
		char sql[160];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM placement WHERE iv = %lld",
			 (long long)rw->ids[b]);
		r->placed = any_row(db, sql);
	}
	r->more = record_db_version(db) >= 5;
	r->ended = r->more && record_more_has_end(db, rw->ids[b]);
	rc = read_tasks ? record_replay_open(&r->rp, db, rw, &r->step, &tasks) : 0;
	if (rc)
		return rc;
	r->src = (struct report_source){
		.ctx = r,
		.lacks = REPORT_LACKS_CGROUPS | REPORT_LACKS_KMSG | REPORT_LACKS_EBPF |
			 (r->more ? 0 : REPORT_LACKS_BEFORE_5) |
			 (r->ended ? 0 : REPORT_LACKS_FD | REPORT_LACKS_FUTEX) |
			 (r->placed ? 0 : REPORT_LACKS_PLACEMENT) | (r->tcp ? 0 : REPORT_LACKS_TCP),
		.lacks_why = "not recorded",
		.host = rw->host,
		.self = rw->recorder,
		.wall0 = rw->times[a],
		.read_host = rec_read_host,
		.read_load = rec_read_load,
		.read_dtasks = rec_read_dtasks,
		.read_placement = rec_read_placement,
		.read_fs_writers = r->ended ? rec_read_fs_writers : NULL,
		.read_fd_usage = r->ended ? rec_read_fd_usage : NULL,
		.read_futex_waiters = r->ended ? rec_read_futex_waiters : NULL,
		.next = rec_next,
		.tasks = tasks,
	};
	return 0;
}

/*
 * live: the recorder's own sampler, fed every interval of the window as it
 * was recorded (report_task_sampler_feed); NULL: the samples are read back from db.
 */
static int report_data_of(sqlite3 *db, const struct record_window *rw, size_t a, size_t b,
			  struct task_sampler *live, const struct procfs *pf, struct report_data *d)
{
	struct rec_source *r = calloc(1, sizeof(*r));
	int rc;

	memset(d, 0, sizeof(*d));
	if (!r)
		return -ENOMEM;
	if (a >= b || b >= rw->n) {
		free(r);
		return -EINVAL;
	}
	rc = rec_source_open(r, db, rw, a, b, live == NULL);
	if (!rc && pf && r->tcp) { /* recording into a schema 3 file: keep what is read now */
		r->pf = pf;
		r->placed = true;
		r->src.lacks &= ~(unsigned)REPORT_LACKS_PLACEMENT;
	}
	if (!rc && pf && r->more) { /* and what the report reads at the window's end */
		r->pf = pf;
		r->ended = true;
		r->src.lacks &= ~(unsigned)(REPORT_LACKS_FD | REPORT_LACKS_FUTEX);
		r->src.read_fs_writers = rec_read_fs_writers;
		r->src.read_fd_usage = rec_read_fd_usage;
		r->src.read_futex_waiters = rec_read_futex_waiters;
		rc = record_more_mark_end(db, rw->ids[b]);
	}
	if (!rc)
		rc = report_collect_source(&r->src, live, d);
	if (r->rp)
		record_replay_close(r->rp);
	free(r);
	return rc;
}

int record_report_data(sqlite3 *db, const struct record_window *rw, size_t a, size_t b,
		       struct report_data *d)
{
	return report_data_of(db, rw, a, b, NULL, NULL, d);
}

/* ---- findings of each window, while recording ---- */

static int insert_findings(sqlite3 *db, const struct record_window *w,
			   const struct report_findings *f)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(
		db,
		"INSERT INTO finding(iv_from, iv_to, ts_start, ts_end, severity, rule,"
		" subject, sentence) VALUES(?,?,?,?,?,?,?,?)",
		-1, &st, NULL) != SQLITE_OK)
		return -EIO;
	for (size_t i = 0; i < f->n && !rc; i++) {
		char subject[RP_COMM_MAX + RP_CGROUP_MAX + 2 * RP_MOUNT_MAX + 64];

		report_subject_label(&f->f[i].subject, REPORT_LABEL_WORDS, subject,
				     sizeof(subject));
		sqlite3_bind_int64(st, 1, w->ids[0]);
		sqlite3_bind_int64(st, 2, w->ids[w->n - 1]);
		sqlite3_bind_double(st, 3, w->ts[0]);
		sqlite3_bind_double(st, 4, w->ts[w->n - 1]);
		sqlite3_bind_text(st, 5, report_sev_name(f->f[i].sev), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, report_kind_name(f->f[i].kind), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, subject, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 8, f->f[i].summary, -1, SQLITE_TRANSIENT);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int record_findings(sqlite3 *db, int64_t from, int64_t to, struct task_sampler *live,
		    const struct procfs *pf)
{
	struct record_window w;
	struct report_data d;
	struct report_findings f;
	int rc = record_window_ids(db, from, to, &w);

	if (rc)
		return rc;
	if (w.n < 2) {
		record_window_release(&w);
		return 0;
	}
	rc = report_data_of(db, &w, 0, w.n - 1, live, pf, &d);
	if (!rc && !(rc = report_evaluate(&d, &f))) {
		rc = record_exec(db, "BEGIN");
		rc = rc ? rc : insert_findings(db, &w, &f);
		if (rc)
			record_exec(db, "ROLLBACK");
		else
			rc = record_exec(db, "COMMIT");
		report_findings_release(&f);
	}
	report_data_release(&d);
	record_window_release(&w);
	return rc;
}

/* ---- the load explainer's snapshot at one interval ---- */

/* The load core's judgement of one recorded D thread (dtask). */
static void on_dtask_row(void *ctx, sqlite3_stmt *st)
{
	struct load_snapshot *s = ctx;
	pid_t tid = (pid_t)row_int(st, 0);
	const char *key = row_text(st, 1);

	for (size_t i = 0; i < s->ntasks; i++) {
		struct load_task *t = &s->tasks[i];

		if (t->tid != tid || t->state != 'D')
			continue;
		snprintf(t->wchan, sizeof(t->wchan), "%s", row_text(st, 2));
		snprintf(t->cgroup, sizeof(t->cgroup), "%s", row_text(st, 3));
		t->counts = sqlite3_column_int(st, 4) != 0;
		t->frozen = sqlite3_column_int(st, 5) != 0;
		dreason_of(key, &t->why.reason);
		snprintf(t->why.frame, sizeof(t->why.frame), "%s", t->wchan);
	}
}

static int add_thread(struct load_snapshot *s, pid_t tgid, const struct pidstat_task_raw *raw,
		      pid_t tid)
{
	struct load_task *t;

	s->threads_scanned++;
	if (raw->state != 'R' && raw->state != 'D')
		return 0;
	if (util_grow(&s->tasks, &s->cap, s->ntasks + 1, sizeof(*s->tasks)))
		return -ENOMEM;
	t = &s->tasks[s->ntasks++];
	memset(t, 0, sizeof(*t));
	t->pid = tgid;
	t->tid = tid;
	snprintf(t->comm, sizeof(t->comm), "%s", raw->comm);
	t->state = raw->state;
	t->starttime = raw->start;
	t->kernel_thread = tgid == 2;
	snprintf(t->cgroup, sizeof(t->cgroup), "?");
	t->counts = t->state == 'R';
	t->why.reason = t->state == 'D' ? D_OTHER : D_NONE;
	return 0;
}

/* Every thread of the interval as the pidstat source gives it (carried ones too). */
static int scan_threads(const struct pidstat_source *src, pid_t recorder, struct load_snapshot *s)
{
	struct id_list pids = { 0 }, tids = { 0 };
	struct pidstat_task_raw raw;
	int rc = src->list_pids(src->ctx, &pids);

	for (size_t i = 0; !rc && i < pids.len; i++) {
		if (pids.ids[i] == recorder) /* it was running while it looked */
			continue;
		if (src->list_tids(src->ctx, pids.ids[i], &tids))
			continue;
		for (size_t k = 0; !rc && k < tids.len; k++)
			if (!src->read_task(src->ctx, pids.ids[i], tids.ids[k], true, &raw))
				rc = add_thread(s, pids.ids[i], &raw, tids.ids[k]);
	}
	procfs_id_list_release(&pids);
	procfs_id_list_release(&tids);
	return rc;
}

static void count_threads(struct load_snapshot *s)
{
	for (size_t i = 0; i < s->ntasks; i++) {
		const struct load_task *t = &s->tasks[i];

		if (t->state == 'R')
			s->n_runnable++;
		else if (t->frozen)
			s->n_frozen++;
		else if (t->counts)
			s->n_d_counted++;
		if (t->state == 'D')
			s->reason_count[t->why.reason]++;
	}
}

int record_load_snapshot(sqlite3 *db, const struct record_window *w, size_t k,
			 struct load_snapshot *s)
{
	struct pidstat_replay *rp;
	const struct pidstat_source *src;
	int64_t iv = w->ids[k];
	int step = (int)k + 1, rc;

	memset(s, 0, sizeof(*s));
	s->ncpu = w->host.ncpu;
	rc = row_each(db,
		      "SELECT load1, load5, load15, kernel_runnable, kernel_tasks FROM interval"
		      " WHERE id = ?1",
		      iv, on_loadavg, &(struct loadavg_dest){ &s->kernel, &s->have_loadavg });
	rc = rc ? rc : load_psi(db, iv, s->psi, s->have_psi, PSI_CPU, PSI_MEMORY, PSI_IO);
	if (!rc && !(rc = record_replay_open(&rp, db, w, &step, &src))) {
		rc = scan_threads(src, w->recorder, s);
		record_replay_close(rp);
	}
	/* the D threads as the load core judged them while recording */
	rc = rc ? rc
		: row_each(db,
			   "SELECT tid, reason, wchan, cgroup, counts, frozen FROM dtask"
			   " WHERE iv = ?1",
			   iv, on_dtask_row, s);
	if (!rc)
		count_threads(s);
	if (rc)
		load_snapshot_release(s);
	return rc;
}
