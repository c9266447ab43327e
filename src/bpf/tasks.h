/*
 * Shared between tasks.bpf.c and the user side (src/procfs/task_bpf.c):
 * the fixed-size record the task iterator writes for every thread.
 * Times are the kernel's raw nanoseconds; the user side turns them into
 * what /proc shows (cputime_adjust(), clock ticks).
 */
#ifndef TRIAGE_BPF_TASKS_H
#define TRIAGE_BPF_TASKS_H

#define TR_COMM_LEN 16

/* tasks_rec.flags */
#define TR_LEADER 0x1	   /* tid == tgid */
#define TR_KTHREAD 0x2	   /* PF_KTHREAD */
#define TR_HAS_MM 0x4	   /* has an address space (vsize/rss valid) */
#define TR_DELAYS 0x8	   /* delay accounting present (blkio_delay valid) */
#define TR_WQ_WORKER 0x10  /* PF_WQ_WORKER: /proc names it after its pool and work */
#define TR_WQ_RESCUER 0x20 /* a rescuer: "kworker/R-" + name */
#define TR_WQ_NOPOOL 0x40  /* detached from its pool: "kworker/dying" */
#define TR_WQ_BUSY 0x80	   /* running a work item: '+' before desc, else '-' */
#define TR_NAME_LEN 64
#define TR_DESC_LEN 32

struct tasks_io {
	__u64 rchar, wchar, syscr, syscw, read_bytes, write_bytes, cancelled_write_bytes;
};

/* What signal_struct holds for the whole thread group (dead threads included). */
struct tasks_group {
	__u64 utime, stime, sum_exec, prev_utime, prev_stime, gtime;
	__u64 cutime, cstime, cgtime;
	__u64 min_flt, maj_flt, cmin_flt, cmaj_flt;
	struct tasks_io io;
};

struct tasks_rec {
	__u32 tid, tgid, ppid, uid;
	__u32 flags, state, exit_state, cpu;
	__u32 rt_priority, policy, nr_threads, nr_cpus_allowed;
	char comm[TR_COMM_LEN];
	char name[TR_NAME_LEN]; /* kthreads: the full name; rescuers: the workqueue's */
	char desc[TR_DESC_LEN]; /* workqueue workers: the last work's description */
	__s32 wq_pool_cpu, wq_pool_id, wq_worker_id, wq_nice;
	__u64 utime, stime, sum_exec, prev_utime, prev_stime, gtime;
	__u64 start_boottime;
	__u64 min_flt, maj_flt, nvcsw, nivcsw;
	__u64 run_delay, pcount, blkio_delay;
	__u64 cpus_allowed;			       /* the first 64 CPUs of cpus_ptr */
	__u64 total_vm, rss_file, rss_anon, rss_shmem; /* pages */
	struct tasks_io io;
	struct tasks_group group; /* the same for every thread of a process */
};

#endif
