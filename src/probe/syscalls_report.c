/* Reports of `triage probe syscalls`: deltas of snapshots and renderers (pure). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "probe/hist.h"
#include "probe/syscall_names.h"
#include "probe/syscalls.h"
#include "util/text.h"

void sc_report_release(struct sc_report *r)
{
	free(r->rows);
	free(r->errs);
	free(r->hist);
	free(r->procs);
	r->rows = NULL;
	r->errs = NULL;
	r->hist = NULL;
	r->procs = NULL;
	r->nrows = r->nprocs = 0;
}

static int cmp_pid_rows(const void *a, const void *b)
{
	const struct sc_pid_row *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->count > y->count ? -1 : x->count < y->count;
}

static int cmp_procs(const void *a, const void *b)
{
	const struct sc_proc *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

int sc_procs_from_rows(const struct sc_pid_row *rows, size_t n, struct sc_proc **procs,
		       size_t *nprocs)
{
	struct sc_pid_row *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	struct sc_proc *p = calloc(n ? n : 1, sizeof(*p));
	size_t np = 0;

	if (!sorted || !p) {
		free(sorted);
		free(p);
		return -ENOMEM;
	}
	memcpy(sorted, rows, n * sizeof(*rows));
	qsort(sorted, n, sizeof(*sorted), cmp_pid_rows); /* by pid, its busiest syscall first */
	for (size_t i = 0; i < n; i++) {
		struct sc_proc *cur = np ? &p[np - 1] : NULL;

		if (!cur || cur->pid != sorted[i].pid) {
			cur = &p[np++];
			cur->pid = sorted[i].pid;
			memcpy(cur->comm, sorted[i].comm, sizeof(cur->comm));
			cur->top_nr = sorted[i].nr;
			cur->top_count = sorted[i].count;
		}
		cur->calls += sorted[i].count;
		cur->errors += sorted[i].errors;
		cur->total_ns += sorted[i].total_ns;
	}
	free(sorted);
	qsort(p, np, sizeof(*p), cmp_procs);
	*procs = p;
	*nprocs = np;
	return 0;
}

void sc_snapshot_release(struct sc_snapshot *s)
{
	free(s->hist);
	free(s->errs);
	s->hist = NULL;
	s->errs = NULL;
	s->nerrs = 0;
}

/* Codes the kernel uses internally; a syscall exit can still show them. */
static const char *kernel_errno_name(uint32_t err)
{
	static const char *const names[] = {
		"ERESTARTSYS",		 "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
		"ERESTART_RESTARTBLOCK", "EPROBE_DEFER",   "EOPENSTALE",     "ENOPARAM",
	};

	return err >= 512 && err < 512 + sizeof(names) / sizeof(names[0]) ? names[err - 512] : NULL;
}

const char *sc_errno_name(uint32_t err, char *buf, size_t len)
{
	const char *n = err < 512 ? strerrorname_np((int)err) : kernel_errno_name(err);

	if (n)
		return n;
	snprintf(buf, len, "E%u", err);
	return buf;
}

const char *sc_row_name(unsigned nr, char *buf, size_t len)
{
	const char *n = nr < SC_MAX_NR - 1 ? syscall_name(nr) : NULL;

	if (n)
		return n;
	snprintf(buf, len, nr < SC_MAX_NR - 1 ? "syscall_%u" : "syscall_%u+", nr);
	return buf;
}

