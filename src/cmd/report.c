/*
 * triage report [-d DURATION] [-p PID,...] [--json] [--no-bpf] [--color=WHEN] [--root DIR]
 * Watches the machine for a window, then says what is wrong, with the
 * numbers, and what to run next (src/report/, docs/report.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "help/report.h"
#include "procfs/procfs.h"
#include "report/report.h"
#include "runloop/stop.h"
#include "util/json.h"
#include "util/parse.h"

#define REPORT_MAX_SECONDS 3600
#define REPORT_MAX_PIDS 1024

enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct report_cli {
	struct report_opts o;
	bool json, pretty, verbose;
	enum color_when color;
	pid_t pids[REPORT_MAX_PIDS];
};

/* --color's words, in enum color_when's order. */
static const char *const color_names[] = { "auto", "always", "never" };

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct report_cli *c = ctx;
	struct json_writer w;
	int k;

	switch (ch) {
	case 'd':
		if (!parse_duration(optarg, &c->o.seconds) && c->o.seconds <= REPORT_MAX_SECONDS)
			return -1;
		return cmd_usage_error("report", "bad -d (a duration up to 1h: 10, 10s, 1m): '%s'",
				       optarg);
	case 'p':
		if (!parse_pid_list(optarg, c->pids, REPORT_MAX_PIDS, &c->o.npids))
			return -1;
		return cmd_usage_error("report", "bad -p (PIDs separated by commas): '%s'", optarg);
	case 'j':
		c->json = true;
		return -1;
	case 'P':
		c->json = c->pretty = true;
		return -1;
	case 'B':
		c->o.bpf = false;
		return -1;
	case 'v':
		c->verbose = c->o.verbose = true;
		return -1;
	case 'c':
		k = parse_keyword(optarg, color_names, ARRAY_SIZE(color_names));
		if (k < 0)
			return cmd_usage_error("report",
					       "bad --color (auto, always or never): '%s'", optarg);
		c->color = (enum color_when)k;
		return -1;
	case 'r':
		c->o.root = optarg;
		return -1;
	case 'S': /* the document's keys, from the core's one list */
		json_init(&w, stdout, true);
		report_json_schema(&w);
		json_finish(&w);
		fputc('\n', stdout);
		return EXIT_OK;
	case 'h':
		fputs(triage_help_report, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

static int parse_args(int argc, char **argv, struct report_cli *c)
{
	const struct option longopts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "json-schema", no_argument, NULL, 'S' },
		{ "no-bpf", no_argument, NULL, 'B' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "color", required_argument, NULL, 'c' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int status = cmd_getopt_loop("report", argc, argv, ":d:p:jvh", longopts, parse_opt, c);

	if (status < 0)
		status = cmd_no_operands("report", argc, argv);
	if (status >= 0)
		return status;
	c->o.pids = c->o.npids ? c->pids : NULL;
	return -1;
}

/*
 * -p names processes that should be there: each one that is not is named on
 * stderr; when none is, there is nothing to watch and the report is an
 * error (1) rather than a quiet "no process seen". Checked on the live
 * machine only (a fixture root's processes come and go by its steps).
 * Returns -1 to go on, else the exit status.
 */
static int check_pids(const struct report_opts *o)
{
	struct procfs *pf;
	char rel[32], buf[64], missing[256] = "";
	size_t n = 0, len = 0;

	if (o->root || !o->npids || procfs_open(&pf, NULL))
		return -1;
	for (size_t i = 0; i < o->npids; i++) {
		snprintf(rel, sizeof(rel), "%d/stat", (int)o->pids[i]);
		if (procfs_read(pf, rel, buf, sizeof(buf)) >= 0)
			continue;
		n++;
		if (len < sizeof(missing))
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%d",
						len ? ", " : "", (int)o->pids[i]);
	}
	procfs_close(pf);
	if (!n)
		return -1;
	if (n == o->npids) {
		cmd_error("report", "no such process: PID %s", missing);
		return EXIT_RUNTIME;
	}
	cmd_error("report", "warning: no such process: PID %s; watching the others", missing);
	return -1;
}

static void progress(void *ctx, double done, double total)
{
	(void)ctx;
	fprintf(stderr, "\rtriage report: watching %.0f/%.0f s", done, total);
}

static bool want_color(enum color_when w)
{
	const char *no = getenv("NO_COLOR");

	if (w != COLOR_AUTO)
		return w == COLOR_ALWAYS;
	return isatty(STDOUT_FILENO) && !(no && *no);
}

static int render(const struct report_cli *c, const struct report_data *d,
		  const struct report_findings *f)
{
	struct json_writer w;
	struct report_style st = { want_color(c->color) };

	if (c->json) {
		json_init(&w, stdout, c->pretty);
		report_render_json(&w, d, f);
		json_finish(&w);
		fputc('\n', stdout);
	} else {
		report_render_plain(stdout, d, f, &st);
	}
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_cli c = { .o = { .seconds = 10, .bpf = true } };
	struct report_data d;
	struct report_findings f;
	struct runloop_stop stop;
	int status = parse_args(argc, argv, &c), rc;
	bool tty = isatty(STDERR_FILENO);

	if (status >= 0 || (status = check_pids(&c.o)) >= 0)
		return status;
	/* armed from here to the end: a Ctrl-C while we start or render is
	 * taken by the window's clock, and the report still comes out */
	runloop_stop_init(&stop);
	runloop_stop_arm(&stop);
	c.o.stop = &stop;
	c.o.fd_budget = cmd_fd_budget();
	c.o.progress = tty ? progress : NULL;
	rc = report_collect(&c.o, &d);
	if (tty)
		fputs("\r\033[K", stderr);
	if (rc) {
		cmd_error("report", "cannot read '%s/proc': %s", c.o.root ? c.o.root : "",
			  strerror(-rc));
		report_data_release(&d);
		return cmd_errno_status(cmd_root_fault(c.o.root), rc);
	}
	if (c.verbose) {
		char how[512];

		report_enrich_loaders(&d, how, sizeof(how));
		if (how[0])
			fprintf(stderr, "triage report: eBPF loaded: %s\n", how);
	}
	rc = report_evaluate(&d, &f);
	if (!rc)
		report_enrich_findings(&d, &f);
	status = rc ? EXIT_RUNTIME : render(&c, &d, &f);
	if (rc)
		cmd_error("report", "out of memory");
	report_findings_release(&f);
	report_data_release(&d);
	return status;
}
