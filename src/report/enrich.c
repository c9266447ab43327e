/*
 * eBPF enrichment of the report (src/probe/enrich.h): started just before
 * the window and stopped just after it, then asked about the findings the
 * rules produced: run-queue latency for the CPU findings, the top
 * functions of a CPU-bound process (its syscalls when kernel-bound), the
 * off-CPU stacks of tasks held in D. Whatever cannot run is listed in
 * "skipped" with its reason; the report itself never fails because of it.
 */
#include "report/enrich.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pidstat/table.h"
#include "probe/enrich.h"
#include "report/findings.h"
#include "report/thresholds.h"

#define ENRICH_FUNCS 5	  /* top functions per CPU-bound process */
#define ENRICH_SYSCALLS 5 /* top syscalls per kernel-bound process */
#define ENRICH_PROCS 2	  /* CPU-bound processes enriched */
#define ENRICH_DTASKS 3	  /* D threads with stacks */
#define ENRICH_FRAMES 4	  /* frames shown per D stack */

/*
 * The syscalls part costs two programs on every system call of the
 * machine (0.4-1.6% of a CPU here), and its rows serve one finding,
 * cpu-bound-kernel, which needs a process at CPU_BOUND_MIN_PCT of one CPU
 * with CPU_KERNEL_SHARE of it in the kernel. So it counts only the
 * processes that spent at least that much system time, 12.5% of one CPU,
 * between two task samples (at the first sample: over their life so far),
 * from that sample on. A process above it over the window is above it in
 * at least one interval.
 */
#define REPORT_SYSCALL_WATCH_PCT (CPU_BOUND_MIN_PCT * CPU_KERNEL_SHARE)

static const char *why(int err)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
		return "needs root (CAP_BPF and CAP_PERFMON)";
	case -ENOPKG:
		return "triage was built without BPF";
	case -ENOSYS:
		return "the enrichment API is not implemented in this build";
	case -EOPNOTSUPP:
	case -ENOENT:
		return "the kernel lacks a needed feature (BTF, tracepoints or perf events)";
	default:
		return strerror(-err);
	}
}

void report_enrich_start(const struct report_opts *o, bool fixture, struct report_data *d)
{
	const char *loader = getenv("TRIAGE_BPF_LOADER");
	struct probe_enrich_opts po = {
		.parts = PROBE_ENRICH_ALL,
		.verbose = o->verbose,
		.libbpf_only = loader && !strcmp(loader, "libbpf"),
		.syscalls_on_demand = true,
	};
	int rc;

	if (!o->bpf) {
		report_skip(d, "ebpf", "turned off by --no-bpf");
		return;
	}
	if (fixture) {
		report_skip(d, "ebpf", "a fixture root has no kernel to probe");
		return;
	}
	rc = probe_enrich_start(&po, &d->bpf);
	if (rc) {
		d->bpf = NULL;
		report_skip(d, "ebpf", "not started: %s", why(rc));
	}
}

static const struct {
	enum probe_enrich_part part;
	const char *name;
} parts[] = {
	{ PROBE_ENRICH_RUNQ, "ebpf-runq" },	    { PROBE_ENRICH_PROFILE, "ebpf-profile" },
	{ PROBE_ENRICH_SYSCALLS, "ebpf-syscalls" }, { PROBE_ENRICH_DSTATE, "ebpf-offcpu" },
	{ PROBE_ENRICH_FORKS, "ebpf-forks" },
};

static void part_skips(struct report_data *d)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const char *stage = NULL;
		int rc = probe_enrich_part_status(d->bpf, parts[i].part, &stage);

		if (rc)
			report_skip(d, parts[i].name, "%s%s%s", stage ? stage : "",
				    stage ? ": " : "", why(rc));
	}
}

void report_enrich_stop(struct report_data *d)
{
	if (!d->bpf)
		return;
	if (probe_enrich_stop(d->bpf)) {
		report_skip(d, "ebpf", "the probes could not be stopped cleanly; results dropped");
		probe_enrich_free(d->bpf);
		d->bpf = NULL;
		return;
	}
	part_skips(d);
}

/* A candidate for the syscalls part: a process and its system time, % of one CPU. */
struct sys_user {
	int pid;
	double pct;
};

static int cmp_sys_users(const void *a, const void *b)
{
	const struct sys_user *x = a, *y = b;

	return x->pct < y->pct ? 1 : x->pct > y->pct ? -1 : x->pid - y->pid;
}

/* Seconds since boot in ticks, the unit of /proc/PID/stat's start time. */
static double boot_ticks(long hz)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts))
		return 0;
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9) * (double)hz;
}

/* Process t's system time as % of one CPU: over the interval, or its life at the first sample. */
static double sys_pct(const struct pidstat_task *t, int curr, double seconds, long hz, double now)
{
	const struct pidstat_snap *a = &t->snap[curr], *b = &t->snap[!curr];

	if (seconds > 0)
		return a->stime >= b->stime
			   ? 100.0 * (double)(a->stime - b->stime) / (double)hz / seconds
			   : 0;
	return now > (double)t->start ? 100.0 * (double)a->stime / (now - (double)t->start) : 0;
}