static int cmp_errs_by_key(const void *a, const void *b)
{
	const struct sc_errno_count *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

/* Within a syscall, the most frequent errno first. */
static int cmp_errs_for_display(const void *a, const void *b)
{
	const struct sc_errno_count *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->err < y->err ? -1 : x->err > y->err;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct sc_row *x = a, *y = b;

	if (x->c.count != y->c.count)
		return x->c.count > y->c.count ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* The errno deltas, cur minus prev, both sorted by key. */
static int errs_delta(const struct sc_snapshot *cur, const struct sc_snapshot *prev,
		      struct sc_report *r, size_t *n)
{
	size_t j = 0;

	*n = 0;
	r->errs = calloc(cur->nerrs ? cur->nerrs : 1, sizeof(*r->errs));
	if (!r->errs)
		return -ENOMEM;
	for (size_t i = 0; i < cur->nerrs; i++) {
		struct sc_errno_count d = cur->errs[i];

		while (j < prev->nerrs && cmp_errs_by_key(&prev->errs[j], &d) < 0)
			j++;
		if (j < prev->nerrs && !cmp_errs_by_key(&prev->errs[j], &d))
			d.count -= prev->errs[j].count;
		if (d.count)
			r->errs[(*n)++] = d;
	}
	qsort(r->errs, *n, sizeof(*r->errs), cmp_errs_for_display);
	return 0;
}

static void counts_delta(const struct sc_counts *cur, const struct sc_counts *prev,
			 struct sc_counts *d)
{
	d->count = cur->count - prev->count;
	d->returns = cur->returns - prev->returns;
	d->errors = cur->errors - prev->errors;
	d->total_ns = cur->total_ns - prev->total_ns;
	d->max_ns = cur->max_ns;
}

static int hist_delta(const struct sc_snapshot *cur, const struct sc_snapshot *prev,
		      struct sc_report *r)
{
	size_t n = (size_t)SC_MAX_NR * SC_LAT_SLOTS;

	if (!cur->hist)
		return 0;
	r->hist = malloc(n * sizeof(*r->hist));
	if (!r->hist)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		r->hist[i] = cur->hist[i] - (prev->hist ? prev->hist[i] : 0);
	return 0;
}

static void attach_errs(struct sc_report *r, size_t nerrs)
{
	size_t e = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		struct sc_row *row = &r->rows[i];

		for (e = 0; e < nerrs && r->errs[e].nr != row->nr; e++)
			;
		row->errs = &r->errs[e];
		while (e < nerrs && r->errs[e].nr == row->nr) {
			row->nerrs++;
			e++;
		}
	}
}

int sc_report_delta(const struct sc_snapshot *cur, const struct sc_snapshot *prev,
		    struct sc_report *r)
{
	size_t nerrs;

	r->rows = calloc(SC_MAX_NR, sizeof(*r->rows));
	if (!r->rows || errs_delta(cur, prev, r, &nerrs) || hist_delta(cur, prev, r)) {
		sc_report_release(r);
		return -ENOMEM;
	}
	r->nrows = 0;
	r->calls = r->errors = 0;
	for (unsigned nr = 0; nr < SC_MAX_NR; nr++) {
		struct sc_row row = { .nr = nr };

		counts_delta(&cur->c[nr], &prev->c[nr], &row.c);
		if (!row.c.count && !row.c.returns)
			continue;
		row.hist = r->hist ? &r->hist[(size_t)nr * SC_LAT_SLOTS] : NULL;
		r->calls += row.c.count;
		r->errors += row.c.errors;
		r->rows[r->nrows++] = row;
	}
	qsort(r->rows, r->nrows, sizeof(*r->rows), cmp_rows);
	attach_errs(r, nerrs);
	return 0;
}

static double avg_ns(const struct sc_counts *c)
{
	return c->returns ? (double)c->total_ns / (double)c->returns : 0;
}

static void print_errnos(FILE *out, const struct sc_row *row)
{
	char buf[24];

	for (size_t i = 0; i < row->nerrs; i++)
		fprintf(out, "%s%s=%llu", i ? "," : "  ",
			sc_errno_name(row->errs[i].err, buf, sizeof(buf)),
			(unsigned long long)row->errs[i].count);
}

static void print_header(FILE *out, const struct sc_report *r)
{
	char who[96];

	probe_target_describe(&r->target, who, sizeof(who));
	fprintf(out, "%s: %llu call%s, %llu error%s, %zu syscall%s in %.3f s%s%s\n", who,
		(unsigned long long)r->calls, r->calls == 1 ? "" : "s",
		(unsigned long long)r->errors, r->errors == 1 ? "" : "s", r->nrows,
		r->nrows == 1 ? "" : "s", r->elapsed_s, r->target_exited ? " (target exited)" : "",
		r->final ? "" : " (interval)");
}

/* Processes listed in a system-wide report (the JSON lists them all). */
#define SC_PRINT_PROCS 10

static void print_procs(FILE *out, const struct sc_report *r)
{
	char comm[4 * PROBE_COMM_LEN], buf[32];
	size_t n = r->nprocs < SC_PRINT_PROCS ? r->nprocs : SC_PRINT_PROCS;

	if (!n)
		return;
	fprintf(out, "\nTop %zu of %zu process%s by calls:\n%8s %-16s %10s %8s %12s  %s\n", n,
		r->nprocs, r->nprocs == 1 ? "" : "es", "PID", "COMM", "CALLS", "ERRORS", "TOTAL_ms",
		"TOP_SYSCALL");
	for (size_t i = 0; i < n; i++) {
		const struct sc_proc *p = &r->procs[i];

		text_sanitize(comm, sizeof(comm), p->comm);
		fprintf(out, "%8u %-16s %10llu %8llu %12.3f  %s=%llu\n", p->pid, comm,
			(unsigned long long)p->calls, (unsigned long long)p->errors,
			(double)p->total_ns / 1e6, sc_row_name(p->top_nr, buf, sizeof(buf)),
			(unsigned long long)p->top_count);
	}
	if (r->procs_lost)
		fprintf(out, "lost: %llu call%s not counted per process (no room)\n",
			(unsigned long long)r->procs_lost, r->procs_lost == 1 ? "" : "s");
}

void sc_report_print(FILE *out, const struct sc_report *r, bool hist)
{
	char buf[32];

	print_header(out, r);
	fprintf(out, "%-22s %10s %8s %12s %10s %10s  %s\n", "SYSCALL", "COUNT", "ERRORS",
		"TOTAL_ms", "AVG_us", "MAX_us", "ERRNOS");
	for (size_t i = 0; i < r->nrows; i++) {
		const struct sc_row *row = &r->rows[i];

		fprintf(out, "%-22s %10llu %8llu %12.3f %10.3f %10.3f",
			sc_row_name(row->nr, buf, sizeof(buf)), (unsigned long long)row->c.count,
			(unsigned long long)row->c.errors, (double)row->c.total_ns / 1e6,
			avg_ns(&row->c) / 1e3, (double)row->c.max_ns / 1e3);
		print_errnos(out, row);
		fputc('\n', out);
	}
	print_procs(out, r);
	for (size_t i = 0; hist && i < r->nrows; i++) {
		const struct sc_row *row = &r->rows[i];

		if (!row->hist || !hist_total(row->hist, SC_LAT_SLOTS))
			continue;
		fprintf(out, "\n%s latency:\n", sc_row_name(row->nr, buf, sizeof(buf)));
		hist_print(out, row->hist, SC_LAT_SLOTS, "usecs");
	}
}

static void row_json(struct json_writer *w, const struct sc_row *row, bool hist)
{
	char buf[32];

	json_object_begin(w);
	json_kv_uint(w, "nr", row->nr);
	json_kv_string(w, "name", sc_row_name(row->nr, buf, sizeof(buf)));
	json_kv_uint(w, "count", row->c.count);
	json_kv_uint(w, "returns", row->c.returns);
	json_kv_uint(w, "errors", row->c.errors);
	json_key(w, "errnos");
	json_object_begin(w);
	for (size_t i = 0; i < row->nerrs; i++)
		json_kv_uint(w, sc_errno_name(row->errs[i].err, buf, sizeof(buf)),
			     row->errs[i].count);
	json_end(w);
	json_kv_uint(w, "total_ns", row->c.total_ns);
	json_kv_double(w, "avg_ns", avg_ns(&row->c), 1);
	json_kv_uint(w, "max_ns", row->c.max_ns);
	if (hist && row->hist) {
		json_key(w, "latency_hist_us");
		hist_json(w, row->hist, SC_LAT_SLOTS);
	}
	json_end(w);
}

static void procs_json(struct json_writer *w, const struct sc_report *r)
{
	char buf[32];

	json_key(w, "processes");
	json_array_begin(w);
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct sc_proc *p = &r->procs[i];

		json_object_begin(w);
		json_kv_uint(w, "pid", p->pid);
		json_kv_string(w, "comm", p->comm);
		json_kv_uint(w, "calls", p->calls);
		json_kv_uint(w, "errors", p->errors);
		json_kv_uint(w, "total_ns", p->total_ns);
		json_kv_string(w, "top_syscall", sc_row_name(p->top_nr, buf, sizeof(buf)));
		json_kv_uint(w, "top_count", p->top_count);
		json_end(w);
	}
	json_end(w);
	json_kv_uint(w, "processes_lost_calls", r->procs_lost);
}

void sc_report_json(struct json_writer *w, const struct sc_report *r, bool hist)
{
	json_object_begin(w);
	json_kv_double(w, "elapsed_s", r->elapsed_s, 3);
	json_kv_double(w, "since_start_s", r->since_start_s, 3);
	json_kv_bool(w, "final", r->final);
	json_kv_bool(w, "target_exited", r->target_exited);
	json_kv_uint(w, "calls", r->calls);
	json_kv_uint(w, "errors", r->errors);
	json_key(w, "syscalls");
	json_array_begin(w);
	for (size_t i = 0; i < r->nrows; i++)
		row_json(w, &r->rows[i], hist);
	json_end(w);
	if (probe_target_all(&r->target))
		procs_json(w, r);
	json_end(w);
}
