/*
 * triage collect [-i SECONDS] [--graphite HOST:PORT] [--listen [ADDR:]PORT]
 *                [--prefix P] [--group comm|cgroup|pid] [--top N] [-p PID,...]
 *                [--buffer SECONDS] [--once [--json]] [--root DIR]
 * Feeds Graphite and Prometheus with per-process groups and host figures
 * (src/collect/, docs/collect.md).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "collect/collect.h"
#include "collect/http.h"
#include "common.h"
#include "runloop/stop.h"
#include "util/parse.h"

#define COLLECT_MAX_PIDS 1024
#define COLLECT_MAX_INTERVAL 3600
#define COLLECT_DEFAULT_BUFFER 900 /* 15 minutes of Graphite points */

struct collect_cli {
	struct collect_opts o;
	pid_t pids[COLLECT_MAX_PIDS];
};

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "Usage: triage collect [-i SECONDS] [--graphite HOST:PORT] [--listen [ADDR:]PORT]\n"
	    "                      [--prefix P] [--group comm|cgroup|pid] [--top N]\n"
	    "                      [-p PID,...] [--buffer SECONDS] [--once [--json]]\n"
	    "                      [--root DIR]\n"
	    "\n"
	    "Feeds Graphite (plaintext over TCP) and Prometheus (/metrics) with CPU,\n"
	    "switches, run-queue delay, memory and I/O per group of processes, the\n"
	    "host's CPU, load, pressure, memory, disks and network, and the findings of\n"
	    "triage report over each interval (docs/collect.md).\n"
	    "\n"
	    "  -i, --interval S     seconds between samples (default 10); timestamps align to it\n"
	    "      --graphite H:P   send to carbon at H:P (plaintext protocol)\n"
	    "      --listen [A:]P   serve /metrics, /report and /healthz at A:P; without A,\n"
	    "                       127.0.0.1 (0.0.0.0:P or [::]:P for every interface)\n"
	    "      --prefix P       Graphite prefix (default triage.<short hostname>)\n"
	    "      --group BY       comm (default), cgroup, or pid (one group per process)\n"
	    "      --top N          at most N groups, the busiest by CPU (default 50)\n"
	    "  -p, --pid PID,...    only these processes\n"
	    "      --buffer S       keep up to S seconds of Graphite points while carbon\n"
	    "                       is away (default %d)\n"
	    "      --once           one sample, Graphite lines on stdout, then exit\n"
	    "  -j, --json           with --once: one JSON document instead\n"
	    "      --root DIR       read DIR/proc instead of /proc\n"
	    "\n"
	    "SIGTERM or SIGINT: sends what is buffered (5 s at most), then exits 0.\n"
	    "Exit status: 0 ok, 1 runtime failure, 2 usage error, 3 no /proc.\n",
	    COLLECT_DEFAULT_BUFFER);
}

/* "HOST:PORT" with a host and a port number. */
static bool graphite_ok(const char *s)
{
	const char *colon = strrchr(s, ':');
	unsigned port;

	return colon && colon != s && !parse_uint(colon + 1, 1, 65535, &port);
}

static int parse_group(const char *s, enum group_by *out)
{
	static const char *const names[] = { "comm", "cgroup", "pid" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum group_by)i;
			return 0;
		}
	return -EINVAL;
}

/* A usage error: one line naming the token (if there is one), then where help is. */
static int usage_error(const char *what, const char *token)
{
	if (token)
		cmd_error("collect", "%s: '%s'", what, token);
	else
		cmd_error("collect", "%s", what);
	fputs("see 'triage collect --help'\n", stderr);
	return EXIT_USAGE;
}

static int bad(const char *opt, const char *arg, const char *want)
{
	char what[128];

	snprintf(what, sizeof(what), "%s wants %s", opt, want);
	return usage_error(what, arg);
}

/* An address the HTTP server will take: checked here, so a typo is a usage error. */
static bool listen_ok(const char *addr)
{
	struct sockaddr_storage ss;
	socklen_t len;

	return !http_parse_addr(addr, &ss, &len);
}

