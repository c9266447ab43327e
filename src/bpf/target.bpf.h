/*
 * BPF side, shared by every probe: whom it follows, one process
 * (targ_tgid), every process with an exact comm (by_comm, targ_comm), or
 * every task (targ_tgid 0 without by_comm). User space sets the rodata before load
 * (PROBE_RODATA_SET_TARGET in src/probe/session.h). Include once per
 * BPF object, after vmlinux.h and bpf_helpers.h.
 */
#ifndef TRIAGE_BPF_TARGET_BPF_H
#define TRIAGE_BPF_TARGET_BPF_H

#define TARGET_COMM_LEN 16 /* TASK_COMM_LEN */

const volatile __u32 targ_tgid = 0;
const volatile char targ_comm[TARGET_COMM_LEN] = {};
const volatile bool by_comm = false;

static __always_inline bool comm_equal(const char *comm)
{
	for (int i = 0; i < TARGET_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

static __always_inline bool comm_matches(void)
{
	char comm[TARGET_COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	return comm_equal(comm);
}

static __always_inline bool tgid_matches(void)
{
	return !targ_tgid || (__u32)(bpf_get_current_pid_tgid() >> 32) == targ_tgid;
}

/* Whether the current task is one the probe follows. */
static __always_inline bool target_matches(void)
{
	return by_comm ? comm_matches() : tgid_matches();
}

/* Whether task t (not necessarily current) is one the probe follows; tp_btf programs. */
static __always_inline bool task_matches(struct task_struct *t)
{
	char comm[TARGET_COMM_LEN];

	if (!by_comm)
		return !targ_tgid || (__u32)t->tgid == targ_tgid;
	bpf_probe_read_kernel_str(comm, sizeof(comm), t->comm);
	return comm_equal(comm);
}

#endif
