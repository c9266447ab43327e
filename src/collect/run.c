/* triage collect's run loop (see collect.h). */
#define _GNU_SOURCE
#include "collect/collect.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/findings.h"
#include "collect/graphite.h"
#include "collect/http.h"
#include "collect/model.h"
#include "collect/sources.h"
#include "procfs/host.h"
#include "procfs/procfs.h"
#include "report/report.h"
#include "runloop/clock.h"
#include "util/json.h"

#define FLUSH_SECONDS 5.0

struct collector {
	const struct collect_opts *o;
	struct procfs *pf;
	struct host_facts host;
	/* the report core's rolling window: one task read per sample serves the
	 * groups here and the report's findings */
	struct report_opts ro;
	struct report_window *rw;
	struct group_table *gt;
	struct graphite_out g;
	bool have_graphite, graphite_was_down;
	struct http_server *hs;
	struct metric_set m;
	char prefix[512];
	double sample_cpu;
};

void collect_default_prefix(const char *nodename, char *buf, size_t size)
{
	char shortname[256];

	snprintf(shortname, sizeof(shortname), "%.*s", (int)strcspn(nodename, "."), nodename);
	snprintf(buf, size, "triage.%s", shortname[0] ? shortname : "localhost");
}

static int collector_open(struct collector *c, const struct collect_opts *o)
{
	int rc = procfs_open(&c->pf, o->root ? o->root : "/");

	c->o = o;
	if (rc)
		return rc;
	rc = procfs_host_facts_load(&c->host, c->pf);
	if (!rc) {
		const char *p = o->prefix;
		char def[300];

		if (!p) {
			collect_default_prefix(c->host.nodename, def, sizeof(def));
			p = def;
		}
		graphite_prefix(p, c->prefix, sizeof(c->prefix));
		c->ro = (struct report_opts){ .root = o->root,
					      .pids = o->pids,
					      .npids = o->npids,
					      .task_io = true,
					      .fd_budget = o->fd_budget,
					      .stop = o->stop };
		rc = report_window_open(&c->rw, &c->ro);
	}
	if (!rc)
		rc = group_table_new(&c->gt, o->group_by, c->pf, (double)c->host.hz);
	if (!rc && o->graphite && !o->once) {
		size_t batches = (o->buffer_seconds + o->interval - 1) / o->interval;

		rc = graphite_out_init(&c->g, o->graphite, batches ? batches : 1,
				       (size_t)(o->buffer_mb ? o->buffer_mb : 64) << 20);
		c->have_graphite = !rc;
	}
	if (!rc && o->listen && !o->once)
		rc = http_server_start(&c->hs, o->listen_fd, o->web, o->interval, o->err);
	return rc;
}

static void collector_close(struct collector *c)
{
	http_server_stop(c->hs);
	if (c->have_graphite)
		graphite_out_release(&c->g);
	group_table_free(c->gt);
	report_window_close(c->rw);
	metric_set_release(&c->m);
	procfs_close(c->pf);
}

/* The report's JSON for /report, through the report's own renderer. */
static void publish_report(struct collector *c, const struct report_data *d,
			   const struct report_findings *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&text, &len);
	struct json_writer w;

	if (!mf)
		return;
	json_init(&w, mf, false);
	report_render_json(&w, d, f);
	json_finish(&w); /* ends the document with a newline */
	if (fclose(mf)) {
		free(text);
		return;
	}
	http_server_publish_report(c->hs, text, len);
}

/* The window that ended at this sample: the report core's findings, as metrics and JSON. */
static int window_findings(struct collector *c, struct report_data *d)
{
	struct report_findings f;
	int rc = report_evaluate(d, &f);

	if (!rc)
		rc = collect_findings_metrics(&f, &c->m);
	if (!rc && c->hs)
		publish_report(c, d, &f);
	report_findings_release(&f);
	return rc;
}

/* One sample of everything into c->m, stamped ts. */
static int collector_sample(struct collector *c, int64_t ts)
{
	double cpu0 = runloop_clock_s(CLOCK_THREAD_CPUTIME_ID);
	const struct pidstat_table *tb;
	struct report_data d;
	struct report_host_view hv;
	bool have = false;
	int curr = 0, rc;

	metric_set_clear(&c->m);
	c->m.timestamp = ts;
	rc = report_window_sample(c->rw, &d, &have);
	report_window_host(c->rw, &hv);
	rc = rc ? rc : collect_host_metrics(&hv, &c->host, &c->m);
	group_table_begin(c->gt);
	tb = report_window_tasks(c->rw, &curr);
	rc = rc ? rc : collect_task_rows(tb, curr, group_table_add, c->gt);
	rc = rc ? rc : group_table_metrics(c->gt, c->o->top, &c->m);
	/* the first window may be a sliver (the start is off the grid): judged on
	 * half an interval or more only */
	if (have && d.seconds >= 0.5 * c->o->interval)
		rc = rc ? rc : window_findings(c, &d);
	if (have)
		report_data_release(&d);
	if (!rc && c->have_graphite) {
		rc = metric_add(&c->m, M_GRAPHITE_DROPPED, NULL, NULL, (double)c->g.dropped);
		rc = rc ? rc
			: metric_add(&c->m, M_GRAPHITE_BUFFERED, NULL, NULL,
				     (double)graphite_pending_points(&c->g));
	}
	rc = rc ? rc : metric_add(&c->m, M_SAMPLE_SECONDS, NULL, NULL, c->sample_cpu);
	c->sample_cpu = runloop_clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return rc;
}

