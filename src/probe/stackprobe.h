/*
 * What the offcpu, runq and profile probes share on top of probe/session.h:
 * their options, and a session that holds the symbolizers and the event
 * loop from attach to the end (Ctrl-C, SIGTERM, -d, or the target's exit).
 */
#ifndef TRIAGE_PROBE_STACKPROBE_H
#define TRIAGE_PROBE_STACKPROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/session.h"
#include "probe/stacks.h"
#include "probe/syms.h"
#include "procfs/procfs.h"

struct sp_opts {
	struct probe_opts base; /* -p, -d, --json, -v */
	bool folded;		/* --folded: flame graph lines instead of the report */
	unsigned top;		/* --top N: stacks listed (0 = default) */
	unsigned freq;		/* -F HZ (profile) */
	bool kernel_stacks;	/* --no-kernel-stacks clears */
	bool user_stacks;	/* --no-user-stacks clears */
	bool per_thread;	/* --per-thread (runq): a histogram per thread */
};

/* Which options a probe accepts beyond -p, -d, --json and -v. */
enum sp_features {
	SP_STACKS = 1,	   /* --top, --folded, --no-kernel-stacks, --no-user-stacks */
	SP_FREQ = 2,	   /* -F HZ */
	SP_PER_THREAD = 4, /* --per-thread */
};

/*
 * Parses the options of a probe with the given sp_features. Returns 0, an
 * exit status, or -1 when --help was printed (exit 0).
 */
int sp_parse_args(const char *probe, int argc, char **argv, unsigned features, struct sp_opts *o);

struct sp_session {
	const char *probe; /* "offcpu", ... for messages */
	struct procfs pf;
	struct symtab ksyms;
	int ksyms_err; /* 0, or why kernel frames stay raw addresses */
	struct proc_syms *ps;
	int ps_err; /* 0, or why user frames stay raw addresses */
	struct probe_loop loop;
	bool loop_ready;
	char comm[PROBE_COMM_LEN]; /* the target's comm at start */
	int64_t start_ns, end_ns;
	const char *end_reason; /* "interrupted", "duration", "target exited", ... */
};

/*
 * Checks privileges, starts the event loop (signals first) and, when
 * want_syms, loads the symbolizers while the target still runs. Returns 0
 * or an exit status, having reported the problem on stderr.
 */
int sp_session_begin(struct sp_session *s, const char *probe, const struct sp_opts *o,
		     bool want_syms);
/* Announces the probe on stderr and waits for its end, refreshing the maps each second. */
int sp_session_wait(struct sp_session *s, const struct sp_opts *o);
void sp_session_end(struct sp_session *s);

/* Reads stack id from a BPF stack map into ips[SP_MAX_FRAMES]; 0 or -errno. */
int sp_read_stack(int map_fd, int id, uint64_t *ips);
/* Fills e's frames from the two stack ids (negative ids: no stack, kept as the error). */
int sp_fill_entry(const struct sp_session *s, int map_fd, int kid, int uid, struct stack_entry *e);
/* Writes the common JSON header members (probe, pid, comm, duration_s, end). */
void sp_json_header(struct json_writer *w, const struct sp_session *s, const struct sp_opts *o);
/* Seconds between attach and end. */
double sp_session_seconds(const struct sp_session *s);

#endif