/* One option; returns -1 to go on, else the exit status. */
static int parse_opt(int ch, const char *tok, struct collect_cli *c)
{
	switch (ch) {
	case 'i':
		return parse_uint(optarg, 1, COLLECT_MAX_INTERVAL, &c->o.interval)
			   ? bad("-i", optarg, "whole seconds, 1 to 3600")
			   : -1;
	case 'g':
		c->o.graphite = optarg;
		return graphite_ok(optarg) ? -1 : bad("--graphite", optarg, "HOST:PORT");
	case 'l':
		c->o.listen = optarg;
		return listen_ok(optarg)
			   ? -1
			   : bad("--listen", optarg, "[ADDR:]PORT, ADDR an IP address");
	case 'P':
		c->o.prefix = optarg;
		return -1;
	case 'G':
		return parse_group(optarg, &c->o.group_by)
			   ? bad("--group", optarg, "comm, cgroup or pid")
			   : -1;
	case 't':
		return parse_uint(optarg, 1, GROUPS_KEEP, &c->o.top)
			   ? bad("--top", optarg, "1 to 4096 groups")
			   : -1;
	case 'p':
		return parse_pid_list(optarg, c->pids, COLLECT_MAX_PIDS, &c->o.npids)
			   ? bad("-p", optarg, "PIDs separated by commas")
			   : -1;
	case 'b':
		return parse_uint(optarg, 1, 7 * 86400, &c->o.buffer_seconds)
			   ? bad("--buffer", optarg, "seconds, 1 to 604800")
			   : -1;
	case 'o':
		c->o.once = true;
		return -1;
	case 'j':
		c->o.json = true;
		return -1;
	case 'r':
		c->o.root = optarg;
		return -1;
	case 'h':
		usage(stdout);
		return EXIT_OK;
	case ':':
		return usage_error("option needs a value", tok);
	default:
		return usage_error("unknown option", tok);
	}
}

static int parse_args(int argc, char **argv, struct collect_cli *c)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "graphite", required_argument, NULL, 'g' },
		{ "listen", required_argument, NULL, 'l' },
		{ "prefix", required_argument, NULL, 'P' },
		{ "group", required_argument, NULL, 'G' },
		{ "top", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "once", no_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, status;

	optind = 1;
	opterr = 0; /* our own one-line errors */
	while ((ch = getopt_long(argc, argv, ":i:p:jh", longopts, NULL)) != -1) {
		char shortopt[3] = { '-', (char)optopt, '\0' };
		/* the option getopt stopped at: a long one as typed, a short one by its letter */
		const char *tok =
		    strncmp(argv[optind - 1], "--", 2) && optopt ? shortopt : argv[optind - 1];

		if ((status = parse_opt(ch, tok, c)) >= 0)
			return status;
	}
	if (optind < argc)
		return usage_error("unexpected argument", argv[optind]);
	if (!c->o.once && !c->o.graphite && !c->o.listen)
		return usage_error("nothing to feed: give --graphite, --listen or --once", NULL);
	if (c->o.json && !c->o.once)
		return usage_error("--json goes with --once (/report serves JSON)", "--json");
	c->o.pids = c->o.npids ? c->pids : NULL;
	return -1;
}

int cmd_collect(int argc, char **argv)
{
	struct collect_cli c = { .o = { .interval = 10,
					.top = 50,
					.buffer_seconds = COLLECT_DEFAULT_BUFFER,
					.out = stdout,
					.err = stderr } };
	struct runloop_stop stop;
	int status = parse_args(argc, argv, &c), rc;

	if (status >= 0)
		return status;
	runloop_stop_init(&stop);
	runloop_stop_arm(&stop);
	signal(SIGPIPE, SIG_IGN); /* a peer that went away is an error return, not a death */
	c.o.stop = &stop;
	c.o.fd_budget = c.o.root ? 0 : cmd_fd_budget();
	rc = collect_run(&c.o);
	if (rc == -ENOENT || rc == -EACCES || rc == -EPERM) {
		cmd_error("collect", "cannot read %s/proc: %s", c.o.root ? c.o.root : "",
			  strerror(-rc));
		return EXIT_NOSUPPORT;
	}
	if (rc) {
		cmd_error("collect", "%s", strerror(-rc));
		return EXIT_RUNTIME;
	}
	return EXIT_OK; /* main checks stdout (--once) */
}
