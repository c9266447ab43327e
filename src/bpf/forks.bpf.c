// SPDX-License-Identifier: GPL-2.0
/*
 * New processes counted by the process that forked them (the report's
 * process-churn names the parents of a fork storm): sched_process_fork,
 * every task, keyed by the parent's tgid. A new thread is no new process
 * and is not counted.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "forks.h"

__u64 map_full = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FORKS_MAX_PARENTS);
#ifdef SP_ENRICH
	__uint(map_flags, BPF_F_NO_PREALLOC); /* a parent's first fork adds its row */
#endif
	__type(key, __u32);
	__type(value, struct forks_val);
} forks_by_parent SEC(".maps");

SEC("tp_btf/sched_process_fork")
int BPF_PROG(forks_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = parent->tgid;
	struct forks_val *v;

	if (child->pid != child->tgid)
		return 0;
	v = bpf_map_lookup_elem(&forks_by_parent, &tgid);
	if (!v) {
		static const struct forks_val zero;

		bpf_map_update_elem(&forks_by_parent, &tgid, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&forks_by_parent, &tgid);
		if (!v) {
			__sync_fetch_and_add(&map_full, 1);
			return 0;
		}
		bpf_probe_read_kernel_str(v->comm, sizeof(v->comm), parent->comm);
	}
	__sync_fetch_and_add(&v->forks, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
