/* Shared between syscalls.bpf.c and the user side: map layouts only. */
#ifndef TRIAGE_BPF_SYSCALLS_H
#define TRIAGE_BPF_SYSCALLS_H

#define SC_NR_SLOTS 512	 /* syscall numbers 0..510; 511 collects larger ones */
#define SC_HIST_SLOTS 32 /* log2 of microseconds: up to 2^32 us */

struct sc_stat {
	__u64 count;	/* entries: exact, also for calls that never return */
	__u64 returns;	/* exits seen with a matching entry: the latency sample size */
	__u64 errors;	/* returns in -4095..-1 */
	__u64 total_ns; /* summed latency of those returns */
	__u64 max_ns;
};

struct sc_err_key {
	__u32 nr;
	__u32 err; /* positive errno */
};

/* Per process and syscall, when tracing every task (per_pid). */
#define SC_MAX_PID_ROWS 65536
#define SC_COMM_LEN 16

/*
 * The report's build (SP_ENRICH) with watch_only: the processes counted,
 * named by user space while the programs run (0 ends the list).
 */
#define SC_WATCH_MAX 8

struct sc_pid_key {
	__u32 tgid;
	__u32 nr; /* slot, as in sc_stats */
};

struct sc_pid_val {
	__u64 count;
	__u64 errors;
	__u64 total_ns;
	char comm[SC_COMM_LEN];
};

#endif
