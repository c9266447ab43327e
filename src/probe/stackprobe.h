/*
 * What the offcpu, runq and profile probes share on top of probe/session.h:
 * their options, one runner (sp_probe_run) that each probe drives with a
 * struct sp_probe, and a session that holds the symbolizers and the event
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

struct sp_session;

/* One stack probe: what sp_probe_run() needs to know about it. */
struct sp_probe {
	const char *name;		  /* "offcpu", for messages */
	const char *traced;		  /* "off-CPU time", for the status line */
	unsigned features;		  /* sp_features: the options it accepts */
	unsigned needs;			  /* PROBE_NEED_*: checked before the load */
	bool symbolize;			  /* loads kallsyms and the target's ELF symbols */
	const struct probe_skel_ops *ops; /* NULL: triage was built without BPF */
	/* Reads the maps of the detached skeleton and writes the report; 0 or -errno. */
	int (*report)(const struct sp_session *s, const struct sp_opts *o, void *skel);
	/* Optional: a line of advice after a failed start. */
	void (*explain_failure)(const struct sp_opts *o, const char *stage, int err);
};

extern const struct sp_probe offcpu_probe, runq_probe, profile_probe;

/*
 * Parses the options of probe p. Returns 0, an exit status, or -1 when
 * --help was printed (exit 0).
 */
int sp_parse_args(const struct sp_probe *p, int argc, char **argv, struct sp_opts *o);
/*
 * Runs probe p: session, load and attach, wait for the end, detach,
 * report. Returns the exit status, having written the report to stdout
 * and any problem to stderr.
 */
int sp_probe_run(const struct sp_probe *p, const struct sp_opts *o);
/*
 * Loads and attaches p's programs following this process, then detaches
 * (triage doctor). Returns 0 or -errno with *stage naming what failed.
 */
int sp_probe_selftest(const struct sp_probe *p, const char **stage);

struct sp_session {
	const struct sp_probe *probe;
	struct procfs *pf;
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

/* BPF builds only. Reads stack id from a BPF stack map into ips[SP_MAX_FRAMES]; 0 or -errno. */
int sp_read_stack(int map_fd, int id, uint64_t *ips);
/* Fills e's frames from the two stack ids (negative ids: no stack, kept as the error). */
int sp_fill_entry(const struct sp_session *s, int map_fd, int kid, int uid, struct stack_entry *e);
/*
 * Starts the report's JSON document on stdout with the members every stack
 * probe writes (probe, pid, comm, duration_s, end); json_finish() ends it.
 */
void sp_json_begin(struct json_writer *w, const struct sp_session *s, const struct sp_opts *o);
/*
 * Writes one stack entry as a JSON object: tid, comm, kind (when set),
 * value under value_key, count under count_key (when not NULL), frames.
 */
void sp_json_stack(struct json_writer *w, const struct stack_entry *e, const char *value_key,
		   const char *count_key);
/* At most top of n: how many entries a report lists. */
size_t sp_top(size_t top, size_t n);
/* Seconds between attach and end. */
double sp_session_seconds(const struct sp_session *s);

#endif
