/* test: shared -- pure code and its own process; see docs/testing.md */
/* triage collect's pure parts: sanitisers, renderers, groups, the Graphite buffer. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "collect/alertrules.h"
#include "collect/findings.h"
#include "collect/graphite.h"
#include "collect/groups.h"
#include "collect/http.h"
#include "collect/model.h"
#include "procfs/task_info.h"
#include "report/kinds.h"
#include "report/findings.h"
#include "unit.h"

/* Names built to attack: components, lines, label syntax, terminals. */
static const char *const hostile[] = {
	"a.b c", "x\ny 1 2",	    "\"}{",    "\033[2J\033]0;t\007", "..",
	"a\\",	 "\r\nfoo.bar 1 1", "\xff\xfe"
};

TEST(graphite_component_keeps_one_component)
{
	char out[64];

	graphite_component("a.b c", out, sizeof(out));
	ASSERT_STREQ(out, "a_b_c");
	graphite_component("x\ny 1 2", out, sizeof(out));
	ASSERT_STREQ(out, "x_y_1_2");
	graphite_component("", out, sizeof(out));
	ASSERT_STREQ(out, "_");
	graphite_component("kworker/0:1-events", out, sizeof(out));
	ASSERT_STREQ(out, "kworker_0_1-events");
	graphite_component("abcdef", out, 4);
	ASSERT_STREQ(out, "abc");
}

TEST(graphite_prefix_sanitises_each_part)
{
	char out[64];

	graphite_prefix("triage.my host", out, sizeof(out));
	ASSERT_STREQ(out, "triage.my_host");
	graphite_prefix("..a..b.", out, sizeof(out));
	ASSERT_STREQ(out, "a.b");
	graphite_prefix("", out, sizeof(out));
	ASSERT_STREQ(out, "triage");
	graphite_prefix("a\nb.c d", out, sizeof(out));
	ASSERT_STREQ(out, "a_b.c_d");
}

static char *render_g(const struct metric_set *m, const char *prefix, long *n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*n = collect_render_graphite(m, prefix, f);
	fclose(f);
	return buf;
}

TEST(graphite_lines_cannot_be_forged)
{
	struct metric_set m = { .timestamp = 1700000000 };
	size_t lines = 0;
	long n;
	char *text, *save = NULL;

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		ASSERT_EQ(metric_add(&m, M_PROC_CPU, hostile[i], "user", 1.5), 0);
	text = render_g(&m, "triage.h", &n);
	ASSERT_EQ(n, (long)m.n);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char path[256], extra[8];
		double v;
		long long ts;
		int dots = 0;

		lines++;
		ASSERT_EQ(sscanf(l, "%255s %lf %lld %7s", path, &v, &ts, extra), 3);
		ASSERT_TRUE(!strncmp(path, "triage.h.process.", 17));
		for (const char *p = path; *p; p++)
			dots += *p == '.';
		ASSERT_EQ(dots, 5); /* triage.h.process.G.cpu_seconds.user */
		ASSERT_NEAR(v, 1.5, 0);
		ASSERT_EQ(ts, 1700000000);
	}
	ASSERT_EQ(lines, m.n);
	free(text);
	metric_set_release(&m);
}

TEST(prom_label_escape_rules)
{
	char out[64];

	collect_prom_label_escape("\"}{", out, sizeof(out));
	ASSERT_STREQ(out, "\\\"}{");
	collect_prom_label_escape("a\\b", out, sizeof(out));
	ASSERT_STREQ(out, "a\\\\b");
	collect_prom_label_escape("x\ny 1 2", out, sizeof(out));
	ASSERT_STREQ(out, "x\\ny 1 2");
	collect_prom_label_escape("\033[2J", out, sizeof(out));
	ASSERT_STREQ(out, "?[2J");
	collect_prom_label_escape("\xff"
				  "a\xc3",
				  out, sizeof(out));
	ASSERT_STREQ(out, "?a?");
	collect_prom_label_escape("caf\xc3\xa9", out, sizeof(out));
	ASSERT_STREQ(out, "caf\xc3\xa9");
	/* an escape never cut in half */
	collect_prom_label_escape("ab\"", out, 4);
	ASSERT_STREQ(out, "ab");
}

static char *render_p(const struct metric_set *m, bool om)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	collect_render_prom(m, om, f);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

