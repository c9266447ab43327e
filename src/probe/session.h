/*
 * Shared infrastructure of every `triage probe`: target and option parsing,
 * the skeleton lifecycle (open -> configure rodata -> load -> attach ->
 * destroy, one cleanup path), privilege/feature checks that map errno to
 * exit status 3 with a message naming what is missing, and one event loop
 * that ends on SIGINT/SIGTERM (via signalfd: no handler, no global), on the
 * target's exit (via pidfd), at the -d deadline, or after `count` intervals.
 *
 * Library code: functions return 0 or -errno; only probe_report_failure()
 * writes, and only to the stream it is given.
 */
#ifndef TRIAGE_PROBE_SESSION_H
#define TRIAGE_PROBE_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runloop/stop.h"

#define PROBE_COMM_LEN 16 /* TASK_COMM_LEN, including the NUL */

/*
 * Whom a probe follows: one process (-p), every process with a comm (-C),
 * or, with neither, every task on the system.
 */
struct probe_target {
	int pid;		   /* tgid; 0 when following a comm or everything */
	char comm[PROBE_COMM_LEN]; /* exact comm; "" when following a pid or everything */
};

/* Whether t follows every task (no -p, no -C). */
static inline bool probe_target_all(const struct probe_target *t)
{
	return t->pid <= 0 && !t->comm[0];
}

/* The options every probe shares. */
struct probe_opts {
	struct probe_target target;
	double duration_s; /* -d: stop after this long; 0 = no limit */
	double interval_s; /* trailing interval: report every interval_s; 0 = once */
	unsigned count;	   /* trailing count: stop after count reports; 0 = no limit */
	bool json;
	bool pretty;
	bool verbose; /* -v: let libbpf's own warnings through */
};

/* -p PID: a positive pid. Returns 0, -EINVAL or -ERANGE. */
int probe_parse_pid(const char *arg, int *pid);
/* -C COMM: 1..15 bytes (the kernel truncates comms to 15). -EINVAL/-ENAMETOOLONG. */
int probe_parse_comm(const char *arg, char comm[PROBE_COMM_LEN]);
/* -d SECONDS: positive, may be fractional. */
int probe_parse_duration(const char *arg, double *seconds);
/*
 * Trailing "interval [count]" from argv[first..argc). Leaves interval 0
 * when there is none. -EINVAL for a bad number, -E2BIG for extra arguments.
 */
int probe_parse_interval(int argc, char **argv, int first, double *interval, unsigned *count);
/* At most one of -p/-C may be given: -EINVAL otherwise. */
int probe_target_check(const struct probe_target *t);
/*
 * The process (tgid) that pid belongs to: pid itself for a process, its
 * leader for a thread. -ESRCH when pid does not exist.
 */
int probe_process_tgid(int pid, int *tgid);

/*
 * Capability check before any BPF call, so the message can say what is
 * missing: returns 0 with CAP_SYS_ADMIN or with both CAP_BPF and
 * CAP_PERFMON, -EPERM otherwise.
 */
int probe_check_privileges(void);
/* Kernel BTF (/sys/kernel/btf/vmlinux), needed for CO-RE and tp_btf: 0 or -ENOENT. */
int probe_check_btf(void);
/* Kernel features a probe needs, checked before loading (probe_check_kernel). */
enum probe_need {
	PROBE_NEED_TASK_STORAGE = 1, /* BPF_MAP_TYPE_TASK_STORAGE, Linux 5.11 */
	PROBE_NEED_RINGBUF = 2,	     /* BPF_MAP_TYPE_RINGBUF, Linux 5.8 */
	PROBE_NEED_PERCPU_ARRAY = 4, /* BPF_MAP_TYPE_PERCPU_ARRAY, Linux 4.6 */
	PROBE_NEED_STACK_TRACE = 8,  /* BPF_MAP_TYPE_STACK_TRACE, Linux 4.6 */
	PROBE_NEED_PERF_EVENT = 16,  /* BPF_PROG_TYPE_PERF_EVENT programs, Linux 4.9 */
};
/*
 * Asks the kernel (libbpf's feature probes) for each needed map and program
 * type. Returns 0, or -EOPNOTSUPP with *missing naming the first one absent
 * (so a too-old kernel exits 3 with a message, not a verifier dump).
 * Needs the privileges already checked.
 */
int probe_check_kernel(unsigned needs, const char **missing);

/*
 * Exit status for an error of a probe stage: 3 (EXIT_NOSUPPORT) when a
 * privilege or a kernel feature is missing (EPERM, EACCES, ENOENT, ENOSYS,
 * EOPNOTSUPP, ESRCH from BTF lookups, ENOPKG: built without BPF), 1 otherwise.
 */
int probe_err_status(int err);
/* One line that tells the user what is missing and what to do about it, or NULL. */
const char *probe_err_hint(int err);
/*
 * Writes "triage probe <probe>: <what>: <strerror>" plus the hint to
 * stream; returns the exit status to use.
 */
int probe_report_failure(FILE *stream, const char *probe, const char *what, int err);

/* libbpf prints nothing unless verbose (its EPERM hint about ulimit -l misleads). */
void probe_libbpf_quiet(bool verbose);

/*
 * A generated skeleton's lifecycle, through wrappers so the helpers below
 * work for every probe. configure() sets rodata and autoload between open
 * and load; it may be NULL. detach() stops the programs and keeps the maps
 * for reading.
 */
struct probe_skel_ops {
	const char *name;
	void *(*open)(void); /* NULL with errno set on failure */
	int (*configure)(void *skel, const void *cfg);
	int (*load)(void *skel);
	int (*attach)(void *skel);
	void (*detach)(void *skel);
	void (*destroy)(void *skel);
};

