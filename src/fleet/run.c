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

static int from_prometheus(const struct fleet_opts *o, struct fleet_series_set *set, char *err,
			   size_t errsize)
{
	/* over a range, stopped hosts are the stale steps, not up */
	const enum fleet_what asks[] = { FW_SEVERITY, FW_VALUE, FW_SEEN,
					 o->range ? FW_STALE : FW_UP };
	size_t nask = 4;
	char *url = malloc(URL_MAX);
	int rc = url ? 0 : -ENOMEM;

	for (size_t i = 0; i < nask && !rc; i++) {
		char *body;
		size_t len;

		rc = fleet_prom_url(o, asks[i], url, URL_MAX);
		if (rc) {
			snprintf(err, errsize, "--match does not fit a selector");
			break;
		}
		if ((rc = get(o, url, &body, &len, err, errsize)))
			break;
		rc = fleet_parse_prom(body, len, asks[i], o->host_label, set, err, errsize);
		free(body);
	}
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
