// SPDX-License-Identifier: GPL-2.0
/*
 * triage probe trace, BPF side: each selected syscall of one process as a
 * ring-buffer event at exit, with its six raw arguments, up to two path
 * strings copied from user memory, return value and duration. User space
 * sets which syscalls (sel) and which of their arguments are strings
 * (str_args: argument index + 1 in each nibble) before load.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "trace.h"
#include "target.bpf.h"

/* libbpf 1.1 has no PT_REGS_PARM6*: the sixth syscall argument register. */
#if defined(__TARGET_ARCH_x86)
#define SYSCALL_ARG6(regs) BPF_CORE_READ(regs, r9)
#else
#define SYSCALL_ARG6(regs) 0
#endif

const volatile __u64 sel[TR_NR_SLOTS / 64] = {};
const volatile __u64 noreturn[TR_NR_SLOTS / 64] = {};
const volatile __u8 str_args[TR_NR_SLOTS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct tr_event);
} tr_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} tr_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} tr_lost SEC(".maps");

static __always_inline bool bit_set(const volatile __u64 *map, long nr)
{
	return nr >= 0 && nr < TR_NR_SLOTS && (map[nr / 64] >> (nr % 64)) & 1;
}

/* Reads the strings whose fault flag is set (all of them at entry). */
static __always_inline void read_strings(struct tr_event *e, __u32 faults)
{
	__u8 spec = str_args[e->nr & (TR_NR_SLOTS - 1)];

	for (int i = 0; i < TR_NSTR; i++) {
		__u32 idx = (spec >> (4 * i)) & 0xf, bit = TR_F_STR0_FAULT << i;

		if (!idx || idx > 6 || !(faults & bit))
			continue;
		if (bpf_probe_read_user_str(e->str[i], TR_STR_LEN,
					    (const void *)e->args[(idx - 1) & 7]) > 0)
			e->flags &= ~bit;
		else
			e->flags |= bit;
	}
}

static __always_inline void emit(struct tr_event *e)
{
	__u32 zero = 0;
	__u64 *lost;

	if (!bpf_ringbuf_output(&tr_events, e, sizeof(*e), 0))
		return;
	lost = bpf_map_lookup_elem(&tr_lost, &zero);
	if (lost)
		(*lost)++;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(tr_enter, struct pt_regs *regs, long id)
{
	struct tr_event *e;
	__u64 pid_tgid;

	if (!bit_set(sel, id) || !target_matches())
		return 0;
	e = bpf_task_storage_get(&tr_pending, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!e)
		return 0;
	pid_tgid = bpf_get_current_pid_tgid();
	e->tgid = pid_tgid >> 32;
	e->tid = (__u32)pid_tgid;
	e->nr = id;
	e->flags = 0;
	e->ret = 0;
	e->dur_ns = 0;
	e->args[0] = PT_REGS_PARM1_CORE_SYSCALL(regs);
	e->args[1] = PT_REGS_PARM2_CORE_SYSCALL(regs);
	e->args[2] = PT_REGS_PARM3_CORE_SYSCALL(regs);
	e->args[3] = PT_REGS_PARM4_CORE_SYSCALL(regs);
	e->args[4] = PT_REGS_PARM5_CORE_SYSCALL(regs);
	e->args[5] = SYSCALL_ARG6(regs);
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->str[0][0] = e->str[1][0] = 0;
	read_strings(e, TR_F_STR0_FAULT | TR_F_STR1_FAULT);
	e->ts_ns = bpf_ktime_get_ns();
	if (bit_set(noreturn, id)) {
		e->flags |= TR_F_NORETURN;
		emit(e);
		e->ts_ns = 0;
	}
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(tr_exit, struct pt_regs *regs, long ret)
{
	struct tr_event *e;

	if (!by_comm && (__u32)(bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	e = bpf_task_storage_get(&tr_pending, bpf_get_current_task_btf(), 0, 0);
	if (!e || !e->ts_ns)
		return 0;
	e->dur_ns = bpf_ktime_get_ns() - e->ts_ns;
	e->ret = ret;
	/* A path not yet paged in at entry is there now: the kernel read it. */
	if (e->flags & (TR_F_STR0_FAULT | TR_F_STR1_FAULT))
		read_strings(e, e->flags);
	emit(e);
	e->ts_ns = 0;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
