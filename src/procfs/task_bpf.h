/*
 * The bpf door's kernel side (private to src/procfs/): the task iterator
 * skeleton, loaded and attached once; every snapshot is one iterator fd
 * read to its end. Without BPF support built in, open gives -EOPNOTSUPP.
 */
#ifndef TRIAGE_PROCFS_TASK_BPF_H
#define TRIAGE_PROCFS_TASK_BPF_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "bpf/tasks.h"

struct task_bpf;

int procfs_task_bpf_open(struct task_bpf **out);
void procfs_task_bpf_close(struct task_bpf *b);
/* How it was loaded: "light skeleton" (the kernel's loader) or "libbpf". */
const char *procfs_task_bpf_loader(const struct task_bpf *b);
/*
 * One walk of every task; *recs stays valid until the next read or close.
 * active_only: records only for threads in R or D, *walked = all threads
 * walked (with every record, *walked = *n).
 */
int procfs_task_bpf_read(struct task_bpf *b, bool active_only, struct tasks_rec **recs, size_t *n,
			 size_t *walked);

#endif