void report_enrich_sampled(struct report_data *d, const struct pidstat_table *tb, int curr,
			   double seconds, long hz, int self)
{
	struct sys_user top[PROBE_ENRICH_WATCH_MAX * 4];
	size_t n = 0;
	double now = boot_ticks(hz);

	if (!d->bpf || !tb || hz <= 0 || !probe_enrich_syscalls_on_demand(d->bpf))
		return;
	for (size_t i = 0; i < tb->len; i++) {
		const struct pidstat_task *t = tb->order[i];
		double pct;

		if (t->leader || t->pid == self) /* the order holds this sample's tasks */
			continue;
		pct = sys_pct(t, curr, seconds, hz, now);
		if (pct < REPORT_SYSCALL_WATCH_PCT)
			continue;
		if (n < sizeof(top) / sizeof(top[0]))
			top[n++] = (struct sys_user){ t->pid, pct };
	}
	qsort(top, n, sizeof(top[0]), cmp_sys_users);
	for (size_t i = 0; i < n; i++)
		if (probe_enrich_syscalls_watch(d->bpf, top[i].pid) == -ENOSPC)
			break;
}

/* The syscalls part on demand: whom it counted, since when (report -v). */
static size_t watch_words(const struct report_data *d, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(
	    buf, len, ", on demand (%.1f%% of a CPU in the kernel):", REPORT_SYSCALL_WATCH_PCT);
	int pids[PROBE_ENRICH_WATCH_MAX];
	double since[PROBE_ENRICH_WATCH_MAX];
	size_t n = probe_enrich_syscalls_watched(d->bpf, pids, since, PROBE_ENRICH_WATCH_MAX);
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " PID %d from %.1f s", pids[i],
					 since[i]);
	if (!n && used < len)
		used += (size_t)snprintf(buf + used, len - used, " no process, never attached");
	return used < len ? used : len;
}

void report_enrich_loaders(const struct report_data *d, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; d->bpf && i < sizeof(parts) / sizeof(parts[0]) && used < len; i++) {
		double ms = 0;
		const char *how = probe_enrich_part_loader(d->bpf, parts[i].part, &ms);

		if (how)
			used += (size_t)snprintf(buf + used, len - used, "%s%s: %s, %.1f ms CPU",
						 used ? "; " : "", parts[i].name, how, ms);
		if (how && used < len && parts[i].part == PROBE_ENRICH_SYSCALLS &&
		    probe_enrich_syscalls_on_demand(d->bpf))
			used += watch_words(d, buf + used, len - used);
	}
}

void report_enrich_free(struct report_data *d)
{
	probe_enrich_free(d->bpf);
	d->bpf = NULL;
}

static void detail(struct rp_finding *x, const char *text)
{
	if (x->ndetails < RP_MAX_DETAILS)
		report_set_str(x->details[x->ndetails++], sizeof(x->details[0]), text);
}

static void runq_detail(struct probe_enrich *e, struct rp_finding *x)
{
	struct probe_enrich_runq q;
	char line[200];

	if (probe_enrich_runq(e, x->kind == RK_CPU_CONTENTION ? x->subject.pid : 0, &q) || !q.count)
		return;
	snprintf(
	    line, sizeof(line),
	    "eBPF run-queue latency%s: %llu waits, p50 <= %.3f ms, p99 <= %.3f ms, max %.3f ms",
	    x->kind == RK_CPU_CONTENTION ? " of the subject" : " of every task",
	    (unsigned long long)q.count, (double)q.p50_ns / 1e6, (double)q.p99_ns / 1e6,
	    (double)q.max_ns / 1e6);
	detail(x, line);
}

static void functions_detail(struct probe_enrich *e, struct rp_finding *x)
{
	struct probe_enrich_func fn[ENRICH_FUNCS];
	struct probe_enrich_profile sum;
	size_t n = 0;
	char line[200];

	if (probe_enrich_top_functions(e, x->subject.pid, fn, ENRICH_FUNCS, &n, &sum) ||
	    !sum.samples)
		return;
	snprintf(line, sizeof(line), "eBPF profile: %llu sample%s at %u Hz; top functions (self):",
		 (unsigned long long)sum.samples, sum.samples == 1 ? "" : "s", sum.freq_hz);
	detail(x, line);
	for (size_t i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "  %5.1f%%  %.120s (%.60s)",
			 100.0 * (double)fn[i].samples / (double)sum.samples,
			 fn[i].name[0] ? fn[i].name : "?", fn[i].module);
		detail(x, line);
	}
}

