/*
 * Schema 5: what the report's window source carries beyond the counters of
 * schemas 1 to 4, stored and read back in one place so the two stay one
 * layout. Per interval (what report_host_read returns): the fork counter,
 * file handles, task caps and conntrack fill (host_more), the softirq
 * vectors, the softnet backlogs, the filesystems with their statvfs, UDP
 * counters and the fullest listener and most-dropping UDP socket per
 * network namespace. Once per window, at its end (what the report asks of
 * the source there): descriptors against limits, futex waits and the
 * writers of a filling filesystem.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/more.h"
#include "record/rows.h"
#include "report/thresholds.h"

static const char *const more_sql[M_COUNT] = {
	"INSERT OR REPLACE INTO host_more VALUES(?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO softirq VALUES(?,?,?,?)",
	"INSERT OR REPLACE INTO softnet VALUES(?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO fs VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO udp VALUES(?,?,?,?,?,?,?,?,?,?)",
	"INSERT OR REPLACE INTO sock VALUES(?,?,?,?,?,?,?,?,?,?,?)",
};

int record_more_open(struct record_more *m, sqlite3 *db)
{
	for (int i = 0; i < M_COUNT; i++)
		if (sqlite3_prepare_v3(db, more_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &m->st[i],
				       NULL) != SQLITE_OK)
			return -EIO;
	return 0;
}

void record_more_close(struct record_more *m)
{
	for (int i = 0; i < M_COUNT; i++) {
		sqlite3_finalize(m->st[i]);
		m->st[i] = NULL;
	}
}

static int done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc;
}

static void bind_u64(sqlite3_stmt *st, int col, bool have, uint64_t v)
{
	if (have)
		sqlite3_bind_int64(st, col, (int64_t)v);
}

static int insert_host_more(sqlite3_stmt *st, int64_t iv, const struct report_host_snap *h)
{
	sqlite3_bind_int64(st, 1, iv);
	bind_u64(st, 2, h->have_cpu, h->cpu.forks);
	bind_u64(st, 3, h->have_files, h->files.allocated);
	bind_u64(st, 4, h->have_files, h->files.max);
	bind_u64(st, 5, h->have_caps, h->caps.pid_max);
	bind_u64(st, 6, h->have_caps, h->caps.threads_max);
	bind_u64(st, 7, h->have_ct, h->ct.count);
	bind_u64(st, 8, h->have_ct, h->ct.max);
	sqlite3_bind_int(st, 9, h->have_fs);
	sqlite3_bind_int(st, 10, h->have_softirqs);
	sqlite3_bind_int(st, 11, h->have_softnet);
	return done(st);
}

/* One vector's counts as "CPU:count" words, one per column of the table. */
static int insert_softirqs(sqlite3_stmt *st, int64_t iv, const struct softirqs *s)
{
	char text[HOST_MAX_CPUS * 28];
	int rc = 0;

	for (size_t v = 0; v < s->nvec && !rc; v++) {
		size_t used = 0;

		text[0] = '\0';
		for (size_t c = 0; c < s->ncols && used < sizeof(text); c++) {
			int n =
			    snprintf(text + used, sizeof(text) - used, "%s%d:%llu", c ? " " : "",
				     s->cpu_id[c], (unsigned long long)s->count[v][c]);

			if (n < 0)
				break;
			used += (size_t)n;
		}
		sqlite3_bind_int64(st, 1, iv);
		sqlite3_bind_int64(st, 2, (int64_t)v);
		sqlite3_bind_text(st, 3, s->name[v], -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, text, -1, SQLITE_TRANSIENT);
		rc = done(st);
	}
	return rc;
}

