/*
 * The report core's findings as metrics: how many of each severity, and
 * each finding (bounded, one series per rule and subject) with its
 * severity as the value. Pure: findings in, samples out.
 */
#ifndef TRIAGE_COLLECT_FINDINGS_H
#define TRIAGE_COLLECT_FINDINGS_H

#include "collect/model.h"
#include "report/report.h"

/* The most findings exported one by one per sample (the counts cover all). */
#define COLLECT_MAX_FINDINGS 16

/* Appends the findings' metrics (M_REPORT_FINDINGS, M_REPORT_FINDING) to m. 0 or -ENOMEM. */
int collect_findings_metrics(const struct report_findings *f, struct metric_set *m);

#endif
