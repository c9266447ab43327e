/*
 * eBPF enrichment of a report window, system-wide and at bounded cost:
 * started before the window and stopped after it, it reuses the probes'
 * BPF programs (runq, profile, syscalls, offcpu) with no target, so every
 * task is traced and the results are keyed by pid/tid. The caller then
 * asks for what it needs:
 *   - run-queue latency of the window (count, p50, p99, max, log2 histogram);
 *   - the top on-CPU functions of one pid (profile samples, symbolized,
 *     kernel and user);
 *   - the top syscalls of one pid (counts, errors, time);
 *   - off-CPU time with kernel stacks of tasks in D (TASK_UNINTERRUPTIBLE).
 *
 * Queries work after probe_enrich_stop() (-EBUSY before), and return the
 * part's start error when it was skipped. Each part starts on its own: a part that cannot start
 * (privilege, kernel support) is skipped with its reason, the others still run. Functions return 0
 * or -errno, never print, never exit. Queries fill caller-provided plain structs (data only: render
 * them as you like).
 */
#ifndef TRIAGE_PROBE_ENRICH_H
#define TRIAGE_PROBE_ENRICH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The parts of an enrichment; bits of probe_enrich_opts.parts. */
enum probe_enrich_part {
	PROBE_ENRICH_RUNQ = 1,	   /* run-queue latency histogram */
	PROBE_ENRICH_PROFILE = 2,  /* on-CPU samples per pid with stacks */
	PROBE_ENRICH_SYSCALLS = 4, /* syscall counts and time per pid */
	PROBE_ENRICH_DSTATE = 8,   /* off-CPU time and stacks of D-state tasks */
	PROBE_ENRICH_FORKS = 16,   /* new processes by parent (sched_process_fork) */
	PROBE_ENRICH_ALL = 31,
};

struct probe_enrich_opts {
	unsigned parts;	  /* probe_enrich_part bits; 0 means PROBE_ENRICH_ALL */
	unsigned freq_hz; /* profile sampling rate; 0 means 49 Hz */
	bool verbose;	  /* let libbpf's own messages through to stderr */
	bool libbpf_only; /* skip the light skeletons: libbpf's loader, as before Linux 6.1 */
	/*
	 * The syscalls part loaded but counting no one until named with
	 * probe_enrich_syscalls_watch() (light skeleton only: libbpf's counts
	 * every process from the start).
	 */
	bool syscalls_on_demand;
};

struct probe_enrich;

/*
 * Loads and attaches the requested parts. Returns 0 when at least one part
 * runs (see probe_enrich_part_status() for the others), else the error of
 * the first one: -EPERM without CAP_BPF+CAP_PERFMON (or CAP_SYS_ADMIN),
 * -EOPNOTSUPP/-ENOENT when the kernel lacks a feature or BTF, -ENOPKG
 * when triage was built without BPF. *out is NULL on error.
 */
int probe_enrich_start(const struct probe_enrich_opts *opts, struct probe_enrich **out);
/* Ends the window: detaches the programs, keeps what they gathered. 0 or -errno. */
int probe_enrich_stop(struct probe_enrich *e);
/* Frees everything; NULL-safe. Stops first when still running. */
void probe_enrich_free(struct probe_enrich *e);

/*
 * 0 when part ran, else why it was skipped (-errno), with *stage (may be
 * NULL) naming the step that failed ("checking privileges", "loading the
 * BPF programs"...). -ENOENT for a part that was not requested.
 */
int probe_enrich_part_status(const struct probe_enrich *e, enum probe_enrich_part part,
			     const char **stage);
/*
 * How a part that runs was loaded: "light skeleton" (the kernel's loader:
 * no user-space BTF) or "libbpf skeleton" (the fallback, which reads the
 * kernel's BTF); NULL for a part that does not run. *start_ms (may be NULL)
 * gets the CPU time its checks, load and attach took (ours and the
 * kernel's on our behalf).
 */
const char *probe_enrich_part_loader(const struct probe_enrich *e, enum probe_enrich_part part,
				     double *start_ms);
/*
 * The syscalls part on demand: count process pid from now on. 0 (also when
 * every process is counted anyway), -ENOSPC when PROBE_ENRICH_WATCH_MAX are
 * watched already, -EBUSY after stop, the part's error when it does not run.
 */
#define PROBE_ENRICH_WATCH_MAX 8
int probe_enrich_syscalls_watch(struct probe_enrich *e, int pid);
/*
 * Since when pid's syscalls are counted, in seconds after start: 0 when
 * every process is counted from the start, -1 when pid is not.
 */
