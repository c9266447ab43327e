/* Shared between forks.bpf.c and the user side (src/probe/forks.c): map layouts only. */
#ifndef TRIAGE_BPF_FORKS_H
#define TRIAGE_BPF_FORKS_H

#define FORKS_MAX_PARENTS 8192
#define FORKS_COMM_LEN 16

/* One parent process (key: its tgid): the processes it forked, and its name. */
struct forks_val {
	__u64 forks;
	char comm[FORKS_COMM_LEN];
};

#endif
