/* Alerting and recording rules from the kinds table (see alertrules.h). */
#include "collect/alertrules.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "report/kinds.h"

void collect_alert_rules_defaults(struct collect_alert_rules_opts *o)
{
	/*
	 * A critical finding is already the report's verdict over a whole
	 * window, and some (an OOM kill, disk errors) are critical in one
	 * window only: alert at once. Warnings must last 5 minutes (30 windows
	 * of the default 10 s interval) so a burst does not page; info is for
	 * dashboards and a slow route.
	 */
	*o = (struct collect_alert_rules_opts){
		.job = "triage",
		.for_sev = { [SEV_CRITICAL] = "0s", [SEV_WARNING] = "5m", [SEV_INFO] = "15m" },
		.for_silent = "2m",
	};
}

int collect_alert_rules_duration_ok(const char *s)
{
	size_t digits = strspn(s, "0123456789");

	return digits > 0 && digits < 8 && s[digits] && strchr("smh", s[digits]) && !s[digits + 1];
}

int collect_alert_rules_job_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

/* "cpu-bound-user" -> "CpuBoundUser" */
static void camel(const char *kind, char *out, size_t size)
{
	size_t o = 0;
	int up = 1;

	for (; *kind && o + 1 < size; kind++) {
		if (*kind == '-') {
			up = 1;
			continue;
		}
		out[o++] = up ? (char)toupper((unsigned char)*kind) : *kind;
		up = 0;
	}
	out[o] = '\0';
}

/*
 * A label of the finding's triage_report_finding_info series, read when the
 * alert is sent (the words change with the figures; the alert's labels must
 * not). %q quotes as Go does, which PromQL's strings accept.
 */
static void info_annotation(FILE *f, const char *key, const char *label)
{
	fprintf(f,
		"          %s: '{{ with printf \"triage_report_finding_info{job=%%q,"
		"instance=%%q,rule=%%q,subject=%%q}\" $labels.job $labels.instance "
		"$labels.rule $labels.subject | query }}{{ with first . }}"
		"{{ label \"%s\" . }}{{ end }}{{ end }}'\n",
		key, label);
}

static void kind_alert(const struct collect_alert_rules_opts *o, const struct report_kind_row *r,
		       enum report_sev sev, FILE *f)
{
	static const int value[] = { [SEV_CRITICAL] = 3, [SEV_WARNING] = 2, [SEV_INFO] = 1 };
	const char *sname = report_sev_name(sev);
	char name[64], sev_camel[16];

	camel(r->name, name, sizeof(name));
	camel(sname, sev_camel, sizeof(sev_camel));
	fprintf(f, "      - alert: Triage%s%s\n", name, sev_camel);
	fprintf(f, "        expr: triage_report_finding_severity{job=\"%s\",rule=\"%s\"} == %d\n",
		o->job, r->name, value[sev]);
	fprintf(f, "        for: %s\n", o->for_sev[sev]);
	fprintf(f, "        labels:\n");
	fprintf(f, "          severity: %s\n", sname);
	fprintf(f, "          resource: %s\n", report_resource_name(r->resource));
	fprintf(f, "        annotations:\n");
	fprintf(f, "          summary: '%s on {{ $labels.instance }}: {{ $labels.subject }}'\n",
		r->name);
	info_annotation(f, "sentence", "sentence");
	info_annotation(f, "next", "next");
	fprintf(f, "          doc: 'docs/%s'\n", r->anchor);
}

static void findings_group(const struct collect_alert_rules_opts *o, FILE *f)
{
	fprintf(f, "  - name: triage-findings\n    rules:\n");
	for (int k = 0; k < RK_COUNT; k++)
		for (int s = SEV_CRITICAL; s <= SEV_INFO; s++)
			kind_alert(o, report_kind_row((enum report_kind)k), (enum report_sev)s, f);
}

static void silent_group(const struct collect_alert_rules_opts *o, FILE *f)
{
	fprintf(f, "  - name: triage-hosts\n    rules:\n");
	fprintf(f, "      - alert: TriageHostDown\n");
	fprintf(f, "        expr: up{job=\"%s\"} == 0\n", o->job);
	fprintf(f, "        for: %s\n", o->for_silent);
	fprintf(f, "        labels:\n          severity: warning\n          resource: host\n");
	fprintf(f, "        annotations:\n");
	fprintf(f, "          summary: '{{ $labels.instance }} stopped reporting: its collector "
		   "does not answer the scrape'\n");
	fprintf(f,
		"          next: 'systemctl status triage-collect (on {{ $labels.instance }})'\n");
	/* reported lately, not now, and not already down above: dropped from discovery */
	fprintf(f, "      - alert: TriageHostAbsent\n");
	fprintf(
	    f,
	    "        expr: max_over_time(triage_report_findings{job=\"%s\",severity=\"critical\"}"
	    "[15m]) unless on(job, instance) triage_report_findings{job=\"%s\","
	    "severity=\"critical\"} unless on(job, instance) (up{job=\"%s\"} == 0)\n",
	    o->job, o->job, o->job);
	fprintf(f, "        for: %s\n", o->for_silent);
	fprintf(f, "        labels:\n          severity: warning\n          resource: host\n");
	fprintf(f, "        annotations:\n");
	fprintf(f, "          summary: '{{ $labels.instance }} stopped reporting: its findings "
		   "are gone from Prometheus'\n");
	fprintf(f, "          next: 'check the scrape configuration for {{ $labels.instance }}'\n");
}

static void record(FILE *f, const char *name, const char *expr)
{
	fprintf(f, "      - record: %s\n        expr: %s\n", name, expr);
}

static void fleet_group(const struct collect_alert_rules_opts *o, FILE *f)
{
	char e[512];

	fprintf(f, "  - name: triage-fleet\n    rules:\n");
	snprintf(e, sizeof(e),
		 "count by (job, rule) (max by (job, instance, rule) "
		 "(triage_report_finding_severity{job=\"%s\"}))",
		 o->job);
	record(f, "rule:triage_report_finding_severity:hosts", e);
	snprintf(e, sizeof(e),
		 "max by (job, instance) (triage_report_finding_severity{job=\"%s\"})", o->job);
	record(f, "instance:triage_report_finding_severity:max", e);
	snprintf(e, sizeof(e), "sum by (job, severity) (triage_report_findings{job=\"%s\"})",
		 o->job);
	record(f, "severity:triage_report_findings:sum", e);
	snprintf(e, sizeof(e), "count by (job) (up{job=\"%s\"} == 1)", o->job);
	record(f, "job:triage_hosts_reporting:count", e);
	snprintf(e, sizeof(e), "count by (job) (up{job=\"%s\"})", o->job);
	record(f, "job:triage_hosts:count", e);
}

int collect_alert_rules_render(const struct collect_alert_rules_opts *o, FILE *f)
{
	fprintf(f,
		"# Prometheus rules for triage collect, generated from the report's kinds\n"
		"# table (src/report/kinds.c) by src/collect/alertrules.c: do not edit, run\n"
		"# make rules. docs/fleet.md explains the alerts, for: and labels.\n"
		"# Scrape job: %s. for: critical %s, warning %s, info %s, silent hosts %s.\n",
		o->job, o->for_sev[SEV_CRITICAL], o->for_sev[SEV_WARNING], o->for_sev[SEV_INFO],
		o->for_silent);
	fprintf(f, "groups:\n");
	findings_group(o, f);
	silent_group(o, f);
	fleet_group(o, f);
	return ferror(f) ? -EIO : 0;
}