TEST(prom_text_format)
{
	struct metric_set m = { 0 };
	char *t;

	metric_add(&m, M_PROC_CPU, "carbon-relay", "user", 12.5);
	metric_add(&m, M_LOAD1, NULL, NULL, 0.5);
	metric_add(&m, M_PROC_CPU, "x\ny\"", "system", 1);
	t = render_p(&m, false);
	ASSERT_EQ(count(t, "# TYPE triage_process_cpu_seconds_total counter\n"), 1);
	ASSERT_EQ(count(t, "# HELP triage_process_cpu_seconds_total "), 1);
	ASSERT_TRUE(strstr(t, "triage_process_cpu_seconds_total{group=\"carbon-relay\","
			      "mode=\"user\"} 12.5\n"));
	ASSERT_TRUE(strstr(t, "triage_process_cpu_seconds_total{group=\"x\\ny\\\"\","
			      "mode=\"system\"} 1\n"));
	ASSERT_TRUE(strstr(t, "# TYPE triage_load1 gauge\ntriage_load1 0.5\n"));
	ASSERT_EQ(count(t, "# EOF"), 0);
	/* families come in the table's order, whatever order the samples were added in */
	ASSERT_TRUE(strstr(t, "triage_load1") < strstr(t, "triage_process_cpu"));
	free(t);
	t = render_p(&m, true);
	ASSERT_EQ(count(t, "# TYPE triage_process_cpu_seconds counter\n"), 1);
	ASSERT_TRUE(strstr(t, "\ntriage_process_cpu_seconds_total{group=\"carbon-relay\""));
	ASSERT_TRUE(strlen(t) > 6 && !strcmp(t + strlen(t) - 6, "# EOF\n"));
	free(t);
	metric_set_release(&m);
}

TEST(openmetrics_accept)
{
	ASSERT_TRUE(http_wants_openmetrics("application/openmetrics-text; version=1.0.0,"
					   "text/plain;version=0.0.4;q=0.5"));
	ASSERT_TRUE(!http_wants_openmetrics("text/plain;version=0.0.4"));
	ASSERT_TRUE(!http_wants_openmetrics(NULL));
}

/* The group collect --group-by cgroup names for a /proc/PID/cgroup text. */
static const char *cpu_group(const char *text, struct task_cgroups *cg)
{
	if (procfs_task_cgroups_parse(text, strlen(text), cg))
		memset(cg, 0, sizeof(*cg));
	return procfs_task_cgroups_cpu_path(cg);
}

TEST(cgroup_path)
{
	struct task_cgroups cg;

	ASSERT_STREQ(cpu_group("0::/system.slice/carbon.service\n", &cg),
		     "/system.slice/carbon.service");
	ASSERT_STREQ(cpu_group("12:pids:/p\n4:cpu,cpuacct:/batch\n1:name=systemd:/user\n", &cg),
		     "/batch");
	ASSERT_STREQ(cpu_group("", &cg), "/");
	/* cpuset and cpuacct are other controllers than cpu */
	ASSERT_STREQ(cpu_group("5:cpuset:/pinned\n4:cpu,cpuacct:/batch\n", &cg), "/batch");
	ASSERT_STREQ(cpu_group("5:cpuacct:/acct\n", &cg), "/");
	/* a hybrid layout: the v2 line wins over v1's cpu controller */
	ASSERT_STREQ(cpu_group("4:cpu:/batch\n0::/user.slice\n", &cg), "/user.slice");
}

static double find(const struct metric_set *m, enum metric_id id, const char *g, const char *l1)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].id == id && !strcmp(m->s[i].lv[0], g) &&
		    (!l1 || !strcmp(m->s[i].lv[1], l1)))
			return m->s[i].value;
	return -1;
}

static void sample(struct group_table *gt, const struct proc_row *rows, size_t n,
		   struct metric_set *m, unsigned top)
{
	metric_set_clear(m);
	group_table_begin(gt);
	for (size_t i = 0; i < n; i++)
		group_table_add(gt, &rows[i]);
	group_table_metrics(gt, top, m);
}

