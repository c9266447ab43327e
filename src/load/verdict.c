#include "load/verdict.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

static void add_line(struct load_verdict *v, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void add_line(struct load_verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nlines >= VERDICT_MAX_LINES)
		return;
	va_start(ap, fmt);
	vsnprintf(v->line[v->nlines++], VERDICT_LINE_MAX, fmt, ap);
	va_end(ap);
}

/* Appends to a line being built, never past its end. */
static void append(char *line, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void append(char *line, const char *fmt, ...)
{
	size_t n = strlen(line);
	va_list ap;

	if (n + 1 >= VERDICT_LINE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(line + n, VERDICT_LINE_MAX - n, fmt, ap);
	va_end(ap);
}

static const char *num(char *buf, size_t n, double v, bool averaged)
{
	snprintf(buf, n, averaged ? "%.2f" : "%.0f", v);
	return buf;
}

/*
 * PSI cpu some avg10 at or above this (percent of the last 10 s in which
 * some task waited for a CPU) is contention, whatever the runnable count
 * says: a count averaged over a minute under the CPU count hides bursts.
 */
#define PSI_CPU_CONTENDED_PCT 10.0

/* "1 CPU" and "the CPU is", or "2 CPUs" and "the CPUs are". */
static void cpu_words(int ncpu, char *buf, size_t size, const char **are)
{
	snprintf(buf, size, "%d CPU%s", ncpu, ncpu == 1 ? "" : "s");
	*are = ncpu == 1 ? "the CPU is" : "the CPUs are";
}

static void cpu_sentence(const struct verdict_input *in, struct load_verdict *v)
{
	char a[32], cpus[32], line[VERDICT_LINE_MAX];
	const char *what = in->averaged ? "from runnable tasks" : "runnable", *are;
	/*
	 * While the samples cover only part of the 1-minute weight, scale the
	 * runnable share up to the mean count it stands for before judging.
	 */
	double cover = in->averaged && in->coverage > 0 ? in->coverage : 1;
	double extra = in->runnable / cover - in->ncpu;

	num(a, sizeof(a), in->runnable, in->averaged);
	cpu_words(in->ncpu, cpus, sizeof(cpus), &are);
	if (in->ncpu <= 0)
		snprintf(line, sizeof(line), "%s %s; CPU count unknown", a, what);
	else if (extra > 0.5)
		snprintf(line, sizeof(line), "%s %s on %s: %s saturated, about %.1f wait for a CPU",
			 a, what, cpus, are, extra);
	else if (extra > -0.5)
		snprintf(line, sizeof(line), "%s %s on %s: %s fully busy", a, what, cpus, are);
	else if (in->have_psi_cpu && in->psi_cpu_some10 >= PSI_CPU_CONTENDED_PCT)
		snprintf(line, sizeof(line),
			 "%s %s on %s: fewer than %s on average, yet some task waited "
			 "for a CPU %.2f%% of the last 10 s (PSI cpu some avg10): %s "
			 "contended in bursts",
			 a, what, cpus, in->ncpu == 1 ? "one" : "the CPUs", in->psi_cpu_some10,
			 are);
	else
		snprintf(line, sizeof(line), "%s %s on %s: %s not saturated", a, what, cpus, are);
	if (cover < 0.95)
		append(line, " (about %.1f runnable on average while sampled)",
		       in->runnable / cover);
	if (in->have_psi_cpu && !strstr(line, "PSI cpu"))
		append(line, " (PSI cpu some avg10 %.2f%%)", in->psi_cpu_some10);
	add_line(v, "%s.", line);
}

static void d_sentence(const struct verdict_input *in, struct load_verdict *v)
{
	char a[32], b[32], line[VERDICT_LINE_MAX];
	bool first = true;

	num(a, sizeof(a), in->d_counted, in->averaged);
	snprintf(line, sizeof(line), "%s %s: ", a,
		 in->averaged ? "from tasks in D" : "in D that count");
	for (int r = D_DISK_IO; r < D_REASON_COUNT; r++) {
		if (r == D_FREEZER || in->reason[r] < (in->averaged ? 0.005 : 0.5))
			continue;
		append(line, "%s%s %s", first ? "" : ", ",
		       num(b, sizeof(b), in->reason[r], in->averaged),
		       load_dreason_words(r, in->averaged || in->reason[r] > 1.5));
		first = false;
	}
	if (in->reason[D_DISK_IO] < 0.005 && in->reason[D_PAGE_FAULT] < 0.005)
		append(line, "; not disk I/O");
	if (in->have_psi_io)
		append(line, " (PSI io some avg10 %.2f%%)", in->psi_io_some10);
	add_line(v, "%s.", line);
}

void load_verdict_build(const struct verdict_input *in, struct load_verdict *v)
{
	char a[32];

	memset(v, 0, sizeof(*v));
	if (in->averaged)
		add_line(v,
			 "load %.2f on %d CPU%s = %.2f runnable + %.2f in D from the tasks seen "
			 "+ %.2f from before the start + %.2f unattributed.",
			 in->load1, in->ncpu, in->ncpu == 1 ? "" : "s", in->runnable, in->d_counted,
			 in->before > 0 ? in->before : 0, in->unattributed);
	else {
		bool one = !strcmp(num(a, sizeof(a), in->runnable + in->d_counted, false), "1");

		add_line(v,
			 "load %.2f on %d CPU%s (1-minute average); right now %s task%s count%s: "
			 "%.0f runnable and %.0f in D.",
			 in->load1, in->ncpu, in->ncpu == 1 ? "" : "s", a, one ? "" : "s",
			 one ? "s" : "", in->runnable, in->d_counted);
	}
	/* before the kernel's first fold the shares are all 0: nothing to judge yet */
	if (in->averaged && in->coverage <= 0) {
		add_line(v, "The kernel has not folded the load since the start (it does every "
			    "5 s): no share of it comes from the tasks seen yet.");
		if (in->before >= 0.005)
			add_line(v, "%.2f comes from before triage started and is decaying.",
				 in->before);
		return;
	}
	cpu_sentence(in, v);
	if (in->d_counted >= (in->averaged ? 0.005 : 0.5))
		d_sentence(in, v);
	else
		add_line(v, "No task in D counts towards the load.");
	if (in->averaged && in->before >= 0.005)
		add_line(v, "%.2f comes from before triage started and is decaying.", in->before);
	if (in->averaged && (in->unattributed >= 0.1 || in->unattributed <= -0.1))
		add_line(
		    v,
		    "%.2f is unattributed: the kernel's runnable count seen between scans "
		    "differs from what the task scans caught (short-lived tasks, sparse scans).",
		    in->unattributed);
	if (in->frozen)
		add_line(v, "%u frozen task%s show%s D but do%s not count towards the load.",
			 in->frozen, in->frozen == 1 ? "" : "s", in->frozen == 1 ? "s" : "",
			 in->frozen == 1 ? "es" : "");
}

void load_verdict_input_from_snapshot(const struct load_snapshot *s, struct verdict_input *in)
{
	memset(in, 0, sizeof(*in));
	in->load1 = s->have_loadavg ? s->kernel.load[0] : 0;
	in->ncpu = s->ncpu;
	in->runnable = s->n_runnable;
	in->d_counted = s->n_d_counted;
	in->before = -1;
	for (int r = 0; r < D_REASON_COUNT; r++)
		if (r != D_FREEZER)
			in->reason[r] = s->reason_count[r];
	in->frozen = s->n_frozen;
	in->have_psi_io = s->have_psi[PSI_IO];
	in->psi_io_some10 = s->psi[PSI_IO].some.avg10;
	in->have_psi_cpu = s->have_psi[PSI_CPU];
	in->psi_cpu_some10 = s->psi[PSI_CPU].some.avg10;
}
