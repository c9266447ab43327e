/*
 * The report core's findings as metrics: how many of each severity, and
 * each finding (bounded, one series per rule and subject) with its
 * severity as the value, and its headline figure (the kinds table's
 * figure: a process's CPU %, a filesystem's % used) as a second gauge with
 * the same labels, so a fleet view can say "relay (94%)". Pure: findings in, samples out.
 */
#ifndef TRIAGE_COLLECT_FINDINGS_H
#define TRIAGE_COLLECT_FINDINGS_H

#include "collect/model.h"
#include "report/report.h"

/* The most findings exported one by one per sample (the counts cover all). */
#define COLLECT_MAX_FINDINGS 16

/* Appends the findings' metrics (M_REPORT_FINDINGS, M_REPORT_FINDING, then
 * M_REPORT_FINDING_VALUE for those with a figure) to m. 0 or -ENOMEM. */
int collect_findings_metrics(const struct report_findings *f, struct metric_set *m);

#endif
