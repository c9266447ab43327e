/* Internal to src/record: small SQLite helpers shared by its files. */
#ifndef TRIAGE_RECORD_INTERNAL_H
#define TRIAGE_RECORD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

/* Runs sql (one or more statements); 0 or -EIO. */
int record_exec(struct sqlite3 *db, const char *sql);
/* The first column of the first row of sql; -ENOENT when there is no row. */
int record_query_i64(struct sqlite3 *db, const char *sql, int64_t *out);
int record_meta_set(struct sqlite3 *db, const char *key, const char *value);
/* meta's value for key into buf ("" and -ENOENT when absent). */
int record_meta_get(struct sqlite3 *db, const char *key, char *buf, size_t size);

/*
 * interval.carried: the threads an interval carries over unchanged from
 * their last stored row, ascending task ids as LEB128 varints of their
 * differences. Appends to *ids (grown by util_grow); 0, -EINVAL, -ENOMEM.
 */
int record_carried_decode(const unsigned char *blob, int len, int64_t **ids, size_t *n,
			  size_t *cap);

struct record_window;
/* The intervals with ids a..b (window.c). */
int record_window_ids(struct sqlite3 *db, int64_t a, int64_t b, struct record_window *w);

struct task_sampler;
struct procfs;
/*
 * Evaluates the report's rules over the window of intervals from..to and
 * stores the findings. live: the recorder's sampler, fed each interval of
 * that window (the task figures come from it); NULL: read back from db.
 * pf: the recorder's /proc, where the busiest processes' allowed CPUs and
 * cgroups are read at the window's end and stored (table placement).
 */
int record_findings(struct sqlite3 *db, int64_t from, int64_t to, struct task_sampler *live,
		    const struct procfs *pf);

#endif
