/* Reading rows back from a recording: the column accessors and the
 * per-interval row loop that history.c and more.c share. Internal to
 * src/record. */
#ifndef TRIAGE_RECORD_ROWS_H
#define TRIAGE_RECORD_ROWS_H

#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

static inline int64_t row_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_int64(st, i);
}

static inline bool row_isnull(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

/* A NULL text column reads as "" (callers copy it with "%s"). */
static inline const char *row_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

/* Columns first, first + 1, ... into the counters dst points at, in order. */
static inline void row_u64s(sqlite3_stmt *st, int first, uint64_t *const *dst, int n)
{
	for (int i = 0; i < n; i++)
		*dst[i] = (uint64_t)row_int(st, first + i);
}

/* row_u64s over a list of counters: ROW_U64S(st, 1, &d->a, &d->b). */
#define ROW_U64S(st, first, ...)                                \
	row_u64s(st, first, (uint64_t *const[]){ __VA_ARGS__ }, \
		 (int)(sizeof((uint64_t *const[]){ __VA_ARGS__ }) / sizeof(uint64_t *)))

/* Runs sql with ?1 = iv, calling fn for each row; 0 or -EIO. */
static inline int row_each(sqlite3 *db, const char *sql, int64_t iv,
			   void (*fn)(void *, sqlite3_stmt *), void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, iv);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

#endif