static int insert_softnet(sqlite3_stmt *st, int64_t iv, const struct softnet *s)
{
	int rc = 0;

	for (size_t i = 0; i < s->n && !rc; i++) {
		sqlite3_bind_int64(st, 1, iv);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_int64(st, 3, s->c[i].cpu);
		sqlite3_bind_int64(st, 4, (int64_t)s->c[i].processed);
		sqlite3_bind_int64(st, 5, (int64_t)s->c[i].dropped);
		sqlite3_bind_int64(st, 6, (int64_t)s->c[i].time_squeeze);
		rc = done(st);
	}
	return rc;
}

static int insert_fs(sqlite3_stmt *st, int64_t iv, const struct fs_usages *f)
{
	int rc = 0;

	for (size_t i = 0; i < f->n && !rc; i++) {
		const struct mount_entry *m = &f->u[i].m;
		const struct fs_space *s = &f->u[i].s;

		sqlite3_bind_int64(st, 1, iv);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_int64(st, 3, m->id);
		sqlite3_bind_int64(st, 4, m->major);
		sqlite3_bind_int64(st, 5, m->minor);
		sqlite3_bind_text(st, 6, m->mnt, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 7, m->fstype, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 8, m->source, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 9, m->readonly);
		sqlite3_bind_int64(st, 10, (int64_t)s->frsize);
		sqlite3_bind_int64(st, 11, (int64_t)s->blocks);
		sqlite3_bind_int64(st, 12, (int64_t)s->bfree);
		sqlite3_bind_int64(st, 13, (int64_t)s->bavail);
		sqlite3_bind_int64(st, 14, (int64_t)s->files);
		sqlite3_bind_int64(st, 15, (int64_t)s->ffree);
		rc = done(st);
	}
	return rc;
}

static int insert_udp(sqlite3_stmt *st, int64_t iv, size_t k, const struct udp_counters *u)
{
	const int64_t v[] = { (int64_t)u->in_datagrams,
			      (int64_t)u->in_errors,
			      (int64_t)u->rcvbuf_errors,
			      (int64_t)u->in_datagrams6,
			      (int64_t)u->in_errors6,
			      (int64_t)u->rcvbuf_errors6,
			      u->has_v4,
			      u->has_v6 };

	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, (int64_t)k);
	for (int i = 0; i < 8; i++)
		sqlite3_bind_int64(st, 3 + i, v[i]);
	return done(st);
}

/* One socket a namespace's row names: its fullest listener or its most-dropping UDP socket. */
static int insert_sock(sqlite3_stmt *st, int64_t iv, size_t k, const char *kind, const char *addr,
		       unsigned port, uint64_t inode, uint64_t queue, uint64_t backlog,
		       bool has_backlog, uint64_t drops, pid_t pid)
{
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, (int64_t)k);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, addr, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, port);
	sqlite3_bind_int64(st, 6, (int64_t)inode);
	sqlite3_bind_int64(st, 7, (int64_t)queue);
	sqlite3_bind_int64(st, 8, (int64_t)backlog);
	sqlite3_bind_int(st, 9, has_backlog);
	sqlite3_bind_int64(st, 10, (int64_t)drops);
	sqlite3_bind_int64(st, 11, pid);
	return done(st);
}

static int insert_netns(struct record_more *m, int64_t iv, const struct report_host_snap *h)
{
	int rc = 0;

	for (size_t k = 0; k < h->nns && !rc; k++) {
		const struct rp_netns *ns = &h->ns[k];

		if (h->have_udp[k])
			rc = insert_udp(m->st[M_UDP], iv, k, &h->udp[k]);
		if (!rc && ns->has_full)
			rc = insert_sock(m->st[M_SOCK], iv, k, "listen", ns->full.addr,
					 ns->full.port, 0, ns->full.queue, ns->full.backlog,
					 ns->full.has_backlog, 0, ns->full.pid);
		if (!rc && ns->has_udp_top)
			rc = insert_sock(m->st[M_SOCK], iv, k, "udp", ns->udp_top.addr,
					 ns->udp_top.port, ns->udp_top.inode, 0, 0, false,
					 ns->udp_top.drops, ns->udp_top.pid);
	}
	return rc;
}

