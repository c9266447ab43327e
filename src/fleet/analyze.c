/*
 * The series grouped the report's way: one group per kind, each naming its
 * hosts and subjects; hosts whose samples stopped are a group of their own
 * ("stopped-reporting"). Over a range each entry carries the stretches of
 * time its finding held. Pure: series in, result out.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "report/kinds.h"
#include "util/grow.h"
#include "util/text.h"
#include "util/mathx.h"

/* What is known of one host from its "seen" and "up" series. */
struct host {
	const char *name;
	double last_seen; /* NaN: no sample known */
	double before;	  /* Prometheus over a range: the last sample before it, NaN: none */
	bool up_zero;
	bool quiet; /* Prometheus no longer sees it (past its look-back, or stale-marked) */
	const struct fleet_series *seen;
	const struct fleet_series *stale; /* Prometheus over a range */
};

struct hosts {
	struct host *h;
	size_t n, cap;
};

static int by_host_name(const void *a, const void *b)
{
	return strcmp(((const struct host *)a)->name, ((const struct host *)b)->name);
}

static struct host *host_find(const struct hosts *hs, const char *name)
{
	struct host key = { .name = name };

	return hs->n ? bsearch(&key, hs->h, hs->n, sizeof(*hs->h), by_host_name) : NULL;
}

/* Every host named by any series, sorted, once each, with its last sample and up. */
static int hosts_gather(const struct fleet_series_set *set, struct hosts *hs)
{
	size_t w = 0;

	for (size_t i = 0; i < set->n; i++) {
		if (set->s[i].what == FW_VALUE)
			continue;
		if (util_grow(&hs->h, &hs->cap, hs->n + 1, sizeof(*hs->h)))
			return -ENOMEM;
		hs->h[hs->n++] =
		    (struct host){ .name = set->s[i].host, .last_seen = NAN, .before = NAN };
	}
	if (hs->n)
		qsort(hs->h, hs->n, sizeof(*hs->h), by_host_name);
	for (size_t i = 0; i < hs->n; i++)
		if (!w || strcmp(hs->h[w - 1].name, hs->h[i].name))
			hs->h[w++] = hs->h[i];
	hs->n = w;
	for (size_t i = 0; i < set->n; i++) {
		const struct fleet_series *s = &set->s[i];
		struct host *h =
		    s->what == FW_SEVERITY || s->what == FW_VALUE ? NULL : host_find(hs, s->host);

		if (!h)
			continue;
		switch (s->what) {
		case FW_UP:
			h->up_zero = true;
			continue;
		case FW_STALE:
			h->stale = s;
			continue;
		case FW_QUIET:
			h->quiet = true;
			continue;
		case FW_BEFORE:
			h->before = s->n ? s->v[s->n - 1] : NAN;
			continue;
		case FW_SEEN:
			/* Graphite: the host's series is there, without a point in the window */
			h->seen = s;
			h->quiet |= !s->n;
			break;
		default: /* FW_LAST */
			break;
		}
		for (size_t k = 0; k < s->n; k++)
			if (isnan(h->last_seen) || s->v[k] > h->last_seen)
				h->last_seen = s->v[k];
	}
	return 0;
}

/* Two samples further apart than this: the finding (or the host) was not there between. */
static double gap_limit(const struct fleet_opts *o)
{
	double step = o->range && o->store == FLEET_PROMETHEUS ? fleet_prom_step(o) : o->interval;
	double g = 2 * o->interval;

	return 1.5 * step > g ? 1.5 * step : g;
}

static int span_add(struct fleet_entry *e, double start, double end, bool open)
{
	size_t cap = e->nspans;

	if (util_grow(&e->spans, &cap, e->nspans + 1, sizeof(*e->spans)))
		return -ENOMEM;
	e->spans[e->nspans++] = (struct fleet_span){ start, end, open };
	return 0;
}

