// SPDX-License-Identifier: GPL-2.0
/*
 * triage probe syscalls, BPF side: per-syscall counts, errors and latency
 * of one process (tgid), one comm or every task (then also per process,
 * in sc_pids), from the BTF syscall tracepoints.
 * Counting happens at entry, so calls that never return (exit_group,
 * a successful execve's old image...) are counted too; latency at exit.
 * Per-CPU arrays avoid atomics; the entry timestamp lives in task storage.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "syscalls.h"
#include "target.bpf.h"

const volatile bool want_hist = false;
const volatile bool want_latency = true;
/* Also count per process (sc_pids): set when tracing every task. */
const volatile bool per_pid = false;

/* Calls not counted per process because sc_pids was full. */
__u64 pid_rows_full = 0;

struct sc_start {
	__u64 ts;
	__s64 nr;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sc_start);
} sc_starts SEC(".maps");

#ifndef SP_ENRICH /* the report reads the per-process rows alone */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SC_NR_SLOTS);
	__type(key, __u32);
	__type(value, struct sc_stat);
} sc_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SC_NR_SLOTS *SC_HIST_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} sc_hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, struct sc_err_key);
	__type(value, __u64);
} sc_errs SEC(".maps");

#endif

/*
 * A busy machine starts hundreds of processes a second, each with tens of
 * syscalls: room for many rows, preallocated (allocating in the
 * tracepoint fails in bursts). Rows that find no room are counted
 * (pid_rows_full) and reported.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SC_MAX_PID_ROWS);
#ifdef SP_ENRICH
	/*
	 * 6 MB preallocated was a fifth of the report's start-up; rows come one
	 * per program run, and the kernel's allocator (Linux 6.1, bpf_mem_alloc)
	 * refills its per-CPU cache between runs. The light skeleton this is
	 * built for needs Linux 5.17 or later; before 6.1 it fails to load and
	 * the report falls back to the preallocated map above.
	 */
	__uint(map_flags, BPF_F_NO_PREALLOC);
#endif
	__type(key, struct sc_pid_key);
	__type(value, struct sc_pid_val);
} sc_pids SEC(".maps");

/* The current process's row for syscall slot nr, created on first use. */
static __always_inline struct sc_pid_val *pid_row(__u32 nr)
{
	struct sc_pid_key key = { .tgid = bpf_get_current_pid_tgid() >> 32, .nr = nr };
	struct sc_pid_val *v = bpf_map_lookup_elem(&sc_pids, &key);

	if (v)
		return v;
	{
		struct sc_pid_val zero = {};

		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&sc_pids, &key, &zero, BPF_NOEXIST);
	}
	v = bpf_map_lookup_elem(&sc_pids, &key);
	if (!v)
		__sync_fetch_and_add(&pid_rows_full, 1);
	return v;
}

static __always_inline __u32 nr_slot(long nr)
{
	return nr < SC_NR_SLOTS - 1 ? (__u32)nr : SC_NR_SLOTS - 1;
}

