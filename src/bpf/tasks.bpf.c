// SPDX-License-Identifier: GPL-2.0
/*
 * The task iterator behind the BPF task door (src/procfs/task_bpf.c): one
 * fixed-size record per thread, written with bpf_seq_write(), so one
 * read() loop on the iterator fd gets every thread of the machine. It
 * reads the same task_struct / signal_struct fields /proc reads; the user
 * side applies /proc's arithmetic (cputime_adjust, clock ticks). The task
 * is a trusted BTF pointer: fields are plain loads (CO-RE relocated), not
 * one bpf_probe_read_kernel() call each, which made a scan 30x dearer.
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
	long v = mm->rss_stat[i].count;

	return v > 0 ? (__u64)v : 0; /* percpu_counter_read_positive() */
}

static __always_inline void read_io(struct tasks_io *o, struct task_io_accounting *a)
{
	o->rchar = a->rchar;
	o->wchar = a->wchar;
	o->syscr = a->syscr;
	o->syscw = a->syscw;
	o->read_bytes = a->read_bytes;
	o->write_bytes = a->write_bytes;
	o->cancelled_write_bytes = a->cancelled_write_bytes;
}

static __always_inline void read_group(struct tasks_group *g, struct signal_struct *sig)
{
	g->utime = sig->utime;
	g->stime = sig->stime;
	g->sum_exec = sig->sum_sched_runtime;
	g->prev_utime = sig->prev_cputime.utime;
	g->prev_stime = sig->prev_cputime.stime;
	g->gtime = sig->gtime;
	g->cutime = sig->cutime;
	g->cstime = sig->cstime;
	g->cgtime = sig->cgtime;
	g->min_flt = sig->min_flt;
	g->maj_flt = sig->maj_flt;
	g->cmin_flt = sig->cmin_flt;
	g->cmaj_flt = sig->cmaj_flt;
	read_io(&g->io, &sig->ioac);
}

/* What proc_task_name() needs for kernel threads and workqueue workers. */
static __always_inline void read_kthread_name(struct tasks_rec *r, struct task_struct *t,
					      __u32 pflags)
{
	struct kthread *k = t->worker_private; /* void *: read through helpers */
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

/*
 * One program serves both walks (one verification at load, not two): with
 * active_only set (by the user side, before it creates the iterator fd)
 * only the threads /proc shows as R or D get a record (what load needs);
 * the others cost the walk alone. walked counts every thread passed.
 */
__u32 active_only = 0;
__u64 walked = 0;

static __always_inline int emit(struct bpf_iter__task *ctx, struct task_struct *t);

/*
 * __task_state_index(): TASK_REPORT bits, TASK_IDLE is I, RTLOCK_WAIT and
 * FROZEN read as D; the letter is fls(rep): 0 R, 1 S, 2 D, higher T t X Z P I.
 */
static __always_inline bool running_or_blocked(struct task_struct *t)
{
	__u32 state, rep;

	if (bpf_core_field_exists(t->__state))
		state = t->__state;
	else
		state = (__u32)BPF_CORE_READ((struct task_struct___old *)t, state);
	rep = (state | (__u32)t->exit_state) & 0x7f;
	if ((state & 0x402) == 0x402)
		rep = 0x80;
	if (state & (0x1000 | 0x8000))
		rep = 0x2;
	return rep == 0 || (rep >= 0x2 && rep <= 0x3);
}

SEC("iter/task")
int dump_tasks(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;

	if (!t)
		return 0;
	walked++;
	if (active_only && !running_or_blocked(t))
		return 0;
	return emit(ctx, t);
}

static __always_inline int emit(struct bpf_iter__task *ctx, struct task_struct *t)
{
	struct signal_struct *sig;
	struct task_delay_info *d;
	struct mm_struct *mm;
	struct tasks_rec *r;
	__u32 zero = 0, pflags;

	r = bpf_map_lookup_elem(&scratch, &zero);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->tid = t->pid;
	r->tgid = t->tgid;
	r->ppid = t->real_parent->tgid;
	r->uid = t->real_cred->uid.val;
	if (bpf_core_field_exists(t->__state))
		r->state = t->__state;
	else
		r->state = (__u32)BPF_CORE_READ((struct task_struct___old *)t, state);
	r->exit_state = (__u32)t->exit_state;
	r->cpu = t->thread_info.cpu;
	r->rt_priority = t->rt_priority;
	r->policy = t->policy;
	r->nr_cpus_allowed = (__u32)t->nr_cpus_allowed;
	r->cpus_allowed = t->cpus_ptr->bits[0];
	BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	r->utime = t->utime;
	r->stime = t->stime;
	r->sum_exec = t->se.sum_exec_runtime;
	r->prev_utime = t->prev_cputime.utime;
	r->prev_stime = t->prev_cputime.stime;
	r->gtime = t->gtime;
	r->start_boottime = t->start_boottime;
	r->min_flt = t->min_flt;
	r->maj_flt = t->maj_flt;
	r->nvcsw = t->nvcsw;
	r->nivcsw = t->nivcsw;
	r->run_delay = t->sched_info.run_delay;
	r->pcount = t->sched_info.pcount;
	pflags = t->flags;
	if (pflags & PF_KTHREAD_FLAG) {
		r->flags |= TR_KTHREAD;
		read_kthread_name(r, t, pflags);
	}
	d = t->delays;
	if (d) {
		r->flags |= TR_DELAYS;
		r->blkio_delay = d->blkio_delay;
	}
	mm = t->mm;
	if (mm) {
		r->flags |= TR_HAS_MM;
		r->total_vm = mm->total_vm;
		r->rss_file = rss_count(mm, RSS_FILE);
		r->rss_anon = rss_count(mm, RSS_ANON);
		r->rss_shmem = rss_count(mm, RSS_SHMEM);
	}
	read_io(&r->io, &t->ioac);
	sig = t->signal;
	if (sig) {
		r->nr_threads = (__u32)sig->nr_threads;
		/* every thread's stat shows the children's figures (cutime...) */
		read_group(&r->group, sig);
		if (r->tid == r->tgid)
			r->flags |= TR_LEADER;
	}
	bpf_seq_write(ctx->meta->seq, r, sizeof(*r));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
