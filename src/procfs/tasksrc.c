#include "procfs/tasksrc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs/task_bpf.h"
#include "procfs/task_stat_cache.h"
#include "util/grow.h"
#include "util/kmerge.h"

/* /proc's clock: USER_HZ, as nsec_to_clock_t() divides. */
#define NSEC_PER_TICK 10000000ull

static const char *const door_names[] = { "auto", "proc", "bpf" };

int procfs_task_door_parse(const char *s, enum task_door *out)
{
	for (size_t i = 0; i < sizeof(door_names) / sizeof(door_names[0]); i++) {
		if (s && !strcmp(s, door_names[i])) {
			*out = (enum task_door)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *procfs_task_door_name(enum task_door d)
{
	return (unsigned)d < sizeof(door_names) / sizeof(door_names[0]) ? door_names[d] : "?";
}

void procfs_task_cputime_adjust(uint64_t rtime, uint64_t utime, uint64_t stime,
				uint64_t *prev_utime, uint64_t *prev_stime)
{
	if (*prev_stime + *prev_utime >= rtime)
		return;
	if (stime == 0) {
		utime = rtime;
	} else if (utime == 0) {
		stime = rtime;
	} else {
		stime = (uint64_t)((unsigned __int128)stime * rtime /
				   ((unsigned __int128)stime + utime));
		if (stime > rtime)
			stime = rtime;
	}
	if (stime < *prev_stime)
		stime = *prev_stime;
	utime = rtime - stime;
	if (utime < *prev_utime) {
		utime = *prev_utime;
		stime = rtime - utime;
	}
	*prev_stime = stime;
	*prev_utime = utime;
}

char procfs_task_state_letter(unsigned state, unsigned exit_state)
{
	/* __task_state_index(): TASK_REPORT bits, TASK_IDLE, RTLOCK_WAIT/FROZEN as D */
	static const char letters[] = "RSDTtXZPI";
	unsigned s = (state | exit_state) & 0x7f;
	int idx = 0;

	if ((state & 0x402) == 0x402)
		s = 0x80;
	if (state & (0x1000 | 0x8000))
		s = 0x2;
	while (s) {
		idx++;
		s >>= 1;
	}
	return letters[idx];
}

/* ---- the sample set ---- */

void procfs_task_set_release(struct task_set *s)
{
	free(s->v);
	free(s->order);
	memset(s, 0, sizeof(*s));
}

static uint64_t sample_key(const struct task_sample *t)
{
	return ((uint64_t)(uint32_t)t->tgid << 33) | ((uint64_t)(t->tid != t->tgid) << 32) |
	       (uint32_t)t->tid;
}

static uint64_t want_key(pid_t tgid, pid_t tid)
{
	return ((uint64_t)(uint32_t)tgid << 33) | ((uint64_t)(tid != tgid) << 32) | (uint32_t)tid;
}

/* Index of the first entry of order whose key is >= key. */
static size_t lower_bound(const struct task_set *s, uint64_t key)
{
	size_t lo = 0, hi = s->len;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sample_key(&s->v[s->order[mid]]) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct task_sample *procfs_task_set_find(const struct task_set *s, pid_t tgid, pid_t tid)
{
	size_t i = lower_bound(s, want_key(tgid, tid));

	if (i < s->len && s->v[s->order[i]].tid == tid && s->v[s->order[i]].tgid == tgid)
		return &s->v[s->order[i]];
	return NULL;
}

const struct task_sample *procfs_task_set_seek(struct task_set *s, pid_t tgid, pid_t tid)
{
	uint64_t key = want_key(tgid, tid);
	size_t i = s->hint;

	/* the last one found (a process row, then its leader's thread row) or the next */
	for (; i < s->len && i < s->hint + 2; i++) {
		if (sample_key(&s->v[s->order[i]]) == key) {
			s->hint = i;
			return &s->v[s->order[i]];
		}
	}
	i = lower_bound(s, key);
	if (i < s->len && sample_key(&s->v[s->order[i]]) == key) {
		s->hint = i;
		return &s->v[s->order[i]];
	}
	return NULL;
}

size_t procfs_task_set_process(const struct task_set *s, pid_t tgid)
{
	size_t i = lower_bound(s, want_key(tgid, tgid));

	return i < s->len && s->v[s->order[i]].tgid == tgid ? i : s->len;
}

struct keyed {
	uint64_t key;
	uint32_t idx;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* Fills order; samples already in key order (the proc door) need no sort. */
static int set_order(struct task_set *s)
{
	struct keyed *k;
	bool sorted = true;

	s->hint = 0;
	if (util_grow(&s->order, &s->cap_order, s->len ? s->len : 1, sizeof(*s->order)))
		return -ENOMEM;
	for (size_t i = 1; i < s->len && sorted; i++)
		sorted = sample_key(&s->v[i - 1]) < sample_key(&s->v[i]);
	if (sorted) {
		for (size_t i = 0; i < s->len; i++)
			s->order[i] = (uint32_t)i;
		return 0;
	}
	k = malloc(s->len * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < s->len; i++)
		k[i] = (struct keyed){ sample_key(&s->v[i]), (uint32_t)i };
	qsort(k, s->len, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < s->len; i++)
		s->order[i] = k[i].idx;
	free(k);
	return 0;
}

static struct task_sample *set_push(struct task_set *s)
{
	if (util_grow(&s->v, &s->cap, s->len + 1, sizeof(*s->v)))
		return NULL;
	memset(&s->v[s->len], 0, sizeof(s->v[0]));
	return &s->v[s->len++];
}

/* ---- the source ---- */

/* The floor this door keeps for a thread's (and its group's) adjusted times. */
struct prev_times {
	pid_t tid;
	uint64_t start;
	uint64_t u, s, gu, gs;
};

struct task_source {
	const struct procfs *pf;
	enum task_door door;
	unsigned want;
	uint64_t page_size;
	char why[224];
	struct task_bpf *bpf;
	struct task_stat_cache cache;
	struct kmerge times; /* struct prev_times by tid, as the iterator walks */
	struct id_list pids, tids;
	struct id_list hidden; /* processes the iterator does not show: read from /proc */
	size_t hidden_alive;   /* of those, the ones the last scan could read */
	/* /proc's link count less the processes it listed (procfs_root_links) */
	unsigned long links_base;
	bool links_known;
};

static int find_hidden(struct task_source *s, const struct tasks_rec *recs, size_t n,
		       size_t leaders);

static int open_bpf(struct task_source *s)
{
	int err = procfs_task_bpf_open(&s->bpf);

	if (err)
		snprintf(s->why, sizeof(s->why), "BPF task iterator: %s", strerror(-err));
	return err;
}

/*
 * The iterator sees the init pid namespace; /proc may be another one (a
 * container). The door holds only if our own thread appears under the
 * number /proc knows it by, with the start time /proc gives it.
 */
static int check_same_view(struct task_source *s)
{
	struct tasks_rec *r;
	struct pid_stat st;
	char buf[1024];
	pid_t self = (pid_t)syscall(SYS_gettid);
	size_t n, walked;
	ssize_t len;
	int err = procfs_task_bpf_read(s->bpf, false, &r, &n, &walked);

	if (err) {
		snprintf(s->why, sizeof(s->why), "BPF task iterator: read: %s", strerror(-err));
		return err;
	}
	if ((err = find_hidden(s, r, n, 0)))
		return err;
	len = procfs_read(s->pf, "thread-self/stat", buf, sizeof(buf));
	if (len <= 0 || procfs_pid_stat_parse(buf, (size_t)len, &st))
		return -ENOENT;
	for (size_t i = 0; i < n; i++)
		if ((pid_t)r[i].tid == self && r[i].start_boottime / NSEC_PER_TICK == st.starttime)
			return 0;
	snprintf(s->why, sizeof(s->why), "BPF task iterator: another pid namespace than /proc's");
	return -EXDEV;
}

static uint64_t proc_cost_ns(const struct task_work *w, size_t threads, unsigned scans)
{
	size_t tasks = w->tasks ? w->tasks : threads;

	return (uint64_t)tasks * (w->files ? w->files : 1) * TASK_PROC_FILE_NS * scans;
}

enum task_door procfs_task_door_for_work(const struct task_work *w, size_t threads, char *why,
					 size_t size)
{
	unsigned scans = w->scans ? w->scans : 1;
	uint64_t proc = proc_cost_ns(w, threads, scans);
	uint64_t walk = (uint64_t)threads * TASK_BPF_THREAD_NS * scans;
	uint64_t bpf = walk + (w->scans ? TASK_BPF_OPEN_NS : 0);
	enum task_door d = bpf < proc ? TASK_DOOR_BPF : TASK_DOOR_PROC;

	if (w->scans)
		snprintf(why, size,
			 "%zu task%s x %u file%s x %u scan%s: /proc ~%.1f ms, iterator ~%.1f ms",
			 w->tasks ? w->tasks : threads,
			 (w->tasks ? w->tasks : threads) == 1 ? "" : "s", w->files ? w->files : 1,
			 w->files > 1 ? "s" : "", scans, scans == 1 ? "" : "s", (double)proc / 1e6,
			 (double)bpf / 1e6);
	else
		snprintf(why, size, "open-ended, per scan: /proc ~%.2f ms, iterator ~%.2f ms",
			 (double)proc / 1e6, (double)walk / 1e6);
	return d;
}

size_t procfs_task_machine_threads(const struct procfs *pf)
{
	char buf[128];
	struct loadavg la;
	ssize_t n = procfs_read(pf, "loadavg", buf, sizeof(buf));

	if (n <= 0 || procfs_loadavg_parse(buf, (size_t)n, &la))
		return 0;
	return la.total;
}

/*
 * Only a source that opened the iterator calls into its module: a /proc
 * run need not fault in task_bpf's pages to be told there is nothing to close.
 */
static void close_bpf(struct task_source *s)
{
	if (s->bpf)
		procfs_task_bpf_close(s->bpf);
	s->bpf = NULL;
}

int procfs_task_source_open_for(struct task_source **out, const struct procfs *pf, bool fixture,
				enum task_door door, unsigned want, long fd_budget,
				const struct task_work *work)
{
	struct task_source *s = calloc(1, sizeof(*s));
	int err = 0;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->pf = pf;
	s->want = want;
	s->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	kmerge_init(&s->times, sizeof(struct prev_times));
	procfs_task_stat_cache_init(&s->cache, fixture || fd_budget < 0 ? 0 : (size_t)fd_budget);
	if (door == TASK_DOOR_BPF && fixture) {
		err = -EINVAL; /* a fixture has no kernel behind it */
	} else if (door == TASK_DOOR_PROC) {
		snprintf(s->why, sizeof(s->why), "asked for");
	} else if (fixture) {
		snprintf(s->why, sizeof(s->why), "fixture root");
	} else if (door == TASK_DOOR_AUTO && work &&
		   procfs_task_door_for_work(work, procfs_task_machine_threads(pf), s->why,
					     sizeof(s->why)) == TASK_DOOR_PROC) {
		/* why holds the estimate that chose /proc */
	} else {
		char chose[sizeof(s->why)];

		snprintf(chose, sizeof(chose), "%s", door == TASK_DOOR_AUTO && work ? s->why : "");
		err = open_bpf(s);
		if (!err)
			err = check_same_view(s);
		if (!err) {
			s->door = TASK_DOOR_BPF;
			/* its /proc scans read the few processes the iterator cannot see */
			s->cache.keep_more = true;
			snprintf(s->why, sizeof(s->why), "BPF task iterator, %s%s%.180s",
				 procfs_task_bpf_loader(s->bpf), chose[0] ? "; " : "", chose);
		}
		if (err && door == TASK_DOOR_AUTO)
			err = 0; /* the proc door, with why saying why not bpf */
	}
	if (err) {
		procfs_task_source_close(s);
		return err;
	}
	if (s->door != TASK_DOOR_BPF) {
		close_bpf(s);
		s->door = TASK_DOOR_PROC;
	}
	*out = s;
	return 0;
}

int procfs_task_source_open(struct task_source **out, const struct procfs *pf, bool fixture,
			    enum task_door door, unsigned want, long fd_budget)
{
	return procfs_task_source_open_for(out, pf, fixture, door, want, fd_budget, NULL);
}

void procfs_task_source_close(struct task_source *s)
{
	if (!s)
		return;
	close_bpf(s);
	procfs_task_stat_cache_release(&s->cache);
	kmerge_release(&s->times);
	procfs_id_list_release(&s->pids);
	procfs_id_list_release(&s->tids);
	procfs_id_list_release(&s->hidden);
	free(s);
}

enum task_door procfs_task_source_door(const struct task_source *s)
{
	return s->door;
}

const char *procfs_task_source_why(const struct task_source *s)
{
	return s->why;
}

/* ---- the bpf door ---- */

static int scan_proc_process(struct task_source *s, struct task_set *set, pid_t pid);

static uint64_t ticks(uint64_t ns)
{
	return ns / NSEC_PER_TICK;
}

static void io_from_rec(struct pid_io *o, const struct tasks_io *i)
{
	o->rchar = i->rchar;
	o->wchar = i->wchar;
	o->syscr = i->syscr;
	o->syscw = i->syscw;
	o->read_bytes = i->read_bytes;
	o->write_bytes = i->write_bytes;
	o->cancelled_write_bytes = i->cancelled_write_bytes;
}

/* Appends the NUL-terminated or max-long src to out at *off, cut to size - 1. */
static void put(char *out, size_t size, size_t *off, const char *src, size_t max)
{
	const char *end = memchr(src, '\0', max);
	size_t n = end ? (size_t)(end - src) : max;

	if (*off >= size - 1)
		return;
	if (n > size - 1 - *off)
		n = size - 1 - *off;
	memcpy(out + *off, src, n);
	*off += n;
	out[*off] = '\0';
}

/* proc_task_name(): workqueue workers and kernel threads have longer names. */
static void name_from_rec(char *out, size_t size, const struct tasks_rec *r)
{
	char id[48];
	size_t off = 0;

	out[0] = '\0';
	if (!(r->flags & TR_WQ_WORKER)) {
		if ((r->flags & TR_KTHREAD) && r->name[0])
			put(out, size, &off, r->name, TR_NAME_LEN);
		else
			put(out, size, &off, r->comm, TR_COMM_LEN);
		return;
	}
	if (r->flags & TR_WQ_RESCUER) {
		put(out, size, &off, "kworker/R-", 10);
		put(out, size, &off, r->name, TR_NAME_LEN);
	} else {
		if (r->flags & TR_WQ_NOPOOL)
			snprintf(id, sizeof(id), "kworker/dying");
		else if (r->wq_pool_cpu >= 0)
			snprintf(id, sizeof(id), "kworker/%d:%d%s", r->wq_pool_cpu, r->wq_worker_id,
				 r->wq_nice < 0 ? "H" : "");
		else
			snprintf(id, sizeof(id), "kworker/u%d:%d", r->wq_pool_id, r->wq_worker_id);
		put(out, size, &off, id, sizeof(id));
	}
	if (r->desc[0]) {
		put(out, size, &off, r->flags & TR_WQ_BUSY ? "+" : "-", 1);
		put(out, size, &off, r->desc, TR_DESC_LEN);
	}
}

static int times_cmp(const void *entry, const void *key)
{
	pid_t a = ((const struct prev_times *)entry)->tid, b = *(const pid_t *)key;

	return (a > b) - (a < b);
}

/* Our floor for tid from the last scan (in tid order, as the iterator walks). */
static const struct prev_times *find_prev(struct task_source *s, pid_t tid)
{
	while (kmerge_pass(&s->times, &tid, times_cmp))
		;
	return kmerge_take(&s->times, &tid, times_cmp);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void sample_from_rec(struct task_sample *t, const struct tasks_rec *r,
			    const struct prev_times *ours, struct prev_times *keep,
			    uint64_t page_size)
{
	const struct tasks_group *g = &r->group;
	uint64_t pu = r->prev_utime, ps = r->prev_stime;

	t->tid = (pid_t)r->tid;
	t->tgid = (pid_t)r->tgid;
	t->ppid = (pid_t)r->ppid;
	t->uid = r->uid;
	t->flags = TS_STATUS | TS_SCHED | TS_IO |
		   (r->flags & TR_LEADER ? TS_LEADER | TS_WHOLE : 0) |
		   (r->flags & TR_KTHREAD ? TS_KTHREAD : 0);
	t->state = procfs_task_state_letter(r->state, r->exit_state);
	name_from_rec(t->comm, sizeof(t->comm), r);
	t->processor = (int)r->cpu;
	t->rt_priority = r->rt_priority;
	t->policy = r->policy;
	t->nthreads = r->nr_threads;
	/* the kernel's prev_cputime is what /proc last showed; ours keeps our rates monotonic */
	keep->tid = t->tid;
	keep->start = r->start_boottime;
	if (ours && ours->start == r->start_boottime) {
		pu = max_u64(pu, ours->u);
		ps = max_u64(ps, ours->s);
	}
	procfs_task_cputime_adjust(r->sum_exec, r->utime, r->stime, &pu, &ps);
	keep->u = pu;
	keep->s = ps;
	t->utime = ticks(pu);
	t->stime = ticks(ps);
	t->gtime = ticks(r->gtime);
	t->cutime = (int64_t)ticks(g->cutime);
	t->cstime = (int64_t)ticks(g->cstime);
	t->cgtime = (int64_t)ticks(g->cgtime);
	t->minflt = r->min_flt;
	t->majflt = r->maj_flt;
	t->cminflt = g->cmin_flt;
	t->cmajflt = g->cmaj_flt;
	t->starttime = ticks(r->start_boottime);
	if (r->flags & TR_HAS_MM) {
		t->vsize = r->total_vm * page_size;
		t->rss = (int64_t)(r->rss_file + r->rss_anon + r->rss_shmem);
		t->rss_anon = (int64_t)r->rss_anon;
	}
	t->flags |= TS_ANON; /* a kernel thread's is 0 */
	t->blkio_ticks = r->flags & TR_DELAYS ? ticks(r->blkio_delay) : 0;
	t->nvcsw = r->nvcsw;
	t->nivcsw = r->nivcsw;
	t->run_ns = r->sum_exec;
	t->wait_ns = r->run_delay;
	t->slices = r->pcount;
	t->cpus_allowed = r->cpus_allowed;
	io_from_rec(&t->io, &r->io);
	if (r->flags & TR_LEADER) {
		/* signal_struct's share (threads gone); the live threads are added after */
		t->whole.utime = g->utime;
		t->whole.stime = g->stime;
		t->whole.gtime = g->gtime;
		t->whole.minflt = g->min_flt;
		t->whole.majflt = g->maj_flt;
		io_from_rec(&t->whole.io, &g->io);
		keep->gu = g->prev_utime;
		keep->gs = g->prev_stime;
		if (ours && ours->start == r->start_boottime) {
			keep->gu = max_u64(keep->gu, ours->gu);
			keep->gs = max_u64(keep->gs, ours->gs);
		}
	}
}

static void io_add(struct pid_io *a, const struct pid_io *b)
{
	a->rchar += b->rchar;
	a->wchar += b->wchar;
	a->syscr += b->syscr;
	a->syscw += b->syscw;
	a->read_bytes += b->read_bytes;
	a->write_bytes += b->write_bytes;
	a->cancelled_write_bytes += b->cancelled_write_bytes;
}

/*
 * The process-wide figures of each leader: signal_struct's share plus
 * every live thread's (thread_group_cputime(), do_task_stat(whole),
 * do_io_accounting(whole)), then cputime_adjust() against the group's floor.
 */
static void add_groups(struct task_source *s, struct task_set *set, const struct tasks_rec *recs,
		       size_t nrecs)
{
	size_t i = 0;

	while (i < set->len) {
		size_t first = i, lead = set->len;
		pid_t tgid = set->v[set->order[i]].tgid;
		uint64_t rtime = 0, ut = 0, st = 0, gt = 0, minf = 0, majf = 0;
		struct pid_io io = { 0 };
		bool from_proc = false;

		for (; i < set->len && set->v[set->order[i]].tgid == tgid; i++) {
			size_t k = set->order[i];
			const struct tasks_rec *r;

			if (k >= nrecs) {
				from_proc = true; /* read from /proc: it has its own whole */
				continue;
			}
			r = &recs[k];
			if (set->v[k].flags & TS_LEADER)
				lead = k;
			rtime += r->sum_exec;
			ut += r->utime;
			st += r->stime;
			gt += r->gtime;
			minf += r->min_flt;
			majf += r->maj_flt;
			io_add(&io, &set->v[k].io);
		}
		if (from_proc || lead == set->len || set->order[first] != lead)
			continue;
		{
			struct task_whole *w = &set->v[lead].whole;
			struct prev_times *keep = kmerge_next_at(&s->times, lead);
			uint64_t pu = keep->gu, ps = keep->gs;

			procfs_task_cputime_adjust(recs[lead].group.sum_exec + rtime, w->utime + ut,
						   w->stime + st, &pu, &ps);
			keep->gu = pu;
			keep->gs = ps;
			w->utime = ticks(pu);
			w->stime = ticks(ps);
			w->gtime = ticks(w->gtime + gt);
			w->minflt += minf;
			w->majflt += majf;
			io_add(&w->io, &io);
		}
	}
}

/*
 * Processes /proc lists that the iterator did not show (on some VMs the
 * agent at PID 1 is hidden from it) are read from /proc, so the two doors
 * list the same processes. Leaders come in increasing tid order from the
 * iterator, so one merge walk against /proc's sorted listing finds them.
 * Found on every full walk (the open does one); an active-only walk has no
 * record of idle processes and reuses the list.
 */
static int list_hidden(struct task_source *s, const struct tasks_rec *recs, size_t n)
{
	unsigned long before, after;
	bool counted = !procfs_root_links(s->pf, &before);
	size_t r = 0;
	int err = procfs_list_pids(s->pf, &s->pids);

	if (err)
		return err == -ENOMEM ? err : 0;
	/* the count a listing implies, when nothing came or went while it ran */
	s->links_known = counted && !procfs_root_links(s->pf, &after) && after == before &&
			 before >= s->pids.len;
	s->links_base = s->links_known ? before - s->pids.len : 0;
	s->hidden.len = 0;
	for (size_t i = 0; i < s->pids.len; i++) {
		pid_t pid = s->pids.ids[i];

		while (r < n &&
		       ((pid_t)recs[r].tid != (pid_t)recs[r].tgid || (pid_t)recs[r].tgid < pid))
			r++;
		if (r < n && (pid_t)recs[r].tgid == pid)
			continue;
		if (util_grow(&s->hidden.ids, &s->hidden.cap, s->hidden.len + 1,
			      sizeof(*s->hidden.ids)))
			return -ENOMEM;
		s->hidden.ids[s->hidden.len++] = pid;
	}
	s->hidden_alive = s->hidden.len;
	return 0;
}

/*
 * The listing is a walk of every pid on the machine. It is skipped when
 * /proc's link count (one stat) is what the walk's processes and the hidden
 * ones the last scan read add up to (leaders: the walk's records with tid ==
 * tgid): no process came that the iterator
 * missed, so the hidden list stands. A process started between the walk and
 * the stat while another ended is missed for this scan, as one started
 * behind the walk's cursor is; the counts differ on the next scan.
 */
static int find_hidden(struct task_source *s, const struct tasks_rec *recs, size_t n,
		       size_t leaders)
{
	unsigned long links;

	if (s->links_known && !procfs_root_links(s->pf, &links) &&
	    links == s->links_base + leaders + s->hidden_alive)
		return 0;
	return list_hidden(s, recs, n);
}

static bool active_state(char c)
{
	return c == 'R' || c == 'D';
}

/* Keeps, of the samples from first on, those in R or D. */
static void keep_active(struct task_set *set, size_t first)
{
	size_t k = first;

	for (size_t i = first; i < set->len; i++)
		if (active_state(set->v[i].state))
			set->v[k++] = set->v[i];
	set->len = k;
}

static int add_hidden(struct task_source *s, struct task_set *set, pid_t skip_tgid)
{
	size_t first = set->len;
	int err = 0;

	procfs_task_stat_cache_begin(&s->cache);
	s->hidden_alive = 0;
	for (size_t i = 0; i < s->hidden.len && !err; i++) {
		size_t had = set->len;

		if (s->hidden.ids[i] == skip_tgid) {
			s->hidden_alive++; /* not read, not known gone */
			continue;
		}
		err = scan_proc_process(s, set, s->hidden.ids[i]);
		/* its leader is pushed first: gone when nothing was */
		s->hidden_alive += set->len > had && set->v[had].tid == s->hidden.ids[i];
	}
	procfs_task_stat_cache_end(&s->cache);
	set->scanned += set->len - first;
	if (s->want & TASK_WANT_ACTIVE_ONLY)
		keep_active(set, first);
	return err;
}

static int scan_bpf(struct task_source *s, struct task_set *set, pid_t skip_tgid)
{
	struct tasks_rec *recs;
	size_t n, kept = 0, walked, leaders = 0;
	bool active = s->want & TASK_WANT_ACTIVE_ONLY;
	int err = procfs_task_bpf_read(s->bpf, active, &recs, &n, &walked);

	if (err)
		return err;
	kmerge_begin(&s->times);
	if (util_grow(&set->v, &set->cap, n ? n : 1, sizeof(*set->v)) ||
	    kmerge_reserve(&s->times, n ? n : 1))
		return -ENOMEM;
	/* the records stay in the door's buffer; drop the skipped process in place */
	for (size_t i = 0; i < n; i++) {
		if (skip_tgid && (pid_t)recs[i].tgid == skip_tgid)
			continue;
		leaders += recs[i].tid == recs[i].tgid;
		if (kept != i)
			recs[kept] = recs[i];
		kept++;
	}
	set->len = kept;
	set->scanned = walked - (n - kept);
	for (size_t i = 0; i < kept; i++) {
		const struct prev_times *ours = find_prev(s, (pid_t)recs[i].tid);

		memset(&set->v[i], 0, sizeof(set->v[i]));
		/* reserved above: this scan's floors, in the records' order */
		sample_from_rec(&set->v[i], &recs[i], ours, kmerge_push(&s->times), s->page_size);
	}
	if (!active && (err = find_hidden(s, recs, n, leaders)))
		return err;
	if ((err = add_hidden(s, set, skip_tgid)) || (err = set_order(set)))
		return err;
	add_groups(s, set, recs, kept);
	kmerge_end(&s->times); /* this scan's floors are the next one's */
	return 0;
}

/* ---- the proc door ---- */

/* "Cpus_allowed:\t...,ffffffff,ffffffff": the last 64 bits are CPUs 0-63. */
static uint64_t cpus_allowed_parse(const char *buf)
{
	const char *p = strstr(buf, "\nCpus_allowed:");
	uint64_t mask = 0;
	int bits = 0;
	const char *end;

	if (!p)
		return 0;
	p += strlen("\nCpus_allowed:");
	end = strchr(p, '\n');
	if (!end)
		end = p + strlen(p);
	while (end > p && bits < 64) {
		char c = *--end;
		int v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (c >= 'a' && c <= 'f')
			v = c - 'a' + 10;
		else
			continue;
		mask |= (uint64_t)v << bits;
		bits += 4;
	}
	return mask;
}

static void stat_to_sample(struct task_sample *t, const struct pid_stat *st)
{
	snprintf(t->comm, sizeof(t->comm), "%.63s", st->comm);
	t->state = st->state;
	t->ppid = st->ppid;
	t->minflt = st->minflt;
	t->majflt = st->majflt;
	t->cminflt = st->cminflt;
	t->cmajflt = st->cmajflt;
	t->utime = st->utime;
	t->stime = st->stime;
	t->cutime = st->cutime;
	t->cstime = st->cstime;
	t->cgtime = st->cguest_time;
	t->gtime = st->guest_time;
	t->nthreads = st->num_threads > 0 ? (unsigned)st->num_threads : 0;
	t->starttime = st->starttime;
	t->vsize = st->vsize;
	t->rss = st->rss;
	t->processor = st->processor;
	t->rt_priority = st->rt_priority;
	t->policy = st->policy;
	t->blkio_ticks = st->blkio_ticks;
}

static int read_parsed_stat(const struct procfs *pf, const char *path, struct pid_stat *st)
{
	char buf[1024];
	ssize_t n = procfs_read(pf, path, buf, sizeof(buf));

	if (n <= 0 || procfs_pid_stat_parse(buf, (size_t)n, st))
		return -ESRCH;
	return 0;
}

static void read_thread_extras(struct task_source *s, pid_t pid, struct task_sample *t)
{
	char buf[4096];
	ssize_t n;

	if (s->want & TASK_WANT_STATUS) {
		struct pid_status ps;

		n = procfs_task_stat_cache_read_more(&s->cache, s->pf, pid, t->tid,
						     TASK_FILE_STATUS, buf, sizeof(buf));
		if (n > 0 && !procfs_pid_status_parse(buf, (size_t)n, &ps)) {
			t->uid = ps.uid_real;
			t->nvcsw = ps.vol_ctxsw;
			t->nivcsw = ps.nonvol_ctxsw;
			t->cpus_allowed = cpus_allowed_parse(buf);
			t->flags |= TS_STATUS;
		}
	}
	if (s->want & TASK_WANT_SCHED) {
		struct pid_schedstat ss;

		n = procfs_task_stat_cache_read_more(&s->cache, s->pf, pid, t->tid,
						     TASK_FILE_SCHEDSTAT, buf, sizeof(buf));
		if (n > 0 && !procfs_pid_schedstat_parse(buf, (size_t)n, &ss)) {
			t->run_ns = ss.run_ns;
			t->wait_ns = ss.wait_ns;
			t->slices = ss.slices;
			t->flags |= TS_SCHED;
		}
	}
	if (s->want & TASK_WANT_IO) {
		n = procfs_task_stat_cache_read_more(&s->cache, s->pf, pid, t->tid, TASK_FILE_IO,
						     buf, sizeof(buf));
		if (n > 0 && !procfs_pid_io_parse(buf, (size_t)n, &t->io))
			t->flags |= TS_IO;
	}
}

/* The leader's process-wide stat and io. */
static void read_whole(struct task_source *s, pid_t pid, struct task_sample *t)
{
	struct pid_stat st;
	char path[64], buf[1024];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/stat", (int)pid);
	if ((s->want & TASK_WANT_WHOLE) && !read_parsed_stat(s->pf, path, &st)) {
		t->whole.utime = st.utime;
		t->whole.stime = st.stime;
		t->whole.gtime = st.guest_time;
		t->whole.minflt = st.minflt;
		t->whole.majflt = st.majflt;
		t->flags |= TS_WHOLE;
	}
	if (!(s->want & TASK_WANT_IO) || !(t->flags & TS_WHOLE))
		return;
	snprintf(path, sizeof(path), "%d/io", (int)pid);
	n = procfs_read(s->pf, path, buf, sizeof(buf));
	if (n <= 0 || procfs_pid_io_parse(buf, (size_t)n, &t->whole.io))
		t->flags &= ~TS_IO;
}

static int scan_proc_process(struct task_source *s, struct task_set *set, pid_t pid)
{
	char buf[1024];

	/* an error here means the process exited since the listing: scan what was listed */
	if (procfs_list_tids(s->pf, pid, &s->tids) == -ENOMEM)
		return -ENOMEM;
	/* the leader first, as order wants it */
	for (size_t k = 0; k <= s->tids.len; k++) {
		pid_t tid;
		struct pid_stat st;
		struct task_sample *t;
		ssize_t n;

		if (k == 0)
			tid = pid;
		else if ((tid = s->tids.ids[k - 1]) == pid)
			continue;
		n = procfs_task_stat_cache_read(&s->cache, s->pf, pid, tid, buf, sizeof(buf));
		if (n <= 0 || procfs_pid_stat_parse(buf, (size_t)n, &st) < 0)
			continue;
		if (!(t = set_push(set)))
			return -ENOMEM;
		t->tid = tid;
		t->tgid = pid;
		stat_to_sample(t, &st);
		read_thread_extras(s, pid, t);
		if (tid == pid) {
			t->flags |= TS_LEADER;
			read_whole(s, pid, t);
		}
	}
	return 0;
}

static int scan_proc(struct task_source *s, struct task_set *set, pid_t skip_tgid)
{
	int err = procfs_list_pids(s->pf, &s->pids);

	set->len = 0;
	procfs_task_stat_cache_begin(&s->cache);
	for (size_t i = 0; err == 0 && i < s->pids.len; i++)
		if (s->pids.ids[i] != skip_tgid)
			err = scan_proc_process(s, set, s->pids.ids[i]);
	procfs_task_stat_cache_end(&s->cache);
	set->scanned = set->len;
	if (s->want & TASK_WANT_ACTIVE_ONLY)
		keep_active(set, 0);
	return err ? err : set_order(set);
}

int procfs_task_source_scan(struct task_source *s, struct task_set *set, pid_t skip_tgid)
{
	return s->door == TASK_DOOR_BPF ? scan_bpf(s, set, skip_tgid)
					: scan_proc(s, set, skip_tgid);
}
