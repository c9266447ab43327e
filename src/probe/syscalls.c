/* triage probe syscalls: the BPF run loop (the reports are in syscalls_report.c). */
#include "probe/syscalls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runloop/clock.h"

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "bpf/syscalls.h"
#include "syscalls.skel.h"

_Static_assert(SC_NR_SLOTS == SC_MAX_NR, "BPF and user side agree on syscall slots");
_Static_assert(SC_HIST_SLOTS == SC_LAT_SLOTS, "BPF and user side agree on histogram slots");

struct sc_config {
	const struct probe_target *target;
	bool hist;
	bool latency;
};

static int sc_configure(void *s, const void *cfg)
{
	struct syscalls_bpf *skel = s;
	const struct sc_config *c = cfg;

	PROBE_RODATA_SET_TARGET(skel->rodata, c->target);
	skel->rodata->want_hist = c->hist && c->latency;
	skel->rodata->want_latency = c->latency;
	skel->rodata->per_pid = probe_target_all(c->target);
	/* Maps a run does not use: keep them tiny. */
	if (!skel->rodata->per_pid && bpf_map__set_max_entries(skel->maps.sc_pids, 1))
		return -EINVAL;
	if (!c->hist)
		return bpf_map__set_max_entries(skel->maps.sc_hists, 1);
	return 0;
}

PROBE_SKEL_OPS(syscalls, sc_configure);

/* Sums the per-CPU values of the stats array (max: the largest). */
static int read_stats(int fd, int ncpu, struct sc_snapshot *s)
{
	struct sc_stat *v = calloc((size_t)ncpu, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (__u32 nr = 0; nr < SC_NR_SLOTS; nr++) {
		struct sc_counts *c = &s->c[nr];

		if (bpf_map_lookup_elem(fd, &nr, v)) {
			free(v);
			return -errno;
		}
		memset(c, 0, sizeof(*c));
		for (int i = 0; i < ncpu; i++) {
			c->count += v[i].count;
			c->returns += v[i].returns;
			c->errors += v[i].errors;
			c->total_ns += v[i].total_ns;
			if (v[i].max_ns > c->max_ns)
				c->max_ns = v[i].max_ns;
		}
	}
	free(v);
	return 0;
}

/* Histograms only of syscalls that returned at all. */
static int read_hists(int fd, int ncpu, struct sc_snapshot *s)
{
	__u64 *v = calloc((size_t)ncpu, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (__u32 nr = 0; nr < SC_NR_SLOTS; nr++) {
		for (__u32 slot = 0; s->c[nr].returns && slot < SC_HIST_SLOTS; slot++) {
			__u32 key = nr * SC_HIST_SLOTS + slot;
			uint64_t *sum = &s->hist[key];

			if (bpf_map_lookup_elem(fd, &key, v)) {
				free(v);
				return -errno;
			}
			*sum = 0;
			for (int i = 0; i < ncpu; i++)
				*sum += v[i];
		}
	}
	free(v);
	return 0;
}

static int cmp_err_keys(const void *a, const void *b)
{
	const struct sc_errno_count *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

static int read_errs(int fd, struct sc_snapshot *s)
{
	struct sc_err_key key, next, *prev = NULL;
	size_t cap = 64;

	s->nerrs = 0;
	free(s->errs);
	s->errs = malloc(cap * sizeof(*s->errs));
	if (!s->errs)
		return -ENOMEM;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		__u64 count;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &count))
			continue; /* deleted meanwhile: never happens, entries only grow */
		if (s->nerrs == cap) {
			void *p = realloc(s->errs, 2 * cap * sizeof(*s->errs));

			if (!p)
				return -ENOMEM;
			s->errs = p;
			cap *= 2;
		}
		s->errs[s->nerrs++] = (struct sc_errno_count){ key.nr, key.err, count };
	}
	qsort(s->errs, s->nerrs, sizeof(*s->errs), cmp_err_keys);
	return 0;
}

