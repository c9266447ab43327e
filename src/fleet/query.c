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

int fleet_promql(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size)
{
	const char *m = o->match && o->match[0] ? o->match : NULL;
	const char *h = o->host_label && o->host_label[0] ? o->host_label : "instance";
	long step_ms = util_lround((o->interval > 0 ? o->interval : 60) * 1000);

	/* the matchers go inside one selector's braces: a brace would end it */
	if (m && strpbrk(m, "{}"))
		return -EINVAL;
	switch (what) {
	case FW_SEVERITY:
		return fit(buf, size, "triage_report_finding_severity{%s}", m ? m : "");
	case FW_VALUE:
		return fit(buf, size, "triage_report_finding_value{%s}", m ? m : "");
	case FW_SEEN: {
		/* every collector exports this series each sample, findings or not: the last
		 * sample's time, for hosts gone quiet (stale-marked) too */
		long back = FLEET_LOOKBACK_S + (o->range ? util_lround(o->to - o->from) : 0);

		return fit(buf, size,
			   "max by (%s) (max_over_time(timestamp(triage_report_findings{severity="
			   "\"critical\"%s%s})[%lds:%ldms]))",
			   h, m ? "," : "", m ? m : "", back, step_ms);
	}
	case FW_STALE:
		/* known in the hour before the step, without a sample in the last two intervals:
		 * Prometheus answers only the stale steps, not every host's every step */
		return fit(buf, size,
			   "group by (%s) (present_over_time(triage_report_findings{severity="
			   "\"critical\"%s%s}[%ds])) unless group by (%s) "
			   "(present_over_time(triage_report_findings{severity=\"critical\"%s%s}"
			   "[%ldms]))",
			   h, m ? "," : "", m ? m : "", FLEET_LOOKBACK_S, h, m ? "," : "",
			   m ? m : "", 2 * step_ms);
	case FW_UP:
		return fit(buf, size, "up{%s} == 0", m ? m : "");
	}
	return -EINVAL;
}

/* base without its trailing slashes, as a length */
static int base_len(const char *url)
{
	size_t n = strlen(url);

	while (n && url[n - 1] == '/')
		n--;
	return (int)n;
}

int fleet_prom_url(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size)
{
	char q[4096], enc[12288];
	int rc = fleet_promql(o, what, q, sizeof(q));

	if (!rc)
		rc = fleet_url_encode(q, enc, sizeof(enc));
	if (rc)
		return rc;
	if (o->range && what != FW_SEEN)
		return fit(buf, size,
			   "%.*s/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=%g",
			   base_len(o->url), o->url, enc, o->from, o->to, fleet_prom_step(o));
	return fit(buf, size, "%.*s/api/v1/query?query=%s&time=%.3f", base_len(o->url), o->url, enc,
		   o->range ? o->to : o->at);
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
