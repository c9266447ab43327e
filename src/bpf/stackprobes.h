/*
 * Types shared by the BPF and user sides of the stack probes (offcpu,
 * runq, profile). Keys and values carry the tgid, so a system-wide run
 * still says whose they are. Only __u32/__u64 style types: vmlinux.h provides them
 * on the BPF side, <linux/types.h> on the user side.
 */
#ifndef TRIAGE_BPF_STACKPROBES_H
#define TRIAGE_BPF_STACKPROBES_H

#define SP_COMM_LEN 16
/* PERF_MAX_STACK_DEPTH: frames a stack map value holds. */
#define SP_MAX_FRAMES 127
#define SP_MAX_THREADS 16384
#define SP_MAX_STACKS 16384
/*
 * The report's enrichment (src/probe/enrich.c) loads these programs built
 * again with -DSP_ENRICH (src/bpf/module.mk) as light skeletons, whose maps
 * cannot be resized at run time: the sizes it wants are set here instead.
 * Stack maps are preallocated, and a window of seconds has a few hundred
 * distinct stacks. SP_STACK_FRAMES sets a stack's depth: 1 for the
 * enrichment's profile (the report asks for the top functions by self
 * samples, and walking every user stack to its end was most of a sample's
 * cost in the kernel), SP_ENRICH_DSTATE_FRAMES for its D-state stacks (the
 * frames the report shows). Maps whose rows are added rarely (a thread's,
 * a process's first event) are not preallocated there: SP_ROWS_FLAGS.
 */
#define SP_ENRICH_MAX_STACKS 4096
#ifdef SP_ENRICH
#define SP_MAP_STACKS SP_ENRICH_MAX_STACKS
#else
#define SP_MAP_STACKS SP_MAX_STACKS
#endif
#define SP_ENRICH_DSTATE_FRAMES 16
#ifdef SP_STACK_FRAMES
#define SP_MAP_FRAMES SP_STACK_FRAMES
#else
#define SP_MAP_FRAMES SP_MAX_FRAMES
#endif
#ifdef SP_ENRICH
#define SP_ROWS_FLAGS BPF_F_NO_PREALLOC
#else
#define SP_ROWS_FLAGS 0
#endif
/* Log2 slots of run-queue latency in microseconds (2^26 us > 1 min). */
#define RUNQ_SLOTS 27

/* Off-CPU time is summed per thread, kind and pair of stacks. */
struct offcpu_key {
	__u32 tgid;
	__u32 tid;
	__s32 kstack; /* stack map id, or a negative errno (no stack) */
	__s32 ustack;
	__u32 invol; /* 1: preempted while runnable; 0: blocked */
	__u32 pad;
};

/* A thread off the CPU since ts: what it left with (flushed at the end). */
struct offcpu_start {
	__u64 ts;
	__s32 kstack;
	__s32 ustack;
	__u32 invol;
	__u32 tgid;
};

struct offcpu_val {
	__u64 total_ns;
	__u64 count;
	char comm[SP_COMM_LEN];
};

/* Run-queue latency of one thread. */
struct runq_val {
	__u64 slots[RUNQ_SLOTS]; /* log2 histogram in us, as probe/hist.h reads it */
	__u64 total_ns;
	__u64 count;
	__u64 max_ns;
	char comm[SP_COMM_LEN];
	__u32 tgid;
	__u32 pad;
};

/* On-CPU samples per thread and pair of stacks. */
struct profile_key {
	__u32 tid;
	__s32 kstack;
	__s32 ustack;
	__u32 tgid;
};

struct profile_val {
	__u64 count;
	char comm[SP_COMM_LEN];
};

#endif