/* Says when carbon goes away (once an outage, with why) and comes back. */
static void log_event(struct collector *c, enum graphite_event ev)
{
	FILE *err = c->o->err;

	if (ev == GRAPHITE_UP)
		fprintf(err, "triage collect: graphite %s:%s %s\n", c->g.host, c->g.port,
			c->graphite_was_down ? "reconnected" : "connected");
	if (ev == GRAPHITE_DOWN)
		c->graphite_was_down = true;
	if (ev == GRAPHITE_DOWN)
		fprintf(err, "triage collect: graphite %s:%s unreachable (%s); buffering\n",
			c->g.host, c->g.port, c->g.why);
}

static int send_graphite(struct collector *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	long n;

	if (!f)
		return -ENOMEM;
	n = collect_render_graphite(&c->m, c->prefix, f);
	if (fclose(f) || n < 0) {
		free(text);
		return -ENOMEM;
	}
	/* the buffer holds many batches: none keeps open_memstream's slack */
	char *fit = realloc(text, len + 1);

	graphite_enqueue(&c->g, fit ? fit : text, len, n);
	log_event(c, graphite_tick(&c->g, runloop_mono_s()));
	return 0;
}

/*
 * Sleeps until the wall clock reaches deadline or a stop signal comes
 * (taken by runloop_stop_wait, so none is lost between check and sleep).
 * Not runloop_clock: Graphite wants each point stamped on a wall-clock
 * multiple of the interval, so the grid follows CLOCK_REALTIME (and a
 * step of it), and a sample more than an interval late skips ahead
 * rather than catching up with points stamped for moments long gone.
 */
static void sleep_until(const struct collect_opts *o, double deadline)
{
	double mono = runloop_mono_s() + deadline - runloop_clock_s(CLOCK_REALTIME);
	struct timespec ts = { .tv_sec = (time_t)mono };

	ts.tv_nsec = (long)((mono - (double)ts.tv_sec) * 1e9);
	runloop_stop_wait(o->stop, &ts);
}

static int run_loop(struct collector *c)
{
	const struct collect_opts *o = c->o;
	double iv = o->interval;
	double next = floor(runloop_clock_s(CLOCK_REALTIME) / iv) * iv;
	int rc = 0;

	while (!runloop_stop_requested(o->stop) && !rc) {
		rc = collector_sample(c, (int64_t)next);
		if (!rc && c->have_graphite)
			rc = send_graphite(c);
		if (!rc && c->hs)
			http_server_publish(c->hs, &c->m);
		next += iv;
		/* a late sample is taken at once with its own timestamp; only one
		 * more than an interval late skips ahead (aligned) */
		if (next + iv < runloop_clock_s(CLOCK_REALTIME))
			next = ceil(runloop_clock_s(CLOCK_REALTIME) / iv) * iv;
		sleep_until(o, next);
	}
	if (c->have_graphite) {
		/* what the exit flush delivered, accounted: points = delivered + dropped + not sent
		 */
		long unsent =
		    graphite_flush(&c->g, FLUSH_SECONDS) ? graphite_unconfirmed_points(&c->g) : 0;

		fprintf(o->err,
			"triage collect: graphite %s:%s: %llu points, %llu dropped, %ld not sent "
			"at exit",
			c->g.host, c->g.port, (unsigned long long)c->g.points,
			(unsigned long long)c->g.dropped, unsent);
		if (c->g.dropped_in_flight)
			fprintf(o->err,
				" (of the dropped, %llu were on the wire when a full buffer reset "
				"the connection: carbon may have them)",
				(unsigned long long)c->g.dropped_in_flight);
		fputc('\n', o->err);
	}
	return rc;
}

int collect_run(const struct collect_opts *o)
{
	struct collector c;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = collector_open(&c, o);
	if (!rc && o->once) {
		double iv = o->interval;

		rc = collector_sample(&c,
				      (int64_t)(floor(runloop_clock_s(CLOCK_REALTIME) / iv) * iv));
		if (!rc && o->json)
			rc = collect_render_json(&c.m, c.prefix, o->out);
		else if (!rc && collect_render_graphite(&c.m, c.prefix, o->out) < 0)
			rc = -EIO;
	} else if (!rc) {
		rc = run_loop(&c);
	}
	collector_close(&c);
	return rc;
}