TEST(group_counters_never_go_down)
{
	struct group_table *gt;
	struct metric_set m = { 0 };
	struct proc_row r[3] = {
		{ .pid = 10, .start = 1, .comm = "relay", .utime = 100, .nthreads = 1 },
		{ .pid = 11, .start = 1, .comm = "relay", .utime = 50, .nthreads = 2 },
		{ .pid = 12, .start = 1, .comm = "cache", .utime = 10, .nthreads = 1 },
	};

	ASSERT_EQ(group_table_new(&gt, GROUP_COMM, NULL, 100), 0);
	sample(gt, r, 3, &m, 10);
	ASSERT_NEAR(find(&m, M_PROC_CPU, "relay", "user"), 1.5, 1e-9);
	ASSERT_NEAR(find(&m, M_PROC_THREADS, "relay", NULL), 3, 0);
	ASSERT_NEAR(find(&m, M_PROC_PROCS, "relay", NULL), 2, 0);
	/* 11 exits, 10 uses 20 more ticks: relay keeps 11's 50 */
	r[0].utime = 120;
	r[1] = r[2];
	sample(gt, r, 2, &m, 10);
	ASSERT_NEAR(find(&m, M_PROC_CPU, "relay", "user"), 1.7, 1e-9);
	ASSERT_NEAR(find(&m, M_PROC_PROCS, "relay", NULL), 1, 0);
	/* PID 10 reused by a new relay (other start): brings its own 5 ticks */
	r[0] = (struct proc_row){ .pid = 10, .start = 2, .comm = "relay", .utime = 5 };
	sample(gt, r, 2, &m, 10);
	ASSERT_NEAR(find(&m, M_PROC_CPU, "relay", "user"), 1.75, 1e-9);
	/* top 1: only the busiest group */
	sample(gt, r, 2, &m, 1);
	ASSERT_TRUE(find(&m, M_PROC_CPU, "cache", "user") < 0);
	ASSERT_NEAR(find(&m, M_PROC_CPU, "relay", "user"), 1.75, 1e-9);
	group_table_free(gt);
	metric_set_release(&m);
}

TEST(graphite_buffer_drops_oldest_and_counts)
{
	struct graphite_out g;

	ASSERT_EQ(graphite_out_init(&g, "127.0.0.1:1", 2, 1 << 20), 0);
	ASSERT_STREQ(g.host, "127.0.0.1");
	ASSERT_STREQ(g.port, "1");
	graphite_enqueue(&g, strdup("a 1 1\n"), 6, 1);
	graphite_enqueue(&g, strdup("b 1 1\nb 2 1\n"), 12, 2);
	graphite_enqueue(&g, strdup("c 1 1\n"), 6, 1);
	ASSERT_UEQ(g.dropped, 1);
	ASSERT_EQ(graphite_pending_points(&g), 3);
	graphite_out_release(&g);
	ASSERT_EQ(graphite_out_init(&g, "[::1]:2003", 1, 1 << 20), 0);
	ASSERT_STREQ(g.host, "::1");
	graphite_out_release(&g);
	ASSERT_TRUE(graphite_out_init(&g, "nohost", 1, 1 << 20) < 0);
	ASSERT_TRUE(graphite_out_init(&g, "h:", 1, 1 << 20) < 0);
}

static int listen_any(char *addr, size_t size)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sl) || listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl))
		return -1;
	snprintf(addr, size, "127.0.0.1:%d", ntohs(sa.sin_port));
	return fd;
}

