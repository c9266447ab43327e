// SPDX-License-Identifier: GPL-2.0
/*
 * The task iterator behind the BPF task door (src/procfs/task_bpf.c): one
 * fixed-size record per thread, written with bpf_seq_write(), so one
 * read() loop on the iterator fd gets every thread of the machine. It
 * reads the same task_struct / signal_struct fields /proc reads; the user
 * side applies /proc's arithmetic (cputime_adjust, clock ticks).
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "tasks.h"

#define PF_KTHREAD_FLAG 0x00200000
#define PF_WQ_WORKER_FLAG 0x00000020
/* mm_struct rss_stat indices (MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES) */
#define RSS_FILE 0
#define RSS_ANON 1
#define RSS_SHMEM 3

/* struct task_struct before 5.14 had "state" instead of "__state". */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

/* One record at a time: too big for the 512-byte BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tasks_rec);
} scratch SEC(".maps");

static __always_inline __u64 rss_count(struct mm_struct *mm, int i)
{
	long v = BPF_CORE_READ(mm, rss_stat[i].count);

	return v > 0 ? (__u64)v : 0; /* percpu_counter_read_positive() */
}

static __always_inline void read_io(struct tasks_io *o, struct task_io_accounting *a)
{
	o->rchar = BPF_CORE_READ(a, rchar);
	o->wchar = BPF_CORE_READ(a, wchar);
	o->syscr = BPF_CORE_READ(a, syscr);
	o->syscw = BPF_CORE_READ(a, syscw);
	o->read_bytes = BPF_CORE_READ(a, read_bytes);
	o->write_bytes = BPF_CORE_READ(a, write_bytes);
	o->cancelled_write_bytes = BPF_CORE_READ(a, cancelled_write_bytes);
}

static __always_inline void read_group(struct tasks_group *g, struct signal_struct *sig)
{
	g->utime = BPF_CORE_READ(sig, utime);
	g->stime = BPF_CORE_READ(sig, stime);
	g->sum_exec = BPF_CORE_READ(sig, sum_sched_runtime);
	g->prev_utime = BPF_CORE_READ(sig, prev_cputime.utime);
	g->prev_stime = BPF_CORE_READ(sig, prev_cputime.stime);
	g->gtime = BPF_CORE_READ(sig, gtime);
	g->cutime = BPF_CORE_READ(sig, cutime);
	g->cstime = BPF_CORE_READ(sig, cstime);
	g->cgtime = BPF_CORE_READ(sig, cgtime);
	g->min_flt = BPF_CORE_READ(sig, min_flt);
	g->maj_flt = BPF_CORE_READ(sig, maj_flt);
	g->cmin_flt = BPF_CORE_READ(sig, cmin_flt);
	g->cmaj_flt = BPF_CORE_READ(sig, cmaj_flt);
	read_io(&g->io, &sig->ioac);
}

/* What proc_task_name() needs for kernel threads and workqueue workers. */
static __always_inline void read_kthread_name(struct tasks_rec *r, struct task_struct *t,
					      __u32 pflags)
{
	struct kthread *k = BPF_CORE_READ(t, worker_private);
	struct workqueue_struct *wq;
	struct worker_pool *pool;
	struct worker *w;
	char *full;

	if (!k)
		return;
	if (!(pflags & PF_WQ_WORKER_FLAG)) {
		full = BPF_CORE_READ(k, full_name);
		if (full)
			bpf_probe_read_kernel_str(r->name, sizeof(r->name), full);
		return;
	}
	w = BPF_CORE_READ(k, data);
	if (!w)
		return;
	r->flags |= TR_WQ_WORKER;
	wq = BPF_CORE_READ(w, rescue_wq);
	pool = BPF_CORE_READ(w, pool);
	if (wq) {
		r->flags |= TR_WQ_RESCUER;
		bpf_probe_read_kernel_str(r->name, sizeof(r->name), &wq->name);
	} else if (pool) {
		r->wq_pool_cpu = BPF_CORE_READ(pool, cpu);
		r->wq_pool_id = BPF_CORE_READ(pool, id);
		r->wq_nice = BPF_CORE_READ(pool, attrs, nice);
	} else {
		r->flags |= TR_WQ_NOPOOL;
	}
	r->wq_worker_id = BPF_CORE_READ(w, id);
	if (pool) {
		bpf_probe_read_kernel_str(r->desc, sizeof(r->desc), &w->desc);
		if (BPF_CORE_READ(w, current_work))
			r->flags |= TR_WQ_BUSY;
	}
}

