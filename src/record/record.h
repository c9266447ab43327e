/*
 * triage record and triage replay: history in SQLite (docs/record.md).
 *   schema.c   the versioned schema, its views, opening a file
 *   record.c   sampling (pidstat core, procfs host readers, load core) into one
 *              transaction per interval, retention, the findings of each window
 *   source.c   reading a window back: the pidstat core's sample source, and
 *   window.c   the report's and the load explainer's data over a window
 *   times.c    --from/--to: ISO 8601 and relative times
 * Nothing here exits or prints outside the renderers it calls; functions
 * return 0 or -errno.
 */
#ifndef TRIAGE_RECORD_H
#define TRIAGE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "procfs/host.h"

/*
 * 2: task.cmdline; 3: TCP counters per network namespace (table tcp). Older
 * files are read as they are (a replay says what they lack) and upgraded
 * when recorded into.
 */
#define RECORD_SCHEMA_VERSION 6
#define RECORD_SCHEMA_VERSIONS "1 to 6" /* the versions it reads, in words */

struct sqlite3;
struct runloop_stop;

/* ---- the file ---- */

/*
 * Opens a record file read-only, or, when create is set, to record into:
 * created at RECORD_SCHEMA_VERSION, or a schema 1 file upgraded to it
 * (WAL either way). A file of another version or not ours gives -EPROTO;
 * one that is not SQLite -EINVAL; a missing one -ENOENT.
 */
int record_db_open(struct sqlite3 **db, const char *path, bool create);
/* An open file's schema version: 1 (no command lines), 2 (no TCP) or 3; -errno. */
int record_db_version(struct sqlite3 *db);
void record_db_close(struct sqlite3 *db);
/* The last SQLite message of db, for error lines. */
const char *record_db_errmsg(struct sqlite3 *db);

/* ---- recording ---- */

struct record_opts {
	const char *path;
	const char *root;  /* NULL or "/": the running system; or a fixture root */
	const pid_t *pids; /* -p: only these processes (and their threads); NULL: all */
	size_t npids;
	double interval;    /* seconds between samples */
	double duration;    /* 0: until stopped */
	double max_size_mb; /* 0: no size limit */
	double keep_hours;  /* 0: no age limit */
	double window;	    /* seconds of each findings window */
	long fd_budget;	    /* fds the task reader may keep open */
	struct runloop_stop *stop;
	/* called after each committed interval (k from 0), e.g. progress on a terminal */
	void (*progress)(void *ctx, unsigned k, double size_mb);
	void *progress_ctx;
};

/* What went wrong, for the shell's message. */
struct record_error {
	char what[256];
	/* what failed, for the exit status: the system, --root, or the -o file */
	enum record_fault { RECORD_FAULT_SYSTEM, RECORD_FAULT_ROOT, RECORD_FAULT_FILE } on;
};

/* Records until duration, a stop signal, or the end of a fixture's steps. */
int record_run(const struct record_opts *o, struct record_error *err);

/* Deletes the oldest intervals until the file fits max_mb / keep_hours (0: no limit). */
int record_retain(struct sqlite3 *db, double max_mb, double keep_hours, double now);

/* ---- reading back ---- */

/* The recorded intervals chosen for a replay: one run, ids ascending. */
struct record_window {
	int64_t *ids;
	time_t *times; /* wall time of each (whole seconds, as pidstat prints) */
	double *ts;
	size_t n;
	struct host_facts host; /* from meta: hz, pagesize, uname, ncpu */
	pid_t recorder;		/* the recording process (0: a fixture) */
};

/*
 * The intervals of [from, to] (seconds since the epoch; NAN: open), within
 * the one run the last of them belongs to. -ENOENT when none.
 */
int record_window_select(struct sqlite3 *db, double from, double to, struct record_window *w);
void record_window_release(struct record_window *w);

struct pidstat_source;
struct pidstat_replay;

/*
 * A pidstat_source over w whose current sample is *step (1-based, the
 * run-loop clock's step). Free with record_replay_close().
 */
int record_replay_open(struct pidstat_replay **out, struct sqlite3 *db,
		       const struct record_window *w, const int *step,
		       const struct pidstat_source **src);
void record_replay_close(struct pidstat_replay *p);

struct report_data;
/* The report's data over intervals w->ids[a] .. w->ids[b] (a < b). */
int record_report_data(struct sqlite3 *db, const struct record_window *w, size_t a, size_t b,
		       struct report_data *d);

struct load_snapshot;
/* The load explainer's snapshot at interval w->ids[k]. */
int record_load_snapshot(struct sqlite3 *db, const struct record_window *w, size_t k,
			 struct load_snapshot *s);

/* ---- times ---- */

/*
 * Parses a --from/--to time: ISO 8601 ("2026-12-02T03:10:00Z", with a
 * numeric offset, or local when none; "2026-12-02 03:10", "03:10" today),
 * epoch seconds ("@1764645000"), or relative to now ("10m ago", "-10m",
 * "-1h30m", "now"). Units s, m, h, d. Returns 0 or -EINVAL.
 */
int record_parse_time(const char *s, double now, double *out);

#endif
