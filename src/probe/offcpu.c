/*
 * triage probe offcpu: off-CPU time of one process by thread, kind
 * (voluntary = blocked, involuntary = preempted) and stack.
 */
#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flame/flame.h"
#include "probe/offcpu.h"
#include "probe/stackprobe.h"
#include "util/json.h"
#include "util/text.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <linux/types.h>

#include "bpf/stackprobes.h"
#include "offcpu.skel.h"

static int oc_configure(void *skel, const void *cfg)
{
	struct offcpu_bpf *sk = skel;
	const struct sp_opts *o = cfg;

	PROBE_RODATA_SET_TARGET(sk->rodata, &o->base.target);
	sk->rodata->only_dstate = o->only_dstate;
	sk->rodata->kernel_stacks = o->kernel_stacks;
	sk->rodata->user_stacks = o->user_stacks;
	return sp_size_stacks(sk->maps.sp_stacks, sk->maps.offcpu_time, o->max_stacks);
}

PROBE_SKEL_OPS(offcpu, oc_configure);

static void task_comm(const struct procfs *pf, uint32_t pid, uint32_t tid, char *comm)
{
	char rel[64];
	ssize_t n;

	snprintf(rel, sizeof(rel), "%u/task/%u/comm", pid, tid);
	n = procfs_read(pf, rel, comm, SP_COMM_LEN);
	if (n <= 0)
		comm[0] = '\0';
	else if (comm[n - 1] == '\n') /* the file's newline, not one inside the name */
		comm[n - 1] = '\0';
}

/*
 * Threads still off-CPU at the end have only a start stamp: add their time
 * up to the end, for threads that still exist (an exited thread's last
 * switch is not recorded by the BPF side).
 */
void offcpu_maps(void *skel, struct probe_maps *m)
{
	struct offcpu_bpf *sk = skel;

	*m = (struct probe_maps){ 0 };
	m->map[OFFCPU_MAP_START].fd = bpf_map__fd(sk->maps.offcpu_start);
	m->map[OFFCPU_MAP_START].cap = bpf_map__max_entries(sk->maps.offcpu_start);
	m->map[OFFCPU_MAP_TIME].fd = bpf_map__fd(sk->maps.offcpu_time);
	m->map[OFFCPU_MAP_TIME].cap = bpf_map__max_entries(sk->maps.offcpu_time);
	m->map[OFFCPU_MAP_STACKS].fd = bpf_map__fd(sk->maps.sp_stacks);
	m->map[OFFCPU_MAP_STACKS].cap = bpf_map__max_entries(sk->maps.sp_stacks);
	m->counter[OFFCPU_CTR_STACK_ERRORS] = &sk->bss->stack_errors;
	m->counter[OFFCPU_CTR_MAP_FULL] = &sk->bss->map_full;
}

void offcpu_flush_pending(const struct probe_maps *m, const struct procfs *pf, int64_t end_ns)
{
	int start_fd = m->map[OFFCPU_MAP_START].fd;
	int time_fd = m->map[OFFCPU_MAP_TIME].fd;
	__u32 tid, next, *prev = NULL;

	while (!bpf_map_get_next_key(start_fd, prev, &next)) {
		struct offcpu_start st;
		struct offcpu_key key = { .tid = next };
		struct offcpu_val val = { 0 };

		tid = next;
		prev = &tid;
		if (bpf_map_lookup_elem(start_fd, &tid, &st) || (int64_t)st.ts >= end_ns)
			continue;
		key.tgid = st.tgid;
		task_comm(pf, st.tgid, tid, val.comm);
		if (!val.comm[0])
			continue; /* gone */
		key.kstack = st.kstack;
		key.ustack = st.ustack;
		key.invol = st.invol;
		bpf_map_lookup_elem(time_fd, &key, &val);
		val.total_ns += (__u64)end_ns - st.ts;
		val.count++;
		bpf_map_update_elem(time_fd, &key, &val, BPF_ANY);
	}
}

static int add_thread(struct offcpu_result *r, const struct offcpu_key *k,
		      const struct offcpu_val *v)
{
	struct offcpu_thread *t = NULL;

	for (size_t i = 0; i < r->nt && !t; i++)
		if (r->t[i].tid == k->tid)
			t = &r->t[i];
	if (!t) {
		t = &r->t[r->nt++];
		memset(t, 0, sizeof(*t));
		t->pid = k->tgid;
		t->tid = k->tid;
		memcpy(t->comm, v->comm, SP_COMM_LEN);
		t->comm[SP_COMM_LEN - 1] = '\0';
	}
	t->ns[k->invol ? 1 : 0] += v->total_ns;
	t->n[k->invol ? 1 : 0] += v->count;
	return 0;
}

