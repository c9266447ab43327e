/*
 * triage collect [-i DURATION] [--graphite HOST:PORT] [--listen [ADDR:]PORT]
 *                [--web.config.file FILE] [--prefix P] [--group comm|cgroup|pid]
 *                [--top N] [-p PID,...] [--buffer DURATION] [--buffer-size MB]
 *                [--once [--json]] [--root DIR]
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
#include "help/collect.h"
#include "runloop/stop.h"
#include "util/parse.h"

#define COLLECT_MAX_PIDS 1024
#define COLLECT_MAX_INTERVAL 3600
#define COLLECT_DEFAULT_BUFFER 900 /* 15 minutes of Graphite points */
#define COLLECT_DEFAULT_BUFFER_MB                                       \
	64 /* and at most 64 MiB of them (the unit's MemoryMax is 256M) \
	    */

struct collect_cli {
	struct collect_opts o;
	const char *web_file;
	struct web_config web;
	pid_t pids[COLLECT_MAX_PIDS];
};

/* "HOST:PORT" with a host and a port number. */
static bool graphite_ok(const char *s)
{
	const char *colon = strrchr(s, ':');
	unsigned port;

	return colon && colon != s && !parse_uint(colon + 1, 1, 65535, &port);
}

/* A duration of whole seconds, 1 to max ("10", "10s", "1m"; not "1500ms"). */
static int parse_whole_seconds(const char *s, unsigned max, unsigned *out)
{
	double d;

	if (parse_duration(s, &d) || d < 1 || d > max || d != (double)(unsigned)d)
		return -EINVAL;
	*out = (unsigned)d;
	return 0;
}

/* --group's words, in enum group_by's order. */
static const char *const group_names[] = { "comm", "cgroup", "pid" };

static int bad(const char *opt, const char *arg, const char *want)
{
	return cmd_usage_error("collect", "%s wants %s: '%s'", opt, want, arg);
}

/* An address the HTTP server will take: checked here, so a typo is a usage error. */
static bool listen_ok(const char *addr)
{
	char host[256];
	unsigned port;

	return !http_split_addr(addr, host, sizeof(host), &port);
}

/* One option; returns -1 to go on, -2 for getopt's error, else the exit status. */
static int parse_opt(int ch, void *ctx)
{
	struct collect_cli *c = ctx;
	int k;

	switch (ch) {
	case 'i':
		return parse_whole_seconds(optarg, COLLECT_MAX_INTERVAL, &c->o.interval)
			   ? bad("-i", optarg, "a duration in whole seconds up to 1h: 10, 10s, 1m")
			   : -1;
	case 'g':
		c->o.graphite = optarg;
		return graphite_ok(optarg) ? -1 : bad("--graphite", optarg, "HOST:PORT");
	case 'l':
		c->o.listen = optarg;
		return listen_ok(optarg)
			   ? -1
			   : bad("--listen", optarg, "[HOST:]PORT (an IPv6 address in brackets)");
	case 'W':
		c->web_file = optarg;
		return -1;
	case 'P':
		c->o.prefix = optarg;
		return -1;
	case 'G':
		k = parse_keyword(optarg, group_names, ARRAY_SIZE(group_names));
		if (k < 0)
			return bad("--group", optarg, "comm, cgroup or pid");
		c->o.group_by = (enum group_by)k;
		return -1;
	case 't':
		return parse_uint(optarg, 1, GROUPS_KEEP, &c->o.top)
			   ? bad("--top", optarg, "1 to 4096 groups")
			   : -1;
	case 'p':
		return parse_pid_list(optarg, c->pids, COLLECT_MAX_PIDS, &c->o.npids)
			   ? bad("-p", optarg, "PIDs separated by commas")
			   : -1;
	case 'b':
		return parse_whole_seconds(optarg, 7 * 86400, &c->o.buffer_seconds)
			   ? bad("--buffer", optarg,
				 "a duration in whole seconds up to 7d: 900, 15m")
			   : -1;
	case 'B':
		return parse_uint(optarg, 1, 4096, &c->o.buffer_mb)
			   ? bad("--buffer-size", optarg, "MiB, 1 to 4096")
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
		fputs(triage_help_collect, stdout);
		return EXIT_OK;
	default: /* getopt's '?' and ':' */
		return -2;
	}
}

