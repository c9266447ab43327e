/*
 * One look at the machine for `triage load`: the kernel's figures
 * (/proc/loadavg, PSI) and every thread that is runnable or in D right
 * now, with where each D thread waits and whether it counts.
 */
#ifndef TRIAGE_LOAD_SNAPSHOT_H
#define TRIAGE_LOAD_SNAPSHOT_H

#include <stdbool.h>
#include <sys/types.h>

#include "load/dreason.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"
#include "procfs/task_info.h"
#include "procfs/tasksrc.h"

enum psi_resource { PSI_CPU, PSI_IO, PSI_MEMORY, PSI_COUNT };

struct load_task {
	pid_t pid, tid;
	char comm[COMM_MAX];
	char state; /* 'R' or 'D' as /proc shows it */
	bool kernel_thread;
	bool frozen; /* D because the freezer holds it: not counted */
	bool counts; /* counted by the kernel's load average */
	char wchan[KSYM_MAX];
	struct kstack stack; /* nframes 0 when unreadable */
	char cgroup[CGROUP_PATH_MAX];
	struct d_verdict why;	      /* reason D_NONE for runnable tasks */
	unsigned long long starttime; /* with tid, identifies the task across PID reuse */
};

struct load_snapshot {
	struct loadavg kernel;
	bool have_loadavg;
	int ncpu;
	struct psi psi[PSI_COUNT];
	bool have_psi[PSI_COUNT];
	struct load_task *tasks; /* sorted by pid, tid */
	size_t ntasks, cap;
	unsigned threads_scanned;
	unsigned n_runnable, n_d_counted, n_frozen;
	unsigned reason_count[D_REASON_COUNT]; /* counted D tasks (frozen under D_FREEZER) */
	bool stacks_readable;		       /* at least one D stack could be read */
};

struct load_scan_opts {
	pid_t skip_pid;		   /* our own process: it is always runnable while it looks */
	bool want_stacks;	   /* read kernel stacks of D tasks */
	struct task_source *tasks; /* the task door (bpf iterator or /proc) */
	struct task_set *set;	   /* its scratch, reused scan after scan */
};

/*
 * Scans opts->tasks (every thread) and pf (the kernel's figures, and for D
 * threads wchan, stack, cgroup) into snap (zeroed first). Returns 0 or
 * -errno (no /proc, no memory).
 */
int load_snapshot_take(const struct procfs *pf, const struct load_scan_opts *opts,
		       struct load_snapshot *snap);
void load_snapshot_release(struct load_snapshot *snap);

/*
 * Fills why/frozen/counts of a D task from its wchan, stack and the freezer
 * state of its cgroup (frozen < 0: unknown, treated as not frozen).
 */
void load_task_judge(struct load_task *t, int frozen);

const char *load_psi_resource_name(enum psi_resource r);

#endif
