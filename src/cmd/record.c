/*
 * triage record -o FILE.db [-i DURATION] [-d DURATION] [--max-size MB | --keep HOURS]
 * Keeps history in SQLite (src/record/, docs/record.md).
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
#include "help/record.h"
#include "record/record.h"
#include "runloop/stop.h"
#include "util/parse.h"

static int bad(const char *what, const char *token)
{
	return cmd_usage_error("record", "%s: '%s'", what, token);
}

#define RECORD_MAX_PIDS 1024

struct record_cli {
	struct record_opts *o;
	pid_t *pids; /* RECORD_MAX_PIDS of them, for -p */
};

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct record_cli *c = ctx;
	struct record_opts *o = c->o;

	switch (ch) {
	case 'o':
		o->path = optarg;
		return -1;
	case 'i':
		if (parse_duration(optarg, &o->interval) || o->interval < 0.01 ||
		    o->interval > 86400)
			return bad("bad -i (a duration, 10ms to 1d: 1, 500ms, 10s, 1m)", optarg);
		return -1;
	case 'd':
		if (parse_duration(optarg, &o->duration))
			return bad("bad -d (a duration: 90, 30s, 10m, 2h, 1d)", optarg);
		return -1;
	case 'S':
		if (parse_seconds(optarg, &o->max_size_mb) || o->max_size_mb < 0.1)
			return bad("bad --max-size (megabytes, at least 0.1)", optarg);
		return -1;
	case 'K':
		/* a bare number is hours, as it always was; 90m and 2d too */
		if (parse_duration_in(optarg, 3600, &o->keep_hours))
			return bad("bad --keep (hours, or a duration: 90m, 2d)", optarg);
		o->keep_hours /= 3600;
		return -1;
	case 'W':
		if (parse_duration(optarg, &o->window))
			return bad("bad --window (a duration: 10, 30s, 1m)", optarg);
		return -1;
	case 'r':
		o->root = optarg;
		return -1;
	case 'p':
		if (parse_pid_list(optarg, c->pids, RECORD_MAX_PIDS, &o->npids))
			return bad("bad -p (PIDs separated by commas)", optarg);
		o->pids = c->pids;
		return -1;
	case 'h':
		fputs(triage_help_record, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct record_opts *o, pid_t *pids)
{
	const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-size", required_argument, NULL, 'S' },
		{ "keep", required_argument, NULL, 'K' },
		{ "window", required_argument, NULL, 'W' },
		{ "root", required_argument, NULL, 'r' },
		{ "pid", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_cli c = { o, pids };
	int status = cmd_getopt_loop("record", argc, argv, ":o:i:d:p:h", longopts, parse_opt, &c);

	if (status < 0)
		status = cmd_no_operands("record", argc, argv);
	if (status >= 0)
		return status;
	if (!o->path)
		return cmd_usage_error("record", "the record file is missing (-o FILE.db): '-o'");
	if (o->max_size_mb > 0 && o->keep_hours > 0)
		return bad("--max-size and --keep exclude each other", "--keep");
	return -1;
}

static void progress(void *ctx, unsigned k, double mb)
{
	(void)ctx;
	fprintf(stderr, "\rtriage record: %u interval%s, %.1f MB", k, k == 1 ? "" : "s", mb);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .interval = 1, .window = 10 };
	pid_t pids[RECORD_MAX_PIDS];
	struct record_error err = { .on = RECORD_FAULT_SYSTEM };
	struct runloop_stop stop;
	int status = parse_args(argc, argv, &o, pids), rc;
	bool tty = isatty(STDERR_FILENO);

	if (status >= 0)
		return status;
	runloop_stop_init(&stop);
	o.stop = &stop;
	o.fd_budget = cmd_fd_budget();
	o.progress = tty ? progress : NULL;
	rc = record_run(&o, &err);
	runloop_stop_disarm(&stop);
	if (tty)
		fputs("\r\033[K", stderr);
	if (rc) {
		cmd_error("record", "%s", err.what[0] ? err.what : strerror(-rc));
		return cmd_errno_status(err.on == RECORD_FAULT_FILE   ? CMD_ON_OUTPUT
					: err.on == RECORD_FAULT_ROOT ? CMD_ON_INPUT
								      : CMD_ON_SYSTEM,
					rc);
	}
	return EXIT_OK;
}
