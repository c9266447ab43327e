/*
 * What the offcpu, runq and profile probes share on top of probe/session.h:
 * their options, one runner (sp_probe_run) that each probe drives with a
 * struct sp_probe, and a session that holds the symbolizers and the event
 * loop from attach to the end (Ctrl-C, SIGTERM, -d, or the target's exit).
 * Option parsing and exit statuses belong to src/cmd/probe_stack.c; this
 * core returns 0 or -errno.
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
	struct probe_opts base; /* -p or -C (neither: every task), -d, --json, --pretty, -v */
	bool folded;		/* --folded: flame graph lines instead of the report */
	FILE *svg;		/* --svg FILE: also an SVG flame graph there (opened by cmd) */
	unsigned top;		/* --top N: stacks listed (0 = default) */
	unsigned freq;		/* -F HZ (profile) */
	bool kernel_stacks;	/* --no-kernel-stacks clears */
	bool user_stacks;	/* --no-user-stacks clears */
	bool per_thread;	/* --per-thread (runq): a histogram per thread */
	bool only_dstate;	/* offcpu: only sleeps in D (triage report's enrichment) */
	unsigned max_stacks;	/* offcpu, profile: stacks kept (0: SP_MAX_STACKS) */
};

/* The defaults: both stacks, 99 Hz, top 10, every task. */
void sp_opts_init(struct sp_opts *o);

/* Which options a probe accepts beyond the common ones (-p, -C, -d, --json...). */
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
	bool symbolize;			  /* loads kallsyms and the processes' ELF symbols */
	const struct probe_skel_ops *ops; /* NULL: triage was built without BPF */
	/* Reads the maps of the detached skeleton and writes the report to s->out; 0 or -errno. */
	int (*report)(const struct sp_session *s, const struct sp_opts *o, void *skel);
};

extern const struct sp_probe offcpu_probe, runq_probe, profile_probe;

/*
 * Runs probe p: session, load and attach, wait for the end (signal, -d,
 * the target's exit), detach, report to out. The status line and
 * warnings (frames left unsymbolized) go to diag. Returns 0, or -errno
 * with *stage naming the step that failed.
 */
int sp_probe_run(const struct sp_probe *p, const struct sp_opts *o, FILE *out, FILE *diag,
		 const char **stage);
/*
 * Loads and attaches p's programs following this process, then detaches
 * (triage doctor). Returns 0 or -errno with *stage naming what failed.
 */
int sp_probe_selftest(const struct sp_probe *p, const char **stage);

/*
 * Symbolizers for stacks of many processes: kallsyms once, and each
 * process's ELF symbols opened on first use (a process that exited by
 * then keeps raw addresses).
 */
struct sp_proc_syms {
	int pid;
	int err; /* 0, or why its frames stay addresses */
	struct proc_syms *ps;
};

struct sp_symbolizer {
	const struct procfs *pf;
	struct symtab ksyms;
	int ksyms_err; /* 0, or why kernel frames stay raw addresses */
	struct sp_proc_syms *procs;
	size_t nprocs, cap;
};

/* Loads kallsyms (its failure is kept in ksyms_err, not returned). */
struct bpf_map;
/*
 * Before the load: the stack map and the map of counts per stack sized for
 * max_stacks entries (0 leaves SP_MAX_STACKS). Both are preallocated by the
 * kernel when the skeleton loads, so a short window that can see few
 * stacks (triage report's enrichment) does not pay for 16,384 of them.
 * 0 or -errno.
 */
int sp_size_stacks(struct bpf_map *stacks, struct bpf_map *counts, unsigned max_stacks);

void sp_symbolizer_init(struct sp_symbolizer *z, const struct procfs *pf);
/*
 * The same with kallsyms read only for addrs (sorted and made unique here,
 * in place): kernel frames at other addresses stay unnamed. For a reader
 * that knows every address it will ask for (the report's enrichment).
 */
void sp_symbolizer_init_for(struct sp_symbolizer *z, const struct procfs *pf, uint64_t *addrs,
			    size_t n);
/* Process pid's symbolizer, opened on first use; NULL (and *err) when it cannot be. */
struct proc_syms *sp_symbolizer_proc(struct sp_symbolizer *z, int pid, int *err);
/* Re-reads the maps of every open process (mappings added by dlopen). */
void sp_symbolizer_refresh(struct sp_symbolizer *z);
void sp_symbolizer_release(struct sp_symbolizer *z);

struct sp_session {
	const struct sp_probe *probe;
	FILE *out, *diag;
	struct procfs *pf;
	struct sp_symbolizer *syms; /* NULL unless the probe symbolizes */
	struct probe_loop loop;
	bool loop_ready;
	char comm[PROBE_COMM_LEN]; /* the -p target's comm at start */
	int64_t start_ns, end_ns;
	const char *end_reason; /* "interrupted", "duration", "target exited", ... */
};

/* BPF builds only. Reads stack id from a BPF stack map into ips[SP_MAX_FRAMES]; 0 or -errno. */
int sp_read_stack(int map_fd, int id, uint64_t *ips);
/*
 * Fills e's frames from the two stack ids (negative ids: no stack, kept as
 * the error), user frames with the symbols of process e->pid.
 */
/* BPF builds only. Appends every frame of every stack in stack map map_fd; 0 or -errno. */
int sp_stack_addrs(int map_fd, uint64_t **addrs, size_t *n, size_t *cap);
int sp_fill_entry(struct sp_symbolizer *z, int map_fd, int kid, int uid, struct stack_entry *e);
/*
 * Starts the report's JSON document on stdout with the members every stack
 * probe writes (probe, target, duration_s, end); json_finish() ends it.
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
/* Whether the session follows one process (-p), so reports leave out the pid column. */
bool sp_session_one_pid(const struct sp_session *s, const struct sp_opts *o);
/* "pid 123 (comm)", "comm 'x'" or "all processes" (sanitized), for report headers. */
void sp_session_describe(const struct sp_session *s, const struct sp_opts *o, char *buf,
			 size_t len);

#endif