int record_more_insert(struct record_more *m, int64_t iv, const struct report_host_snap *h)
{
	int rc = insert_host_more(m->st[M_HOST], iv, h);

	if (!rc && h->have_softirqs)
		rc = insert_softirqs(m->st[M_SOFTIRQ], iv, &h->softirqs);
	if (!rc && h->have_softnet)
		rc = insert_softnet(m->st[M_SOFTNET], iv, &h->softnet);
	if (!rc && h->have_fs)
		rc = insert_fs(m->st[M_FS], iv, &h->fs);
	return rc ? rc : insert_netns(m, iv, h);
}

/* ---- reading one interval back ---- */

static void on_host_more(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;

	h->cpu.forks = (uint64_t)row_int(st, 0);
	h->have_files = !row_isnull(st, 1);
	h->files.allocated = (uint64_t)row_int(st, 1);
	h->files.max = (uint64_t)row_int(st, 2);
	h->have_caps = !row_isnull(st, 3);
	h->caps.pid_max = (uint64_t)row_int(st, 3);
	h->caps.threads_max = (uint64_t)row_int(st, 4);
	h->have_ct = !row_isnull(st, 5);
	h->ct.count = (uint64_t)row_int(st, 5);
	h->ct.max = (uint64_t)row_int(st, 6);
	h->have_fs = row_int(st, 7) != 0;
	h->have_softirqs = row_int(st, 8) != 0;
	h->have_softnet = row_int(st, 9) != 0;
}

static void on_softirq(void *ctx, sqlite3_stmt *st)
{
	struct softirqs *s = ctx;
	const char *p = row_text(st, 1);
	size_t v = s->nvec, c = 0;

	if (v >= SOFTIRQ_MAX_VECTORS)
		return;
	s->nvec++;
	snprintf(s->name[v], sizeof(s->name[v]), "%s", row_text(st, 0));
	while (*p && c < HOST_MAX_CPUS) {
		char *end;
		long cpu = strtol(p, &end, 10);

		if (end == p || *end != ':')
			break;
		s->cpu_id[c] = (int)cpu;
		s->count[v][c++] = strtoull(end + 1, &end, 10);
		p = end;
	}
	s->ncols = c;
}

static void on_softnet(void *ctx, sqlite3_stmt *st)
{
	struct softnet *s = ctx;
	struct softnet_cpu *c;

	if (s->n >= HOST_MAX_CPUS)
		return;
	c = &s->c[s->n++];
	c->cpu = (int)row_int(st, 0);
	ROW_U64S(st, 1, &c->processed, &c->dropped, &c->time_squeeze);
}

static void on_fs(void *ctx, sqlite3_stmt *st)
{
	struct fs_usages *f = ctx;
	struct fs_usage *u;

	if (f->n >= FS_MAX_MOUNTS)
		return;
	u = &f->u[f->n++];
	memset(u, 0, sizeof(*u));
	u->m.id = (int)row_int(st, 0);
	u->m.major = (unsigned)row_int(st, 1);
	u->m.minor = (unsigned)row_int(st, 2);
	snprintf(u->m.mnt, sizeof(u->m.mnt), "%s", row_text(st, 3));
	snprintf(u->m.fstype, sizeof(u->m.fstype), "%s", row_text(st, 4));
	snprintf(u->m.source, sizeof(u->m.source), "%s", row_text(st, 5));
	u->m.readonly = row_int(st, 6) != 0;
	ROW_U64S(st, 7, &u->s.frsize, &u->s.blocks, &u->s.bfree, &u->s.bavail, &u->s.files,
		 &u->s.ffree);
}

static void on_udp(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	size_t k = (size_t)row_int(st, 0);
	struct udp_counters *u;

	if (k >= h->nns)
		return;
	u = &h->udp[k];
	ROW_U64S(st, 1, &u->in_datagrams, &u->in_errors, &u->rcvbuf_errors, &u->in_datagrams6,
		 &u->in_errors6, &u->rcvbuf_errors6);
	u->has_v4 = row_int(st, 7) != 0;
	u->has_v6 = row_int(st, 8) != 0;
	h->have_udp[k] = true;
}

