/* Shared between trace.bpf.c and the user side: the event record. */
#ifndef TRIAGE_BPF_TRACE_H
#define TRIAGE_BPF_TRACE_H

#define TR_NR_SLOTS 512
#define TR_STR_LEN 256
#define TR_NSTR 2

/* tr_event.flags */
#define TR_F_NORETURN 1	  /* emitted at entry: exit/exit_group never return */
#define TR_F_STR0_FAULT 2 /* str[0] could not be read from user memory */
#define TR_F_STR1_FAULT 4

struct tr_event {
	__u64 ts_ns; /* entry, CLOCK_MONOTONIC */
	__u64 dur_ns;
	__s64 ret;
	__u64 args[6];
	__u32 tgid, tid;
	__s32 nr;
	__u32 flags;
	char comm[16];
	char str[TR_NSTR][TR_STR_LEN]; /* the path arguments named by str_args[nr] */
};

#endif
