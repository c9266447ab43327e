/* Choosing the recorded intervals of a replay, and the host facts behind them. */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/internal.h"
#include "record/record.h"
#include "util/grow.h"
#include "util/mathx.h"

static long meta_long(sqlite3 *db, const char *key, long dflt)
{
	char buf[64], *end;
	long v;

	if (record_meta_get(db, key, buf, sizeof(buf)))
		return dflt;
	v = strtol(buf, &end, 10);
	return end != buf ? v : dflt;
}

static void meta_str(sqlite3 *db, const char *key, char *buf, size_t size)
{
	record_meta_get(db, key, buf, size);
}

static void load_host(sqlite3 *db, struct record_window *w)
{
	struct host_facts *h = &w->host;

	memset(h, 0, sizeof(*h));
	h->hz = meta_long(db, "hz", 100);
	h->pagesize = meta_long(db, "pagesize", 4096);
	h->ncpu = (int)meta_long(db, "ncpu", 1);
	/* a damaged or foreign file: figures the cores can divide by */
	if (h->hz <= 0 || h->hz > 100000)
		h->hz = 100;
	if (h->pagesize < 1024 || h->pagesize > (1L << 30))
		h->pagesize = 4096;
	if (h->ncpu < 0 || h->ncpu > 65536)
		h->ncpu = 0;
	meta_str(db, "sysname", h->sysname, sizeof(h->sysname));
	meta_str(db, "release", h->release, sizeof(h->release));
	meta_str(db, "nodename", h->nodename, sizeof(h->nodename));
	meta_str(db, "machine", h->machine, sizeof(h->machine));
	/* samples come from the file: no live kernel behind them */
	h->fixture = true;
	w->recorder = (pid_t)meta_long(db, "recorder_pid", 0);
}

void record_window_release(struct record_window *w)
{
	free(w->ids);
	free(w->times);
	free(w->ts);
	memset(w, 0, sizeof(*w));
}

static int append(struct record_window *w, size_t *cap, int64_t id, double ts)
{
	size_t c1 = *cap, c2 = *cap, c3 = *cap;

	if (util_grow(&w->ids, &c1, w->n + 1, sizeof(*w->ids)) ||
	    util_grow(&w->times, &c2, w->n + 1, sizeof(*w->times)) ||
	    util_grow(&w->ts, &c3, w->n + 1, sizeof(*w->ts)))
		return -ENOMEM;
	*cap = c1 < c2 ? (c1 < c3 ? c1 : c3) : (c2 < c3 ? c2 : c3);
	w->ids[w->n] = id;
	w->times[w->n] = (time_t)util_floor(ts);
	w->ts[w->n] = ts;
	w->n++;
	return 0;
}

int record_window_select(sqlite3 *db, double from, double to, struct record_window *w)
{
	sqlite3_stmt *st;
	int64_t run;
	size_t cap = 0;
	int rc;

	memset(w, 0, sizeof(*w));
	if (sqlite3_prepare_v2(db,
			       "SELECT run FROM interval WHERE ts >= ?1 AND ts <= ?2"
			       " ORDER BY id DESC LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_double(st, 1, isnan(from) ? -INFINITY : from);
	sqlite3_bind_double(st, 2, isnan(to) ? INFINITY : to);
	rc = sqlite3_step(st);
	run = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? -ENOENT : -EIO;
	if (sqlite3_prepare_v2(db,
			       "SELECT id, ts FROM interval WHERE run = ?3 AND ts >= ?1 AND"
			       " ts <= ?2 ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_double(st, 1, isnan(from) ? -INFINITY : from);
	sqlite3_bind_double(st, 2, isnan(to) ? INFINITY : to);
	sqlite3_bind_int64(st, 3, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (append(w, &cap, sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1))) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE || !w->n) {
		record_window_release(w);
		return rc == SQLITE_NOMEM ? -ENOMEM : rc == SQLITE_DONE ? -ENOENT : -EIO;
	}
	load_host(db, w);
	return 0;
}

/* The run's intervals from id a to id b, for the findings of a window. */
int record_window_ids(sqlite3 *db, int64_t a, int64_t b, struct record_window *w)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;

	memset(w, 0, sizeof(*w));
	if (sqlite3_prepare_v2(db,
			       "SELECT id, ts FROM interval WHERE id >= ? AND id <= ? ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, a);
	sqlite3_bind_int64(st, 2, b);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (append(w, &cap, sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1))) {
			rc = SQLITE_NOMEM;
			break;
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		record_window_release(w);
		return rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
	}
	load_host(db, w);
	return 0;
}
