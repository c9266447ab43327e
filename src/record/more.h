/*
 * Internal to src/record: the schema 5 tables (more.c), what the report's
 * window source carries beyond the counters of schemas 1 to 4, written by
 * the recorder and read back by a replay through the same layout.
 */
#ifndef TRIAGE_RECORD_MORE_H
#define TRIAGE_RECORD_MORE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "report/source.h"

struct sqlite3;
struct sqlite3_stmt;

enum { M_HOST, M_SOFTIRQ, M_SOFTNET, M_FS, M_UDP, M_SOCK, M_COUNT };

/* The per-interval statements, prepared once. */
struct record_more {
	struct sqlite3_stmt *st[M_COUNT];
};

int record_more_open(struct record_more *m, struct sqlite3 *db);
void record_more_close(struct record_more *m);
/* What h holds beyond the schema 4 tables, as interval iv's rows; 0 or -EIO. */
int record_more_insert(struct record_more *m, int64_t iv, const struct report_host_snap *h);
/* Interval iv's rows into h (its namespaces already loaded from tcp); 0 or -EIO. */
int record_more_load(struct sqlite3 *db, int64_t iv, struct report_host_snap *h);

/* Marks iv as a window's end whose end-of-window reads below were stored. */
int record_more_mark_end(struct sqlite3 *db, int64_t iv);
bool record_more_has_end(struct sqlite3 *db, int64_t iv);
/* A window end's reads, kept (put) and read back (get: -ENOENT when none). */
int record_more_put_fd(struct sqlite3 *db, int64_t iv, pid_t pid, const struct fd_usage *u);
int record_more_get_fd(struct sqlite3 *db, int64_t iv, pid_t pid, struct fd_usage *u);
int record_more_put_futex(struct sqlite3 *db, int64_t iv, pid_t pid, const struct futex_waiters *f);
int record_more_get_futex(struct sqlite3 *db, int64_t iv, pid_t pid, struct futex_waiters *f);
int record_more_put_writers(struct sqlite3 *db, int64_t iv, int mnt_id, const pid_t *pids,
			    size_t n);
int record_more_get_writers(struct sqlite3 *db, int64_t iv, int mnt_id, pid_t *pids, size_t max,
			    size_t *n);

#endif
