/*
 * The task source: every thread of the machine with the figures /proc
 * shows for it, through one of two doors chosen at run time:
 *
 *   - bpf:  a BPF task iterator (src/bpf/tasks.bpf.c) writes one fixed-size
 *           record per thread; one read() loop on the iterator fd gets them
 *           all. Live runs on a BTF kernel with the privilege to load it.
 *   - proc: /proc/PID/task/TID/{stat,status,schedstat,io} (plus the
 *           process-wide /proc/PID/{stat,io} for leaders), file by file.
 *           Fixture roots, no privilege, kernels without BTF or iterators.
 *
 * Both doors fill the same struct task_sample in /proc's units, with
 * /proc's arithmetic: the bpf door reads the raw task_struct fields /proc
 * reads and applies what /proc applies (cputime_adjust() scaling of
 * utime/stime against sum_exec_runtime, the kernel's prev_cputime as the
 * floor; nanoseconds to clock ticks; the state letter; kernel-thread and
 * workqueue names). tests/procfs/doors.t holds the two to the same numbers.
 *
 * One difference is the kernel's own: reading /proc/.../stat stores the
 * utime/stime split it showed in prev_cputime, the bpf door cannot. For a
 * thread that keeps running, a later /proc read may therefore split the
 * same runtime differently from what the door showed earlier (the sum
 * agrees); the door keeps its own floor, so its own figures never go back.
 * The bpf door also reads from /proc the processes the iterator does not
 * show (some VMs hide their agent at PID 1 from it).
 *
 * Library rules: 0 or -errno, no exits, no output, no globals.
 */
#ifndef TRIAGE_PROCFS_TASKSRC_H
#define TRIAGE_PROCFS_TASKSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/parsers.h"
#include "procfs/procfs.h"

enum task_door { TASK_DOOR_AUTO, TASK_DOOR_PROC, TASK_DOOR_BPF };

/* Parses "auto", "proc" or "bpf" (TRIAGE_TASK_SOURCE); -EINVAL otherwise. */
int procfs_task_door_parse(const char *s, enum task_door *out);
const char *procfs_task_door_name(enum task_door d);

/* What a caller needs beyond stat (the proc door reads only those files). */
#define TASK_WANT_STATUS 0x1 /* uid, nvcsw/nivcsw, Cpus_allowed */
#define TASK_WANT_SCHED 0x2  /* schedstat: run and wait ns */
#define TASK_WANT_IO 0x4     /* io (the thread's, and the process's for leaders) */
#define TASK_WANT_WHOLE 0x8  /* leaders: the process-wide stat */
#define TASK_WANT_ALL 0xf
/*
 * Only the threads in R or D (what load needs): set->scanned still counts
 * every thread; the bpf door then skips the others in the kernel.
 */
#define TASK_WANT_ACTIVE_ONLY 0x10

/* task_sample.flags */
#define TS_LEADER 0x1  /* tid == tgid */
#define TS_KTHREAD 0x2 /* a kernel thread (bpf door only; proc leaves it 0) */
#define TS_STATUS 0x4  /* the status fields are set */
#define TS_SCHED 0x8   /* the schedstat fields are set */
#define TS_IO 0x10     /* io is set (the process's, whole_io, too for leaders) */
#define TS_WHOLE 0x20  /* whole is set */
#define TS_ANON 0x40   /* rss_anon is set (bpf door) */

#define TASK_COMM_MAX 64 /* proc_task_name()'s buffer */

/* The process-wide figures of /proc/PID/stat and /proc/PID/io (leaders). */
struct task_whole {
	uint64_t utime, stime, gtime; /* ticks, every thread, dead ones too */
	uint64_t minflt, majflt;
	struct pid_io io;
};

/* One thread as /proc/PID/task/TID/{stat,status,schedstat,io} show it. */
struct task_sample {
	pid_t tid, tgid, ppid;
	unsigned uid; /* real */
	unsigned flags;
	char state; /* the /proc letter */
	char comm[TASK_COMM_MAX];
	int processor;
	unsigned rt_priority, policy, nthreads;
	uint64_t utime, stime, gtime;	/* ticks, this thread */
	int64_t cutime, cstime, cgtime; /* ticks, reaped children (process-wide) */
	uint64_t minflt, majflt, cminflt, cmajflt;
	uint64_t starttime; /* ticks after boot */
	uint64_t vsize;	    /* bytes */
	int64_t rss;	    /* pages */
	int64_t rss_anon;   /* pages: its anonymous part (TS_ANON) */
	uint64_t blkio_ticks;
	uint64_t nvcsw, nivcsw;
	uint64_t run_ns, wait_ns, slices; /* schedstat */
	uint64_t cpus_allowed;		  /* the first 64 CPUs */
	struct pid_io io;
	struct task_whole whole;
};

