/*
 * triage collect: a long-running collector that feeds Graphite (plaintext
 * over TCP) and Prometheus (/metrics) with the numbers pidstat, load and
 * report read, through the same cores (docs/collect.md).
 */
#ifndef TRIAGE_COLLECT_H
#define TRIAGE_COLLECT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "collect/groups.h"
#include "collect/webconfig.h"
#include "runloop/stop.h"

struct collect_opts {
	unsigned interval;	/* seconds; timestamps align to multiples of it */
	const char *graphite;	/* "HOST:PORT" or NULL */
	const char *listen;	/* "ADDR:PORT" or NULL */
	int listen_fd;		/* with listen: its socket (http_listen), taken over */
	struct web_config *web; /* with listen: TLS and users, or NULL */
	const char *prefix;	/* Graphite prefix (sanitised here) */
	enum group_by group_by;
	unsigned top;	   /* at most this many groups */
	const pid_t *pids; /* only these processes (npids 0: all) */
	size_t npids;
	bool once;		 /* one sample, Graphite lines to out, then return */
	bool json;		 /* once: one JSON document instead of Graphite lines */
	unsigned buffer_seconds; /* Graphite buffer: this many seconds of intervals */
	unsigned buffer_mb;	 /* and at most this many MiB of lines */
	const char *root;	 /* procfs root */
	long fd_budget;
	FILE *out; /* --once output */
	FILE *err; /* warnings (connection state changes) */
	/* armed before collect_run, so the HTTP thread inherits the blocked stop signals */
	struct runloop_stop *stop;
};

/* The default prefix: "triage.<short hostname>" into buf. */
void collect_default_prefix(const char *nodename, char *buf, size_t size);

/*
 * Runs until a stop signal (or one sample with once). On a stop, sends what the
 * Graphite buffer holds (for a few seconds at most). Returns 0, or -errno:
 * -ENOENT no /proc at root.
 */
int collect_run(const struct collect_opts *o);

#endif
