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

#endif
