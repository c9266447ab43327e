/*
 * triage fleet: the findings `triage collect` exported from every host,
 * read back from Prometheus or graphite-web and shown the report's way,
 * one block per kind naming its hosts and subjects, with each host's next
 * command. Hosts that stopped reporting are a finding of their own.
 *
 * Stages, each data in and out:
 *   query    (query.c)     options -> the URLs to ask (PromQL, render targets)
 *   fetch    (fetch.c)     URL -> body (libcurl, loaded at first use)
 *   parse    (parse.c)     body -> struct fleet_series (json-c, loaded at first use)
 *   analyze  (analyze.c)   series -> struct fleet_result (groups by kind and host,
 *                          intervals over a range, stopped hosts)
 *   render   (render.c)    result -> plain text or JSON (util/json.c)
 * run.c strings them together. Nothing here exits; functions return 0 or -errno.
 */
#ifndef TRIAGE_FLEET_H
#define TRIAGE_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FLEET_NAME_MAX 256
#define FLEET_RULE_MAX 64
#define FLEET_ERR_MAX 512
/*
 * How far back an instant view looks for hosts that stopped reporting:
 * Prometheus answers an hour in one subquery; graphite-web reads every
 * point of every series in the window (3,600 a series at a 1 s step), so
 * it is asked for ten minutes.
 */
#define FLEET_LOOKBACK_S 3600
#define FLEET_GRAPHITE_LOOKBACK_S 600
/* The kind name of a host that stopped reporting (not a report kind). */
#define FLEET_STOPPED "stopped-reporting"

enum fleet_store { FLEET_PROMETHEUS, FLEET_GRAPHITE };

struct fleet_opts {
	enum fleet_store store;
	const char *url;	/* the store's base URL */
	const char *match;	/* Prometheus: label matchers added to every selector, or NULL */
	const char *host_label; /* Prometheus: the label naming the host (default "instance") */
	const char *prefix;	/* Graphite: the hosts' prefixes, a pattern ("triage.*") */
	bool range;		/* from..to, else the instant at */
	double at, from, to;	/* seconds since the epoch */
	double interval;	/* seconds between a host's samples (scrape or whisper step) */
	double timeout;		/* seconds for each HTTP request */
};

/* What a series holds. */
enum fleet_what {
	FW_SEVERITY, /* a finding's severity: 3 critical, 2 warning, 1 info */
	FW_VALUE,    /* a finding's headline figure */
	FW_SEEN,     /* a host's sample times (Prometheus: its last one, as the value) */
	FW_UP,	     /* Prometheus' up, where it is 0 */
	FW_STALE,    /* Prometheus over a range: the steps a known host had no sample for 2
			intervals */
	FW_QUIET,    /* Prometheus: a host known in the look-back window it no longer sees */
	FW_LAST,     /* Prometheus: a quiet host's last sample time, as the value */
	FW_BEFORE,   /* Prometheus over a range: a host's last sample time before the range */
};

/* One series of one host, its points in time order. */
struct fleet_series {
	enum fleet_what what;
	char host[FLEET_NAME_MAX];
	char rule[FLEET_RULE_MAX];
	char subject[FLEET_NAME_MAX];
	size_t n, cap;
	double *t, *v;
};

struct fleet_series_set {
	struct fleet_series *s;
	size_t n, cap;
};

void fleet_series_release(struct fleet_series_set *set);

/* ---- query.c ---- */

/* Percent-encodes s (RFC 3986 unreserved bytes pass) into out; -ENOSPC if it does not fit. */
int fleet_url_encode(const char *s, char *out, size_t size);
/*
 * The PromQL of one series kind for o, into buf. Over a range, only
 * FW_SEVERITY, FW_VALUE and FW_STALE are range queries; FW_SEEN, FW_QUIET
 * and FW_LAST are asked at the range's end about the range and the hour
 * before it. FW_LAST and FW_BEFORE here name no hosts (every host: see
 * fleet_promql_last). -ENOSPC if it does not fit, -EINVAL for a match
 * holding a brace (it goes inside one selector's braces).
 */
int fleet_promql(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size);
/* The query or query_range URL of one series kind. */
int fleet_prom_url(const struct fleet_opts *o, enum fleet_what what, char *buf, size_t size);
/* The instant an instant query of what is asked at (the range's end; FW_BEFORE its start). */
double fleet_prom_time(const struct fleet_opts *o, enum fleet_what what);
/*
 * FW_LAST or FW_BEFORE: the exact last sample time of the hosts named, as
 * many of hosts[0..n) as fit one query (*taken says how many; a name that
 * cannot be a regex literal asks about every host). Walking back through
 * the window at every interval costs Prometheus per host walked: only the
 * few hosts it no longer sees are.
 */
