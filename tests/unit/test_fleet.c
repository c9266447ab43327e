/* test: shared -- canned answers, no machine state */
/*
 * triage fleet's core on canned answers: the URLs it asks, Prometheus'
 * and graphite-web's JSON parsed, findings grouped by kind and host,
 * stopped hosts, spans over a range, next commands quoted; and collect's
 * headline figure that fleet prints.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collect/findings.h"
#include "fleet/fleet.h"
#include "report/findings.h"
#include "unit.h"

static const struct fleet_opts prom_now = {
	.store = FLEET_PROMETHEUS,
	.url = "http://p:9090/",
	.at = 1000,
	.interval = 10,
};

TEST(promql_and_urls)
{
	struct fleet_opts o = prom_now;
	char buf[4096];

	ASSERT_EQ(fleet_url_encode("a{b=\"c d\"}&x", buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "a%7Bb%3D%22c%20d%22%7D%26x");
	ASSERT_EQ(fleet_url_encode("abcdef", buf, 4), -ENOSPC);
	ASSERT_EQ(fleet_promql(&o, FW_SEVERITY, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "triage_report_finding_severity{}");
	o.match = "job=\"triage\"";
	o.host_label = "host";
	ASSERT_EQ(fleet_promql(&o, FW_SEEN, buf, sizeof(buf)), 0);
	/* each seen host's last sample: one lookup a host, no walk back */
	ASSERT_STREQ(buf, "max by (host) (timestamp(triage_report_findings{severity="
			  "\"critical\",job=\"triage\"}))");
	ASSERT_EQ(fleet_promql(&o, FW_QUIET, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "group by (host) (present_over_time(triage_report_findings{severity="
			  "\"critical\",job=\"triage\"}[3600s])) unless on (host) "
			  "triage_report_findings{severity=\"critical\",job=\"triage\"}");
	ASSERT_EQ(fleet_promql(&o, FW_UP, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "up{job=\"triage\"} == 0");
	ASSERT_EQ(fleet_prom_url(&o, FW_SEVERITY, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf,
		     "http://p:9090/api/v1/query?query=triage_report_finding_severity%7Bjob%3D%"
		     "22triage%22%7D&time=1000.000");
	o.match = "a=\"b\"}or vector(1)";
	ASSERT_EQ(fleet_promql(&o, FW_SEVERITY, buf, sizeof(buf)), -EINVAL);
	/* a range: step is the interval, widened past Prometheus' points limit */
	o = prom_now;
	o.range = true;
	o.from = 0;
	o.to = 3600;
	ASSERT_NEAR(fleet_prom_step(&o), 10, 0);
	o.to = 86400 * 7;
	ASSERT_NEAR(fleet_prom_step(&o), 61, 0);
	o.to = 3600;
	ASSERT_EQ(fleet_prom_url(&o, FW_VALUE, buf, sizeof(buf)), 0);
	ASSERT_TRUE(strstr(buf, "/api/v1/query_range?query=") != NULL);
	ASSERT_TRUE(strstr(buf, "&start=0.000&end=3600.000&step=10") != NULL);
	o.store = FLEET_GRAPHITE;
	o.url = "http://g";
	o.prefix = "dc1.*";
	ASSERT_EQ(fleet_graphite_url(&o, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "http://g/render?format=json&from=0&until=3600"
			  "&target=dc1.%2A.report.finding.%2A.%2A"
			  "&target=dc1.%2A.report.finding_value.%2A.%2A"
			  "&target=dc1.%2A.report.findings.critical");
	/* an instant: the ten minutes before it */
	o.range = false;
	o.at = 1000.5;
	ASSERT_EQ(fleet_graphite_url(&o, buf, sizeof(buf)), 0);
	ASSERT_TRUE(!strncmp(buf, "http://g/render?format=json&from=400&until=1001&", 48));
}

TEST(prometheus_answers)
{
	static const char vec[] =
	    "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
	    "{\"metric\":{\"__name__\":\"triage_report_finding_severity\",\"instance\":\"web-1\","
	    "\"rule\":\"cpu-bound-user\",\"subject\":\"re\\\"lay\\n\"},\"value\":[1000.5,\"3\"]},"
	    "{\"metric\":{\"rule\":\"swapping\",\"subject\":\"host\"},\"value\":[1000.5,\"NaN\"]}]}"
	    "}";
	static const char mat[] =
	    "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
	    "{\"metric\":{\"host\":\"db-2\"},\"values\":[[10,\"10\"],[20,\"20\"],[30,\"30\"]]}]}}";
	static const char bad[] = "{\"status\":\"error\",\"errorType\":\"bad_data\","
				  "\"error\":\"parse error at char 5\\u001b[2J\"}";
	struct fleet_series_set set = { 0 };
	char err[FLEET_ERR_MAX];

	ASSERT_EQ(
	    fleet_parse_prom(vec, strlen(vec), FW_SEVERITY, "instance", &set, err, sizeof(err)), 0);
	ASSERT_UEQ(set.n, 2);
	ASSERT_STREQ(set.s[0].host, "web-1");
	ASSERT_STREQ(set.s[0].rule, "cpu-bound-user");
	ASSERT_STREQ(set.s[0].subject, "re\"lay\n");
	ASSERT_UEQ(set.s[0].n, 1);
	ASSERT_NEAR(set.s[0].t[0], 1000.5, 0);
	ASSERT_NEAR(set.s[0].v[0], 3, 0);
	ASSERT_STREQ(set.s[1].host, ""); /* no instance label */
	ASSERT_TRUE(isnan(set.s[1].v[0]));
	ASSERT_EQ(fleet_parse_prom(mat, strlen(mat), FW_SEEN, "host", &set, err, sizeof(err)), 0);
	ASSERT_UEQ(set.n, 3);
	ASSERT_STREQ(set.s[2].host, "db-2");
	ASSERT_UEQ(set.s[2].n, 3);
	ASSERT_NEAR(set.s[2].v[2], 30, 0);
	/* Prometheus' own words, with its control bytes escaped */
	ASSERT_EQ(fleet_parse_prom(bad, strlen(bad), FW_SEVERITY, NULL, &set, err, sizeof(err)),
		  -EPROTO);
	ASSERT_STREQ(err, "Prometheus says: parse error at char 5\\x1b[2J");
	ASSERT_EQ(fleet_parse_prom("<html>", 6, FW_SEVERITY, NULL, &set, err, sizeof(err)),
		  -EPROTO);
	ASSERT_TRUE(!strncmp(err, "not JSON", 8));
	ASSERT_EQ(fleet_parse_prom("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
				   "\"result\":[{\"metric\":{},\"value\":[1,2]}]}}",
				   98, FW_SEVERITY, NULL, &set, err, sizeof(err)),
		  -EPROTO);
	fleet_series_release(&set);
}

TEST(graphite_answers)
{
	static const char ans[] =
	    "[{\"target\":\"triage.web-1.report.finding.cpu-bound-user.relay\",\"tags\":{},"
	    "\"datapoints\":[[null,100],[3.0,101],[2,102]]},"
	    "{\"target\":\"triage.web-1.report.findings.critical\",\"datapoints\":[[0,101],[1,"
	    "102]]},"
	    "{\"target\":\"triage.web-1.cpu.0.user\",\"datapoints\":[[5,101]]}]";
	struct fleet_series_set set = { 0 };
	struct fleet_series s = { 0 };
	char err[FLEET_ERR_MAX];

	ASSERT_TRUE(fleet_graphite_path("dc.a.b.triage.report.finding_value.udp-drops.host",
					"dc.*.*.triage", &s));
	ASSERT_EQ(s.what, FW_VALUE);
	ASSERT_STREQ(s.host, "a.b");
	ASSERT_STREQ(s.rule, "udp-drops");
	ASSERT_STREQ(s.subject, "host");
	ASSERT_TRUE(fleet_graphite_path("web-1.report.findings.critical", "web-1", &s));
	ASSERT_EQ(s.what, FW_SEEN);
	ASSERT_STREQ(s.host, "web-1");
	ASSERT_TRUE(!fleet_graphite_path("triage.x.report.findings.warning", "triage.*", &s));
	ASSERT_TRUE(!fleet_graphite_path("triage.x.report.finding.a", "triage.*", &s));
	ASSERT_TRUE(!fleet_graphite_path("triage.x.load.load1", NULL, &s));
	ASSERT_EQ(fleet_parse_graphite(ans, strlen(ans), NULL, &set, err, sizeof(err)), 0);
	ASSERT_UEQ(set.n, 2); /* the cpu series is none of fleet's */
	ASSERT_EQ(set.s[0].what, FW_SEVERITY);
	ASSERT_STREQ(set.s[0].host, "web-1");
	ASSERT_UEQ(set.s[0].n, 2); /* the null point left out */
	ASSERT_NEAR(set.s[0].t[0], 101, 0);
	/* a host's sample times are its seen values, as Prometheus' timestamp() gives them */
	ASSERT_EQ(set.s[1].what, FW_SEEN);
	ASSERT_NEAR(set.s[1].v[1], 102, 0);
	ASSERT_EQ(fleet_parse_graphite("{}", 2, NULL, &set, err, sizeof(err)), -EPROTO);
	/* read a series at a time: a cut answer, a stray value, a bracket inside a string */
	{
		static const char *const bad[] = { "[",
						   "[{",
						   "[{\"target\":\"a\",\"datapoints\":[]}",
						   "[1]",
						   "[{\"target\":\"a\",\"datapoints\":[]} {}]",
						   "[{\"target\":\"a]\"}]",
						   "[{\"target\":\"a\\\"}]" };
		size_t before = set.n;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			ASSERT_EQ(fleet_parse_graphite(bad[i], strlen(bad[i]), NULL, &set, err,
						       sizeof(err)),
				  -EPROTO);
		ASSERT_EQ(fleet_parse_graphite(" [ ] ", 5, NULL, &set, err, sizeof(err)), 0);
		ASSERT_UEQ(set.n, before);
	}
	fleet_series_release(&set);
}

/* Appends a one-point (or more) series to set. */
static void add(struct fleet_series_set *set, enum fleet_what what, const char *host,
		const char *rule, const char *subject, size_t n, const double *t, const double *v)
{
	struct fleet_series *s;

	set->s = realloc(set->s, (set->n + 1) * sizeof(*set->s));
	s = &set->s[set->n++];
	memset(s, 0, sizeof(*s));
	s->what = what;
	snprintf(s->host, sizeof(s->host), "%s", host);
	snprintf(s->rule, sizeof(s->rule), "%s", rule);
	snprintf(s->subject, sizeof(s->subject), "%s", subject);
	s->n = s->cap = n;
	s->t = malloc(n * sizeof(double));
	s->v = malloc(n * sizeof(double));
	memcpy(s->t, t, n * sizeof(double));
	memcpy(s->v, v, n * sizeof(double));
}

/* Span k of entry e of a group: its host (NULL: any), from start to end (NAN: any), open or not. */
struct want_span {
	size_t e, k;
	const char *host;
	double start, end;
	bool open;
};

static void check_spans(struct unit_state *unit_s_, const struct fleet_group *g,
			const struct want_span *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct fleet_entry *e = &g->e[w[i].e];

		ASSERT_TRUE(w[i].e < g->n && w[i].k < e->nspans);
		if (w[i].host)
			ASSERT_STREQ(e->host, w[i].host);
		ASSERT_NEAR(e->spans[w[i].k].start, w[i].start, 0);
		if (!isnan(w[i].end))
			ASSERT_NEAR(e->spans[w[i].k].end, w[i].end, 0);
		ASSERT_EQ(e->spans[w[i].k].open, w[i].open);
	}
}

#define CHECK_SPANS(g, ...)                                                \
	check_spans(unit_s_, g, (const struct want_span[]){ __VA_ARGS__ }, \
		    sizeof((const struct want_span[]){ __VA_ARGS__ }) / sizeof(struct want_span))

/*
 * Four hosts at t=1000, interval 10: a and b run relay (b's worse), c has a
 * disk finding, d's last sample is 25 s old (stopped: two intervals) and
 * its stale finding is not shown; e is up == 0.
 */
TEST(instant_groups)
{
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double now = 1000, seen = 995, old = 975, three = 3, two = 2, v94 = 94, v97 = 97;

	add(&set, FW_SEEN, "a", "", "", 1, &now, &seen);
	add(&set, FW_SEEN, "b", "", "", 1, &now, &seen);
	add(&set, FW_SEEN, "c", "", "", 1, &now, &seen);
	add(&set, FW_SEEN, "d", "", "", 1, &now, &old);
	add(&set, FW_SEEN, "e", "", "", 1, &now, &seen);
	add(&set, FW_UP, "e", "", "", 1, &now, &(double){ 0 });
	add(&set, FW_SEVERITY, "a", "cpu-bound-user", "relay", 1, &now, &two);
	add(&set, FW_SEVERITY, "b", "cpu-bound-user", "relay", 1, &now, &three);
	add(&set, FW_SEVERITY, "c", "disk-saturated", "sda", 1, &now, &two);
	add(&set, FW_SEVERITY, "d", "cpu-bound-user", "old", 1, &now, &three);
	add(&set, FW_VALUE, "a", "cpu-bound-user", "relay", 1, &now, &v94);
	add(&set, FW_VALUE, "b", "cpu-bound-user", "relay", 1, &now, &v97);
	ASSERT_EQ(fleet_analyze(&prom_now, &set, &r), 0);
	ASSERT_UEQ(r.nhosts, 5);
	ASSERT_UEQ(r.nstopped, 2);
	ASSERT_UEQ(r.nwith_findings, 3);
	ASSERT_UEQ(r.ng, 3);
	ASSERT_STREQ(r.g[0].rule, "stopped-reporting");
	ASSERT_UEQ(r.g[0].n, 2);
	ASSERT_STREQ(r.g[0].e[0].host, "d");
	ASSERT_TRUE(!r.g[0].e[0].up_zero);
	ASSERT_NEAR(r.g[0].e[0].last_seen, 975, 0);
	ASSERT_STREQ(r.g[0].e[1].host, "e");
	ASSERT_TRUE(r.g[0].e[1].up_zero);
	/* critical before warning; within a kind, worst first */
	ASSERT_STREQ(r.g[1].rule, "cpu-bound-user");
	ASSERT_EQ(r.g[1].sev, 3);
	ASSERT_UEQ(r.g[1].nhosts, 2);
	ASSERT_STREQ(r.g[1].e[0].host, "b");
	ASSERT_NEAR(r.g[1].e[0].value, 97, 0);
	ASSERT_STREQ(r.g[1].e[1].host, "a");
	ASSERT_STREQ(r.g[2].rule, "disk-saturated");
	ASSERT_TRUE(isnan(r.g[2].e[0].value));
	{
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		ASSERT_EQ(fleet_render_plain(&r, out), 0);
		fclose(out);
		ASSERT_TRUE(strstr(text,
				   "\ncritical cpu-bound-user on 2 of 5 hosts: relay on b (97%), "
				   "a (94%)\n") != NULL);
		ASSERT_TRUE(strstr(text,
				   "  next on b: triage probe profile -p \"$(pgrep -xo relay)\" "
				   "-d 10\n") != NULL);
		ASSERT_TRUE(strstr(text,
				   "critical stopped-reporting on 2 of 5 hosts: d (last sample "
				   "00:16:15, 25 s before), e (") != NULL);
		free(text);
	}
	fleet_result_release(&r);
	fleet_series_release(&set);
}

/* Over a range: spans split at gaps longer than the limit, the last one open. */
TEST(range_spans)
{
	struct fleet_opts o = prom_now;
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double t[] = { 100, 110, 120, 160, 170, 180, 190, 200 };
	double sev[] = { 2, 2, 3, 2, 2, 2, 2, 2 };
	double seen_t[] = { 100, 110, 120, 130, 140, 150, 160 }, seen_v[7];

	o.range = true;
	o.from = 100;
	o.to = 200;
	for (int i = 0; i < 7; i++)
		seen_v[i] = seen_t[i];
	add(&set, FW_SEVERITY, "a", "swapping", "host", 8, t, sev);
	add(&set, FW_SEEN, "a", "", "", 8, t, t);
	add(&set, FW_SEEN, "b", "", "", 7, seen_t, seen_v);
	ASSERT_EQ(fleet_analyze(&o, &set, &r), 0);
	ASSERT_UEQ(r.ng, 2);
	ASSERT_STREQ(r.g[0].rule, "stopped-reporting");
	/* a was silent 120..160: a gap of 40 > 2 intervals; b since 160 */
	CHECK_SPANS(&r.g[0], { 0, 0, "a", 120, 160, false }, { 1, 0, "b", 160, NAN, true });
	ASSERT_STREQ(r.g[1].rule, "swapping");
	ASSERT_EQ(r.g[1].e[0].sev, 3);
	ASSERT_UEQ(r.g[1].e[0].nspans, 2);
	CHECK_SPANS(&r.g[1], { 0, 0, NULL, 100, 120, false }, { 0, 1, NULL, 160, NAN, true });
	fleet_result_release(&r);
	fleet_series_release(&set);
}

/*
 * Prometheus over a range names only the stale steps: b was stale from 170
 * to the end (its last sample about two intervals before), c at 130 only.
 */
TEST(stale_steps)
{
	struct fleet_opts o = prom_now;
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double end = 200, seen_a = 195, seen_b = 150, seen_c = 195, one = 1;
	double bt[] = { 170, 180, 190, 200 }, bv[] = { 1, 1, 1, 1 }, ct = 130;
	char buf[4096];

	o.range = true;
	o.from = 100;
	o.to = 200;
	ASSERT_EQ(fleet_promql(&o, FW_STALE, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "group by (instance) (present_over_time(triage_report_findings{severity="
			  "\"critical\"}[3700s] @ end()) unless on (instance) present_over_time("
			  "triage_report_findings{severity=\"critical\"}[20000ms]))");
	/* the hosts it no longer sees: one instant, the range and the hour before it */
	ASSERT_EQ(fleet_prom_url(&o, FW_QUIET, buf, sizeof(buf)), 0);
	ASSERT_TRUE(strstr(buf, "/api/v1/query?query=") && strstr(buf, "%5B3700s%5D") &&
		    strstr(buf, "&time=200.000"));
	add(&set, FW_SEEN, "a", "", "", 1, &end, &seen_a);
	add(&set, FW_SEEN, "b", "", "", 1, &end, &seen_b);
	add(&set, FW_SEEN, "c", "", "", 1, &end, &seen_c);
	add(&set, FW_STALE, "b", "", "", 4, bt, bv);
	add(&set, FW_STALE, "c", "", "", 1, &ct, &one);
	ASSERT_EQ(fleet_analyze(&o, &set, &r), 0);
	ASSERT_UEQ(r.nhosts, 3);
	ASSERT_UEQ(r.nstopped, 2);
	ASSERT_UEQ(r.ng, 1);
	ASSERT_UEQ(r.g[0].e[0].nspans, 1);
	CHECK_SPANS(&r.g[0], { 0, 0, "b", 150, 200, true }, { 1, 0, "c", 110, NAN, false });
	fleet_result_release(&r);
	fleet_series_release(&set);
}

/*
 * The walk back to the last sample names the hosts, as RE2 literals in a
 * PromQL string; as many as fit one query; a name no regex can hold (a
 * control byte) asks about every host instead. Over a range, the hosts
 * quiet at its start are asked at its start about the hour before.
 */
TEST(last_sample_queries)
{
	struct fleet_opts o = prom_now;
	const char *two[] = { "10.0.0.1:9100", "a\"b|c" }, *bad[] = { "x\ny" };
	const char **many = calloc(400, sizeof(*many));
	char buf[8192], names[400][16];
	size_t taken = 0, done = 0, queries = 0;

	ASSERT_EQ(fleet_promql_last(&o, FW_LAST, two, 2, &taken, buf, sizeof(buf)), 0);
	ASSERT_UEQ(taken, 2);
	ASSERT_STREQ(buf, "max by (instance) (max_over_time(timestamp(triage_report_findings{"
			  "severity=\"critical\",instance=~\"10\\\\.0\\\\.0\\\\.1:9100|"
			  "a\\\"b\\\\|c\"})[3600s:10000ms]))");
	ASSERT_EQ(fleet_promql_last(&o, FW_LAST, bad, 1, &taken, buf, sizeof(buf)), 0);
	ASSERT_UEQ(taken, 1);
	ASSERT_TRUE(strstr(buf, "=~") == NULL);
	for (int i = 0; i < 400; i++) {
		snprintf(names[i], sizeof(names[i]), "host-%04d.dc1", i);
		many[i] = names[i];
	}
	for (; done < 400; done += taken, queries++) {
		ASSERT_EQ(fleet_prom_last_url(&o, FW_LAST, many + done, 400 - done, &taken, buf,
					      sizeof(buf)),
			  0);
		ASSERT_TRUE(taken > 0);
	}
	ASSERT_TRUE(queries >= 2 && queries <= 4);
	o.range = true;
	o.from = 100;
	o.to = 200;
	ASSERT_EQ(fleet_prom_last_url(&o, FW_BEFORE, two, 1, &taken, buf, sizeof(buf)), 0);
	ASSERT_TRUE(strstr(buf, "%5B3600s%3A10000ms%5D") && strstr(buf, "&time=100.000"));
	ASSERT_EQ(fleet_prom_last_url(&o, FW_LAST, two, 1, &taken, buf, sizeof(buf)), 0);
	ASSERT_TRUE(strstr(buf, "%5B3700s%3A10000ms%5D") && strstr(buf, "&time=200.000"));
	free(many);
}

/*
 * A host Prometheus no longer sees is stopped at the instant, with its last
 * sample when the walk back found one (q), or without (r: stale-marked
 * before any step saw it); one seen within two intervals is not (s).
 */
TEST(quiet_hosts)
{
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double now = 1000, seen = 995, one = 1, last_q = 700;

	add(&set, FW_SEEN, "s", "", "", 1, &now, &seen);
	add(&set, FW_QUIET, "q", "", "", 1, &now, &one);
	add(&set, FW_QUIET, "r", "", "", 1, &now, &one);
	add(&set, FW_LAST, "q", "", "", 1, &now, &last_q);
	ASSERT_EQ(fleet_analyze(&prom_now, &set, &r), 0);
	ASSERT_UEQ(r.nhosts, 3);
	ASSERT_UEQ(r.nstopped, 2);
	ASSERT_STREQ(r.g[0].e[0].host, "q");
	ASSERT_NEAR(r.g[0].e[0].last_seen, 700, 0);
	ASSERT_STREQ(r.g[0].e[1].host, "r");
	ASSERT_TRUE(isnan(r.g[0].e[1].last_seen));
	fleet_result_release(&r);
	fleet_series_release(&set);
}

/*
 * Stale steps at a range's start count only for a host that reported in the
 * hour before it (b: since 50; d: never, it started at 140); a stale step
 * counts while the last sample is within the hour (c: silent from about
 * 1000, forgotten after 4600, as an instant view would).
 */
TEST(stale_at_start_and_after_an_hour)
{
	struct fleet_opts o = prom_now;
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double end = 9000, one = 1, b_before = 50, seen = 8995;
	double bt[] = { 100, 110, 120 }, dt[] = { 100, 110, 120, 130 }, ones[4] = { 1, 1, 1, 1 };
	double *ct = calloc(800, sizeof(double)), *cv = calloc(800, sizeof(double));

	o.range = true;
	o.from = 100;
	o.to = 9000;
	for (int i = 0; i < 800; i++) { /* stale every 10 s from 1020 to 9010 */
		ct[i] = 1020 + 10 * i;
		cv[i] = 1;
	}
	add(&set, FW_SEEN, "b", "", "", 1, &end, &seen);
	add(&set, FW_SEEN, "d", "", "", 1, &end, &seen);
	add(&set, FW_QUIET, "c", "", "", 1, &end, &one);
	add(&set, FW_STALE, "b", "", "", 3, bt, ones);
	add(&set, FW_BEFORE, "b", "", "", 1, &o.from, &b_before);
	add(&set, FW_STALE, "c", "", "", 798, ct, cv);
	add(&set, FW_STALE, "d", "", "", 4, dt, ones);
	ASSERT_EQ(fleet_analyze(&o, &set, &r), 0);
	ASSERT_UEQ(r.nhosts, 3);
	ASSERT_UEQ(r.nstopped, 2);
	/* b's stale steps end at 120, long before the range does */
	CHECK_SPANS(&r.g[0], { 0, 0, "b", 80, 120, false }, { 1, 0, "c", 1000, 4590, false });
	fleet_result_release(&r);
	fleet_series_release(&set);
	free(ct);
	free(cv);
}

/*
 * Graphite keeps a host's series after it stops: one without a point in the
 * window is a host that stopped before it (not one that is fine).
 */
TEST(graphite_silent_host)
{
	struct fleet_opts o = prom_now;
	struct fleet_series_set set = { 0 };
	struct fleet_result r;
	double t = 995;

	o.store = FLEET_GRAPHITE;
	add(&set, FW_SEEN, "a", "", "", 1, &t, &t);
	add(&set, FW_SEEN, "b", "", "", 0, &t, &t);
	ASSERT_EQ(fleet_analyze(&o, &set, &r), 0);
	ASSERT_UEQ(r.nhosts, 2);
	ASSERT_UEQ(r.nstopped, 1);
	ASSERT_STREQ(r.g[0].e[0].host, "b");
	ASSERT_TRUE(isnan(r.g[0].e[0].last_seen));
	fleet_result_release(&r);
	o.range = true;
	o.from = 400;
	o.to = 1000;
	ASSERT_EQ(fleet_analyze(&o, &set, &r), 0);
	ASSERT_UEQ(r.nstopped, 1);
	ASSERT_STREQ(r.g[0].e[0].host, "b");
	ASSERT_NEAR(r.g[0].e[0].spans[0].start, 400, 0);
	ASSERT_TRUE(r.g[0].e[0].spans[0].open);
	fleet_result_release(&r);
	fleet_series_release(&set);
}

/* Next commands: a name is one shell word whatever its bytes. */
TEST(next_commands)
{
	char buf[512];

	fleet_next_command("cpu-bound-user", "relay", buf, sizeof(buf));
	ASSERT_STREQ(buf, "triage probe profile -p \"$(pgrep -xo relay)\" -d 10");
	fleet_next_command("cpu-bound-user", "a'b $(rm -rf ~)", buf, sizeof(buf));
	ASSERT_STREQ(buf, "triage probe profile -p \"$(pgrep -xo 'a'\\''b $(rm -rf ~)')\" -d 10");
	fleet_next_command("filesystem-full", "/var/lib", buf, sizeof(buf));
	ASSERT_STREQ(buf, "du -xh --max-depth=2 /var/lib | sort -h | tail");
	fleet_next_command("fd-exhaustion", "nginx", buf, sizeof(buf));
	ASSERT_TRUE(!strncmp(buf, "ls -l /proc/\"$(pgrep -xo nginx)\"/fd | awk '{print $NF}'", 50));
	fleet_next_command("fd-exhaustion", "host", buf, sizeof(buf)); /* fs.file-max: no process */
	ASSERT_STREQ(buf, "triage report -d 10");
	fleet_next_command("stopped-reporting", "host", buf, sizeof(buf));
	ASSERT_STREQ(buf, "systemctl status triage-collect");
	fleet_next_command("no-such-kind", "x", buf, sizeof(buf));
	ASSERT_STREQ(buf, "");
	ASSERT_STREQ(fleet_figure_unit("cpu-bound-user"), "%");
	ASSERT_STREQ(fleet_figure_unit("disk-errors"), "");
}

/* collect exports each kept finding's headline figure beside its severity. */
TEST(collect_exports_figures)
{
	struct report_findings f = { 0 };
	struct metric_set m = { 0 };
	struct rp_finding *x;
	size_t nval = 0;

	x = report_finding_add(&f, RK_CPU_BOUND_USER, SEV_WARNING);
	x->subject.pid = 7;
	snprintf(x->subject.comm, sizeof(x->subject.comm), "relay");
	report_finding_ev(x, "cpu", 94.5, "% of one CPU");
	report_finding_ev(x, "usr", 90, "% of one CPU");
	x = report_finding_add(&f, RK_DISK_ERRORS, SEV_CRITICAL); /* a kind without a figure */
	snprintf(x->subject.device, sizeof(x->subject.device), "sda");
	ASSERT_EQ(collect_findings_metrics(&f, &m), 0);
	for (size_t i = 0; i < m.n; i++) {
		if (m.s[i].id != M_REPORT_FINDING_VALUE)
			continue;
		nval++;
		ASSERT_STREQ(m.s[i].lv[0], "cpu-bound-user");
		ASSERT_STREQ(m.s[i].lv[1], "relay");
		ASSERT_NEAR(m.s[i].value, 94.5, 0);
	}
	ASSERT_UEQ(nval, 1);
	metric_set_release(&m);
	report_findings_release(&f);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, promql_and_urls);
	RUN(&st, prometheus_answers);
	RUN(&st, graphite_answers);
	RUN(&st, instant_groups);
	RUN(&st, range_spans);
	RUN(&st, stale_steps);
	RUN(&st, last_sample_queries);
	RUN(&st, quiet_hosts);
	RUN(&st, stale_at_start_and_after_an_hour);
	RUN(&st, graphite_silent_host);
	RUN(&st, next_commands);
	RUN(&st, collect_exports_figures);
	UNIT_MAIN_END(&st);
}