SEC("iter/task")
int dump_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;
	struct signal_struct *sig;
	struct task_delay_info *d;
	struct mm_struct *mm;
	struct tasks_rec *r;
	__u32 zero = 0, pflags;

	if (!t)
		return 0;
	r = bpf_map_lookup_elem(&scratch, &zero);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->tid = BPF_CORE_READ(t, pid);
	r->tgid = BPF_CORE_READ(t, tgid);
	r->ppid = BPF_CORE_READ(t, real_parent, tgid);
	r->uid = BPF_CORE_READ(t, real_cred, uid.val);
	if (bpf_core_field_exists(t->__state))
		r->state = BPF_CORE_READ(t, __state);
	else
		r->state = (__u32)BPF_CORE_READ((struct task_struct___old *)t, state);
	r->exit_state = (__u32)BPF_CORE_READ(t, exit_state);
	r->cpu = BPF_CORE_READ(t, thread_info.cpu);
	r->rt_priority = BPF_CORE_READ(t, rt_priority);
	r->policy = BPF_CORE_READ(t, policy);
	r->nr_cpus_allowed = (__u32)BPF_CORE_READ(t, nr_cpus_allowed);
	r->cpus_allowed = BPF_CORE_READ(t, cpus_ptr, bits[0]);
	BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	r->utime = BPF_CORE_READ(t, utime);
	r->stime = BPF_CORE_READ(t, stime);
	r->sum_exec = BPF_CORE_READ(t, se.sum_exec_runtime);
	r->prev_utime = BPF_CORE_READ(t, prev_cputime.utime);
	r->prev_stime = BPF_CORE_READ(t, prev_cputime.stime);
	r->gtime = BPF_CORE_READ(t, gtime);
	r->start_boottime = BPF_CORE_READ(t, start_boottime);
	r->min_flt = BPF_CORE_READ(t, min_flt);
	r->maj_flt = BPF_CORE_READ(t, maj_flt);
	r->nvcsw = BPF_CORE_READ(t, nvcsw);
	r->nivcsw = BPF_CORE_READ(t, nivcsw);
	r->run_delay = BPF_CORE_READ(t, sched_info.run_delay);
	r->pcount = BPF_CORE_READ(t, sched_info.pcount);
	pflags = BPF_CORE_READ(t, flags);
	if (pflags & PF_KTHREAD_FLAG) {
		r->flags |= TR_KTHREAD;
		read_kthread_name(r, t, pflags);
	}
	d = BPF_CORE_READ(t, delays);
	if (d) {
		r->flags |= TR_DELAYS;
		r->blkio_delay = BPF_CORE_READ(d, blkio_delay);
	}
	mm = BPF_CORE_READ(t, mm);
	if (mm) {
		r->flags |= TR_HAS_MM;
		r->total_vm = BPF_CORE_READ(mm, total_vm);
		r->rss_file = rss_count(mm, RSS_FILE);
		r->rss_anon = rss_count(mm, RSS_ANON);
		r->rss_shmem = rss_count(mm, RSS_SHMEM);
	}
	read_io(&r->io, &t->ioac);
	sig = BPF_CORE_READ(t, signal);
	if (sig) {
		r->nr_threads = (__u32)BPF_CORE_READ(sig, nr_threads);
		/* every thread's stat shows the children's figures (cutime...) */
		read_group(&r->group, sig);
		if (r->tid == r->tgid)
			r->flags |= TR_LEADER;
	}
	bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
