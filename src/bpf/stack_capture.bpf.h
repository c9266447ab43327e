/*
 * BPF side, shared by offcpu and profile: a stack-trace map (sp_stacks)
 * and take_stack(), which records the current kernel or user stack and
 * counts the ones lost. User space sets kernel_stacks/user_stacks before
 * load and reads stack_errors and sp_stacks after. Include once per BPF
 * object, after vmlinux.h, bpf_helpers.h and stackprobes.h.
 */
#ifndef TRIAGE_BPF_STACK_CAPTURE_BPF_H
#define TRIAGE_BPF_STACK_CAPTURE_BPF_H

const volatile bool kernel_stacks = true;
const volatile bool user_stacks = true;

/* Stacks not recorded (map full or hash collision). */
__u64 stack_errors = 0;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, SP_MAP_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SP_MAP_FRAMES * sizeof(__u64));
} sp_stacks SEC(".maps");

/*
 * The stack id in sp_stacks, or a negative errno when there is none. flags
 * is 0 for the kernel stack, BPF_F_USER_STACK for the user one.
 */
static __s32 take_stack(void *ctx, bool enabled, __u64 flags)
{
	long id;

	if (!enabled)
		return -1;
	id = bpf_get_stackid(ctx, &sp_stacks, flags);
	/*
	 * -EFAULT is not a loss: no user stack (a kernel thread) or no kernel
	 * stack (a sample taken in user mode).
	 */
	if (id < 0 && id != -14)
		__sync_fetch_and_add(&stack_errors, 1);
	return (__s32)id;
}

#endif