static struct fleet_group *group_of(struct fleet_result *r, const char *rule)
{
	struct fleet_group *g;

	for (size_t i = 0; i < r->ng; i++)
		if (!strcmp(r->g[i].rule, rule))
			return &r->g[i];
	if (util_grow(&r->g, &r->cap, r->ng + 1, sizeof(*r->g)))
		return NULL;
	g = &r->g[r->ng++];
	memset(g, 0, sizeof(*g));
	text_copy(g->rule, sizeof(g->rule), rule);
	return g;
}

static struct fleet_entry *entry_add(struct fleet_group *g, const char *host, const char *subject)
{
	struct fleet_entry *e;

	if (util_grow(&g->e, &g->cap, g->n + 1, sizeof(*g->e)))
		return NULL;
	e = &g->e[g->n++];
	memset(e, 0, sizeof(*e));
	text_copy(e->host, sizeof(e->host), host);
	text_copy(e->subject, sizeof(e->subject), subject);
	e->value = NAN;
	e->last_seen = NAN;
	return e;
}

/* The times a host was reporting: a range's steps whose sample is fresh. */
static bool fresh(const struct fleet_opts *o, const struct fleet_series *s, size_t k)
{
	return s->t[k] - s->v[k] <= 2 * o->interval + 1e-6;
}

/*
 * Prometheus over a range: the runs of steps it named stale, each from two
 * intervals before its first step (about the last sample) to its last. A
 * step counts while the host's last sample is within the hour before it
 * (as at an instant): a run at the range's start needs the host's sample
 * before the range (none: it had not started yet), a later run begins
 * about two intervals after its last sample.
 */
static int stale_spans(const struct fleet_opts *o, const struct host *h, struct fleet_entry **e,
		       struct fleet_group *g)
{
	const struct fleet_series *s = h->stale;
	double step = fleet_prom_step(o), start = NAN, end = NAN;
	int rc = 0;

	for (size_t k = 0; k < s->n && !rc; k++) {
		double last;

		if (isnan(start))
			start = s->t[k];
		last = start <= o->from + step / 2 ? h->before : start - 2 * o->interval;
		if (!isnan(last) && s->t[k] - last < FLEET_LOOKBACK_S)
			end = s->t[k];
		if (k + 1 < s->n && s->t[k + 1] - s->t[k] <= 1.5 * step)
			continue;
		if (!isnan(end)) {
			if (!*e && !(*e = entry_add(g, h->name, "host")))
				return -ENOMEM;
			rc = span_add(*e, start - 2 * o->interval, end, end >= o->to - 1.5 * step);
		}
		start = end = NAN;
	}
	return rc;
}

/* Over a range: every stretch without a fresh sample longer than the gap limit. */
static int stopped_spans(const struct fleet_opts *o, const struct host *h, struct fleet_entry **e,
			 struct fleet_group *g)
{
	double gap = gap_limit(o), prev = NAN;
	const struct fleet_series *s = h->seen;
	int rc = 0;

	if (h->stale)
		return stale_spans(o, h, e, g);
	if (h->quiet && s && !s->n) { /* Graphite: not a point in the whole range */
		if (!(*e = entry_add(g, h->name, "host")))
			return -ENOMEM;
		return span_add(*e, o->from, o->to, true);
	}
	for (size_t k = 0; s && k < s->n && !rc; k++) {
		if (!fresh(o, s, k))
			continue;
		if (!isnan(prev) && s->t[k] - prev > gap) {
			if (!*e && !(*e = entry_add(g, h->name, "host")))
				return -ENOMEM;
			rc = span_add(*e, prev, s->t[k], false);
		}
		prev = s->t[k];
	}
	if (!rc && !isnan(prev) && o->to - prev > gap) {
		if (!*e && !(*e = entry_add(g, h->name, "host")))
			return -ENOMEM;
		rc = span_add(*e, prev, o->to, true);
	}
	return rc;
}

