/* triage collect's run loop (see collect.h). */
#define _GNU_SOURCE
#include "collect/collect.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/graphite.h"
#include "collect/http.h"
#include "collect/model.h"
#include "collect/sources.h"
#include "procfs/host.h"
#include "procfs/procfs.h"

#define FLUSH_SECONDS 5.0

struct collector {
	const struct collect_opts *o;
	struct procfs *pf;
	struct host_facts host;
	struct task_reader *tr;
	struct group_table *gt;
	struct graphite_out g;
	bool have_graphite;
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

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int collector_open(struct collector *c, const struct collect_opts *o)
{
	int rc = procfs_open(&c->pf, o->root ? o->root : "/");

	c->o = o;
	if (rc)
		return rc;
	rc = host_facts_load(&c->host, c->pf);
	if (!rc) {
		const char *p = o->prefix;
		char def[300];

		if (!p) {
			collect_default_prefix(c->host.nodename, def, sizeof(def));
			p = def;
		}
		graphite_prefix(p, c->prefix, sizeof(c->prefix));
		rc = task_reader_open(&c->tr, c->pf, &c->host, o->pids, o->npids, o->fd_budget);
	}
	if (!rc)
		rc = group_table_new(&c->gt, o->group_by, c->pf, (double)c->host.hz);
	if (!rc && o->graphite && !o->once) {
		size_t batches = (o->buffer_seconds + o->interval - 1) / o->interval;

		rc = graphite_out_init(&c->g, o->graphite, batches ? batches : 1);
		c->have_graphite = !rc;
	}
	if (!rc && o->listen && !o->once)
		rc = http_server_start(&c->hs, o->listen);
	return rc;
}

static void collector_close(struct collector *c)
{
	http_server_stop(c->hs);
	if (c->have_graphite)
		graphite_out_release(&c->g);
	group_table_free(c->gt);
	task_reader_close(c->tr);
	metric_set_release(&c->m);
	procfs_close(c->pf);
}

/* One sample of everything into c->m, stamped ts. */
static int collector_sample(struct collector *c, int64_t ts)
{
	double cpu0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
	int rc;

	metric_set_clear(&c->m);
	c->m.timestamp = ts;
	rc = host_metrics(c->pf, &c->host, &c->m);
	group_table_begin(c->gt);
	rc = rc ? rc : task_reader_read(c->tr, group_table_add, c->gt);
	rc = rc ? rc : group_table_metrics(c->gt, c->o->top, &c->m);
	if (!rc && c->have_graphite) {
		rc = metric_add(&c->m, M_GRAPHITE_DROPPED, NULL, NULL, (double)c->g.dropped);
		rc = rc ? rc
			: metric_add(&c->m, M_GRAPHITE_BUFFERED, NULL, NULL,
				     (double)graphite_pending_points(&c->g));
	}
	rc = rc ? rc : metric_add(&c->m, M_SAMPLE_SECONDS, NULL, NULL, c->sample_cpu);
	c->sample_cpu = clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return rc;
}

static int send_graphite(struct collector *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	long n;

	if (!f)
		return -ENOMEM;
	n = render_graphite(&c->m, c->prefix, f);
	if (fclose(f) || n < 0) {
		free(text);
		return -ENOMEM;
	}
	graphite_enqueue(&c->g, text, len, n);
	graphite_tick(&c->g, clock_s(CLOCK_MONOTONIC));
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
	double mono = clock_s(CLOCK_MONOTONIC) + deadline - clock_s(CLOCK_REALTIME);
	struct timespec ts = { .tv_sec = (time_t)mono };

	ts.tv_nsec = (long)((mono - (double)ts.tv_sec) * 1e9);
	runloop_stop_wait(o->stop, &ts);
}

static int run_loop(struct collector *c)
{
	const struct collect_opts *o = c->o;
	double iv = o->interval;
	double next = floor(clock_s(CLOCK_REALTIME) / iv) * iv;
	bool connected = false;
	int rc = 0;

	while (!runloop_stop_requested(o->stop) && !rc) {
		rc = collector_sample(c, (int64_t)next);
		if (!rc && c->have_graphite)
			rc = send_graphite(c);
		if (!rc && c->hs)
			http_server_publish(c->hs, &c->m);
		if (c->have_graphite && connected != (c->g.fd >= 0)) {
			connected = c->g.fd >= 0;
			fprintf(o->err, "triage collect: graphite %s:%s %s\n", c->g.host, c->g.port,
				connected ? "connected" : "unreachable; buffering");
		}
		next += iv;
		/* a late sample is taken at once with its own timestamp; only one
		 * more than an interval late skips ahead (aligned) */
		if (next + iv < clock_s(CLOCK_REALTIME))
			next = ceil(clock_s(CLOCK_REALTIME) / iv) * iv;
		sleep_until(o, next);
	}
	if (c->have_graphite && graphite_flush(&c->g, FLUSH_SECONDS))
		fprintf(o->err, "triage collect: %ld points not sent at exit\n",
			graphite_pending_points(&c->g));
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

		rc = collector_sample(&c, (int64_t)(floor(clock_s(CLOCK_REALTIME) / iv) * iv));
		if (!rc && render_graphite(&c.m, c.prefix, o->out) < 0)
			rc = -EIO;
	} else if (!rc) {
		rc = run_loop(&c);
	}
	collector_close(&c);
	return rc;
}
