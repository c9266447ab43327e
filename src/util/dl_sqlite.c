/*
 * SQLite at first use (src/util/dlib.h): only record, replay and plot read
 * or write a recording. Linked in (statically or not), SQLite's function
 * and module tables cost every command, pidstat and version included, about
 * 1,800 relocations over six pages the loader must copy, and they pulled in
 * libm for SQLite's math functions (docs/performance.md, start-up). The
 * functions triage calls, one line each; add a line for a new one.
 */
#include <sqlite3.h>

#include "util/dlib.h"

#ifndef TRIAGE_SQLITE_SONAME
#define TRIAGE_SQLITE_SONAME "libsqlite3.so.0"
#endif

static struct dlib sqlite_lib = {
	.soname = TRIAGE_SQLITE_SONAME,
	.package = "libsqlite3-0",
	.what = "recordings (triage record, replay and plot)",
};

/* Opening and closing a database. */
DLIB_SHIM(sqlite_lib, int, sqlite3_open_v2,
	  (const char *filename, sqlite3 **db, int flags, const char *vfs),
	  (filename, db, flags, vfs))
DLIB_SHIM(sqlite_lib, int, sqlite3_close, (sqlite3 * db), (db))
DLIB_SHIM(sqlite_lib, int, sqlite3_busy_timeout, (sqlite3 * db, int ms), (db, ms))
DLIB_SHIM(sqlite_lib, const char *, sqlite3_db_filename, (sqlite3 * db, const char *name),
	  (db, name))
DLIB_SHIM(sqlite_lib, int, sqlite3_exec,
	  (sqlite3 * db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
	   char **errmsg),
	  (db, sql, cb, arg, errmsg))

/* Errors. */
DLIB_SHIM(sqlite_lib, const char *, sqlite3_errmsg, (sqlite3 * db), (db))
DLIB_SHIM(sqlite_lib, int, sqlite3_errcode, (sqlite3 * db), (db))
DLIB_SHIM(sqlite_lib, int, sqlite3_system_errno, (sqlite3 * db), (db))
DLIB_SHIM(sqlite_lib, sqlite3_int64, sqlite3_last_insert_rowid, (sqlite3 * db), (db))

/* Statements. */
DLIB_SHIM(sqlite_lib, int, sqlite3_prepare_v2,
	  (sqlite3 * db, const char *sql, int len, sqlite3_stmt **stmt, const char **tail),
	  (db, sql, len, stmt, tail))
DLIB_SHIM(sqlite_lib, int, sqlite3_prepare_v3,
	  (sqlite3 * db, const char *sql, int len, unsigned flags, sqlite3_stmt **stmt,
	   const char **tail),
	  (db, sql, len, flags, stmt, tail))
DLIB_SHIM(sqlite_lib, int, sqlite3_step, (sqlite3_stmt * s), (s))
DLIB_SHIM(sqlite_lib, int, sqlite3_reset, (sqlite3_stmt * s), (s))
DLIB_SHIM(sqlite_lib, int, sqlite3_finalize, (sqlite3_stmt * s), (s))
DLIB_SHIM(sqlite_lib, int, sqlite3_clear_bindings, (sqlite3_stmt * s), (s))

/* Parameters. */
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_parameter_count, (sqlite3_stmt * s), (s))
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_int, (sqlite3_stmt * s, int i, int v), (s, i, v))
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_int64, (sqlite3_stmt * s, int i, sqlite3_int64 v),
	  (s, i, v))
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_double, (sqlite3_stmt * s, int i, double v), (s, i, v))
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_text,
	  (sqlite3_stmt * s, int i, const char *v, int len, void (*del)(void *)),
	  (s, i, v, len, del))
DLIB_SHIM(sqlite_lib, int, sqlite3_bind_blob,
	  (sqlite3_stmt * s, int i, const void *v, int len, void (*del)(void *)),
	  (s, i, v, len, del))

/* Result columns. */
DLIB_SHIM(sqlite_lib, int, sqlite3_column_count, (sqlite3_stmt * s), (s))
DLIB_SHIM(sqlite_lib, int, sqlite3_column_type, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, int, sqlite3_column_int, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, double, sqlite3_column_double, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, const unsigned char *, sqlite3_column_text, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, const void *, sqlite3_column_blob, (sqlite3_stmt * s, int i), (s, i))
DLIB_SHIM(sqlite_lib, int, sqlite3_column_bytes, (sqlite3_stmt * s, int i), (s, i))