/*
 * Whether h had stopped at the instant: up is 0, or no sample within two
 * intervals (Prometheus no longer seeing it and no last sample found: none
 * within its look-back, so none within two intervals either).
 */
static bool stopped_at(const struct fleet_opts *o, const struct host *h)
{
	if (isnan(h->last_seen))
		return h->up_zero || h->quiet;
	return h->up_zero || o->at - h->last_seen > 2 * o->interval;
}

static int find_stopped(const struct fleet_opts *o, const struct hosts *hs, struct fleet_result *r)
{
	struct fleet_group *g = group_of(r, FLEET_STOPPED);

	if (!g)
		return -ENOMEM;
	g->sev = 3;
	for (size_t i = 0; i < hs->n; i++) {
		const struct host *h = &hs->h[i];
		struct fleet_entry *e = NULL;
		int rc;

		if (o->range) {
			if ((rc = stopped_spans(o, h, &e, g)))
				return rc;
		} else if (stopped_at(o, h)) {
			if (!(e = entry_add(g, h->name, "host")))
				return -ENOMEM;
			if (!isnan(h->last_seen) && (rc = span_add(e, h->last_seen, o->at, true)))
				return rc;
		}
		if (!e)
			continue;
		e->sev = 3;
		e->up_zero = h->up_zero;
		e->last_seen = h->last_seen;
		r->nstopped++;
	}
	return 0;
}

/* The value series with s's host, rule and subject, or NULL. */
static const struct fleet_series *value_of(const struct fleet_series_set *set,
					   const struct fleet_series *s)
{
	for (size_t i = 0; i < set->n; i++) {
		const struct fleet_series *v = &set->s[i];

		if (v->what == FW_VALUE && !strcmp(v->rule, s->rule) &&
		    !strcmp(v->subject, s->subject) && !strcmp(v->host, s->host))
			return v;
	}
	return NULL;
}

/* The finding's figure: the last (instant) or the peak (range) of its value series. */
static double figure(const struct fleet_opts *o, const struct fleet_series *v)
{
	double x = NAN;

	for (size_t k = 0; v && k < v->n; k++)
		if (!o->range || isnan(x) || v->v[k] > x)
			x = v->v[k];
	return x;
}

static int add_finding(const struct fleet_opts *o, const struct hosts *hs,
		       const struct fleet_series_set *set, const struct fleet_series *s,
		       struct fleet_result *r)
{
	const struct host *h = host_find(hs, s->host);
	struct fleet_group *g;
	struct fleet_entry *e;
	double gap = gap_limit(o), start;
	int rc = 0;

	if (!s->n)
		return 0;
	if (!o->range) {
		/* a host that stopped has no current findings; nor has a series it stopped
		 * writing (Graphite keeps no staleness: its last point is older than the host's) */
		if (h && (stopped_at(o, h) || (!isnan(h->last_seen) &&
					       s->t[s->n - 1] < h->last_seen - o->interval / 2)))
			return 0;
	}
	if (!(g = group_of(r, s->rule)) || !(e = entry_add(g, s->host, s->subject)))
		return -ENOMEM;
	e->value = figure(o, value_of(set, s));
	start = s->t[0];
	for (size_t k = 0; k < s->n && !rc; k++) {
		int sev = (int)util_lround(o->range ? s->v[k] : s->v[s->n - 1]);

		if (sev > e->sev)
			e->sev = sev;
		if (!o->range)
			continue;
		if (k + 1 < s->n && s->t[k + 1] - s->t[k] <= gap)
			continue;
		rc = span_add(e, start, s->t[k], s->t[k] >= o->to - gap);
		if (k + 1 < s->n)
			start = s->t[k + 1];
	}
	if (!o->range)
		rc = span_add(e, o->at, o->at, true);
	if (e->sev > g->sev)
		g->sev = e->sev;
	return rc;
}

