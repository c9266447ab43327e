// SPDX-License-Identifier: GPL-2.0
/*
 * On-CPU sampling of one process, a comm or every task: attached to a software cpu-clock
 * perf event per CPU, it counts samples per thread and pair of stacks.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "stackprobes.h"
#include "stack_capture.bpf.h"
#include "target.bpf.h"

__u64 samples = 0;
__u64 map_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SP_MAP_STACKS);
	__type(key, struct profile_key);
	__type(value, struct profile_val);
} profile_counts SEC(".maps");

SEC("perf_event")
int profile_sample(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct profile_key key = {};
	struct profile_val *val;

	if (!(__u32)id || !target_matches())
		return 0; /* idle, or not followed */
	__sync_fetch_and_add(&samples, 1);
	key.tid = (__u32)id;
	key.tgid = id >> 32;
	key.kstack = take_stack(ctx, kernel_stacks, 0);
	key.ustack = take_stack(ctx, user_stacks, BPF_F_USER_STACK);
	val = bpf_map_lookup_elem(&profile_counts, &key);
	if (!val) {
		struct profile_val zero = {};

		bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&profile_counts, &key, &zero, BPF_NOEXIST);
		val = bpf_map_lookup_elem(&profile_counts, &key);
		if (!val) {
			__sync_fetch_and_add(&map_full, 1);
			return 0;
		}
	}
	__sync_fetch_and_add(&val->count, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
