/*
 * memory-growth: a process whose anonymous memory (RssAnon: what a leak
 * grows; RSS also counts the pages of the files it maps and reads) rose in
 * most of the window's sample
 * intervals at MEM_GROWTH_WARN_MIB_S or more, reaching its tightest limit
 * within MEM_GROWTH_WARN_S at that rate; the finding says when it reaches
 * that limit, the tightest it has: its memory cgroup's (the OOM killer
 * of that cgroup), else the host's MemAvailable. A process that allocated
 * once and stopped rose in one interval, not in most: no finding. A
 * recording older than schema 6 has no RssAnon: RSS is judged, and said.
 */
#include <errno.h>
#include <stdio.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

#define MIB (1024.0 * 1024.0)

/* "602 MiB", "2.0 GiB" */
static void size_words(double bytes, char *buf, size_t size)
{
	if (bytes >= 1024 * MIB)
		snprintf(buf, size, "%.1f GiB", bytes / (1024 * MIB));
	else
		snprintf(buf, size, "%.0f MiB", bytes / MIB);
}

/* "31 s", "6 min", "2.5 h" */
static void time_words(double s, char *buf, size_t size)
{
	if (s < 120)
		snprintf(buf, size, "%.0f s", s);
	else if (s < 2 * 3600)
		snprintf(buf, size, "%.0f min", s / 60);
	else
		snprintf(buf, size, "%.1f h", s / 3600);
}

static bool grows(const struct rp_grower *g)
{
	return g->grew >= MEM_GROWTH_MIN_STEPS && g->grew > MEM_GROWTH_MOST * g->steps &&
	       g->rate_kb_s * 1024 >= MEM_GROWTH_WARN_MIB_S * MIB;
}

/* Seconds until the limit at the window's rate; < 0 when no limit is known. */
static double time_to_limit(const struct rp_grower *g)
{
	if (g->limit == RP_LIMIT_NONE)
		return -1;
	return (double)g->room_bytes / (g->rate_kb_s * 1024);
}

/* "its cgroup's 2.0 GiB limit (/leak)" or "the host's MemAvailable (5.1 GiB)" */
static void limit_words(const struct rp_grower *g, char *buf, size_t size)
{
	char amount[32];

	size_words((double)g->limit_bytes, amount, sizeof(amount));
	if (g->limit == RP_LIMIT_CGROUP)
		snprintf(buf, size, "its cgroup's %s limit (%s)", amount, g->cgroup);
	else
		snprintf(buf, size, "the memory the host has available (MemAvailable %s)", amount);
}

static int grower_finding(const struct rp_grower *g, struct report_findings *f)
{
	double t = time_to_limit(g), rate = g->rate_kb_s * 1024 / MIB;
	bool critical = t >= 0 && t < MEM_GROWTH_CRIT_S;
	char from[32], to[32], rss[32], lim[RP_CGROUP_MAX + 80], when[32];
	const char *what = g->anon ? "anonymous memory" : "RSS";
	struct rp_finding *x =
	    report_finding_add(f, RK_MEMORY_GROWTH, critical ? SEV_CRITICAL : SEV_DEFAULT);

	if (!x)
		return -ENOMEM;
	x->subject.pid = g->pid;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), g->comm);
	if (g->limit == RP_LIMIT_CGROUP)
		report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), g->cgroup);
	x->weight = t >= 0 ? 1e9 - t : rate;
	size_words((double)g->mem0_kb * 1024, from, sizeof(from));
	size_words((double)g->mem_kb * 1024, to, sizeof(to));
	size_words((double)g->rss_kb * 1024, rss, sizeof(rss));
	if (t < 0) {
		report_finding_say(
		    x,
		    "PID %d %s grew %.1f MiB/s of %s (%s to %s in %.0f s, in %u of %u "
		    "samples; RSS %s).",
		    (int)g->pid, g->comm, rate, what, from, to, g->seconds, g->grew, g->steps, rss);
	} else {
		limit_words(g, lim, sizeof(lim));
		time_words(t, when, sizeof(when));
		report_finding_say(
		    x,
		    "PID %d %s grew %.1f MiB/s of %s (%s to %s in %.0f s, in %u of %u "
		    "samples; RSS %s): at this rate it reaches %s in %s.",
		    (int)g->pid, g->comm, rate, what, from, to, g->seconds, g->grew, g->steps, rss,
		    lim, when);
	}
	report_finding_brief(x, "PID %d %s grew %.1f MiB/s", (int)g->pid, g->comm, rate);
	report_finding_next(x, "Watch its memory, then see what maps grow",
			    "triage pidstat -r -p %d 1 10", (int)g->pid);
	report_finding_ev(x, g->anon ? "anon_growth" : "rss_growth", rate, "MiB/s");
	report_finding_ev(x, g->anon ? "anon_start" : "rss_start", (double)g->mem0_kb / 1024,
			  "MiB");
	report_finding_ev(x, g->anon ? "anon_end" : "rss_end", (double)g->mem_kb / 1024, "MiB");
	if (g->anon)
		report_finding_ev(x, "rss_end", (double)g->rss_kb / 1024, "MiB");
	report_finding_ev(x, "grew_samples", g->grew, "intervals");
	report_finding_ev(x, "samples", g->steps, "intervals");
	if (t >= 0) {
		report_finding_ev(x, "limit", (double)g->limit_bytes / MIB, "MiB");
		report_finding_ev(x, "time_to_limit", t, "s");
	}
	return 0;
}

/* Growth that matters within the hour, or any growth when no limit is known. */
static bool soon(const struct rp_grower *g)
{
	double t = time_to_limit(g);

	return t < 0 || t < MEM_GROWTH_WARN_S;
}

int report_rule_memory_growth(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->ngrowers; i++)
		if (grows(&d->growers[i]) && soon(&d->growers[i]) &&
		    grower_finding(&d->growers[i], f))
			return -ENOMEM;
	return 0;
}