static int parse_args(int argc, char **argv, struct collect_cli *c)
{
	const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "graphite", required_argument, NULL, 'g' },
		{ "listen", required_argument, NULL, 'l' },
		{ "web.config.file", required_argument, NULL, 'W' },
		{ "prefix", required_argument, NULL, 'P' },
		{ "group", required_argument, NULL, 'G' },
		{ "top", required_argument, NULL, 't' },
		{ "pid", required_argument, NULL, 'p' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "buffer-size", required_argument, NULL, 'B' },
		{ "once", no_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int status = cmd_getopt_loop("collect", argc, argv, ":i:p:jh", longopts, parse_opt, c);

	if (status < 0)
		status = cmd_no_operands("collect", argc, argv);
	if (status >= 0)
		return status;
	if (!c->o.once && !c->o.graphite && !c->o.listen)
		return cmd_usage_error("collect", "nothing to feed: give --graphite, --listen or "
						  "--once");
	if (c->o.json && !c->o.once)
		return cmd_usage_error("collect", "--json goes with --once (/report serves JSON): "
						  "'--json'");
	if (c->web_file && !c->o.listen)
		return cmd_usage_error("collect", "--web.config.file goes with --listen: '%s'",
				       c->web_file);
	c->o.pids = c->o.npids ? c->pids : NULL;
	return -1;
}

/*
 * The web config and the listening socket, before sampling starts, so a
 * bad file or a taken port is one line: exit 2 for the file, 3 for a
 * privileged port, 1 for anything else.
 */
static int open_listener(struct collect_cli *c)
{
	char why[512];
	int rc;

	if (c->web_file) {
		rc = http_config_load(c->web_file, &c->web, why, sizeof(why));
		if (rc) {
			cmd_error("collect", "%s", why);
			return EXIT_USAGE;
		}
		c->o.web = &c->web;
	}
	rc = http_listen(c->o.listen, &c->o.listen_fd, why, sizeof(why));
	if (rc) {
		cmd_error("collect", "cannot listen on %s: %s", c->o.listen, why);
		return rc == -EACCES ? EXIT_NOSUPPORT : EXIT_RUNTIME;
	}
	return -1;
}

int cmd_collect(int argc, char **argv)
{
	struct collect_cli c = { .o = { .interval = 10,
					.top = 50,
					.buffer_seconds = COLLECT_DEFAULT_BUFFER,
					.buffer_mb = COLLECT_DEFAULT_BUFFER_MB,
					.out = stdout,
					.err = stderr } };
	struct runloop_stop stop;
	int status = parse_args(argc, argv, &c), rc;

	if (status < 0 && c.o.listen && !c.o.once)
		status = open_listener(&c);
	if (status >= 0) {
		if (c.o.web)
			http_config_release(&c.web);
		return status;
	}
	runloop_stop_init(&stop);
	runloop_stop_arm(&stop);
	/* a peer that went away is an error return, not a death; --once has no
	 * peer, and into a closed pipe it ends as pidstat | head does */
	if (!c.o.once)
		signal(SIGPIPE, SIG_IGN);
	c.o.stop = &stop;
	c.o.fd_budget = c.o.root ? 0 : cmd_fd_budget();
	if (c.o.listen && c.o.fd_budget) /* room for the HTTP connections */
		c.o.fd_budget = c.o.fd_budget > (long)HTTP_MAX_CONNECTIONS + 64
				    ? c.o.fd_budget - (long)HTTP_MAX_CONNECTIONS
				    : 64;
	rc = collect_run(&c.o);
	if (c.o.web)
		http_config_release(&c.web);
	if (rc == -EIO && c.o.once && ferror(stdout))
		return EXIT_OK; /* main says why stdout failed, once */
	if (rc == -ENOENT || rc == -EACCES || rc == -EPERM) {
		cmd_error("collect", "cannot read '%s/proc': %s", c.o.root ? c.o.root : "",
			  strerror(-rc));
		return cmd_errno_status(cmd_root_fault(c.o.root), rc);
	}
	if (rc) {
		cmd_error("collect", "%s", strerror(-rc));
		return cmd_errno_status(CMD_ON_SYSTEM, rc);
	}
	return EXIT_OK; /* main checks stdout (--once) */
}