static void on_sock(void *ctx, sqlite3_stmt *st)
{
	struct report_host_snap *h = ctx;
	size_t k = (size_t)row_int(st, 0);
	struct rp_netns *ns;

	if (k >= h->nns)
		return;
	ns = &h->ns[k];
	if (!strcmp(row_text(st, 1), "listen")) {
		snprintf(ns->full.addr, sizeof(ns->full.addr), "%s", row_text(st, 2));
		ns->full.port = (unsigned)row_int(st, 3);
		ns->full.queue = (uint64_t)row_int(st, 5);
		ns->full.backlog = (uint64_t)row_int(st, 6);
		ns->full.has_backlog = row_int(st, 7) != 0;
		ns->full.pid = (pid_t)row_int(st, 9);
		ns->has_full = true;
	} else {
		snprintf(ns->udp_top.addr, sizeof(ns->udp_top.addr), "%s", row_text(st, 2));
		ns->udp_top.port = (unsigned)row_int(st, 3);
		ns->udp_top.inode = (uint64_t)row_int(st, 4);
		ns->udp_top.drops = (uint64_t)row_int(st, 8);
		ns->udp_top.pid = (pid_t)row_int(st, 9);
		ns->has_udp_top = true;
	}
}

int record_more_load(sqlite3 *db, int64_t iv, struct report_host_snap *h)
{
	int rc =
	    row_each(db,
		     "SELECT forks, files_alloc, files_max, pid_max, threads_max, ct_count,"
		     " ct_max, fs_read, softirqs_read, softnet_read FROM host_more WHERE iv = ?1",
		     iv, on_host_more, h);

	rc = rc ? rc
		: row_each(db, "SELECT vector, counts FROM softirq WHERE iv = ?1 ORDER BY k", iv,
			   on_softirq, &h->softirqs);
	rc = rc ? rc
		: row_each(db,
			   "SELECT cpu, processed, dropped, time_squeeze FROM softnet WHERE iv = ?1"
			   " ORDER BY k",
			   iv, on_softnet, &h->softnet);
	rc = rc ? rc
		: row_each(db,
			   "SELECT mnt_id, major, minor, mnt, fstype, source, readonly, frsize,"
			   " blocks, bfree, bavail, files, ffree FROM fs WHERE iv = ?1 ORDER BY k",
			   iv, on_fs, &h->fs);
	rc = rc ? rc
		: row_each(db,
			   "SELECT ns, in_datagrams, in_errors, rcvbuf_errors, in_datagrams6,"
			   " in_errors6, rcvbuf_errors6, has_v4, has_v6 FROM udp WHERE iv = ?1",
			   iv, on_udp, h);
	return rc ? rc
		  : row_each(
			db,
			"SELECT ns, kind, addr, port, inode, queue, backlog, has_backlog, drops,"
			" pid FROM sock WHERE iv = ?1",
			iv, on_sock, h);
}

/* ---- what the report asks at a window's end ---- */

int record_more_mark_end(sqlite3 *db, int64_t iv)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO window_end VALUES(?)", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, iv);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return rc;
}

bool record_more_has_end(sqlite3 *db, int64_t iv)
{
	sqlite3_stmt *st;
	bool yes;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM window_end WHERE iv = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return false; /* a file older than schema 5 */
	sqlite3_bind_int64(st, 1, iv);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* Runs sql with ?1 = iv, ?2 = key and binds vals from ?3 on; 0 or -EIO. */
static int put(sqlite3 *db, const char *sql, int64_t iv, int64_t key, const int64_t *vals, int n,
	       const char *text)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, key);
	for (int i = 0; i < n; i++)
		sqlite3_bind_int64(st, 3 + i, vals[i]);
	if (text)
		sqlite3_bind_text(st, 3 + n, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return rc;
}

