/*
 * Prometheus alerting and recording rules over the series triage collect
 * exports, made from the report's kinds table: one alert per kind and
 * severity, two for a host that stopped reporting, and the recording rules
 * of a fleet view. contrib/prometheus/triage.rules.yml is this output with
 * the defaults; docs/fleet.md explains it. Pure: options in, YAML out.
 */
#ifndef TRIAGE_COLLECT_ALERTRULES_H
#define TRIAGE_COLLECT_ALERTRULES_H

#include <stdio.h>

#include "report/report.h"

struct collect_alert_rules_opts {
	const char *job;		   /* the scrape job of the collectors: "triage" */
	const char *for_sev[SEV_INFO + 1]; /* `for:` of each severity's alerts */
	const char *for_silent;		   /* `for:` of the host-stopped-reporting alerts */
};

/* The defaults: job "triage", for 2m critical, 5m warning, 15m info, 2m silent. */
void collect_alert_rules_defaults(struct collect_alert_rules_opts *o);

/* Whether s is a Prometheus duration we accept here ("0s", "90s", "5m", "1h"). */
int collect_alert_rules_duration_ok(const char *s);

/* Whether s is a job name that needs no quoting in YAML or PromQL ([A-Za-z0-9_.-]+). */
int collect_alert_rules_job_ok(const char *s);

/* Writes the rules file; 0 or -EIO. */
int collect_alert_rules_render(const struct collect_alert_rules_opts *o, FILE *f);

#endif