/* Notes when this task entered system call id, for its exit to time it. */
static __always_inline void mark_entry(long id)
{
	struct sc_start *start = bpf_task_storage_get(&sc_starts, bpf_get_current_task_btf(), 0,
						      BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (start) {
		start->nr = id;
		start->ts = bpf_ktime_get_ns();
	}
}

/*
 * At exit: the slot of the call this task entered and its time in ns;
 * false when its entry was not seen (it began before we attached, or was
 * filtered out). The mark is cleared, so that a call is timed once.
 */
static __always_inline bool took(__u32 *slot, __u64 *ns)
{
	struct sc_start *start = bpf_task_storage_get(&sc_starts, bpf_get_current_task_btf(), 0, 0);

	if (!start || !start->ts)
		return false;
	*ns = bpf_ktime_get_ns() - start->ts;
	start->ts = 0;
	*slot = nr_slot(start->nr);
	return true;
}

#ifdef SP_ENRICH
/*
 * Count only the processes in watch_tgid (user space fills it from its
 * samples: those that spend time in the kernel), when set. A system call
 * of anyone else costs a few compares, no helper beyond the tgid's.
 */
const volatile bool watch_only = false;
__u32 watch_tgid[SC_WATCH_MAX] = {};

static __always_inline bool watched(void)
{
	__u32 tgid;

	if (!watch_only)
		return true;
	tgid = bpf_get_current_pid_tgid() >> 32;
	for (int i = 0; i < SC_WATCH_MAX; i++) {
		__u32 w = watch_tgid[i];

		if (!w)
			return false;
		if (w == tgid)
			return true;
	}
	return false;
}

/*
 * The report's build: per-process rows only, each updated once per call,
 * at exit (count, errors and time together), which halves the map work
 * of every system call on the machine. Calls that never return are
 * counted at entry.
 */
static __always_inline bool never_returns(long id)
{
#if defined(__TARGET_ARCH_x86)
	return id == 60 || id == 231; /* exit, exit_group */
#elif defined(__TARGET_ARCH_arm64)
	return id == 93 || id == 94;
#else
	return false;
#endif
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sc_enter, struct pt_regs *regs, long id)
{
	if (id < 0 || !watched() || !target_matches())
		return 0;
	if (never_returns(id)) {
		struct sc_pid_val *pv = pid_row(nr_slot(id));

		if (pv)
			__sync_fetch_and_add(&pv->count, 1);
		return 0;
	}
	mark_entry(id);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sc_exit, struct pt_regs *regs, long ret)
{
	struct sc_pid_val *pv;
	__u32 slot;
	__u64 ns;

	if (!watched() || (!by_comm && !tgid_matches()) || !took(&slot, &ns))
		return 0;
	pv = pid_row(slot);
	if (!pv)
		return 0;
	__sync_fetch_and_add(&pv->count, 1);
	__sync_fetch_and_add(&pv->total_ns, ns);
	if (ret < 0 && ret >= -4095)
		__sync_fetch_and_add(&pv->errors, 1);
	return 0;
}
#else
static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 s = 0;

	for (int i = 0; i < SC_HIST_SLOTS - 1 && v > 1; i++) {
		v >>= 1;
		s++;
	}
	return s;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sc_enter, struct pt_regs *regs, long id)
{
	struct sc_stat *st;
	__u32 slot;

	if (id < 0 || !target_matches())
		return 0;
	slot = nr_slot(id);
	st = bpf_map_lookup_elem(&sc_stats, &slot);
	if (!st)
		return 0;
	st->count++;
	if (per_pid) {
		struct sc_pid_val *pv = pid_row(slot);

		if (pv)
			__sync_fetch_and_add(&pv->count, 1);
	}
	if (!want_latency)
		return 0;
	mark_entry(id);
	return 0;
}

static __always_inline void count_error(__u32 nr, long ret)
{
	struct sc_err_key key = { .nr = nr, .err = (__u32)-ret };
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&sc_errs, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&sc_errs, &key, &one, BPF_NOEXIST))
		/* another CPU inserted it first */
		if ((n = bpf_map_lookup_elem(&sc_errs, &key)))
			__sync_fetch_and_add(n, 1);
}

static __always_inline void add_hist(__u32 nr, __u64 ns)
{
	__u32 idx = nr * SC_HIST_SLOTS + log2_slot(ns / 1000);
	__u64 *n = bpf_map_lookup_elem(&sc_hists, &idx);

	if (n)
		(*n)++;
}

/* Without latency: no entry record, so the number comes from the registers. */
static __always_inline int count_error_only(struct pt_regs *regs, long ret)
{
#if defined(__TARGET_ARCH_x86)
	long nr = regs->orig_ax;
#else
	long nr = -1; /* counts only: errors need the x86 orig_ax register here */
#endif
	struct sc_stat *st;
	__u32 slot;

	if (ret >= 0 || ret < -4095 || nr < 0 || (by_comm && !comm_matches()))
		return 0;
	slot = nr_slot(nr);
	st = bpf_map_lookup_elem(&sc_stats, &slot);
	if (!st)
		return 0;
	st->errors++;
	count_error(slot, ret);
	if (per_pid) {
		struct sc_pid_val *pv = pid_row(slot);

		if (pv)
			__sync_fetch_and_add(&pv->errors, 1);
	}
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sc_exit, struct pt_regs *regs, long ret)
{
	struct sc_stat *st;
	__u64 ns;
	__u32 slot;

	if (!by_comm && !tgid_matches())
		return 0;
	if (!want_latency)
		return count_error_only(regs, ret);
	if (!took(&slot, &ns))
		return 0;
	st = bpf_map_lookup_elem(&sc_stats, &slot);
	if (!st)
		return 0;
	st->returns++;
	st->total_ns += ns;
	if (ns > st->max_ns)
		st->max_ns = ns;
	if (ret < 0 && ret >= -4095) {
		st->errors++;
		count_error(slot, ret);
	}
	if (per_pid) {
		struct sc_pid_val *pv = pid_row(slot);

		if (pv) {
			__sync_fetch_and_add(&pv->total_ns, ns);
			if (ret < 0 && ret >= -4095)
				__sync_fetch_and_add(&pv->errors, 1);
		}
	}
	if (want_hist)
		add_hist(slot, ns);
	return 0;
}

#endif

char LICENSE[] SEC("license") = "GPL";
