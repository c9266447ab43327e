/* What triage fleet asks Prometheus and graphite-web (see fleet.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fleet/fleet.h"
#include "util/mathx.h"

/* Prometheus answers at most 11,000 points per series of a range query. */
#define PROM_MAX_POINTS 10000

int fleet_url_encode(const char *s, char *out, size_t size)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			     (*p >= '0' && *p <= '9') || strchr("-._~", *p);

		if (o + (plain ? 1 : 3) >= size)
			return -ENOSPC;
		if (plain) {
			out[o++] = (char)*p;
		} else {
			out[o++] = '%';
			out[o++] = hex[*p >> 4];
			out[o++] = hex[*p & 15];
		}
	}
	if (o >= size)
		return -ENOSPC;
	out[o] = '\0';
	return 0;
}

/* snprintf that says -ENOSPC when cut. */
static int fit(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fit(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

double fleet_prom_step(const struct fleet_opts *o)
{
	double span = o->to - o->from, step = o->interval > 0 ? o->interval : 60;

	if (span / step > PROM_MAX_POINTS)
		step = ceil(span / PROM_MAX_POINTS);
	return step;
}

/* The selector every collector writes each sample, findings or not, with o's matchers. */
#define SEEN_SEL "triage_report_findings{severity=\"critical\"%s%s}"

/* Seconds the instant queries look back: the hour, and over a range the range too. */
static long lookback_s(const struct fleet_opts *o)
{
	return FLEET_LOOKBACK_S + (o->range ? util_lround(o->to - o->from) : 0);
}

int fleet_promql(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size)
{
	const char *m = o->match && o->match[0] ? o->match : NULL;
	const char *h = o->host_label && o->host_label[0] ? o->host_label : "instance";
	const char *c = m ? "," : "";
	long step_ms = util_lround((o->interval > 0 ? o->interval : 60) * 1000);

	/* the matchers go inside one selector's braces: a brace would end it */
	if (m && strpbrk(m, "{}"))
		return -EINVAL;
	m = m ? m : "";
	switch (what) {
	case FW_SEVERITY:
		return fit(buf, size, "triage_report_finding_severity{%s}", m);
	case FW_VALUE:
		return fit(buf, size, "triage_report_finding_value{%s}", m);
	case FW_SEEN:
		/* the last sample's own time, of every host Prometheus still sees (its
		 * lookback, 5 min by default, and not stale-marked): one lookup a host */
		return fit(buf, size, "max by (%s) (timestamp(" SEEN_SEL "))", h, c, m);
	case FW_QUIET:
		/* hosts known in the look-back window that Prometheus no longer sees: only
		 * those need the (costly) walk back to their last sample, FW_LAST */
		return fit(buf, size,
			   "group by (%s) (present_over_time(" SEEN_SEL
			   "[%lds])) unless on (%s) " SEEN_SEL,
			   h, c, m, lookback_s(o), h, c, m);
	case FW_STALE:
		/* a range's steps where a host known over the range or the hour before it had
		 * no sample for two intervals: the known set is one evaluation (@ end()), the
		 * grouping is of the few stale series only (grouping every host at every step
		 * cost Prometheus 3x more), and it answers only the stale steps */
		return fit(buf, size,
			   "group by (%s) (present_over_time(" SEEN_SEL "[%lds] @ end()) unless on "
			   "(%s) present_over_time(" SEEN_SEL "[%ldms]))",
			   h, c, m, lookback_s(o), h, c, m, 2 * step_ms);
	case FW_UP:
		return fit(buf, size, "up{%s} == 0", m);
	case FW_LAST:
	case FW_BEFORE:
		return fleet_promql_last(o, what, NULL, 0, NULL, buf, size);
	}
	return -EINVAL;
}

/*
 * name as an RE2 literal inside a PromQL double-quoted string, appended at
 * *used; false when it does not fit or holds a control byte (then the query
 * names no hosts and asks about all of them).
 */
static bool regex_literal(const char *name, char *buf, size_t size, size_t *used)
{
	size_t u = *used;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		bool meta = strchr("\\.+*?()|[]{}^$", *p) != NULL;

		if (*p < 0x20 || *p == 0x7f)
			return false;
		if (u + 4 >= size)
			return false;
		if (meta) { /* the regex's backslash, escaped for the string */
			buf[u++] = '\\';
			buf[u++] = '\\';
		} else if (*p == '"') {
			buf[u++] = '\\';
		}
		buf[u++] = (char)*p;
	}
	buf[u] = '\0';
	*used = u;
	return true;
}

/* Bytes of one query's host alternation: the URL, percent-encoded, stays under 16 KB. */
#define LAST_NAMES_MAX 3000

int fleet_promql_last(const struct fleet_opts *o, enum fleet_what what, const char *const *hosts,
		      size_t n, size_t *taken, char *buf, size_t size)
{
	const char *m = o->match && o->match[0] ? o->match : "";
	const char *h = o->host_label && o->host_label[0] ? o->host_label : "instance";
	long step_ms = util_lround((o->interval > 0 ? o->interval : 60) * 1000);
	long back = what == FW_BEFORE ? FLEET_LOOKBACK_S : lookback_s(o);
	char re[LAST_NAMES_MAX + 8];
	size_t used = 0, k = 0;

	if (strpbrk(m, "{}"))
		return -EINVAL;
	re[0] = '\0';
	for (; k < n; k++) {
		size_t before = used;

		if (k && used + 1 < sizeof(re))
			re[used++] = '|';
		if (!regex_literal(hosts[k], re, LAST_NAMES_MAX, &used)) {
			used = before;
			re[used] = '\0';
			break;
		}
	}
	if (n && !k) /* the first name does not fit a regex: ask about every host */
		k = n, used = 0;
	if (taken)
		*taken = k;
	/* timestamp() at every interval step of the window, each host's latest: the
	 * exact time of its last sample; hosts named, so the cost is theirs only */
	return fit(buf, size,
		   "max by (%s) (max_over_time(timestamp(triage_report_findings{severity="
		   "\"critical\"%s%s%s%s%s%s%s})[%lds:%ldms]))",
		   h, m[0] ? "," : "", m, used ? "," : "", used ? h : "", used ? "=~\"" : "",
		   used ? re : "", used ? "\"" : "", back, step_ms);
}

/* base without its trailing slashes, as a length */
static int base_len(const char *url)
{
	size_t n = strlen(url);

	while (n && url[n - 1] == '/')
		n--;
	return (int)n;
}

/* The query (instant at t) or query_range URL of PromQL q. */
static int prom_url(const struct fleet_opts *o, const char *q, bool range, double t, char *buf,
		    size_t size)
{
	char enc[12288];
	int rc = fleet_url_encode(q, enc, sizeof(enc));

	if (rc)
		return rc;
	if (range)
		return fit(buf, size,
			   "%.*s/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=%g",
			   base_len(o->url), o->url, enc, o->from, o->to, fleet_prom_step(o));
	return fit(buf, size, "%.*s/api/v1/query?query=%s&time=%.3f", base_len(o->url), o->url, enc,
		   t);
}

int fleet_prom_url(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size)
{
	char q[4096];
	int rc = fleet_promql(o, what, q, sizeof(q));
	bool range = o->range && (what == FW_SEVERITY || what == FW_VALUE || what == FW_STALE);

	return rc ? rc : prom_url(o, q, range, fleet_prom_time(o, what), buf, size);
}

double fleet_prom_time(const struct fleet_opts *o, enum fleet_what what)
{
	if (!o->range)
		return o->at;
	return what == FW_BEFORE ? o->from : o->to;
}

int fleet_prom_last_url(const struct fleet_opts *o, enum fleet_what what, const char *const *hosts,
			size_t n, size_t *taken, char *buf, size_t size)
{
	char q[4096];
	int rc = fleet_promql_last(o, what, hosts, n, taken, q, sizeof(q));

	return rc ? rc : prom_url(o, q, false, fleet_prom_time(o, what), buf, size);
}

int fleet_graphite_url(const struct fleet_opts *o, char *buf, size_t size)
{
	static const char *const paths[] = { "report.finding.*.*", "report.finding_value.*.*",
					     "report.findings.critical" };
	const char *prefix = o->prefix && o->prefix[0] ? o->prefix : "triage.*";
	double from = o->range ? o->from : o->at - FLEET_GRAPHITE_LOOKBACK_S;
	double until = o->range ? o->to : o->at;
	size_t used;
	int rc;

	/* graphite-web takes whole seconds; until is the last second wanted */
	rc = fit(buf, size, "%.*s/render?format=json&from=%.0f&until=%.0f", base_len(o->url),
		 o->url, floor(from), ceil(until));
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && !rc; i++) {
		char t[1024], enc[3072];

		rc = fit(t, sizeof(t), "%s.%s", prefix, paths[i]);
		rc = rc ? rc : fleet_url_encode(t, enc, sizeof(enc));
		used = strlen(buf);
		rc = rc ? rc : fit(buf + used, size - used, "&target=%s", enc);
	}
	return rc;
}