static int take_snapshot(struct syscalls_bpf *skel, bool hist, struct sc_snapshot *s)
{
	int ncpu = libbpf_num_possible_cpus(), err;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	if (hist && !s->hist) {
		s->hist = calloc((size_t)SC_MAX_NR * SC_LAT_SLOTS, sizeof(*s->hist));
		if (!s->hist)
			return -ENOMEM;
	}
	err = read_stats(bpf_map__fd(skel->maps.sc_stats), ncpu, s);
	if (!err && hist)
		err = read_hists(bpf_map__fd(skel->maps.sc_hists), ncpu, s);
	if (!err)
		err = read_errs(bpf_map__fd(skel->maps.sc_errs), s);
	return err;
}

/* The keys of sc_pids now (a walk that deletes as it goes skips keys). */
static int pid_row_keys(int fd, size_t cap, struct sc_pid_key **keys, size_t *n)
{
	struct sc_pid_key *k = calloc(cap ? cap : 1, sizeof(*k)), *prev = NULL;

	*keys = k;
	*n = 0;
	if (!k)
		return -ENOMEM;
	while (*n < cap && !bpf_map_get_next_key(fd, prev, &k[*n])) {
		prev = &k[*n];
		(*n)++;
	}
	return 0;
}

void sc_probe_maps(void *skel, struct probe_maps *m)
{
	struct syscalls_bpf *sk = skel;

	*m = (struct probe_maps){ 0 };
	m->map[SC_MAP_PIDS].fd = bpf_map__fd(sk->maps.sc_pids);
	m->map[SC_MAP_PIDS].cap = bpf_map__max_entries(sk->maps.sc_pids);
	m->counter[SC_CTR_ROWS_FULL] = &sk->bss->pid_rows_full;
}

int sc_read_pid_rows(const struct probe_maps *m, bool drain, struct sc_pid_row **rows, size_t *n)
{
	int fd = m->map[SC_MAP_PIDS].fd;
	size_t cap = m->map[SC_MAP_PIDS].cap, nkeys;
	struct sc_pid_key *keys;
	struct sc_pid_row *r = calloc(cap ? cap : 1, sizeof(*r));
	int err = r ? pid_row_keys(fd, cap, &keys, &nkeys) : -ENOMEM;

	*rows = r;
	*n = 0;
	if (err)
		return err;
	for (size_t i = 0; i < nkeys; i++) {
		struct sc_pid_val v;

		/* Taken and deleted at once: a call counted after it is in the next read. */
		if (drain ? bpf_map_lookup_and_delete_elem(fd, &keys[i], &v)
			  : bpf_map_lookup_elem(fd, &keys[i], &v))
			continue;
		r[*n] =
		    (struct sc_pid_row){ keys[i].tgid, keys[i].nr, v.count, v.errors, v.total_ns };
		memcpy(r[*n].comm, v.comm, PROBE_COMM_LEN);
		r[*n].comm[PROBE_COMM_LEN - 1] = '\0';
		(*n)++;
	}
	free(keys);
	return 0;
}

struct sc_state {
	struct syscalls_bpf *skel;
	struct sc_snapshot snap[2]; /* current and previous, swapped per report */
	int cur;
	int64_t start_ns, last_ns;
	bool hist;
	bool latency;
};

/* The per-process view of an interval: the rows are drained, so they are its deltas. */
static int read_procs(struct syscalls_bpf *skel, struct sc_report *r)
{
	struct sc_pid_row *rows;
	struct probe_maps m;
	size_t n;
	int err;

	sc_probe_maps(skel, &m);
	err = sc_read_pid_rows(&m, true, &rows, &n);
	if (!err)
		err = sc_procs_from_rows(rows, n, &r->procs, &r->nprocs);
	free(rows);
	r->procs_lost = skel->bss->pid_rows_full;
	return err;
}

static int emit_report(struct sc_state *st, const struct probe_opts *opts,
		       const struct sc_sink *sink, int ev)
{
	struct sc_snapshot *cur = &st->snap[st->cur], *prev = &st->snap[!st->cur];
	struct sc_report r = { .target = opts->target };
	int64_t now = runloop_mono_ns();
	int err = take_snapshot(st->skel, st->hist, cur);

	if (err)
		return err;
	r.final = ev != PROBE_EV_TICK;
	r.target_exited = ev == PROBE_EV_TARGET_EXIT;
	r.elapsed_s = (double)(now - st->last_ns) / 1e9;
	r.since_start_s = (double)(now - st->start_ns) / 1e9;
	err = sc_report_delta(cur, prev, &r);
	if (!err && probe_target_all(&opts->target))
		err = read_procs(st->skel, &r);
	if (err) {
		sc_report_release(&r);
		return err;
	}
	err = sink->report(sink->ctx, &r);
	sc_report_release(&r);
	st->last_ns = now;
	st->cur = !st->cur;
	return err;
}

