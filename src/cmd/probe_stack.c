/*
 * triage probe offcpu|runq|profile: the shell of the stack probes. The
 * options common to every probe come from probe_cmd_getopt(); this file
 * adds each probe's own, checks them, runs the core (src/probe/stackprobe.c)
 * and turns its -errno into an exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "probe_cmds.h"
#include "probe/stackprobe.h"
#include "util/outfile.h"
#include "util/parse.h"

/* -F HZ and -t N (--top), besides the common ones */
#define STACK_SHORTOPTS "F:t:"

enum {
	OPT_FREQ = 'F',
	OPT_TOP = 't',
	OPT_FOLDED = 0x200,
	OPT_NO_KSTACKS,
	OPT_NO_USTACKS,
	OPT_PER_THREAD,
	OPT_SVG,
};

/* The feature an option needs (0: every probe has it). */
static unsigned option_feature(int c)
{
	switch (c) {
	case OPT_FREQ:
		return SP_FREQ;
	case OPT_TOP:
	case OPT_FOLDED:
	case OPT_SVG:
	case OPT_NO_KSTACKS:
	case OPT_NO_USTACKS:
		return SP_STACKS;
	case OPT_PER_THREAD:
		return SP_PER_THREAD;
	default:
		return 0;
	}
}

struct stack_args {
	const struct sp_probe *probe;
	struct sp_opts *o;
	const char *svg_path; /* --svg FILE */
};

static int bad_value(struct stack_args *a, const char *what)
{
	return probe_cmd_usage_error(a->probe->name, "bad %s: '%s'", what, optarg ? optarg : "");
}

/* The probe's own options: 0 if handled, 1 if unknown, EXIT_USAGE for a bad value. */
static int own_option(int c, void *ctx)
{
	struct stack_args *a = ctx;
	struct sp_opts *o = a->o;

	if (option_feature(c) & ~a->probe->features)
		return 1;
	switch (c) {
	case OPT_FREQ:
		return parse_uint(optarg, 1, 10000, &o->freq)
			   ? bad_value(a, "-F value (1 to 10000)")
			   : 0;
	case OPT_TOP:
		return parse_uint(optarg, 1, 100000, &o->top)
			   ? bad_value(a, "--top value (1 to 100000)")
			   : 0;
	case OPT_FOLDED:
		o->folded = true;
		return 0;
	case OPT_SVG:
		if (!*optarg)
			return bad_value(a, "--svg file");
		a->svg_path = optarg;
		return 0;
	case OPT_NO_KSTACKS:
		o->kernel_stacks = false;
		return 0;
	case OPT_NO_USTACKS:
		o->user_stacks = false;
		return 0;
	case OPT_PER_THREAD:
		o->per_thread = true;
		return 0;
	default:
		return 1;
	}
}

/* Returns -1 to go on, else the exit status (EXIT_OK after --help). */
static int parse_args(const struct sp_probe *p, int argc, char **argv, struct sp_opts *o,
		      const char **svg_path)
{
	const struct option longopts[] = {
		PROBE_COMMON_LONGOPTS,
		{ "frequency", required_argument, NULL, OPT_FREQ },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "no-kernel-stacks", no_argument, NULL, OPT_NO_KSTACKS },
		{ "no-user-stacks", no_argument, NULL, OPT_NO_USTACKS },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ 0 },
	};
	struct stack_args a = { p, o, NULL };
	const struct probe_cmd_spec spec = { p->name, longopts,	  STACK_SHORTOPTS,
					     false,   own_option, &a };
	int rc;

	sp_opts_init(o);
	rc = probe_cmd_getopt(&spec, argc, argv, &o->base);
	*svg_path = a.svg_path;
	if (rc >= 0)
		return rc;
	if (optind < argc)
		return probe_cmd_usage_error(p->name, "unexpected argument: '%s'", argv[optind]);
	if (o->folded && o->base.json)
		return probe_cmd_usage_error(p->name, "--folded and --json exclude each other");
	rc = probe_cmd_check_target(p->name, &o->base.target, true);
	return rc ? rc : -1;
}

/* A line of advice after a failed start, where the errno alone misleads. */
static void explain_failure(const struct sp_probe *p, const struct sp_opts *o, const char *stage,
			    int err)
{
	if (p == &profile_probe && err == -EINVAL && !strcmp(stage, "attaching the BPF programs"))
		cmd_error("probe",
			  "profile: -F %u may exceed /proc/sys/kernel/perf_event_max_sample_rate",
			  o->freq);
}

/*
 * Runs the probe with --svg's file open from the start (an unwritable path
 * fails before any tracing); a failed run leaves no partial file.
 */
static int stack_main(const struct sp_probe *p, int argc, char **argv)
{
	const char *stage = NULL, *svg_path = NULL;
	struct outfile svg;
	struct sp_opts o;
	int rc = parse_args(p, argc, argv, &o, &svg_path), err;

	if (rc >= 0)
		return rc;
	if (svg_path) {
		err = outfile_open(&svg, svg_path);
		if (err) {
			cmd_error("probe", "%s: cannot write '%s': %s", p->name, svg_path,
				  outfile_strerror(err));
			return EXIT_RUNTIME;
		}
		o.svg = svg.f;
	}
	err = sp_probe_run(p, &o, stdout, stderr, &stage);
	if (svg_path && err)
		outfile_abort(&svg);
	else if (svg_path && (err = outfile_commit(&svg)))
		stage = "writing the SVG file";
	if (!err)
		return EXIT_OK;
	rc = probe_cmd_failed(p->name, &o.base.target, stage, err);
	explain_failure(p, &o, stage, err);
	return rc;
}

int probe_offcpu_main(int argc, char **argv)
{
	return stack_main(&offcpu_probe, argc, argv);
}

int probe_runq_main(int argc, char **argv)
{
	return stack_main(&runq_probe, argc, argv);
}

int probe_profile_main(int argc, char **argv)
{
	return stack_main(&profile_probe, argc, argv);
}
