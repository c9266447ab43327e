/*
 * triage replay FILE.db [--from T] [--to T] [VIEW]
 * VIEW: pidstat [pidstat options] | load | report (the default).
 * Renders recorded history through the live commands' own renderers
 * (src/record/, docs/record.md).
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "help/replay.h"
#include "load/render.h"
#include "load/verdict.h"
#include "pidstat/pidstat.h"
#include "record/record.h"
#include "report/report.h"
#include "runloop/clock.h"
#include "util/json.h"

struct replay_cli {
	const char *path;
	const char *from_s, *to_s;
	double from, to;
	bool json, pretty;
	const char *view;
	int vargc; /* the view's arguments, view name first */
	char **vargv;
};

static int bad(const char *what, const char *token)
{
	return cmd_usage_error("replay", "%s: '%s'", what, token);
}

/*
 * A time that does not parse. A bare duration ("2m", "10s") is the likeliest
 * slip: say how to write it as a time back from now.
 */
static int bad_time(const char *opt, const char *token, double now)
{
	char back[64];
	double t;

	snprintf(back, sizeof(back), "-%s", token);
	if (token[0] != '-' && !record_parse_time(back, now, &t))
		return cmd_usage_error(
		    "replay", "bad %s time (a duration back from now is '%s ago' or %s): '%s'", opt,
		    token, back, token);
	return cmd_usage_error(
	    "replay", "bad %s time (ISO 8601, HH:MM, @EPOCH, '10m ago' or -10m): '%s'", opt, token);
}