int fleet_promql_last(const struct fleet_opts *o, enum fleet_what what, const char *const *hosts,
		      size_t n, size_t *taken, char *buf, size_t size);
int fleet_prom_last_url(const struct fleet_opts *o, enum fleet_what what, const char *const *hosts,
			size_t n, size_t *taken, char *buf, size_t size);
/* The step of a range query: the interval, widened to stay under Prometheus' 11,000 points. */
double fleet_prom_step(const struct fleet_opts *o);
/* The graphite-web render URL asking for every series fleet reads (format=json). */
int fleet_graphite_url(const struct fleet_opts *o, char *buf, size_t size);

/* ---- fetch.c ---- */

/*
 * GETs url; *body (malloc'd, NUL-terminated) and *len on success. An HTTP
 * status other than 200 still returns the body (Prometheus explains its
 * 400s in it) with *status set. -EIO with err filled when no answer came.
 */
int fleet_http_get(const char *url, double timeout, char **body, size_t *len, long *status,
		   char *err, size_t errsize);

/* ---- parse.c ---- */

/*
 * Prometheus' /api/v1/query or query_range answer (a vector or a matrix)
 * into series of kind what, the host from label host_label. -EPROTO with
 * err filled (Prometheus' own error text when it sent one).
 */
int fleet_parse_prom(const char *body, size_t len, enum fleet_what what, const char *host_label,
		     struct fleet_series_set *out, char *err, size_t errsize);
/*
 * graphite-web's /render?format=json answer into series; each target's path
 * is split by prefix (the host: the components where the pattern has a
 * wildcard, else the whole prefix). Null points are left out.
 */
int fleet_parse_graphite(const char *body, size_t len, const char *prefix,
			 struct fleet_series_set *out, char *err, size_t errsize);
/* One graphite path split by prefix into what, host, rule and subject; false when it is none of
 * ours. */
bool fleet_graphite_path(const char *path, const char *prefix, struct fleet_series *s);

/* ---- analyze.c ---- */

/* One stretch of time a finding held (range) or the instant it held. */
struct fleet_span {
	double start, end;
	bool open; /* still held at the end of the range */
};

/* One host's finding of a kind about one subject. */
struct fleet_entry {
	char host[FLEET_NAME_MAX];
	char subject[FLEET_NAME_MAX];
	int sev;      /* 3 critical, 2 warning, 1 info */
	double value; /* the headline figure (instant) or its peak (range); NaN: none */
	double last_seen;
	bool up_zero; /* stopped-reporting: Prometheus' up is 0 */
	struct fleet_span *spans;
	size_t nspans;
};

/* One kind: every host and subject that has it. */
struct fleet_group {
	char rule[FLEET_RULE_MAX];
	int sev; /* the worst of its entries */
	size_t nhosts;
	struct fleet_entry *e;
	size_t n, cap;
};

struct fleet_result {
	const struct fleet_opts *o;
	size_t nhosts, nstopped, nwith_findings;
	struct fleet_group *g; /* stopped-reporting first, then worst severity, then kind order */
	size_t ng, cap;
};

/* Groups the series by kind, host and subject; stopped hosts; spans over a range. */
int fleet_analyze(const struct fleet_opts *o, const struct fleet_series_set *set,
		  struct fleet_result *r);
void fleet_result_release(struct fleet_result *r);

/* ---- render.c ---- */

/*
 * The next command to run on a host for a finding of rule about subject:
 * the kinds table's template, the subject shell-quoted. "" when the rule
 * is not a report kind.
 */
void fleet_next_command(const char *rule, const char *subject, char *buf, size_t size);
/* The words after a rule's headline figure ("%", " zombies"), or "" for none. */
const char *fleet_figure_unit(const char *rule);
int fleet_render_plain(const struct fleet_result *r, FILE *out);
int fleet_render_json(const struct fleet_result *r, FILE *out, bool pretty);

/* ---- run.c ---- */

/* Asks the store, parses and analyzes: r on success; err says why not (-EIO, -EPROTO). */
int fleet_run(const struct fleet_opts *o, struct fleet_result *r, char *err, size_t errsize);

#endif
