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
#include "load/render.h"
#include "load/sampler.h"
#include "util/json.h"
#include "util/parse.h"

struct load_opts {
	bool json, pretty, watch, stacks, verbose;
	const char *root;
	struct watch_opts w;
};

static void usage(FILE *out)
{
	fprintf(out, "Usage: triage load [OPTIONS]\n"
		     "       triage load --watch [OPTIONS] [INTERVAL [COUNT]]\n"
		     "\n"
		     "One shot: /proc/loadavg, PSI, every runnable and D thread now (wchan,\n"
		     "kernel stack, cgroup, why it waits) and a verdict.\n"
		     "--watch: samples task states within a CPU budget, rebuilds the kernel's\n"
		     "1/5/15-minute averages per task and per cgroup, and prints them every\n"
		     "INTERVAL seconds (default 5) beside /proc/loadavg, COUNT times (default:\n"
		     "until interrupted).\n"
		     "\n"
		     "  --json         JSON (one object; --watch: one object per line)\n"
		     "  --pretty       indented JSON\n"
		     "  --root DIR     read DIR/proc (or a fixture root, docs/fixtures.md)\n"
		     "  --budget PCT   --watch: CPU budget in %% of one CPU (default 2)\n"
		     "  --no-rt        --watch: sample at normal priority (default: SCHED_FIFO\n"
		     "                 priority 1 when permitted, so that samples are not\n"
		     "                 biased towards quiet moments; the budget still holds)\n"
		     "  --top N        --watch: tasks listed per report (default 10)\n"
		     "  --no-stacks    do not read kernel stacks (wchan only)\n"
		     "  -v, --verbose  say on stderr which task source reads the threads\n"
		     "                 (bpf: the BPF task iterator; proc: /proc file by file)\n"
		     "\n"
		     "Exit status: 0 ok, 1 runtime failure, 2 usage error, 3 no /proc/loadavg.\n");
}

static int parse_budget(const char *s, double *out)
{
	double pct;

	if (parse_seconds(s, &pct) || pct > 100)
		return -EINVAL;
	*out = pct / 100.0;
	return 0;
}

static int parse_positionals(int argc, char **argv, struct load_opts *o)
{
	if (argc > 0 && (!o->watch || parse_seconds(argv[0], &o->w.interval_s)))
		return -EINVAL;
	if (argc > 1 && parse_uint(argv[1], 1, 1000000000, &o->w.count))
		return -EINVAL;
	return argc > 2 ? -EINVAL : 0;
}

/* One option; returns -1 to go on, else the exit status. */
static int parse_opt(int c, struct load_opts *o)
{
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
		cmd_error("load", "bad --budget '%s': a percentage in (0, 100]", optarg);
		return EXIT_USAGE;
	case 't':
		if (parse_uint(optarg, 1, 100000, &top) == 0) {
			o->w.top = (int)top;
			return -1;
		}
		cmd_error("load", "bad --top '%s': a count from 1 to 100000", optarg);
		return EXIT_USAGE;
	case 'h':
		usage(stdout);
		return EXIT_OK;
	default:
		usage(stderr);
		return EXIT_USAGE;
	}
}

/* Returns -1 to continue, else the exit status. */
static int parse_args(int argc, char **argv, struct load_opts *o)
{
	static const struct option longopts[] = {
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
	int c, status;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1)
		if ((status = parse_opt(c, o)) >= 0)
			return status;
	if (parse_positionals(argc - optind, argv + optind, o)) {
		cmd_error("load", "bad arguments: INTERVAL and COUNT need --watch, "
				  "INTERVAL > 0, COUNT >= 1");
		return EXIT_USAGE;
	}
	return -1;
}

static int errno_status(int err)
{
	return err == -ENOENT || err == -EACCES || err == -EPERM ? EXIT_NOSUPPORT : EXIT_RUNTIME;
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
	int err = load_source_open(&src, o->root, o->w.door, 0);

	if (err) {
		cmd_error("load", "cannot open root '%s': %s", o->root ? o->root : "/",
			  strerror(-err));
		return EXIT_RUNTIME;
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
		return errno_status(err);
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
		cmd_error("load", "--watch failed: %s", strerror(-err));
		return errno_status(err);
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
