/* One fleet view: ask the store, parse, analyze (see fleet.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "util/text.h"

#define URL_MAX 16384

/* GETs url and checks the answer came; err names the URL's store on failure. */
static int get(const struct fleet_opts *o, const char *url, char **body, size_t *len, char *err,
	       size_t errsize)
{
	char why[FLEET_ERR_MAX];
	long status = 0;
	int rc = fleet_http_get(url, o->timeout, body, len, &status, why, sizeof(why));

	if (rc) {
		snprintf(err, errsize, "cannot reach %s: %s",
			 o->store == FLEET_PROMETHEUS ? "Prometheus" : "graphite-web", why);
		return rc;
	}
	/* Prometheus explains a bad query (400, 422) in a JSON body: the parser says it */
	if (status != 200 && !(o->store == FLEET_PROMETHEUS && (status == 400 || status == 422))) {
		char head[160];

		text_sanitize(head, sizeof(head), *body);
		snprintf(err, errsize, "%s answered HTTP %ld: %.120s",
			 o->store == FLEET_PROMETHEUS ? "Prometheus" : "graphite-web", status,
			 head);
		free(*body);
		return -EPROTO;
	}
	return 0;
}

/* GETs url and parses Prometheus' answer into set as what. */
static int ask_prom(const struct fleet_opts *o, const char *url, enum fleet_what what,
		    struct fleet_series_set *set, char *err, size_t errsize)
{
	char *body;
	size_t len;
	int rc = get(o, url, &body, &len, err, errsize);

	if (rc)
		return rc;
	rc = fleet_parse_prom(body, len, what, o->host_label, set, err, errsize);
	free(body);
	return rc;
}

/*
 * The hosts of the series of kind what in set (first_only: those whose
 * first point is the range's start), copied: set grows (and moves) as the
 * answers about them arrive. *names is NULL when there are none.
 */
static int hosts_of(const struct fleet_opts *o, const struct fleet_series_set *set,
		    enum fleet_what what, bool first_only, const char ***names, size_t *n)
{
	double half = fleet_prom_step(o) / 2;
	char(*copy)[FLEET_NAME_MAX] = NULL;
	size_t cnt = 0;

	*names = NULL;
	*n = 0;
	for (size_t i = 0; i < set->n; i++)
		cnt += set->s[i].what == what;
	if (!cnt)
		return 0;
	/* one block: the pointers, then the names they point at */
	if (!(*names = calloc(1, cnt * (sizeof(**names) + FLEET_NAME_MAX))))
		return -ENOMEM;
	copy = (char(*)[FLEET_NAME_MAX])(*names + cnt);
	for (size_t i = 0; i < set->n; i++) {
		const struct fleet_series *s = &set->s[i];

		if (s->what != what || (first_only && (!s->n || s->t[0] > o->from + half)))
			continue;
		text_copy(copy[*n], FLEET_NAME_MAX, s->host);
		(*names)[*n] = copy[*n];
		(*n)++;
	}
	return 0;
}

/* FW_LAST or FW_BEFORE about names[0..n), as few queries as fit. */
static int ask_last(const struct fleet_opts *o, enum fleet_what what, const char **names, size_t n,
		    char *url, struct fleet_series_set *set, char *err, size_t errsize)
{
	int rc = 0;

	for (size_t done = 0, k; done < n && !rc; done += k) {
		rc = fleet_prom_last_url(o, what, names + done, n - done, &k, url, URL_MAX);
		if (rc)
			snprintf(err, errsize, "--match does not fit a selector");
		else
			rc = ask_prom(o, url, what, set, err, errsize);
	}
	return rc;
}

/*
 * The cheap questions first (findings, each seen host's last sample, the
 * quiet hosts, up or the stale steps); then the walk back to the last
 * sample for the quiet hosts only, and over a range for the hosts already
 * quiet at its start.
 */
static int from_prometheus(const struct fleet_opts *o, struct fleet_series_set *set, char *err,
			   size_t errsize)
{
	const enum fleet_what asks[] = { FW_SEVERITY, FW_VALUE, FW_SEEN, FW_QUIET,
					 o->range ? FW_STALE : FW_UP };
	const char **names = NULL;
	char *url = malloc(URL_MAX);
	size_t n = 0;
	int rc = url ? 0 : -ENOMEM;

	for (size_t i = 0; i < sizeof(asks) / sizeof(asks[0]) && !rc; i++) {
		if ((rc = fleet_prom_url(o, asks[i], url, URL_MAX)))
			snprintf(err, errsize, "--match does not fit a selector");
		else
			rc = ask_prom(o, url, asks[i], set, err, errsize);
	}
	if (!rc && (rc = hosts_of(o, set, FW_QUIET, false, &names, &n)))
		snprintf(err, errsize, "out of memory");
	if (!rc && n)
		rc = ask_last(o, FW_LAST, names, n, url, set, err, errsize);
	free(names);
	names = NULL;
	if (!rc && o->range && (rc = hosts_of(o, set, FW_STALE, true, &names, &n)))
		snprintf(err, errsize, "out of memory");
	if (!rc && o->range && n)
		rc = ask_last(o, FW_BEFORE, names, n, url, set, err, errsize);
	free(names);
	free(url);
	return rc;
}

static int from_graphite(const struct fleet_opts *o, struct fleet_series_set *set, char *err,
			 size_t errsize)
{
	char *url = malloc(URL_MAX), *body;
	size_t len;
	int rc = url ? fleet_graphite_url(o, url, URL_MAX) : -ENOMEM;

	if (rc) {
		snprintf(err, errsize, "--prefix too long");
	} else if (!(rc = get(o, url, &body, &len, err, errsize))) {
		rc = fleet_parse_graphite(body, len, o->prefix, set, err, errsize);
		free(body);
	}
	free(url);
	return rc;
}

int fleet_run(const struct fleet_opts *o, struct fleet_result *r, char *err, size_t errsize)
{
	struct fleet_series_set set = { 0 };
	int rc = o->store == FLEET_PROMETHEUS ? from_prometheus(o, &set, err, errsize)
					      : from_graphite(o, &set, err, errsize);

	if (!rc && (rc = fleet_analyze(o, &set, r)))
		snprintf(err, errsize, "out of memory");
	fleet_series_release(&set);
	return rc;
}
