/*
 * triage fleet --prometheus URL | --graphite URL [--at T | --from T --to T]
 * [--match LABELS] [--json]: the findings collect exported from every host,
 * read back from the store (src/fleet/). Options here; the rest is the core's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "common.h"
#include "fleet/fleet.h"
#include "help/fleet.h"
#include "record/record.h"
#include "util/parse.h"

struct fleet_args {
	struct fleet_opts o;
	const char *at, *from, *to;
	bool json, pretty;
};

enum {
	OPT_PROM = 256,
	OPT_GRAPHITE,
	OPT_AT,
	OPT_FROM,
	OPT_TO,
	OPT_MATCH,
	OPT_HOST_LABEL,
	OPT_PREFIX,
	OPT_TIMEOUT,
	OPT_PRETTY
};

static int set_store(struct fleet_args *a, enum fleet_store s)
{
	if (a->o.url)
		return cmd_usage_error("fleet", "give one of --prometheus and --graphite, once");
	a->o.store = s;
	a->o.url = optarg;
	return -1;
}

static int parse_opt(int ch, void *ctx)
{
	struct fleet_args *a = ctx;

	switch (ch) {
	case OPT_PROM:
		return set_store(a, FLEET_PROMETHEUS);
	case OPT_GRAPHITE:
		return set_store(a, FLEET_GRAPHITE);
	case OPT_AT:
		a->at = optarg;
		return -1;
	case OPT_FROM:
		a->from = optarg;
		return -1;
	case OPT_TO:
		a->to = optarg;
		return -1;
	case OPT_MATCH:
		a->o.match = optarg;
		return -1;
	case OPT_HOST_LABEL:
		a->o.host_label = optarg;
		return -1;
	case OPT_PREFIX:
		a->o.prefix = optarg;
		return -1;
	case 'i':
		if (!parse_duration(optarg, &a->o.interval))
			return -1;
		return cmd_usage_error("fleet", "--interval wants a duration (15, 15s, 1m): '%s'",
				       optarg);
	case OPT_TIMEOUT:
		if (!parse_duration(optarg, &a->o.timeout))
			return -1;
		return cmd_usage_error("fleet", "--timeout wants a duration (30, 30s): '%s'",
				       optarg);
	case 'j':
		a->json = true;
		return -1;
	case OPT_PRETTY:
		a->json = a->pretty = true;
		return -1;
	case 'h':
		fputs(triage_help_fleet, stdout);
		return EXIT_OK;
	default:
		return -2;
	}
}

/* One time option into *out; -1 to go on, else the usage error's status. */
static int parse_when(const char *opt, const char *s, double now, double *out)
{
	if (!record_parse_time(s, now, out))
		return -1;
	return cmd_usage_error(
	    "fleet", "%s wants a time (2026-12-02T03:10:00Z, @1764645000, 10m ago): '%s'", opt, s);
}

static int check_args(struct fleet_args *a)
{
	struct timespec ts;
	double now;
	int st;

	if (!a->o.url)
		return cmd_usage_error("fleet",
				       "no store given: --prometheus URL or --graphite URL");
	if (a->o.store == FLEET_PROMETHEUS && a->o.prefix)
		return cmd_usage_error("fleet", "--prefix is for --graphite");
	if (a->o.store == FLEET_GRAPHITE && (a->o.match || a->o.host_label))
		return cmd_usage_error("fleet", "--match and --host-label are for --prometheus");
	if (a->o.match && strpbrk(a->o.match, "{}"))
		return cmd_usage_error(
		    "fleet", "--match takes matchers without braces (job=\"triage\"): '%s'",
		    a->o.match);
	if (a->at && (a->from || a->to))
		return cmd_usage_error("fleet",
				       "--at is an instant; --from and --to a range: not both");
	if (a->to && !a->from)
		return cmd_usage_error("fleet", "--to needs --from");
	clock_gettime(CLOCK_REALTIME, &ts);
	now = (double)ts.tv_sec + ts.tv_nsec / 1e9;
	a->o.at = now;
	if (a->at && (st = parse_when("--at", a->at, now, &a->o.at)) >= 0)
		return st;
	if (a->from) {
		a->o.range = true;
		a->o.to = now;
		if ((st = parse_when("--from", a->from, now, &a->o.from)) >= 0)
			return st;
		if (a->to && (st = parse_when("--to", a->to, now, &a->o.to)) >= 0)
			return st;
		if (a->o.to <= a->o.from)
			return cmd_usage_error("fleet", "--from must come before --to");
	}
	return -1;
}

int cmd_fleet(int argc, char **argv)
{
	const struct option longopts[] = {
		{ "prometheus", required_argument, NULL, OPT_PROM },
		{ "graphite", required_argument, NULL, OPT_GRAPHITE },
		{ "at", required_argument, NULL, OPT_AT },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "match", required_argument, NULL, OPT_MATCH },
		{ "host-label", required_argument, NULL, OPT_HOST_LABEL },
		{ "prefix", required_argument, NULL, OPT_PREFIX },
		{ "interval", required_argument, NULL, 'i' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, OPT_PRETTY },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct fleet_args a = { .o = { .interval = 60, .timeout = 30 } };
	struct fleet_result r;
	char err[FLEET_ERR_MAX + 128];
	int st = cmd_getopt_loop("fleet", argc, argv, ":i:jh", longopts, parse_opt, &a), rc;

	if (st >= 0)
		return st;
	if ((st = cmd_no_operands("fleet", argc, argv)) >= 0 || (st = check_args(&a)) >= 0)
		return st;
	rc = fleet_run(&a.o, &r, err, sizeof(err));
	if (rc) {
		cmd_error("fleet", "%s", err);
		return EXIT_RUNTIME;
	}
	rc = a.json ? fleet_render_json(&r, stdout, a.pretty) : fleet_render_plain(&r, stdout);
	fleet_result_release(&r);
	return rc ? cmd_stdout_failed(EXIT_RUNTIME, -rc) : EXIT_OK;
}
