/*
 * triage probe trace, user side: loads trace.bpf.c for a set of syscalls,
 * hands each ring-buffer event to a sink, and renders events as
 * strace-like lines or JSON objects.
 */
#ifndef TRIAGE_PROBE_TRACE_H
#define TRIAGE_PROBE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>

#include "bpf/trace.h"
#include "probe/session.h"
#include "util/json.h"

struct tr_sink {
	void (*attached)(void *ctx, const struct probe_target *t);
	int (*event)(void *ctx, const struct tr_event *e);
	void *ctx;
};

struct tr_summary {
	uint64_t events; /* delivered to the sink */
	uint64_t lost;	 /* dropped because the ring buffer was full */
	bool target_exited;
	double elapsed_s;
};

/*
 * Parses "openat,execve" into syscall numbers (at most max). Returns the
 * count, or -ENOENT with *bad pointing at the unknown name (inside a copy
 * the caller does not own: print it before the next call), -E2BIG.
 */
int tr_parse_syscalls(const char *list, int *nrs, int max, char *bad, size_t badlen);

/* "openat(AT_FDCWD, \"/etc/hostname\", O_RDONLY) = 3" (no newline). */
void tr_event_format(char *buf, size_t len, const struct tr_event *e);
/* A full line: time since start_ns, tgid/tid, comm (sanitized), the call, duration. */
void tr_event_print(FILE *out, const struct tr_event *e, int64_t start_ns);
void tr_event_json(struct json_writer *w, const struct tr_event *e, int64_t start_ns);

/* Runs until a signal, the target's exit or -d. 0 or -errno with *stage. */
int tr_run(const struct probe_opts *opts, const int *nrs, int n, const struct tr_sink *sink,
	   struct tr_summary *sum, const char **stage);

/* Loads, attaches and detaches the probe for openat of this process. */
int tr_selftest(const char **stage);

#endif