/* The kind's row index, for ordering (unknown rules after every kind). */
static int kind_order(const char *rule)
{
	for (int k = 0; k < RK_COUNT; k++)
		if (!strcmp(report_kind_name((enum report_kind)k), rule))
			return k;
	return RK_COUNT;
}

static int by_entry(const void *pa, const void *pb)
{
	const struct fleet_entry *a = pa, *b = pb;
	int c;

	if (a->sev != b->sev)
		return b->sev - a->sev;
	if (isnan(a->value) != isnan(b->value))
		return isnan(a->value) ? 1 : -1;
	if (!isnan(a->value) && a->value != b->value)
		return a->value > b->value ? -1 : 1;
	c = strcmp(a->subject, b->subject);
	return c ? c : strcmp(a->host, b->host);
}

static int by_group(const void *pa, const void *pb)
{
	const struct fleet_group *a = pa, *b = pb;
	bool sa = !strcmp(a->rule, FLEET_STOPPED), sb = !strcmp(b->rule, FLEET_STOPPED);

	if (sa != sb)
		return sa ? -1 : 1;
	if (a->sev != b->sev)
		return b->sev - a->sev;
	if (kind_order(a->rule) != kind_order(b->rule))
		return kind_order(a->rule) - kind_order(b->rule);
	return strcmp(a->rule, b->rule);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Distinct names among n (sorted in place). */
static size_t distinct(const char **names, size_t n)
{
	size_t d = 0;

	if (n)
		qsort(names, n, sizeof(*names), by_string);
	for (size_t i = 0; i < n; i++)
		d += !i || strcmp(names[i - 1], names[i]);
	return d;
}

/* Sorts, drops empty groups, counts each group's hosts and the hosts with findings. */
static int finish(struct fleet_result *r)
{
	const char **all = NULL, **one = NULL;
	size_t nall = 0, w = 0, total = 0;

	for (size_t i = 0; i < r->ng; i++)
		total += r->g[i].n;
	if (total &&
	    (!(all = calloc(total, sizeof(*all))) || !(one = calloc(total, sizeof(*one))))) {
		free(all);
		return -ENOMEM;
	}
	for (size_t i = 0; i < r->ng; i++) {
		struct fleet_group *g = &r->g[i];
		bool stopped = !strcmp(g->rule, FLEET_STOPPED);

		if (!g->n) {
			free(g->e);
			continue;
		}
		qsort(g->e, g->n, sizeof(*g->e), by_entry);
		for (size_t k = 0; k < g->n; k++) {
			one[k] = g->e[k].host;
			if (!stopped)
				all[nall++] = g->e[k].host;
		}
		g->nhosts = distinct(one, g->n);
		r->g[w++] = *g;
	}
	r->ng = w;
	r->nwith_findings = distinct(all, nall);
	if (r->ng)
		qsort(r->g, r->ng, sizeof(*r->g), by_group);
	free(all);
	free(one);
	return 0;
}

int fleet_analyze(const struct fleet_opts *o, const struct fleet_series_set *set,
		  struct fleet_result *r)
{
	struct hosts hs = { 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	r->o = o;
	rc = hosts_gather(set, &hs);
	r->nhosts = hs.n;
	rc = rc ? rc : find_stopped(o, &hs, r);
	for (size_t i = 0; i < set->n && !rc; i++)
		if (set->s[i].what == FW_SEVERITY)
			rc = add_finding(o, &hs, set, &set->s[i], r);
	rc = rc ? rc : finish(r);
	free(hs.h);
	if (rc)
		fleet_result_release(r);
	return rc;
}

void fleet_result_release(struct fleet_result *r)
{
	for (size_t i = 0; i < r->ng; i++) {
		for (size_t k = 0; k < r->g[i].n; k++)
			free(r->g[i].e[k].spans);
		free(r->g[i].e);
	}
	free(r->g);
	memset(r, 0, sizeof(*r));
}