static int parse_view_flags(struct replay_cli *c)
{
	for (int i = 1; i < c->vargc; i++) {
		if (!strcmp(c->vargv[i], "--json") || !strcmp(c->vargv[i], "-j"))
			c->json = true;
		else if (!strcmp(c->vargv[i], "--pretty"))
			c->json = c->pretty = true;
		else
			return bad("unknown option for this view", c->vargv[i]);
	}
	return -1;
}

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct replay_cli *c = ctx;

	switch (ch) {
	case 'f':
		c->from_s = optarg;
		return -1;
	case 't':
		c->to_s = optarg;
		return -1;
	case 'h':
		fputs(triage_help_replay, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

static int parse_args(int argc, char **argv, struct replay_cli *c)
{
	static const char *const views[] = { "pidstat", "load", "report" };

	const struct option longopts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double now = (double)time(NULL);
	/* in order: the view's own options follow the file */
	int status = cmd_getopt_loop("replay", argc, argv, "+:h", longopts, parse_opt, c);

	if (status >= 0)
		return status;
	if (optind >= argc)
		return cmd_usage_error("replay", "missing the record file");
	c->path = argv[optind++];
	/* options may also follow the file */
	while (optind < argc &&
	       (!strcmp(argv[optind], "--from") || !strcmp(argv[optind], "--to"))) {
		if (optind + 1 >= argc)
			return bad("option needs a value", argv[optind]);
		*(argv[optind][2] == 'f' ? &c->from_s : &c->to_s) = argv[optind + 1];
		optind += 2;
	}
	c->from = c->to = NAN;
	if (c->from_s && record_parse_time(c->from_s, now, &c->from))
		return bad_time("--from", c->from_s, now);
	if (c->to_s && record_parse_time(c->to_s, now, &c->to))
		return bad_time("--to", c->to_s, now);
	if (!isnan(c->from) && !isnan(c->to) && c->from > c->to)
		return bad("--from is after --to", c->from_s);
	c->view = optind < argc ? argv[optind] : "report";
	c->vargc = optind < argc ? argc - optind : 0;
	c->vargv = optind < argc ? argv + optind : NULL;
	if (strcmp(c->view, "pidstat") && strcmp(c->view, "load") && strcmp(c->view, "report"))
		return cmd_unknown_word("replay", "unknown view (pidstat, load, report)", c->view,
					views, ARRAY_SIZE(views));
	if (strcmp(c->view, "pidstat"))
		return parse_view_flags(c);
	return -1;
}

/* ---- pidstat ---- */

static int terminal_rows(void)
{
	struct winsize w;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != -1 && w.ws_row > 2)
		return w.ws_row - 2;
	return 3600 * 24;
}

/* pidstat's options, less what a recording (of this schema version) does not keep. */
static int pidstat_options(const struct replay_cli *c, int version, struct pidstat_opts *o)
{
	int rc = pidstat_opts_parse(o, c->vargc, c->vargv, getpid());

	if (rc == PIDSTAT_PARSE_VERSION)
		return bad("not in a replay", "-V");
	if (rc)
		return bad("bad pidstat options", c->vargc > 1 ? c->vargv[1] : "");
	if (o->exec_argv)
		return bad("not in a replay", "-e");
	if (o->act & ACT_STACK)
		return bad("not recorded (stack sizes)", "-s");
	if (o->act & ACT_KTAB)
		return bad("not recorded (file descriptors)", "-v");
	if (o->cmdline && version < 2) {
		/* one line: -l is right, the file is too old for it */
		cmd_error("replay", "%s is a schema %d file, which kept no command lines: '-l'",
			  c->path, version);
		return EXIT_USAGE;
	}
	if (o->root)
		return bad("not in a replay", "--root");
	if (!o->interval) { /* each recorded interval is one report */
		o->interval = 1;
		o->count = -1;
	}
	if (pidstat_opts_finish(o)) {
		pidstat_write_no_activity(stderr);
		return 1;
	}
	return -1;
}

static int replay_pidstat(const struct replay_cli *c, struct sqlite3 *db,
			  const struct record_window *w)
{
	struct pidstat_opts o;
	struct pidstat_run r;
	struct json_writer jw;
	struct runloop_stop stop;
	struct runloop_clock clk;
	struct pidstat_replay *rp = NULL;
	const struct pidstat_source *src;
	struct pidstat_env env = {
		.out = stdout,
		.out_tty = isatty(STDOUT_FILENO),
		.s_time_format = getenv("S_TIME_FORMAT"),
		.s_colors = getenv("S_COLORS"),
		.s_colors_sgr = getenv("S_COLORS_SGR"),
		.json = &jw,
	};
	int status, rc;

	memset(&o, 0, sizeof(o));
	setlocale(LC_MESSAGES, "");
	setlocale(LC_CTYPE, "");
	setlocale(LC_TIME, "");
	setlocale(LC_NUMERIC, "");
	pidstat_bind_messages();
	if ((status = pidstat_options(c, record_db_version(db), &o)) >= 0) {
		pidstat_opts_release(&o);
		return status;
	}
	runloop_stop_init(&stop);
	runloop_clock_list(&clk, &stop, w->times, (int)w->n);
	if (record_replay_open(&rp, db, w, &clk.step, &src) ||
	    pidstat_run_init(&r, &o, NULL, &w->host, &env)) {
		record_replay_close(rp);
		pidstat_opts_release(&o);
		return pidstat_write_failure(stderr, PIDSTAT_E_NOMEM, ENOMEM);
	}
	r.src = src;
	if (o.json)
		runloop_stop_arm(&stop);
	r.rows = o.dis_hdr ? 23 : terminal_rows();
	localtime_r(&w->times[0], &r.tstamp[0]);
	pidstat_write_banner(&r, w->host.ncpu > 0 ? w->host.ncpu : 0);
	rc = pidstat_loop(&r, &clk);
	if (r.json)
		json_finish(r.json);
	fflush(stdout);
	/* not pidstat mode: a lost output is said as every command says it, status 1 */
	status = rc == PIDSTAT_E_STDOUT ? cmd_stdout_failed(EXIT_OK, r.err_errno)
					: pidstat_write_failure(stderr, rc, r.err_errno);
	pidstat_run_release(&r);
	record_replay_close(rp);
	pidstat_opts_release(&o);
	return status;
}

/* ---- load, report ---- */

static int replay_load(const struct replay_cli *c, struct sqlite3 *db,
		       const struct record_window *w)
{
	struct load_snapshot snap;
	struct load_verdict v;
	struct verdict_input in;
	struct json_writer jw;
	int rc = record_load_snapshot(db, w, w->n - 1, &snap);

	if (rc) {
		cmd_error("replay", "cannot read the load of '%s': %s", c->path, strerror(-rc));
		return EXIT_RUNTIME;
	}
	load_verdict_input_from_snapshot(&snap, &in);
	load_verdict_build(&in, &v);
	if (c->json) {
		json_init(&jw, stdout, c->pretty);
		load_render_snapshot_json(&jw, &snap, &v);
		json_finish(&jw);
	} else {
		load_render_snapshot_plain(stdout, &snap, &v);
	}
	load_snapshot_release(&snap);
	return EXIT_OK;
}

static int replay_report(const struct replay_cli *c, struct sqlite3 *db,
			 const struct record_window *w)
{
	struct report_data d;
	struct report_findings f;
	struct json_writer jw;
	struct report_style st = { false };
	int rc;

	if (w->n < 2)
		return bad("the window holds one interval; a report needs two",
			   c->from_s ? c->from_s : c->path);
	rc = record_report_data(db, w, 0, w->n - 1, &d);
	if (!rc)
		rc = report_evaluate(&d, &f);
	if (rc) {
		cmd_error("replay", "cannot read '%s': %s", c->path, strerror(-rc));
		report_data_release(&d);
		return EXIT_RUNTIME;
	}
	if (c->json) {
		json_init(&jw, stdout, c->pretty);
		report_render_json(&jw, &d, &f);
		json_finish(&jw);
		fputc('\n', stdout);
	} else {
		report_render_plain(stdout, &d, &f, &st);
	}
	report_findings_release(&f);
	report_data_release(&d);
	return EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cli c = { 0 };
	struct record_window w;
	struct sqlite3 *db;
	int status = parse_args(argc, argv, &c), rc;

	if (status >= 0)
		return status;
	rc = record_db_open(&db, c.path, false);
	if (rc == -ENOENT)
		return bad("no such file", c.path);
	if (rc == -EINVAL || rc == -EPROTO)
		return bad(rc == -EINVAL
			       ? "not an SQLite file"
			       : "not a triage recording of schema version " RECORD_SCHEMA_VERSIONS,
			   c.path);
	if (rc) {
		cmd_error("replay", "cannot open '%s': %s", c.path, strerror(-rc));
		return cmd_errno_status(CMD_ON_INPUT, rc);
	}
	rc = record_window_select(db, c.from, c.to, &w);
	if (rc == -ENOENT) {
		record_db_close(db);
		return bad("no recorded interval in the window", c.from_s ? c.from_s
								 : c.to_s ? c.to_s
									  : c.path);
	}
	if (rc) {
		cmd_error("replay", "cannot read '%s': %s", c.path, record_db_errmsg(db));
		record_db_close(db);
		return EXIT_RUNTIME;
	}
	if (!strcmp(c.view, "pidstat"))
		status = replay_pidstat(&c, db, &w);
	else if (!strcmp(c.view, "load"))
		status = replay_load(&c, db, &w);
	else
		status = replay_report(&c, db, &w);
	record_window_release(&w);
	record_db_close(db);
	return status;
}
