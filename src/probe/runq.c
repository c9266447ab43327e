/*
 * triage probe runq: run-queue latency per thread of one process, the
 * time a runnable thread (woken, or preempted while runnable) waits
 * before it runs: a log2 histogram per thread and for the process.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "probe/hist.h"
#include "probe/runq.h"
#include "probe/stackprobe.h"
#include "util/json.h"
#include "util/text.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <linux/types.h>

#include "bpf/stackprobes.h"
#include "runq.skel.h"

_Static_assert(RUNQ_SLOTS == RUNQ_SUM_SLOTS, "BPF and user side agree on histogram slots");

static int rq_configure(void *skel, const void *cfg)
{
	PROBE_RODATA_SET_TARGET(((struct runq_bpf *)skel)->rodata,
				&((const struct sp_opts *)cfg)->base.target);
	return 0;
}

PROBE_SKEL_OPS(runq, rq_configure);

struct runq_thread {
	uint32_t tid;
	struct runq_val v;
};

struct runq_result {
	struct runq_thread *t;
	size_t n;
	struct runq_val all; /* every thread together */
	uint64_t map_full;
};

static int thread_cmp(const void *a, const void *b)
{
	const struct runq_thread *x = a, *y = b;

	if (x->v.total_ns != y->v.total_ns)
		return x->v.total_ns > y->v.total_ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void add_into(struct runq_val *all, const struct runq_val *v)
{
	for (int i = 0; i < RUNQ_SLOTS; i++)
		all->slots[i] += v->slots[i];
	all->total_ns += v->total_ns;
	all->count += v->count;
	if (v->max_ns > all->max_ns)
		all->max_ns = v->max_ns;
}

void runq_maps(void *skel, struct probe_maps *m)
{
	struct runq_bpf *sk = skel;

	*m = (struct probe_maps){ 0 };
	m->map[RUNQ_MAP_THREADS].fd = bpf_map__fd(sk->maps.runq_threads);
	m->map[RUNQ_MAP_THREADS].cap = bpf_map__max_entries(sk->maps.runq_threads);
	m->counter[RUNQ_CTR_MAP_FULL] = &sk->bss->map_full;
}

static int collect(const struct probe_maps *m, struct runq_result *r)
{
	int fd = m->map[RUNQ_MAP_THREADS].fd;
	size_t cap = m->map[RUNQ_MAP_THREADS].cap;
	__u32 key, prev_key, *prev = NULL;

	r->t = calloc(cap, sizeof(*r->t));
	if (!r->t)
		return -ENOMEM;
	while (r->n < cap && !bpf_map_get_next_key(fd, prev, &key)) {
		struct runq_thread *t = &r->t[r->n];

		prev_key = key;
		prev = &prev_key;
		if (bpf_map_lookup_elem(fd, &key, &t->v))
			continue;
		t->tid = key;
		t->v.comm[SP_COMM_LEN - 1] = '\0';
		add_into(&r->all, &t->v);
		r->n++;
	}
	r->map_full = probe_maps_counter(m, RUNQ_CTR_MAP_FULL);
	if (r->n)
		qsort(r->t, r->n, sizeof(*r->t), thread_cmp);
	return 0;
}

static double avg_us(const struct runq_val *v)
{
	return v->count ? v->total_ns / 1e3 / v->count : 0.0;
}

static void print_plain(const struct sp_session *s, const struct sp_opts *o,
			const struct runq_result *r)
{
	double secs = sp_session_seconds(s);
	bool one = sp_session_one_pid(s, o);
	char comm[4 * SP_COMM_LEN], who[128];
	uint64_t slots[RUNQ_SLOTS];

	sp_session_describe(s, o, who, sizeof(who));
	fprintf(s->out, "Run-queue latency of %s over %.2f s (%s)\n", who, secs, s->end_reason);
	if (!one)
		fprintf(s->out, "%8s ", "PID");
	fprintf(s->out, "%8s %-16s %10s %12s %10s %10s %7s\n", "TID", "COMM", "WAITS", "TOTAL_ms",
		"AVG_us", "MAX_us", "%TIME");
	for (size_t i = 0; i < r->n; i++) {
		const struct runq_val *v = &r->t[i].v;

		text_sanitize(comm, sizeof(comm), v->comm);
		if (!one)
			fprintf(s->out, "%8u ", v->tgid);
		fprintf(s->out, "%8u %-16s %10" PRIu64 " %12.3f %10.1f %10.1f %7.1f\n", r->t[i].tid,
			comm, (uint64_t)v->count, v->total_ns / 1e6, avg_us(v), v->max_ns / 1e3,
			secs > 0 ? 100.0 * v->total_ns / (secs * 1e9) : 0.0);
	}
	if (!one)
		fprintf(s->out, "%8s ", "");
	fprintf(s->out, "%8s %-16s %10" PRIu64 " %12.3f %10.1f %10.1f\n", "all", "",
		(uint64_t)r->all.count, r->all.total_ns / 1e6, avg_us(&r->all),
		r->all.max_ns / 1e3);
	if (r->map_full)
		fprintf(s->out, "lost: %" PRIu64 " wait%s (map full)\n", (uint64_t)r->map_full,
			r->map_full == 1 ? "" : "s");
	memcpy(slots, r->all.slots, sizeof(slots));
	if (r->all.count) {
		fprintf(s->out, "\nAll threads:\n");
		hist_print(s->out, slots, RUNQ_SLOTS, "usecs");
	}
	for (size_t i = 0; o->per_thread && i < r->n; i++) {
		text_sanitize(comm, sizeof(comm), r->t[i].v.comm);
		if (one)
			fprintf(s->out, "\ntid %u (%s):\n", r->t[i].tid, comm);
		else
			fprintf(s->out, "\npid %u tid %u (%s):\n", r->t[i].v.tgid, r->t[i].tid,
				comm);
		memcpy(slots, r->t[i].v.slots, sizeof(slots));
		hist_print(s->out, slots, RUNQ_SLOTS, "usecs");
	}
}

static void json_thread(struct json_writer *w, uint32_t tid, const struct runq_val *v)
{
	uint64_t slots[RUNQ_SLOTS];

	memcpy(slots, v->slots, sizeof(slots));
	if (tid) {
		json_kv_uint(w, "pid", v->tgid);
		json_kv_uint(w, "tid", tid);
		json_kv_string(w, "comm", v->comm);
	}
	json_kv_uint(w, "waits", v->count);
	json_kv_uint(w, "total_ns", v->total_ns);
	json_kv_uint(w, "max_ns", v->max_ns);
	json_key(w, "hist_us");
	hist_json(w, slots, RUNQ_SLOTS);
}

static void print_json(const struct sp_session *s, const struct sp_opts *o,
		       const struct runq_result *r)
{
	struct json_writer w;

	sp_json_begin(&w, s, o);
	json_key(&w, "threads");
	json_array_begin(&w);
	for (size_t i = 0; i < r->n; i++) {
		json_object_begin(&w);
		json_thread(&w, r->t[i].tid, &r->t[i].v);
		json_end(&w);
	}
	json_end(&w);
	json_key(&w, "all");
	json_object_begin(&w);
	json_thread(&w, 0, &r->all);
	json_end(&w);
	json_kv_uint(&w, "lost_waits", r->map_full);
	json_finish(&w);
}

/* Adds row v into out when it is pid's (every row for pid <= 0). */
static void sum_row(struct runq_sum *out, const struct runq_val *v, int pid)
{
	if (pid > 0 && v->tgid != (__u32)pid)
		return;
	for (int j = 0; j < RUNQ_SLOTS; j++)
		out->slots[j] += v->slots[j];
	out->count += v->count;
	out->total_ns += v->total_ns;
	if (v->max_ns > out->max_ns)
		out->max_ns = v->max_ns;
}

/* One row at a time: kernels without batch lookups of hash maps (before 5.6). */
static int sum_by_key(int fd, int pid, struct runq_sum *out)
{
	__u32 key, prev_key, *prev = NULL;
	struct runq_val v;

	while (!bpf_map_get_next_key(fd, prev, &key)) {
		prev_key = key;
		prev = &prev_key;
		if (!bpf_map_lookup_elem(fd, &key, &v))
			sum_row(out, &v, pid);
	}
	return 0;
}

#define RUNQ_BATCH 256

/*
 * Rows a batch at a time: a few system calls for thousands of threads
 * rather than two per thread, and nothing kept but the sum.
 */
static int sum_batched(int fd, int pid, struct runq_sum *out)
{
	__u32 *keys = malloc(RUNQ_BATCH * sizeof(*keys));
	struct runq_val *vals = malloc(RUNQ_BATCH * sizeof(*vals));
	__u64 token = 0; /* the kernel's place in the map (a bucket) */
	bool first = true, done = false;
	int err = 0;

	if (!keys || !vals)
		err = -ENOMEM;
	while (!err && !done) {
		__u32 count = RUNQ_BATCH;

		if (bpf_map_lookup_batch(fd, first ? NULL : &token, &token, keys, vals, &count,
					 NULL)) {
			err = -errno;
			done = err == -ENOENT; /* the last batch: count holds its rows */
			if (done)
				err = 0;
			else if (first)
				break; /* not supported: the caller reads row by row */
		}
		first = false;
		for (__u32 i = 0; !err && i < count; i++)
			sum_row(out, &vals[i], pid);
	}
	free(keys);
	free(vals);
	return err;
}

int runq_read_sum(const struct probe_maps *m, int pid, struct runq_sum *out)
{
	int fd = m->map[RUNQ_MAP_THREADS].fd;
	int err;

	memset(out, 0, sizeof(*out));
	err = sum_batched(fd, pid, out);
	if (err && err != -ENOMEM) {
		memset(out, 0, sizeof(*out));
		err = sum_by_key(fd, pid, out);
	}
	out->lost = probe_maps_counter(m, RUNQ_CTR_MAP_FULL);
	return err;
}

static int report(const struct sp_session *s, const struct sp_opts *o, void *skel)
{
	struct runq_result r = { 0 };
	struct probe_maps m;
	int err;

	runq_maps(skel, &m);
	err = collect(&m, &r);
	if (!err && o->base.json)
		print_json(s, o, &r);
	else if (!err)
		print_plain(s, o, &r);
	free(r.t);
	return err;
}
#else
void runq_maps(void *skel, struct probe_maps *m)
{
	*m = (struct probe_maps){ 0 };
}

int runq_read_sum(const struct probe_maps *m, int pid, struct runq_sum *out)
{
	return -ENOPKG;
}
#endif

const struct sp_probe runq_probe = {
	.name = "runq",
	.traced = "run-queue latency",
	.features = SP_PER_THREAD,
	.needs = 0,
#if TRIAGE_HAVE_BPF
	.ops = &runq_skel_ops,
	.report = report,
#endif
};