/*
 * Defines the wrappers and `static const struct probe_skel_ops
 * <obj>_skel_ops` for the bpftool skeleton <obj>.skel.h (struct <obj>_bpf),
 * whose functions differ from every other skeleton's only in the name.
 */
#define PROBE_SKEL_OPS(obj, configure_fn)                     \
	static void *obj##_skel_open(void)                    \
	{                                                     \
		return obj##_bpf__open();                     \
	}                                                     \
	static int obj##_skel_load(void *skel)                \
	{                                                     \
		return obj##_bpf__load(skel);                 \
	}                                                     \
	static int obj##_skel_attach(void *skel)              \
	{                                                     \
		return obj##_bpf__attach(skel);               \
	}                                                     \
	static void obj##_skel_detach(void *skel)             \
	{                                                     \
		obj##_bpf__detach(skel);                      \
	}                                                     \
	static void obj##_skel_destroy(void *skel)            \
	{                                                     \
		obj##_bpf__destroy(skel);                     \
	}                                                     \
	static const struct probe_skel_ops obj##_skel_ops = { \
		#obj,                                         \
		obj##_skel_open,                              \
		configure_fn,                                 \
		obj##_skel_load,                              \
		obj##_skel_attach,                            \
		obj##_skel_detach,                            \
		obj##_skel_destroy,                           \
	}

/*
 * Sets the rodata of src/bpf/target.bpf.h (targ_tgid, by_comm, targ_comm)
 * from a probe_target (pid 0 and no comm: every task).
 */
#define PROBE_RODATA_SET_TARGET(rodata, t)                                      \
	do {                                                                    \
		(rodata)->targ_tgid = (__u32)(t)->pid;                          \
		(rodata)->by_comm = (t)->pid <= 0 && (t)->comm[0];              \
		memcpy((char *)(rodata)->targ_comm, (t)->comm, PROBE_COMM_LEN); \
	} while (0)

/*
 * Runs open, configure, load and attach. On success *skel holds the
 * attached skeleton. On failure everything is destroyed, *skel is NULL,
 * *stage names the step that failed and -errno is returned.
 */
int probe_skel_start(const struct probe_skel_ops *ops, const void *cfg, void **skel,
		     const char **stage);
/*
 * What every probe does to start: checks privileges, kernel BTF and the
 * kernel features in needs (PROBE_NEED_*), then probe_skel_start().
 * Returns 0 or -errno with *stage naming what failed.
 */
int probe_start(const struct probe_skel_ops *ops, unsigned needs, const void *cfg, void **skel,
		const char **stage);
/* Detaches the programs, keeping the maps; NULL-safe. */
void probe_skel_detach(const struct probe_skel_ops *ops, void *skel);
/* Detaches and frees; NULL-safe; sets *skel to NULL. */
void probe_skel_stop(const struct probe_skel_ops *ops, void **skel);

/* Why probe_loop_wait() returned. */
enum probe_event {
	PROBE_EV_INPUT = 1,   /* input_fd is readable (e.g. a ring buffer) */
	PROBE_EV_TICK,	      /* an interval elapsed */
	PROBE_EV_LAST_TICK,   /* an interval elapsed and it was the count-th */
	PROBE_EV_SIGNAL,      /* SIGINT or SIGTERM */
	PROBE_EV_TARGET_EXIT, /* the -p process exited */
	PROBE_EV_DEADLINE,    /* -d elapsed */
};

struct probe_loop {
	struct runloop_stop stop;	  /* SIGINT/SIGTERM, blocked and read from its fd */
	int sigfd;			  /* runloop_stop_fd(&stop), -1 before init */
	int pidfd;			  /* readable when the target exits; -1 without a pid */
	int timerfd;			  /* interval ticks; -1 without an interval */
	int64_t interval_ns, duration_ns; /* from opts; armed by probe_loop_start() */
	int64_t deadline_ns;		  /* 0 until started, or without -d */
	unsigned ticks, max_ticks;
};

/*
 * Blocks SIGINT/SIGTERM into a signalfd (call before loading, so a Ctrl-C
 * during load still reaches the cleanup path), opens a pidfd on pid (0 =
 * none; -ESRCH if it does not exist) and creates the interval timer. The
 * clocks do not run yet: see probe_loop_start().
 */
int probe_loop_init(struct probe_loop *l, const struct probe_opts *opts);
/*
 * Starts the interval timer and the -d deadline; call once the programs
 * are attached, so -d and the first interval count from the attach and
 * not from before a load that may take a while. Returns the start time
 * (CLOCK_MONOTONIC ns) or -errno.
 */
int64_t probe_loop_start(struct probe_loop *l);
/*
 * Waits for the next event; input_fd may be -1. Returns a probe_event or
 * -errno. After PROBE_EV_TARGET_EXIT the pidfd is closed, so later waits
 * go on with the other sources.
 */
int probe_loop_wait(struct probe_loop *l, int input_fd);
/* Closes the fds and restores the signal mask; -1 fields are skipped. */
void probe_loop_release(struct probe_loop *l);

/* Describes the target for a status line: "pid 123" or "comm 'x'" (sanitized). */
void probe_target_describe(const struct probe_target *t, char *buf, size_t len);

struct json_writer;
/*
 * Every probe's JSON names its target in one shape (docs/probe.md):
 * "target": {"pid": N or null, "comm": the -C name or the -p process's
 * name (pid_comm, read at start; null when unknown), "all": true for no -p
 * and no -C}.
 */
void probe_target_json(struct json_writer *w, const struct probe_target *t, const char *pid_comm);
/* The name (/proc/PID/comm, without its newline) of pid into buf: 0 or -errno. */
int probe_read_comm(int pid, char *buf, size_t size);

#endif
