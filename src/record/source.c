/*
 * The recorded samples as a pidstat_source: the pidstat core asks for the
 * listings and per-task reads it would make of /proc, and gets the rows of
 * the interval the replay clock is at. Everything else (which tasks show,
 * the deltas, the columns, JSON) is the core's own code.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "pidstat/pidstat.h"
#include "record/internal.h"
#include "record/record.h"
#include "util/grow.h"
#include "util/kmerge.h"

struct rrow {
	int64_t id; /* task id */
	pid_t tgid, tid;
	int thread;
	struct pidstat_task_raw raw;
};

struct pidstat_replay {
	struct pidstat_source src;
	sqlite3 *db;
	sqlite3_stmt *rows, *iv, *last;
	sqlite3_stmt *cmdline; /* NULL: a schema 1 file, no command lines */
	const struct record_window *w;
	const int *step;
	int loaded;	   /* the step tab holds, 0: none */
	struct kmerge tab; /* struct rrow: the loaded step's rows, by cmp_row */
	int64_t *carried;
	size_t ncarried, cap_carried;
	uint64_t uptime_cs, jiffies, memtotal_kb;
	bool have_jiffies, have_memtotal;
};

static int cmp_key(pid_t ta, int tha, pid_t ia, pid_t tb, int thb, pid_t ib)
{
	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (tha != thb)
		return tha < thb ? -1 : 1;
	return (ia > ib) - (ia < ib);
}

