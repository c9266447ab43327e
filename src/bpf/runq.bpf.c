// SPDX-License-Identifier: GPL-2.0
/*
 * Run-queue latency of the threads of one process, a comm or every task: the time from becoming
 * runnable (a wakeup, or being preempted while runnable) to running again.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stackprobes.h"
#include "target.bpf.h"

#define TASK_RUNNING 0

__u64 map_full = 0;

#ifdef SP_ENRICH
/*
 * The report's build keeps a thread's enqueue stamp in its task storage:
 * slab memory beside the task rather than a 16,384-entry hash map, which
 * every context switch of every task looked up.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} runq_stamps SEC(".maps");

static void stamp_set(struct task_struct *p, __u64 now)
{
	__u64 *ts = bpf_task_storage_get(&runq_stamps, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);

	if (ts)
		*ts = now;
	else
		__sync_fetch_and_add(&map_full, 1);
}

static void stamp_clear(struct task_struct *p)
{
	__u64 *ts = bpf_task_storage_get(&runq_stamps, p, 0, 0);

	if (ts)
		*ts = 0;
}

/* The stamp, taken (cleared): 0 when there is none. */
static __u64 stamp_take(struct task_struct *p)
{
	__u64 *ts = bpf_task_storage_get(&runq_stamps, p, 0, 0), v;

	if (!ts)
		return 0;
	v = *ts;
	*ts = 0;
	return v;
}
#else
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_MAX_THREADS);
	__type(key, __u32);
	__type(value, __u64);
} runq_enqueued SEC(".maps");

static void stamp_set(struct task_struct *p, __u64 now)
{
	__u32 tid = p->pid;

	if (bpf_map_update_elem(&runq_enqueued, &tid, &now, BPF_ANY))
		__sync_fetch_and_add(&map_full, 1);
}

static void stamp_clear(struct task_struct *p)
{
	__u32 tid = p->pid;

	bpf_map_delete_elem(&runq_enqueued, &tid);
}

static __u64 stamp_take(struct task_struct *p)
{
	__u32 tid = p->pid;
	__u64 *ts = bpf_map_lookup_elem(&runq_enqueued, &tid), v;

	if (!ts)
		return 0;
	v = *ts;
	bpf_map_delete_elem(&runq_enqueued, &tid);
	return v;
}
#endif

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_MAX_THREADS);
	__uint(map_flags, SP_ROWS_FLAGS);
	__type(key, __u32);
	__type(value, struct runq_val);
} runq_threads SEC(".maps");

/* The slot probe/hist.h uses: 0 for 0 and 1, else floor(log2(v)). */
static __u32 log2_slot(__u64 v)
{
	__u32 r = 0;

	for (int i = 0; i < 64 && v > 1; i++) {
		v >>= 1;
		r++;
	}
	return r < RUNQ_SLOTS ? r : RUNQ_SLOTS - 1;
}

static void mark_runnable(struct task_struct *p)
{
	if (!p->pid || !task_matches(p))
		return;
	stamp_set(p, bpf_ktime_get_ns());
}

static void account(struct task_struct *next)
{
	struct runq_val *val;
	__u32 tid = next->pid;
	__u64 ts = stamp_take(next), delta;

	if (!ts)
		return;
	delta = bpf_ktime_get_ns() - ts;
	val = bpf_map_lookup_elem(&runq_threads, &tid);
	if (!val) {
		static const struct runq_val zero;

		bpf_map_update_elem(&runq_threads, &tid, &zero, BPF_NOEXIST);
		val = bpf_map_lookup_elem(&runq_threads, &tid);
		if (!val) {
			__sync_fetch_and_add(&map_full, 1);
			return;
		}
	}
#ifdef SP_ENRICH
	/* the report reads no names: the thread's first will do */
	if (!val->comm[0])
#endif
		bpf_probe_read_kernel_str(val->comm, sizeof(val->comm), next->comm);
	val->tgid = next->tgid;
	__sync_fetch_and_add(&val->slots[log2_slot(delta / 1000)], 1);
	__sync_fetch_and_add(&val->total_ns, delta);
	__sync_fetch_and_add(&val->count, 1);
	if (delta > val->max_ns)
		val->max_ns = delta; /* racy max: good enough for one thread */
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(runq_wakeup, struct task_struct *p)
{
	mark_runnable(p);
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(runq_wakeup_new, struct task_struct *p)
{
	mark_runnable(p);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(runq_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	if (prev->pid && task_matches(prev)) {
		/*
		 * prev_state is the state at the start of __schedule(): a wakeup
		 * or a pending signal since then left the task runnable, on the
		 * run queue; __state says so.
		 */
		if (preempt || prev_state == TASK_RUNNING || prev->__state == TASK_RUNNING)
			mark_runnable(prev);
		else
			stamp_clear(prev);
	}
	if (next->pid)
		account(next); /* only threads marked runnable have a stamp */
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
