// SPDX-License-Identifier: GPL-2.0
/*
 * triage doctor: one trivial program per attach type. The doctor loads
 * and attaches them one at a time (autoload off for the others), so each
 * verdict comes from the kernel, not from a guess.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

__u64 hits = 0;

SEC("tracepoint/raw_syscalls/sys_enter")
int doc_tracepoint(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("raw_tracepoint/sys_enter")
int doc_raw_tp(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(doc_tp_btf, struct pt_regs *regs, long id)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("kprobe/do_nanosleep")
int doc_kprobe(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fentry/do_nanosleep")
int BPF_PROG(doc_fentry)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("uprobe")
int doc_uprobe(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("perf_event")
int doc_perf_event(void *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} doc_stacks SEC(".maps");

/* A sched_switch program that takes stacks: what offcpu needs. */
SEC("tp_btf/sched_switch")
int BPF_PROG(doc_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	bpf_get_stackid(ctx, &doc_stacks, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