static int run_loop(struct sc_state *st, struct probe_loop *loop, const struct probe_opts *opts,
		    const struct sc_sink *sink, const char **stage)
{
	for (;;) {
		int ev = probe_loop_wait(loop, -1), err;

		if (ev < 0) {
			*stage = "waiting for events";
			return ev;
		}
		*stage = "reading the BPF maps";
		err = emit_report(st, opts, sink, ev);
		if (err || ev != PROBE_EV_TICK)
			return err;
	}
}

static int start_probe(struct sc_state *st, const struct probe_opts *opts, const char **stage)
{
	void *skel = NULL;
	unsigned flags = (st->hist ? SC_HIST : 0) | (st->latency ? 0 : SC_NO_LATENCY);
	int err = sc_probe_start(&opts->target, flags, &skel, stage);

	st->skel = skel;
	return err;
}

int sc_run(const struct probe_opts *opts, unsigned flags, const struct sc_sink *sink,
	   const char **stage)
{
	struct sc_state st = { .hist = flags & SC_HIST, .latency = !(flags & SC_NO_LATENCY) };
	struct probe_loop loop;
	void *skel;
	int err;

	probe_libbpf_quiet(opts->verbose);
	*stage = "watching the target";
	err = probe_loop_init(&loop, opts);
	if (err)
		return err;
	err = start_probe(&st, opts, stage);
	if (!err) {
		*stage = "starting the timers";
		st.start_ns = st.last_ns = probe_loop_start(&loop);
		err = st.start_ns < 0 ? (int)st.start_ns : 0;
	}
	if (!err) {
		if (sink->attached)
			sink->attached(sink->ctx, &opts->target);
		err = run_loop(&st, &loop, opts, sink, stage);
	}
	skel = st.skel;
	probe_skel_stop(&syscalls_skel_ops, &skel);
	probe_loop_release(&loop);
	sc_snapshot_release(&st.snap[0]);
	sc_snapshot_release(&st.snap[1]);
	return err;
}

int sc_probe_start(const struct probe_target *target, unsigned flags, void **skel,
		   const char **stage)
{
	struct sc_config cfg = { .target = target,
				 .hist = flags & SC_HIST,
				 .latency = !(flags & SC_NO_LATENCY) };

	*skel = NULL;
	return probe_start(&syscalls_skel_ops, PROBE_NEED_TASK_STORAGE | PROBE_NEED_PERCPU_ARRAY,
			   &cfg, skel, stage);
}

void sc_probe_detach(void *skel)
{
	probe_skel_detach(&syscalls_skel_ops, skel);
}

void sc_probe_stop(void **skel)
{
	probe_skel_stop(&syscalls_skel_ops, skel);
}

int sc_selftest(const char **stage)
{
	struct probe_opts opts = { .target.pid = getpid() };
	struct sc_state st = { .latency = true };
	void *skel;
	int err = start_probe(&st, &opts, stage);

	skel = st.skel;
	probe_skel_stop(&syscalls_skel_ops, &skel);
	return err;
}

#else /* !TRIAGE_HAVE_BPF */

int sc_probe_start(const struct probe_target *target, unsigned flags, void **skel,
		   const char **stage)
{
	*skel = NULL;
	*stage = "starting";
	return -ENOPKG;
}

void sc_probe_detach(void *skel)
{
}

void sc_probe_stop(void **skel)
{
}

void sc_probe_maps(void *skel, struct probe_maps *m)
{
	*m = (struct probe_maps){ 0 };
}

int sc_read_pid_rows(const struct probe_maps *m, bool drain, struct sc_pid_row **rows, size_t *n)
{
	*rows = NULL;
	*n = 0;
	return -ENOPKG;
}

int sc_selftest(const char **stage)
{
	*stage = "starting";
	return -ENOPKG;
}

int sc_run(const struct probe_opts *opts, unsigned flags, const struct sc_sink *sink,
	   const char **stage)
{
	*stage = "starting";
	return -ENOPKG;
}

#endif