static int64_t col(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static void row_raw(sqlite3_stmt *st, struct rrow *x)
{
	struct pidstat_snap *s = &x->raw.snap;
	const unsigned char *comm = sqlite3_column_text(st, 4);
	const unsigned char *state = sqlite3_column_text(st, 31);

	memset(x, 0, sizeof(*x));
	x->tgid = (pid_t)col(st, 0);
	x->tid = (pid_t)col(st, 1);
	x->thread = (int)col(st, 2);
	x->raw.start = (uint64_t)col(st, 3);
	snprintf(x->raw.comm, sizeof(x->raw.comm), "%s", comm ? (const char *)comm : "");
	x->raw.uid = (unsigned)col(st, 5);
	s->utime = (uint64_t)col(st, 6);
	s->stime = (uint64_t)col(st, 7);
	s->gtime = (uint64_t)col(st, 8);
	s->wtime = (uint64_t)col(st, 9);
	s->cutime = col(st, 10);
	s->cstime = col(st, 11);
	s->cgtime = col(st, 12);
	s->minflt = (uint64_t)col(st, 13);
	s->majflt = (uint64_t)col(st, 14);
	s->cminflt = (uint64_t)col(st, 15);
	s->cmajflt = (uint64_t)col(st, 16);
	s->vsz = (uint64_t)col(st, 17);
	s->rss = (uint64_t)col(st, 18);
	s->blkio = (uint64_t)col(st, 19);
	s->read_bytes = (uint64_t)col(st, 20);
	s->write_bytes = (uint64_t)col(st, 21);
	s->cancelled_write_bytes = (uint64_t)col(st, 22);
	x->raw.no_io = col(st, 23) != 0;
	s->nvcsw = (uint64_t)col(st, 24);
	s->nivcsw = (uint64_t)col(st, 25);
	x->raw.nthreads = (unsigned)col(st, 26);
	s->threads = x->raw.nthreads;
	s->processor = (unsigned)col(st, 27);
	s->priority = (unsigned)col(st, 28);
	s->policy = (unsigned)col(st, 29);
	x->raw.state = state && state[0] ? (char)state[0] : '?';
	x->raw.ppid = (pid_t)col(st, 30);
	x->id = col(st, 32);
	s->anon_ok = sqlite3_column_type(st, 33) != SQLITE_NULL;
	s->rss_anon = (uint64_t)col(st, 33);
}

static int cmp_row(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;

	return cmp_key(x->tgid, x->thread, x->tid, y->tgid, y->thread, y->tid);
}

static int cmp_row_id(const void *a, const void *b)
{
	const struct rrow *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int record_carried_decode(const unsigned char *b, int len, int64_t **ids, size_t *n, size_t *cap)
{
	int64_t id = 0;
	int i = 0;

	while (i < len) {
		uint64_t d = 0;
		int shift = 0;

		do {
			if (i >= len || shift > 63)
				return -EINVAL;
			d |= (uint64_t)(b[i] & 0x7f) << shift;
			shift += 7;
		} while (b[i++] & 0x80);
		id += (int64_t)d;
		if (util_grow(ids, cap, *n + 1, sizeof(**ids)))
			return -ENOMEM;
		(*ids)[(*n)++] = id;
	}
	return 0;
}

static int decode_carried(struct pidstat_replay *p, const unsigned char *b, int len)
{
	p->ncarried = 0;
	return record_carried_decode(b, len, &p->carried, &p->ncarried, &p->cap_carried);
}

static int push_row(struct pidstat_replay *p, const struct rrow *x)
{
	return kmerge_append(&p->tab, x);
}

/* Row i of the loaded step. */
static const struct rrow *row_at(const struct pidstat_replay *p, size_t i)
{
	return kmerge_at(&p->tab, i);
}

/* A carried task: its row of the previous step, else its last stored row. */
static int carried_row(struct pidstat_replay *p, int64_t iv, int64_t id, bool have_prev)
{
	struct rrow key = { .id = id }, x;
	const struct rrow *found = have_prev ? kmerge_find(&p->tab, &key, cmp_row_id) : NULL;
	int rc;

	if (found)
		return push_row(p, found);
	sqlite3_bind_int64(p->last, 1, id);
	sqlite3_bind_int64(p->last, 2, iv);
	rc = sqlite3_step(p->last);
	if (rc == SQLITE_ROW)
		row_raw(p->last, &x);
	sqlite3_reset(p->last);
	if (rc == SQLITE_DONE)
		return 0; /* a damaged file: no row to carry */
	return rc == SQLITE_ROW ? push_row(p, &x) : -EIO;
}

static int load_interval(struct pidstat_replay *p, int64_t iv)
{
	int rc;

	sqlite3_bind_int64(p->iv, 1, iv);
	rc = sqlite3_step(p->iv);
	if (rc == SQLITE_ROW) {
		p->uptime_cs = (uint64_t)col(p->iv, 0);
		p->have_jiffies = sqlite3_column_type(p->iv, 1) != SQLITE_NULL;
		p->jiffies = (uint64_t)col(p->iv, 1);
		p->have_memtotal = sqlite3_column_type(p->iv, 2) != SQLITE_NULL;
		p->memtotal_kb = (uint64_t)col(p->iv, 2);
		if (decode_carried(p, sqlite3_column_blob(p->iv, 3),
				   sqlite3_column_bytes(p->iv, 3)))
			rc = SQLITE_CORRUPT;
	}
	sqlite3_reset(p->iv);
	return rc == SQLITE_ROW ? 0 : -EIO;
}

/* Makes the current step's rows the loaded ones. */
static int load(struct pidstat_replay *p)
{
	int step = *p->step, rc;
	bool have_prev;
	int64_t iv;

	if (step == p->loaded)
		return 0;
	if (step < 1 || (size_t)step > p->w->n)
		return -ENOENT;
	iv = p->w->ids[step - 1];
	if ((rc = load_interval(p, iv)))
		return rc;
	/* the previous step's rows, by task id, for the carried ones */
	have_prev = p->loaded && p->loaded == step - 1;
	p->loaded = 0;
	kmerge_begin(&p->tab);
	if (have_prev)
		kmerge_sort_last(&p->tab, cmp_row_id);
	sqlite3_bind_int64(p->rows, 1, iv);
	while ((rc = sqlite3_step(p->rows)) == SQLITE_ROW) {
		struct rrow x;

		row_raw(p->rows, &x);
		if (push_row(p, &x)) {
			sqlite3_reset(p->rows);
			return -ENOMEM;
		}
	}
	sqlite3_reset(p->rows);
	if (rc != SQLITE_DONE)
		return -EIO;
	for (size_t i = 0; i < p->ncarried; i++)
		if ((rc = carried_row(p, iv, p->carried[i], have_prev)))
			return rc;
	kmerge_sort_next(&p->tab, cmp_row);
	kmerge_end(&p->tab);
	p->loaded = step;
	return 0;
}

/* The first row at or after the key. */
static size_t lower_bound(const struct pidstat_replay *p, pid_t tgid, int thread, pid_t tid)
{
	const struct rrow key = { .tgid = tgid, .thread = thread, .tid = tid };

	return kmerge_lower_bound(&p->tab, &key, cmp_row);
}

static int append_id(struct id_list *out, pid_t id)
{
	if (util_grow(&out->ids, &out->cap, out->len + 1, sizeof(*out->ids)))
		return -ENOMEM;
	out->ids[out->len++] = id;
	return 0;
}

static int list_pids(void *ctx, struct id_list *out)
{
	struct pidstat_replay *p = ctx;
	int rc = load(p);

	out->len = 0;
	for (size_t i = 0; !rc && i < p->tab.nlast; i++)
		if (!row_at(p, i)->thread)
			rc = append_id(out, row_at(p, i)->tgid);
	return rc;
}

static int list_tids(void *ctx, pid_t pid, struct id_list *out)
{
	struct pidstat_replay *p = ctx;
	int rc = load(p);

	out->len = 0;
	if (rc)
		return rc;
	for (size_t i = lower_bound(p, pid, 1, 0);
	     !rc && i < p->tab.nlast && row_at(p, i)->tgid == pid && row_at(p, i)->thread; i++)
		rc = append_id(out, row_at(p, i)->tid);
	return rc ? rc : out->len ? 0 : -ENOENT;
}

/* The current step's row of a task; NULL when it has none. */
static const struct rrow *find_row(struct pidstat_replay *p, pid_t tgid, int thread, pid_t tid)
{
	const struct rrow key = { .tgid = tgid, .thread = thread, .tid = tid };

	if (load(p))
		return NULL;
	return kmerge_find(&p->tab, &key, cmp_row);
}

static int read_task(void *ctx, pid_t tgid, pid_t tid, bool thread, struct pidstat_task_raw *out)
{
	const struct rrow *x = find_row(ctx, tgid, thread, tid);

	if (!x)
		return -ESRCH;
	*out = x->raw;
	return 0;
}

static int read_system(void *ctx, uint64_t *uptime_cs, uint64_t *tot_jiffies)
{
	struct pidstat_replay *p = ctx;
	int rc = load(p);

	if (rc)
		return rc;
	*uptime_cs = p->uptime_cs;
	if (p->have_jiffies)
		*tot_jiffies = p->jiffies;
	return 0;
}

static int read_memtotal(void *ctx, uint64_t *kb)
{
	struct pidstat_replay *p = ctx;
	int rc = load(p);

	if (rc || !p->have_memtotal)
		return rc ? rc : -ENOENT;
	*kb = p->memtotal_kb;
	return 0;
}

/* The command line of tgid's process row at the current step (NULL: -ENOENT). */
static int read_cmdline(void *ctx, pid_t tgid, char *buf, size_t size)
{
	struct pidstat_replay *p = ctx;
	const struct rrow *x = find_row(p, tgid, 0, tgid);
	const unsigned char *text = NULL;

	if (!x)
		return -ENOENT;
	sqlite3_bind_int64(p->cmdline, 1, x->id);
	if (sqlite3_step(p->cmdline) == SQLITE_ROW)
		text = sqlite3_column_text(p->cmdline, 0);
	if (text)
		snprintf(buf, size, "%s", (const char *)text);
	sqlite3_reset(p->cmdline);
	return text ? 0 : -ENOENT;
}

/*
 * PPID: the parent's column (schema 5: s.ppid, before it 0, not known);
 * ANON: RssAnon's (schema 6: s.rss_anon_kb, before it NULL, not known)
 */
#define ROW_SQL(PPID, ANON)                                                                    \
	"SELECT t.tgid, t.tid, t.thread, t.start, t.comm, t.uid, s.utime, s.stime, s.gtime,"   \
	" s.wtime, s.cutime, s.cstime, s.cgtime, s.minflt, s.majflt, s.cminflt, s.cmajflt,"    \
	" s.vsz_kb, s.rss_kb, s.blkio, s.read_bytes, s.write_bytes, s.cancelled_write_bytes,"  \
	" s.no_io, s.nvcsw, s.nivcsw, s.nthreads, s.processor, s.rt_priority, s.policy, " PPID \
	", s.state, s.task, " ANON " FROM sample s JOIN task t ON t.id = s.task"
#define ROWS_AT " WHERE s.iv = ?"
/* a file's rows by its schema: 6 has both columns, 5 the parent, older neither */
#define ROW_SQL6 ROW_SQL("coalesce(s.ppid, 0)", "s.rss_anon_kb")
#define ROW_SQL5 ROW_SQL("coalesce(s.ppid, 0)", "NULL")
#define ROW_SQL1 ROW_SQL("0", "NULL")
#define LAST_ROW " WHERE s.task = ?1 AND s.iv < ?2 ORDER BY s.iv DESC LIMIT 1"

int record_replay_open(struct pidstat_replay **out, sqlite3 *db, const struct record_window *w,
		       const int *step, const struct pidstat_source **src)
{
	struct pidstat_replay *p = calloc(1, sizeof(*p));
	int v = record_db_version(db);

	if (!p)
		return -ENOMEM;
	p->db = db;
	kmerge_init(&p->tab, sizeof(struct rrow));
	p->w = w;
	p->step = step;
	if (sqlite3_prepare_v2(db,
			       v >= 6	? ROW_SQL6 ROWS_AT
			       : v == 5 ? ROW_SQL5 ROWS_AT
					: ROW_SQL1 ROWS_AT,
			       -1, &p->rows, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       v >= 6	? ROW_SQL6 LAST_ROW
			       : v == 5 ? ROW_SQL5 LAST_ROW
					: ROW_SQL1 LAST_ROW,
			       -1, &p->last, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db,
			       "SELECT uptime_cs, jiffies, memtotal_kb, carried FROM interval"
			       " WHERE id = ?",
			       -1, &p->iv, NULL) != SQLITE_OK) {
		record_replay_close(p);
		return -EIO;
	}
	p->src = (struct pidstat_source){ .ctx = p,
					  .list_pids = list_pids,
					  .list_tids = list_tids,
					  .read_task = read_task,
					  .read_system = read_system,
					  .read_memtotal = read_memtotal };
	if (record_db_version(db) >= 2) {
		if (sqlite3_prepare_v2(db, "SELECT cmdline FROM task WHERE id = ?", -1, &p->cmdline,
				       NULL) != SQLITE_OK) {
			record_replay_close(p);
			return -EIO;
		}
		p->src.read_cmdline = read_cmdline;
	}
	*src = &p->src;
	*out = p;
	return 0;
}

void record_replay_close(struct pidstat_replay *p)
{
	if (!p)
		return;
	sqlite3_finalize(p->rows);
	sqlite3_finalize(p->last);
	sqlite3_finalize(p->iv);
	sqlite3_finalize(p->cmdline);
	kmerge_release(&p->tab);
	free(p->carried);
	free(p);
}