/* The one row of sql (?1 = iv, ?2 = key) into vals (n integer columns); -ENOENT when none. */
static int get(sqlite3 *db, const char *sql, int64_t iv, int64_t key, int64_t *vals, int n,
	       char *text, size_t size)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, iv);
	sqlite3_bind_int64(st, 2, key);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			vals[i] = row_int(st, i);
		if (text)
			snprintf(text, size, "%s", row_text(st, n));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : -EIO;
}

/*
 * Only a process at FD_WARN_PCT of its limit or more is kept: the report
 * passes over the others, so a replay that finds no row says the same.
 */
int record_more_put_fd(sqlite3 *db, int64_t iv, pid_t pid, const struct fd_usage *u)
{
	const int64_t v[] = { u->open, (int64_t)u->soft, (int64_t)u->hard };

	if (u->soft == LIMIT_NONE || !u->soft || 100.0 * u->open / (double)u->soft < FD_WARN_PCT)
		return 0;
	return put(db, "INSERT OR REPLACE INTO fd_usage VALUES(?1, ?2, ?3, ?4, ?5)", iv, pid, v, 3,
		   NULL);
}

int record_more_get_fd(sqlite3 *db, int64_t iv, pid_t pid, struct fd_usage *u)
{
	int64_t v[3];
	int rc = get(db, "SELECT open, soft, hard FROM fd_usage WHERE iv = ?1 AND tgid = ?2", iv,
		     pid, v, 3, NULL, 0);

	if (!rc) {
		u->open = (unsigned)v[0];
		u->soft = (uint64_t)v[1];
		u->hard = (uint64_t)v[2];
	}
	return rc;
}

int record_more_put_futex(sqlite3 *db, int64_t iv, pid_t pid, const struct futex_waiters *f)
{
	const int64_t v[] = { f->threads, f->waiting, f->same_word, f->no_word };

	return put(db, "INSERT OR REPLACE INTO futex VALUES(?1, ?2, ?3, ?4, ?5, ?6)", iv, pid, v, 4,
		   NULL);
}

int record_more_get_futex(sqlite3 *db, int64_t iv, pid_t pid, struct futex_waiters *f)
{
	int64_t v[4];
	int rc = get(db,
		     "SELECT threads, waiting, same_word, no_word FROM futex WHERE iv = ?1 AND"
		     " tgid = ?2",
		     iv, pid, v, 4, NULL, 0);

	if (!rc) {
		f->threads = (unsigned)v[0];
		f->waiting = (unsigned)v[1];
		f->same_word = (unsigned)v[2];
		f->no_word = (unsigned)v[3];
	}
	return rc;
}

int record_more_put_writers(sqlite3 *db, int64_t iv, int mnt_id, const pid_t *pids, size_t n)
{
	char text[RP_MAX_PIDS * 12] = "";
	size_t used = 0;

	for (size_t i = 0; i < n && used < sizeof(text); i++) {
		int k =
		    snprintf(text + used, sizeof(text) - used, "%s%d", i ? "," : "", (int)pids[i]);

		if (k < 0)
			break;
		used += (size_t)k;
	}
	return put(db, "INSERT OR REPLACE INTO fs_writer VALUES(?1, ?2, ?3)", iv, mnt_id, NULL, 0,
		   text);
}

int record_more_get_writers(sqlite3 *db, int64_t iv, int mnt_id, pid_t *pids, size_t max, size_t *n)
{
	char text[RP_MAX_PIDS * 12];
	const char *p = text;
	int rc = get(db, "SELECT pids FROM fs_writer WHERE iv = ?1 AND mnt_id = ?2", iv, mnt_id,
		     NULL, 0, text, sizeof(text));

	*n = 0;
	while (!rc && *p && *n < max) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		pids[(*n)++] = (pid_t)pid;
		p = *end == ',' ? end + 1 : end;
	}
	return rc;
}
