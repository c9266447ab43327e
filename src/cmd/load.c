/*
 * triage load [--json] [--root DIR]            one look: who makes the load now, and why
 * triage load --watch [interval [count]]       rebuild the 1/5/15 averages per task
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "help/load.h"
#include "load/render.h"
#include "load/sampler.h"
#include "util/json.h"
#include "util/parse.h"

#define LOAD_MAX_INTERVAL 86400.0

struct load_opts {
	bool json, pretty, watch, stacks, verbose;
	const char *root;
	struct watch_opts w;
};

static int parse_budget(const char *s, double *out)
{
	double pct;

	if (parse_seconds(s, &pct) || pct > 100)
		return -EINVAL;
	*out = pct / 100.0;
	return 0;
}

/* INTERVAL and COUNT of --watch; returns 0 or the exit status. */
static int parse_positionals(int argc, char **argv, struct load_opts *o)
{
	if (argc > 0 && !o->watch)
		return cmd_usage_error("load", "INTERVAL and COUNT need --watch: '%s'", argv[0]);
	if (argc > 0 &&
	    (parse_duration(argv[0], &o->w.interval_s) || o->w.interval_s > LOAD_MAX_INTERVAL))
		return cmd_usage_error(
		    "load", "bad INTERVAL (a duration up to 1d: 5, 500ms, 10s, 1m): '%s'", argv[0]);
	if (argc > 1 && parse_uint(argv[1], 1, 1000000000, &o->w.count))
		return cmd_usage_error("load", "bad COUNT (1 or more): '%s'", argv[1]);
	if (argc > 2)
		return cmd_usage_error("load", "unexpected argument: '%s'", argv[2]);
	return 0;
}

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int c, void *ctx)
{
	struct load_opts *o = ctx;
	unsigned top;

	switch (c) {
	case 'j':
		o->json = true;
		return -1;
	case 'P':
		o->json = o->pretty = true;
		return -1;
	case 'r':
		o->root = optarg;
		return -1;
	case 'w':
		o->watch = true;
		return -1;
	case 'R':
		o->w.realtime = false;
		return -1;
	case 'S':
		o->stacks = false;
		return -1;
	case 'v':
		o->verbose = true;
		return -1;
	case 'b':
		if (parse_budget(optarg, &o->w.budget) == 0)
			return -1;
		return cmd_usage_error("load", "bad --budget (a percentage in (0, 100]): '%s'",
				       optarg);
	case 't':
		if (parse_uint(optarg, 1, 100000, &top) == 0) {
			o->w.top = (int)top;
			return -1;
		}
		return cmd_usage_error("load", "bad --top (a count from 1 to 100000): '%s'",
				       optarg);
	case 'h':
		fputs(triage_help_load, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

/* Returns -1 to continue, else the exit status. */
static int parse_args(int argc, char **argv, struct load_opts *o)
{
	const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'P' },
		{ "root", required_argument, NULL, 'r' },
		{ "watch", no_argument, NULL, 'w' },
		{ "budget", required_argument, NULL, 'b' },
		{ "no-rt", no_argument, NULL, 'R' },
		{ "no-stacks", no_argument, NULL, 'S' },
		{ "top", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int status = cmd_getopt_loop("load", argc, argv, ":hv", longopts, parse_opt, o);

	if (status >= 0)
		return status;
	status = parse_positionals(argc - optind, argv + optind, o);
	return status ? status : -1;
}

static void say_door(void *ctx, const struct task_source *ts)
{
	cmd_say_door("load", ts);
}

static int run_once(const struct load_opts *o)
{
	struct load_scan_opts scan = { .want_stacks = o->stacks };
	struct load_source src;
	struct load_snapshot snap;
	struct load_verdict v;
	struct json_writer w;
	int err = load_source_open(&src, o->root, o->w.door, 0, 1);

	if (err) {
		cmd_error("load", "cannot open root '%s': %s", o->root ? o->root : "/",
			  strerror(-err));
		return cmd_errno_status(cmd_root_fault(o->root), err);
	}
	if (o->verbose)
		say_door(NULL, src.tasks);
	scan.skip_pid = src.fixture ? 0 : getpid(); /* we are runnable while we look */
	scan.tasks = src.tasks;
	scan.set = &src.set;
	err = load_look(&src, &scan, &snap, &v);
	load_source_close(&src);
	if (err) {
		cmd_error("load", "cannot read the load average: %s", strerror(-err));
		return cmd_errno_status(CMD_ON_SYSTEM, err);
	}
	if (o->json) {
		json_init(&w, stdout, o->pretty);
		load_render_snapshot_json(&w, &snap, &v);
		json_finish(&w);
	} else {
		load_render_snapshot_plain(stdout, &snap, &v);
	}
	load_snapshot_release(&snap);
	return EXIT_OK;
}

struct emit_ctx {
	const struct load_opts *o;
};

static void emit(void *ctx, const struct watch_report *r, const struct load_verdict *v)
{
	const struct emit_ctx *e = ctx;
	struct json_writer w;

	if (e->o->json) {
		json_init(&w, stdout, e->o->pretty);
		load_render_watch_json(&w, r, v);
		json_finish(&w);
	} else {
		load_render_watch_plain(stdout, r, v);
	}
	fflush(stdout);
}

static int run_watch(struct load_opts *o)
{
	struct emit_ctx e = { o };
	int err;

	o->w.root = o->root;
	o->w.stacks = o->stacks;
	if (o->verbose)
		o->w.on_door = say_door;
	setlinebuf(stdout);
	err = load_watch_run(&o->w, emit, &e);
	if (err) {
		if (o->root)
			cmd_error("load", "--watch failed on root '%s': %s", o->root,
				  strerror(-err));
		else
			cmd_error("load", "--watch failed: %s", strerror(-err));
		return cmd_errno_status(cmd_root_fault(o->root), err);
	}
	return EXIT_OK;
}

int cmd_load(int argc, char **argv)
{
	struct load_opts o = {
		.stacks = true,
		.w = { .interval_s = 5,
		       .budget = 0.02,
		       .realtime = true,
		       .top = WATCH_TOP_DEFAULT,
		       .min_period_s = 0.1,
		       .max_period_s = 60 },
	};
	int status = parse_args(argc, argv, &o);

	if (status >= 0)
		return status;
	if ((status = cmd_task_door("load", &o.w.door)))
		return status;
	return o.watch ? run_watch(&o) : run_once(&o);
}