static int collect(const struct probe_maps *m, struct offcpu_result *r)
{
	int fd = m->map[OFFCPU_MAP_TIME].fd;
	size_t cap = m->map[OFFCPU_MAP_TIME].cap;
	struct offcpu_key key, *prev = NULL;

	r->e = calloc(cap, sizeof(*r->e));
	r->keys = calloc(cap, sizeof(*r->keys));
	r->t = calloc(cap, sizeof(*r->t));
	if (!r->e || !r->keys || !r->t)
		return -ENOMEM;
	while (r->n < cap && !bpf_map_get_next_key(fd, prev, &key)) {
		struct offcpu_val v;
		struct stack_entry *e = &r->e[r->n];

		r->keys[r->n] = key;
		prev = &r->keys[r->n];
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;
		e->pid = key.tgid;
		e->tid = key.tid;
		memcpy(e->comm, v.comm, SP_COMM_LEN);
		e->comm[SP_COMM_LEN - 1] = '\0';
		e->kind = key.invol ? "involuntary" : "voluntary";
		e->value = v.total_ns;
		e->count = v.count;
		/* Keep the stack ids with the entry until symbolization. */
		e->kstack_err = key.kstack;
		e->ustack_err = key.ustack;
		add_thread(r, &key, &v);
		r->n++;
	}
	r->stack_errors = probe_maps_counter(m, OFFCPU_CTR_STACK_ERRORS);
	r->map_full = probe_maps_counter(m, OFFCPU_CTR_MAP_FULL);
	return 0;
}

