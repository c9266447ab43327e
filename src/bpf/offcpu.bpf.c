// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU time of one process, a comm or every task, by thread, kind and stack. At sched_switch
 * the thread leaving the CPU (prev == current, so its stacks are ours to
 * take) is stamped; when it comes back its off-CPU interval is added to
 * offcpu_time. Voluntary or not follows the kernel's nvcsw/nivcsw rule:
 * a switch is involuntary when it is a preemption or the task is still
 * TASK_RUNNING.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stackprobes.h"
#include "stack_capture.bpf.h"
#include "target.bpf.h"

#define TASK_RUNNING 0
#define TASK_UNINTERRUPTIBLE 0x2
#define TASK_DEAD 0x80
#define TASK_NOLOAD 0x400

/*
 * Only sleeps in D (TASK_UNINTERRUPTIBLE, not TASK_IDLE): what the load
 * average counts and triage report explains. Cheap enough system-wide,
 * as stacks are taken for those sleeps only.
 */
const volatile bool only_dstate = false;

/* Intervals lost to a full map (user space reports them). */
__u64 map_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_MAX_THREADS);
	__type(key, __u32);
	__type(value, struct offcpu_start);
} offcpu_start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_MAP_STACKS);
	__type(key, struct offcpu_key);
	__type(value, struct offcpu_val);
} offcpu_time SEC(".maps");

static void switch_out(void *ctx, struct task_struct *prev, bool preempt, unsigned int state)
{
	struct offcpu_start s = {};
	__u32 tid = prev->pid;

	if (state & TASK_DEAD)
		return; /* exiting: it never comes back */
	if (only_dstate && (!(state & TASK_UNINTERRUPTIBLE) || (state & TASK_NOLOAD)))
		return;
	s.ts = bpf_ktime_get_ns();
	s.tgid = prev->tgid;
	s.invol = preempt || state == TASK_RUNNING;
	s.kstack = take_stack(ctx, kernel_stacks, 0);
	s.ustack = take_stack(ctx, user_stacks, BPF_F_USER_STACK);
	if (bpf_map_update_elem(&offcpu_start, &tid, &s, BPF_ANY))
		__sync_fetch_and_add(&map_full, 1);
}

static void switch_in(struct task_struct *next)
{
	struct offcpu_key key = {};
	struct offcpu_val zero = {}, *val;
	struct offcpu_start *s;
	__u32 tid = next->pid;
	__u64 now;

	s = bpf_map_lookup_elem(&offcpu_start, &tid);
	if (!s)
		return; /* went off-CPU before we attached */
	now = bpf_ktime_get_ns();
	key.tgid = next->tgid;
	key.tid = tid;
	key.kstack = s->kstack;
	key.ustack = s->ustack;
	key.invol = s->invol;
	val = bpf_map_lookup_elem(&offcpu_time, &key);
	if (!val) {
		bpf_probe_read_kernel_str(zero.comm, sizeof(zero.comm), next->comm);
		bpf_map_update_elem(&offcpu_time, &key, &zero, BPF_NOEXIST);
		val = bpf_map_lookup_elem(&offcpu_time, &key);
	}
	if (val) {
		__sync_fetch_and_add(&val->total_ns, now - s->ts);
		__sync_fetch_and_add(&val->count, 1);
	} else {
		__sync_fetch_and_add(&map_full, 1);
	}
	bpf_map_delete_elem(&offcpu_start, &tid);
}

#ifdef SP_ENRICH
/*
 * Whether next can have a start to close: with only_dstate, only if its
 * last sleep counted in the load average, which the scheduler notes in
 * the task when it blocks (a D sleep, not TASK_NOLOAD). Reading that bit
 * spares the hash lookup of nearly every switch on the machine; a stale
 * bit (set by an older D sleep) costs only the lookup.
 */
static __always_inline bool may_close(struct task_struct *next)
{
	return !only_dstate || BPF_CORE_READ_BITFIELD(next, sched_contributes_to_load);
}
#else
static __always_inline bool may_close(struct task_struct *next)
{
	return true;
}
#endif

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	if (prev->pid && task_matches(prev))
		switch_out(ctx, prev, preempt, prev_state);
	if (next->pid && may_close(next) && task_matches(next))
		switch_in(next);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