/*
 * One scan's samples. order lists them by (tgid, leader first, tid): a
 * process's leader, then its other threads.
 */
struct task_set {
	struct task_sample *v;
	uint32_t *order;
	size_t len, cap, cap_order;
	size_t scanned; /* threads looked at (more than len with TASK_WANT_ACTIVE_ONLY) */
	size_t hint;	/* where the last procfs_task_set_seek ended */
};

void procfs_task_set_release(struct task_set *s);
/* The sample of tid in process tgid, or NULL. */
const struct task_sample *procfs_task_set_find(const struct task_set *s, pid_t tgid, pid_t tid);
/*
 * The same for a reader that goes in the set's order (a process, then its
 * threads by tid): it looks where the last seek ended first, so a lookup
 * in order touches one or two samples, not a binary search's dozen.
 */
const struct task_sample *procfs_task_set_seek(struct task_set *s, pid_t tgid, pid_t tid);
/* The position in order of tgid's first sample (its leader), or s->len. */
size_t procfs_task_set_process(const struct task_set *s, pid_t tgid);

struct task_source;

/*
 * Opens a source over pf. want: TASK_WANT_* (the bpf door has everything
 * anyway). door AUTO takes bpf when it can be loaded and /proc is this
 * machine's live /proc (not a fixture, fixture = true), else proc; asking
 * for BPF when it cannot be had fails (-EOPNOTSUPP, -EPERM ...).
 * fd_budget: stat files the proc door may keep open across scans.
 */
int procfs_task_source_open(struct task_source **out, const struct procfs *pf, bool fixture,
			    enum task_door door, unsigned want, long fd_budget);
/*
 * The work ahead, for AUTO to choose the cheaper door: the iterator has a
 * fixed price (loading and verifying its program, one walk to check the
 * pid namespace) and then costs little per thread; /proc costs nothing to
 * open and a file read per task it is asked for. One PID or a short run
 * goes through /proc; many threads over many scans through the iterator.
 */
struct task_work {
	size_t tasks;	/* tasks the proc door would read per scan; 0: every thread */
	unsigned files; /* files it reads per task (stat, status, io...), at least 1 */
	unsigned scans; /* scans ahead; 0: open-ended (until interrupted) */
};

/* The cost model's figures, measured on a 2-vCPU PVM guest (docs/performance.md). */
#define TASK_BPF_OPEN_NS 12000000ull /* light skeleton load + attach + the check walk */
#define TASK_BPF_THREAD_NS 1000ull   /* per thread on the machine, per scan */
#define TASK_PROC_FILE_NS 15000ull   /* per /proc file read, per task, per scan */

/*
 * Pure: the door that costs less CPU for w on a machine running threads
 * threads (open-ended work: the cheaper per scan, as the fixed price is
 * paid back); why gets the estimate, e.g. "1 task x 2 files x 2 scans:
 * /proc ~0.1 ms, iterator ~12.0 ms".
 */
enum task_door procfs_task_door_for_work(const struct task_work *w, size_t threads, char *why,
					 size_t size);
/* Threads on the machine now (/proc/loadavg's fourth field), or 0. */
size_t procfs_task_machine_threads(const struct procfs *pf);

/*
 * procfs_task_source_open() with the work ahead: door AUTO on the live host takes
 * procfs_task_door_for_work()'s answer (work NULL: the iterator whenever it loads).
 */
int procfs_task_source_open_for(struct task_source **out, const struct procfs *pf, bool fixture,
				enum task_door door, unsigned want, long fd_budget,
				const struct task_work *work);
void procfs_task_source_close(struct task_source *s);
/* The door in use, and why (e.g. "fixture root", "BPF: Operation not permitted"). */
enum task_door procfs_task_source_door(const struct task_source *s);
const char *procfs_task_source_why(const struct task_source *s);

/*
 * Every thread now, into set (its storage reused). skip_tgid: a process to
 * leave out (0: none). Returns 0 or -errno.
 */
int procfs_task_source_scan(struct task_source *s, struct task_set *set, pid_t skip_tgid);

/*
 * Pure: cputime_adjust() of kernel/sched/cputime.c on a thread's (or a
 * group's) raw times in ns, with prev as the floor and updated like the
 * kernel's prev_cputime.
 */
void procfs_task_cputime_adjust(uint64_t rtime, uint64_t utime, uint64_t stime,
				uint64_t *prev_utime, uint64_t *prev_stime);

/* Pure: the /proc state letter of a raw __state / exit_state pair. */
char procfs_task_state_letter(unsigned state, unsigned exit_state);

#endif