/* Everything the peer sent until it stops sending for 200 ms. */
static size_t read_all(int fd, char *buf, size_t size)
{
	size_t len = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (len + 1 < size && poll(&p, 1, 200) == 1) {
		ssize_t r = read(fd, buf + len, size - 1 - len);

		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	return len;
}

TEST(graphite_resends_after_the_peer_goes_away)
{
	char addr[64], buf[256];
	int lfd = listen_any(addr, sizeof(addr)), c1, c2;
	struct graphite_out g;

	ASSERT_TRUE(lfd >= 0);
	ASSERT_EQ(graphite_out_init(&g, addr, 16, 1 << 20), 0);
	graphite_enqueue(&g, strdup("p 1 10\n"), 7, 1);
	graphite_tick(&g, 100);
	ASSERT_TRUE(g.fd >= 0);
	c1 = accept(lfd, NULL, NULL);
	graphite_enqueue(&g, strdup("p 2 20\n"), 7, 1);
	graphite_tick(&g, 101);
	read_all(c1, buf, sizeof(buf));
	ASSERT_STREQ(buf, "p 1 10\np 2 20\n");
	ASSERT_EQ(graphite_pending_points(&g), 0);
	/* carbon goes away: the next tick sees it, buffers, reconnects after the backoff */
	close(c1);
	graphite_enqueue(&g, strdup("p 3 30\n"), 7, 1);
	graphite_tick(&g, 102);
	ASSERT_TRUE(g.fd < 0);
	ASSERT_EQ(graphite_pending_points(&g), 3);
	graphite_enqueue(&g, strdup("p 4 40\n"), 7, 1);
	graphite_tick(&g, 110);
	ASSERT_TRUE(g.fd >= 0);
	c2 = accept(lfd, NULL, NULL);
	read_all(c2, buf, sizeof(buf));
	/* the retained batches again (harmless: same timestamps), then the new ones */
	ASSERT_STREQ(buf, "p 1 10\np 2 20\np 3 30\np 4 40\n");
	ASSERT_UEQ(g.dropped, 0);
	/* at exit the flush waits for carbon's end of the connection: it read all */
	close(c2);
	ASSERT_EQ(graphite_flush(&g, 1), 0);
	close(lfd);
	graphite_out_release(&g);
}

TEST(listen_address_defaults_to_loopback)
{
	char host[256];
	unsigned port;

	/* no address: 127.0.0.1, never every interface */
	ASSERT_EQ(http_split_addr("9977", host, sizeof(host), &port), 0);
	ASSERT_STREQ(host, "127.0.0.1");
	ASSERT_EQ(port, 9977);
	ASSERT_EQ(http_split_addr(":9977", host, sizeof(host), &port), 0);
	ASSERT_STREQ(host, "127.0.0.1");
	ASSERT_EQ(http_split_addr("0.0.0.0:1", host, sizeof(host), &port), 0);
	ASSERT_STREQ(host, "0.0.0.0");
	ASSERT_EQ(http_split_addr("[::1]:80", host, sizeof(host), &port), 0);
	ASSERT_STREQ(host, "::1");
	/* names, as node_exporter takes them; resolved when listening */
	ASSERT_EQ(http_split_addr("localhost:80", host, sizeof(host), &port), 0);
	ASSERT_STREQ(host, "localhost");
	ASSERT_EQ(port, 80);
	ASSERT_EQ(http_split_addr("::1:80", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("1.2.3:80", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("a b:80", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("[]:80", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("80x", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("70000", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("", host, sizeof(host), &port), -EINVAL);
	ASSERT_EQ(http_split_addr("127.0.0.1:", host, sizeof(host), &port), -EINVAL);
}

TEST(healthz_goes_stale)
{
	char buf[128];

	ASSERT_EQ(http_health(0, 100, 10, buf, sizeof(buf)), 503);
	ASSERT_EQ(http_health(100, 101, 10, buf, sizeof(buf)), 200);
	ASSERT_STREQ(buf, "ok\n");
	ASSERT_EQ(http_health(100, 134, 10, buf, sizeof(buf)), 200);
	ASSERT_EQ(http_health(100, 136, 10, buf, sizeof(buf)), 503);
	ASSERT_TRUE(!strncmp(buf, "stale", 5));
}

/* Findings as metrics: counts by severity, one series per rule and subject, bounded. */
TEST(findings_become_metrics)
{
	struct report_findings f = { 0 };
	struct metric_set m = { 0 };
	struct rp_finding *x;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	x = report_finding_add(&f, RK_CPU_BOUND_USER, SEV_CRITICAL);
	x->subject.pid = 10;
	snprintf(x->subject.comm, sizeof(x->subject.comm), "%s", "x\ny 1 2");
	report_finding_brief(x, "%s", "x uses 99% of a CPU");
	report_finding_next(x, "Profile it", "%s", "triage probe profile -p 10 -d 10");
	x = report_finding_add(&f, RK_CPU_BOUND_USER,
			       SEV_WARNING); /* same name: the worse is kept */
	x->subject.pid = 11;
	snprintf(x->subject.comm, sizeof(x->subject.comm), "%s", "x\ny 1 2");
	report_finding_say(x, "%s", "the lesser one");
	x = report_finding_add(&f, RK_DISK_SATURATED, SEV_WARNING);
	snprintf(x->subject.device, sizeof(x->subject.device), "%s", "sda");
	report_finding_add(&f, RK_CPU_SATURATED, SEV_WARNING);
	for (int i = 0; i < 30; i++) {
		x = report_finding_add(&f, RK_SINGLE_CPU_HOT, SEV_INFO);
		x->subject.cpu = i;
	}
	ASSERT_EQ(collect_findings_metrics(&f, &m), 0);
	/* the counts, the kept findings, then each kept one's words */
	ASSERT_UEQ(m.n, 3 + 2 * COLLECT_MAX_FINDINGS);
	ASSERT_EQ(m.s[0].id, M_REPORT_FINDINGS);
	ASSERT_STREQ(m.s[0].lv[0], "critical");
	ASSERT_NEAR(m.s[0].value, 1, 0);
	ASSERT_NEAR(m.s[1].value, 3, 0);
	ASSERT_NEAR(m.s[2].value, 30, 0);
	ASSERT_STREQ(m.s[3].lv[0], "cpu-bound-user");
	ASSERT_STREQ(m.s[3].lv[1], "x\ny 1 2");
	ASSERT_NEAR(m.s[3].value, 3, 0);
	ASSERT_STREQ(m.s[4].lv[1], "sda");
	ASSERT_STREQ(m.s[5].lv[1], "host");
	ASSERT_STREQ(m.s[6].lv[1], "cpu0");
	/* the words of the finding kept (the critical one), by rule and subject */
	ASSERT_EQ(m.s[3 + COLLECT_MAX_FINDINGS].id, M_REPORT_FINDING_INFO);
	ASSERT_STREQ(m.s[3 + COLLECT_MAX_FINDINGS].lv[1], "x\ny 1 2");
	ASSERT_STREQ(m.s[3 + COLLECT_MAX_FINDINGS].lv[2], "x uses 99% of a CPU");
	ASSERT_STREQ(m.s[3 + COLLECT_MAX_FINDINGS].lv[3], "triage probe profile -p 10 -d 10");
	ASSERT_STREQ(m.s[4 + COLLECT_MAX_FINDINGS].lv[1], "sda");
	out = open_memstream(&text, &len);
	m.timestamp = 60;
	/* text labels are Prometheus only: no Graphite line for them */
	ASSERT_EQ(collect_render_graphite(&m, "t", out), (long)(3 + COLLECT_MAX_FINDINGS));
	fclose(out);
	/* a sanitised name carries the FNV-1a 64 of its bytes (Python's reckoning) */
	ASSERT_TRUE(
	    strstr(text, "t.report.finding.cpu-bound-user.x_y_1_2_85ac04ed18d9ed0f 3 60\n") !=
	    NULL);
	ASSERT_TRUE(strstr(text, "t.report.findings.warning 3 60\n") != NULL);
	free(text);
	out = open_memstream(&text, &len);
	ASSERT_EQ(collect_render_prom(&m, false, out), 0);
	fclose(out);
	ASSERT_TRUE(strstr(text, "triage_report_finding_severity{rule=\"cpu-bound-user\","
				 "subject=\"x\\ny 1 2\"} 3\n") != NULL);
	ASSERT_TRUE(strstr(text, "triage_report_finding_info{rule=\"cpu-bound-user\","
				 "subject=\"x\\ny 1 2\",sentence=\"x uses 99% of a CPU\","
				 "next=\"triage probe profile -p 10 -d 10\"} 1\n") != NULL);
	free(text);
	metric_set_release(&m);
	report_findings_release(&f);
}

/* The rules file: a job and for: of our choosing, one alert per kind and severity. */
TEST(alert_rules_follow_the_kinds_table)
{
	struct collect_alert_rules_opts o;
	char *text = NULL, want[160];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	collect_alert_rules_defaults(&o);
	o.job = "nodes";
	o.for_sev[SEV_WARNING] = "30s";
	ASSERT_EQ(collect_alert_rules_render(&o, out), 0);
	fclose(out);
	ASSERT_TRUE(strstr(text, "      - alert: TriageCpuBoundUserWarning\n        expr: "
				 "triage_report_finding_severity{job=\"nodes\",rule=\"cpu-bound-"
				 "user\"} == 2\n        for: 30s\n") != NULL);
	ASSERT_TRUE(strstr(text, "up{job=\"nodes\"} == 0") != NULL);
	ASSERT_TRUE(strstr(text, "job=\"triage\"") == NULL);
	for (int k = 0; k < RK_COUNT; k++) {
		snprintf(want, sizeof(want), "rule=\"%s\"} == 1\n        for: 15m\n",
			 report_kind_name((enum report_kind)k));
		ASSERT_TRUE(strstr(text, want) != NULL);
	}
	free(text);
	ASSERT_TRUE(collect_alert_rules_duration_ok("0s"));
	ASSERT_TRUE(collect_alert_rules_duration_ok("15m"));
	ASSERT_TRUE(!collect_alert_rules_duration_ok("5"));
	ASSERT_TRUE(!collect_alert_rules_duration_ok("5m\n"));
	ASSERT_TRUE(!collect_alert_rules_duration_ok("m"));
	ASSERT_TRUE(collect_alert_rules_job_ok("node-exporter.2"));
	ASSERT_TRUE(!collect_alert_rules_job_ok("a\"} or vector(1"));
	ASSERT_TRUE(!collect_alert_rules_job_ok(""));
}

/*
 * Names that sanitise alike keep apart (issue 27): a clean name as it is,
 * a changed one with "_" and the FNV-1a 64 of its bytes (computed apart,
 * in Python; FNV-1a 64 of "foobar" is the published 85944171f73967e8).
 */
TEST(colliding_names_stay_apart)
{
	static const char *const pairs[][2] = { { "a.b c", "a_b_c" },
						{ "kworker/0:0", "kworker_0_0" },
						{ "x\001y", "x?y" } };
	char a[COLLECT_LABEL_MAX], b[COLLECT_LABEL_MAX], long_name[COLLECT_LABEL_MAX];

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		graphite_label(pairs[i][0], a, sizeof(a));
		graphite_label(pairs[i][1], b, sizeof(b));
		ASSERT_TRUE(strcmp(a, b) != 0);
		collect_prom_label_value(pairs[i][0], a, sizeof(a));
		collect_prom_label_value(pairs[i][1], b, sizeof(b));
		ASSERT_TRUE(strcmp(a, b) != 0);
	}
	graphite_label("a.b c", a, sizeof(a));
	ASSERT_STREQ(a, "a_b_c_068527b5133b29e5");
	graphite_label("a_b_c", a, sizeof(a));
	ASSERT_STREQ(a, "a_b_c");
	graphite_label("kworker/0:0", a, sizeof(a));
	ASSERT_STREQ(a, "kworker_0_0_7d7820f70df8bea1");
	collect_prom_label_value("kworker/0:0", a, sizeof(a)); /* nothing lost: as it is */
	ASSERT_STREQ(a, "kworker/0:0");
	collect_prom_label_value("x\001y", a, sizeof(a));
	ASSERT_STREQ(a, "x?y_be5cad197ecc2c71");
	collect_prom_label_value("x?y", a, sizeof(a));
	ASSERT_STREQ(a, "x?y_bf06a9197f5ca5a3");
	/* a clean name shaped like a suffixed one is suffixed too, so none can pose as one */
	graphite_label("a_b_c_068527b5133b29e5", a, sizeof(a));
	ASSERT_TRUE(strcmp(a, "a_b_c_068527b5133b29e5") != 0);
	graphite_label("foobar.", a, sizeof(a));
	ASSERT_TRUE(strncmp(a, "foobar__", 8) == 0 && strlen(a) == 8 + 16);
	/* the suffix survives a name cut to fit */
	memset(long_name, '.', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	graphite_label(long_name, a, sizeof(a));
	ASSERT_EQ(strlen(a), sizeof(a) - 1);
	ASSERT_EQ(a[sizeof(a) - 18], '_');
}

/* --once --json: one document, labels and names escaped by the JSON writer. */
TEST(json_render)
{
	struct metric_set m = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	m.timestamp = 1700000000;
	ASSERT_EQ(metric_add(&m, M_PROC_CPU, "\"}{\n\033", "user", 1.5), 0);
	ASSERT_EQ(collect_render_json(&m, "T.h", out), 0);
	fclose(out);
	ASSERT_STREQ(
	    text,
	    "{\"timestamp\":1700000000,\"prefix\":\"T.h\",\"metrics\":[{\"name\":"
	    "\"triage_process_cpu_seconds_total\",\"type\":\"counter\",\"labels\":{"
	    "\"group\":\"\\\"}{\\n\\u001b\",\"mode\":\"user\"},\"graphite\":"
	    "\"T.h.process.______93dc605c209a5c06.cpu_seconds.user\",\"value\":1.500000}]}\n");
	free(text);
	metric_set_release(&m);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, graphite_component_keeps_one_component);
	RUN(&st, graphite_prefix_sanitises_each_part);
	RUN(&st, graphite_lines_cannot_be_forged);
	RUN(&st, prom_label_escape_rules);
	RUN(&st, prom_text_format);
	RUN(&st, openmetrics_accept);
	RUN(&st, cgroup_path);
	RUN(&st, group_counters_never_go_down);
	RUN(&st, graphite_buffer_drops_oldest_and_counts);
	RUN(&st, graphite_resends_after_the_peer_goes_away);
	RUN(&st, listen_address_defaults_to_loopback);
	RUN(&st, healthz_goes_stale);
	RUN(&st, findings_become_metrics);
	RUN(&st, json_render);
	RUN(&st, colliding_names_stay_apart);
	RUN(&st, alert_rules_follow_the_kinds_table);
	UNIT_MAIN_END(&st);
}