static int thread_cmp(const void *a, const void *b)
{
	const struct offcpu_thread *x = a, *y = b;
	uint64_t tx = x->ns[0] + x->ns[1], ty = y->ns[0] + y->ns[1];

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Symbolizes the first n entries (the stack ids were parked in *_err). */
static int symbolize(struct sp_symbolizer *z, const struct probe_maps *m, struct stack_entry *e,
		     size_t n)
{
	int fd = m->map[OFFCPU_MAP_STACKS].fd;

	for (size_t i = 0; i < n; i++) {
		int err = sp_fill_entry(z, fd, e[i].kstack_err, e[i].ustack_err, &e[i]);

		if (err)
			return err;
	}
	return 0;
}

static void print_plain(const struct sp_session *s, const struct sp_opts *o,
			const struct offcpu_result *r, size_t top, const struct stack_gaps *g)
{
	double secs = sp_session_seconds(s), win = secs > 0 ? secs * 1e9 : 1;
	bool one = sp_session_one_pid(s, o);
	char comm[4 * SP_COMM_LEN], who[128];

	sp_session_describe(s, o, who, sizeof(who));
	fprintf(s->out, "Off-CPU time of %s over %.2f s (%s)\n", who, secs, s->end_reason);
	if (!one)
		fprintf(s->out, "%8s ", "PID");
	fprintf(s->out, "%8s %-16s %10s %6s %8s %10s %6s %8s\n", "TID", "COMM", "VOL_ms", "VOL%",
		"VOL_n", "INVOL_ms", "INVOL%", "INVOL_n");
	for (size_t i = 0; i < r->nt; i++) {
		const struct offcpu_thread *t = &r->t[i];

		text_sanitize(comm, sizeof(comm), t->comm);
		if (!one)
			fprintf(s->out, "%8u ", t->pid);
		fprintf(s->out, "%8u %-16s %10.2f %6.1f %8" PRIu64 " %10.2f %6.1f %8" PRIu64 "\n",
			t->tid, comm, t->ns[0] / 1e6, 100.0 * t->ns[0] / win, t->n[0],
			t->ns[1] / 1e6, 100.0 * t->ns[1] / win, t->n[1]);
	}
	if (r->stack_errors || r->map_full)
		fprintf(s->out,
			"lost: %" PRIu64 " stack%s (stack map full or collision), %" PRIu64
			" interval%s (map full)\n",
			r->stack_errors, r->stack_errors == 1 ? "" : "s", r->map_full,
			r->map_full == 1 ? "" : "s");
	if (top)
		fprintf(s->out,
			"\nTop %zu stack%s by off-CPU time (kernel frames, then user frames):\n",
			top, top == 1 ? "" : "s");
	for (size_t i = 0; i < top; i++) {
		const struct stack_entry *e = &r->e[i];

		text_sanitize(comm, sizeof(comm), e->comm);
		if (one)
			fprintf(s->out, "#%zu tid", i + 1);
		else
			fprintf(s->out, "#%zu pid %u tid", i + 1, e->pid);
		fprintf(s->out, " %u (%s) %s: %.2f ms (%.1f%%) in %" PRIu64 " switch%s\n", e->tid,
			comm, e->kind, e->value / 1e6, 100.0 * e->value / win, e->count,
			e->count == 1 ? "" : "es");
		stack_print_frames(s->out, e);
	}
	stack_gaps_print(s->out, g, "off-CPU time");
}

static void print_json(const struct sp_session *s, const struct sp_opts *o,
		       const struct offcpu_result *r, size_t top, const struct stack_gaps *g)
{
	struct json_writer w;

	sp_json_begin(&w, s, o);
	json_key(&w, "threads");
	json_array_begin(&w);
	for (size_t i = 0; i < r->nt; i++) {
		json_object_begin(&w);
		json_kv_uint(&w, "pid", r->t[i].pid);
		json_kv_uint(&w, "tid", r->t[i].tid);
		json_kv_string(&w, "comm", r->t[i].comm);
		json_kv_uint(&w, "voluntary_ns", r->t[i].ns[0]);
		json_kv_uint(&w, "voluntary_switches", r->t[i].n[0]);
		json_kv_uint(&w, "involuntary_ns", r->t[i].ns[1]);
		json_kv_uint(&w, "involuntary_switches", r->t[i].n[1]);
		json_end(&w);
	}
	json_end(&w);
	json_key(&w, "stacks");
	json_array_begin(&w);
	for (size_t i = 0; i < top; i++)
		sp_json_stack(&w, &r->e[i], "total_ns", "switches");
	json_end(&w);
	json_key(&w, "lost");
	json_object_begin(&w);
	json_kv_uint(&w, "stacks", r->stack_errors);
	json_kv_uint(&w, "intervals", r->map_full);
	json_end(&w);
	stack_gaps_json(&w, g);
	json_finish(&w);
}

int offcpu_read(const struct probe_maps *m, struct sp_symbolizer *z, size_t nsym,
		struct offcpu_result *r)
{
	int err;

	memset(r, 0, sizeof(*r));
	err = collect(m, r);
	if (!err) {
		stacks_sort(r->e, r->n);
		qsort(r->t, r->nt, sizeof(*r->t), thread_cmp);
		err = symbolize(z, m, r->e, sp_top(nsym, r->n));
	}
	if (err)
		offcpu_result_release(r);
	return err;
}

void offcpu_result_release(struct offcpu_result *r)
{
	if (r->e)
		stack_entries_release(r->e, r->n);
	free(r->e);
	free(r->keys);
	free(r->t);
	memset(r, 0, sizeof(*r));
}

bool offcpu_still_off(const struct probe_maps *m, uint32_t tid)
{
	struct offcpu_start st;

	return !bpf_map_lookup_elem(m->map[OFFCPU_MAP_START].fd, &tid, &st);
}

static int write_svg(const struct sp_session *s, const struct sp_opts *o,
		     const struct offcpu_result *r, const struct stack_gaps *g)
{
	char who[128], title[192], sub[160], *note = stack_gaps_note(g, "off-CPU time");
	struct flame_style st = { title, sub, "us", FLAME_COLD, 0, note };
	uint64_t ns = 0;
	int err;

	for (size_t i = 0; i < r->n; i++)
		ns += r->e[i].value;
	sp_session_describe(s, o, who, sizeof(who));
	snprintf(title, sizeof(title), "Off-CPU flame graph of %s", who);
	snprintf(sub, sizeof(sub), "%.3f s off-CPU in %.2f s (%s); widths in microseconds",
		 ns / 1e9, sp_session_seconds(s), s->end_reason ? s->end_reason : "ended");
	err = stacks_write_svg(o->svg, r->e, r->n, 1000, &st);
	free(note);
	return err;
}

static int report(const struct sp_session *s, const struct sp_opts *o, void *skel)
{
	struct offcpu_result r;
	struct stack_gaps g;
	struct probe_maps m;
	size_t top = 0;
	int err;

	offcpu_maps(skel, &m);
	offcpu_flush_pending(&m, s->pf, s->end_ns);
	/*
	 * Every stack symbolized: merging by function (perf report's habit;
	 * -v keeps each address apart) and the share of unknown frames need them.
	 */
	err = offcpu_read(&m, s->syms, SIZE_MAX, &r);
	if (!err && !o->base.verbose) {
		stacks_merge_by_function(r.e, &r.n);
		stacks_sort(r.e, r.n);
	}
	if (!err) {
		stack_gaps_count(r.e, r.n, &g);
		top = o->folded ? r.n : sp_top(o->top, r.n);
		if (o->folded) {
			err = stacks_write_folded(s->out, r.e, r.n, 1000);
			stack_gaps_print(s->diag, &g, "off-CPU time");
		} else if (o->base.json) {
			print_json(s, o, &r, top, &g);
		} else {
			print_plain(s, o, &r, top, &g);
		}
	}
	if (!err && o->svg)
		err = write_svg(s, o, &r, &g);
	offcpu_result_release(&r);
	return err;
}
#else
void offcpu_maps(void *skel, struct probe_maps *m)
{
	*m = (struct probe_maps){ 0 };
}

void offcpu_flush_pending(const struct probe_maps *m, const struct procfs *pf, int64_t end_ns)
{
}

bool offcpu_still_off(const struct probe_maps *m, uint32_t tid)
{
	return false;
}

int offcpu_read(const struct probe_maps *m, struct sp_symbolizer *z, size_t nsym,
		struct offcpu_result *r)
{
	memset(r, 0, sizeof(*r));
	return -ENOPKG;
}

void offcpu_result_release(struct offcpu_result *r)
{
}
#endif

const struct sp_probe offcpu_probe = {
	.name = "offcpu",
	.traced = "off-CPU time",
	.features = SP_STACKS,
	.needs = PROBE_NEED_STACK_TRACE,
	.symbolize = true,
#if TRIAGE_HAVE_BPF
	.ops = &offcpu_skel_ops,
	.report = report,
#endif
};
