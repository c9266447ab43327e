/*
 * triage plot FILE.db -o PAGE.html [--max-points N]: a record as one
 * self-contained HTML page (src/plot/). The page is written to a temporary
 * file next to PAGE and renamed into place (util/outfile.h), so a failed
 * run leaves no half page, an old page stays whole until the new one is
 * complete, and a PAGE that is a link, device, FIFO or directory is refused.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "common.h"
#include "help/plot.h"
#include "plot/plot.h"
#include "util/outfile.h"
#include "util/parse.h"

struct plot_args {
	const char *db, *out;
	unsigned max_points;
};

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct plot_args *a = ctx;

	switch (ch) {
	case 'o':
		a->out = optarg;
		return -1;
	case 'm':
		if (!parse_uint(optarg, 10, 10000000, &a->max_points))
			return -1;
		return cmd_usage_error("plot", "--max-points wants 10 to 10000000: '%s'", optarg);
	case 'h':
		fputs(triage_help_plot, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

/* Returns -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct plot_args *a)
{
	const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "max-points", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int status;

	memset(a, 0, sizeof(*a));
	a->max_points = PLOT_MAX_POINTS;
	status = cmd_getopt_loop("plot", argc, argv, ":o:h", longopts, parse_opt, a);
	if (status >= 0)
		return status;
	if (optind >= argc)
		return cmd_usage_error("plot",
				       "no record given (triage plot FILE.db -o PAGE.html)");
	a->db = argv[optind++];
	status = cmd_no_operands("plot", argc, argv);
	if (status >= 0)
		return status;
	if (!a->out)
		return cmd_usage_error("plot", "no page given: -o PAGE.html is required");
	return -1;
}

/* Writes the page to path (see util/outfile.h: "-" is stdout, never a device or a link). */
static int write_page(const char *path, const struct plot_doc *d)
{
	struct outfile o;
	int err = outfile_open(&o, path);

	if (err)
		return err;
	err = plot_write_html(o.f, d);
	if (err) {
		outfile_abort(&o);
		return err;
	}
	return outfile_commit(&o);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a;
	struct plot_doc d;
	char why[256];
	int status = parse_args(argc, argv, &a), err;

	if (status >= 0)
		return status;
	err = plot_load(a.db, a.max_points, &d, why, sizeof(why));
	if (err == -EINVAL) {
		cmd_error("plot", "'%s' is not a triage record (%s)", a.db, why);
		return cmd_errno_status(CMD_ON_INPUT, err);
	}
	if (err) {
		cmd_error("plot", "cannot read '%s': %s", a.db, strerror(-err));
		return cmd_errno_status(CMD_ON_INPUT, err);
	}
	err = write_page(a.out, &d);
	plot_doc_release(&d);
	if (err == -EIO && !strcmp(a.out, "-") && ferror(stdout))
		return EXIT_OK; /* main says why stdout failed, once */
	if (err) {
		cmd_error("plot", "cannot write '%s': %s", a.out, outfile_strerror(err));
		return cmd_errno_status(CMD_ON_OUTPUT, err);
	}
	return EXIT_OK;
}