static void syscalls_detail(struct probe_enrich *e, struct rp_finding *x)
{
	struct probe_enrich_syscall sc[ENRICH_SYSCALLS];
	size_t n = 0;
	char line[200];

	double since = probe_enrich_syscalls_since(e, x->subject.pid);

	if (since < 0) {
		snprintf(line, sizeof(line),
			 "eBPF syscalls: not counted (no sample found it at %.1f%% of a CPU in the "
			 "kernel)",
			 REPORT_SYSCALL_WATCH_PCT);
		detail(x, line);
		return;
	}
	if (probe_enrich_top_syscalls(e, x->subject.pid, sc, ENRICH_SYSCALLS, &n) || !n)
		return;
	if (since >= 0.05) {
		snprintf(line, sizeof(line),
			 "eBPF syscalls from %.1f s into the window (count, errors, time inside):",
			 since);
		detail(x, line);
	} else {
		detail(x, "eBPF syscalls (count, errors, time inside):");
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "  %-16.31s %10llu calls %8llu errors %10.3f ms",
			 sc[i].name, (unsigned long long)sc[i].count,
			 (unsigned long long)sc[i].errors, (double)sc[i].total_ns / 1e6);
		detail(x, line);
	}
}

static bool named(const struct rp_subject *s, int pid)
{
	for (size_t i = 0; i < s->npids; i++)
		if (s->pids[i] == pid)
			return true;
	return s->pid == pid;
}

/* Off-CPU stacks of the finding's D tasks (every D thread is asked for, then filtered). */
static void dstate_detail(struct probe_enrich *e, struct rp_finding *x)
{
	struct probe_enrich_dwait dw[ENRICH_DTASKS * 8];
	size_t n = 0, shown = 0;

	if (probe_enrich_dstate(e, 0, dw, sizeof(dw) / sizeof(dw[0]), &n))
		return;
	for (size_t i = 0; i < n && shown < ENRICH_DTASKS; i++) {
		char line[200];
		size_t used;

		if (!named(&x->subject, dw[i].pid))
			continue;
		shown++;
		used = (size_t)snprintf(line, sizeof(line),
					"eBPF off-CPU: TID %d %s in D %.1f s%s:", dw[i].tid,
					dw[i].comm, (double)dw[i].total_ns / 1e9,
					dw[i].still_blocked ? " (still blocked)" : "");
		for (size_t k = 0; k < dw[i].nframes && k < ENRICH_FRAMES && used < sizeof(line);
		     k++)
			used += (size_t)snprintf(line + used, sizeof(line) - used, " %s%s",
						 k ? "< " : "", dw[i].frames[k]);
		detail(x, line);
	}
	if (!shown)
		detail(x, "eBPF off-CPU: no D sleep of these tasks began or ended in the window "
			  "(they were blocked before it started)");
}

/* With no CPU finding to attach it to, the window's run-queue latency is a checked line. */
static void runq_checked(struct probe_enrich *e, struct report_findings *f)
{
	struct probe_enrich_runq q;
	struct rp_checked *c;

	if (f->nchecked >= RP_MAX_CHECKED || probe_enrich_runq(e, 0, &q) || !q.count)
		return;
	c = &f->checked[f->nchecked++];
	memset(c, 0, sizeof(*c));
	report_set_str(c->resource, sizeof(c->resource), report_resource_name(RES_CPU_RUNQ));
	report_checked_figure(c, "waits", (double)q.count, "waits");
	report_checked_figure(c, "p50", (double)q.p50_ns / 1e6, "ms");
	report_checked_figure(c, "p99", (double)q.p99_ns / 1e6, "ms");
	report_checked_figure(c, "max", (double)q.max_ns / 1e6, "ms");
	snprintf(
	    c->summary, sizeof(c->summary),
	    "eBPF run-queue latency of every task: %llu wait%s, p50 <= %.3f ms, p99 <= %.3f ms, "
	    "max %.3f ms",
	    (unsigned long long)q.count, q.count == 1 ? "" : "s", (double)q.p50_ns / 1e6,
	    (double)q.p99_ns / 1e6, (double)q.max_ns / 1e6);
}

void report_enrich_findings(struct report_data *d, struct report_findings *f)
{
	unsigned procs = 0, runq = 0;

	if (!d->bpf)
		return;
	for (size_t i = 0; i < f->n; i++) {
		struct rp_finding *x = &f->f[i];

		switch (x->kind) {
		case RK_CPU_SATURATED:
		case RK_SINGLE_CPU_HOT:
		case RK_CPU_CONTENTION:
			runq_detail(d->bpf, x);
			runq++;
			break;
		case RK_CPU_BOUND_USER:
			if (procs++ < ENRICH_PROCS)
				functions_detail(d->bpf, x);
			break;
		case RK_CPU_BOUND_KERNEL:
			if (procs++ < ENRICH_PROCS)
				syscalls_detail(d->bpf, x);
			break;
		case RK_LOAD_UNINTERRUPTIBLE:
		case RK_IO_STALL:
			dstate_detail(d->bpf, x);
			break;
		default:
			break;
		}
	}
	if (!runq)
		runq_checked(d->bpf, f);
}