double probe_enrich_syscalls_since(const struct probe_enrich *e, int pid);
/* Whether the syscalls part counts only the processes watched (on demand, light skeleton). */
bool probe_enrich_syscalls_on_demand(const struct probe_enrich *e);
/* How many processes are watched; the first max of them and since when (s; either may be NULL). */
size_t probe_enrich_syscalls_watched(const struct probe_enrich *e, int *pids, double *since,
				     size_t max);
/* Seconds between start and stop (so far, when still running). */
double probe_enrich_seconds(const struct probe_enrich *e);

/* A parent that forked during the window: its tgid, how many processes, its name. */
struct probe_enrich_forker {
	int pid;
	uint64_t forks;
	char comm[16];
};

/* The max parents that forked most over the window, most first. 0 or -errno. */
int probe_enrich_top_forkers(const struct probe_enrich *e, struct probe_enrich_forker *out,
			     size_t max, size_t *n);

#define PROBE_ENRICH_HIST_SLOTS 27 /* log2 of microseconds, as probe/hist.h reads them */
#define PROBE_ENRICH_COMM_LEN 16

/* Run-queue latency: the time runnable tasks waited for a CPU. */
struct probe_enrich_runq {
	uint64_t count;	   /* waits measured */
	uint64_t total_ns; /* summed */
	uint64_t p50_ns;   /* upper bound of the log2 slot holding the median */
	uint64_t p99_ns;   /* likewise for the 99th percentile */
	uint64_t max_ns;   /* exact */
	uint64_t slots[PROBE_ENRICH_HIST_SLOTS]; /* slot 0: 0-1 us, slot i: [2^i, 2^(i+1)) us */
	uint64_t lost;				 /* waits not recorded (map full) */
};

/* Whole system (pid 0), or one process (pid > 0: all its threads). */
int probe_enrich_runq(const struct probe_enrich *e, int pid, struct probe_enrich_runq *out);

#define PROBE_ENRICH_NAME_LEN 128
#define PROBE_ENRICH_MODULE_LEN 64

/* One function of a profile, by self samples (the frame the sample hit). */
struct probe_enrich_func {
	char name[PROBE_ENRICH_NAME_LEN];     /* "" when unknown */
	char module[PROBE_ENRICH_MODULE_LEN]; /* "kernel", or the mapped file's basename */
	bool kernel;
	uint64_t samples;
};

struct probe_enrich_profile {
	uint64_t samples;     /* samples of the pid */
	uint64_t all_samples; /* samples of every task (idle excluded) */
	unsigned freq_hz;
};

/*
 * The top functions of process pid, most samples first: fills out[0..*n)
 * with *n <= max, and *sum (may be NULL). Symbolizes user frames from the
 * process's maps at the time of the call (a process gone by then keeps
 * raw addresses as names "0x...").
 */
int probe_enrich_top_functions(struct probe_enrich *e, int pid, struct probe_enrich_func *out,
			       size_t max, size_t *n, struct probe_enrich_profile *sum);

#define PROBE_ENRICH_SYSCALL_NAME_LEN 32

struct probe_enrich_syscall {
	char name[PROBE_ENRICH_SYSCALL_NAME_LEN]; /* "read", or "syscall_<nr>" */
	unsigned nr;
	uint64_t count;	   /* calls entered */
	uint64_t errors;   /* returns in -4095..-1 */
	uint64_t total_ns; /* time inside the calls that returned in the window */
};

/* The top syscalls of process pid by count, most first; *n <= max. */
int probe_enrich_top_syscalls(const struct probe_enrich *e, int pid,
			      struct probe_enrich_syscall *out, size_t max, size_t *n);

#define PROBE_ENRICH_FRAMES 16

/*
 * A thread's time in D (TASK_UNINTERRUPTIBLE) during the window, with the
 * kernel stack it went to sleep on (innermost first). A thread already in
 * D when the window started counts from the start.
 */
struct probe_enrich_dwait {
	int pid, tid;
	char comm[PROBE_ENRICH_COMM_LEN];
	uint64_t total_ns;  /* time off-CPU in D within the window */
	uint64_t count;	    /* sleeps */
	bool still_blocked; /* in D when the window ended */
	size_t nframes;
	char frames[PROBE_ENRICH_FRAMES][PROBE_ENRICH_NAME_LEN]; /* "io_schedule+0x12" */
};

/*
 * Threads in D, most time first: pid 0 for all, else the threads of that
 * process; *n <= max.
 */
int probe_enrich_dstate(const struct probe_enrich *e, int pid, struct probe_enrich_dwait *out,
			size_t max, size_t *n);

#endif
