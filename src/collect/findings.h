/*
 * The report core's findings as metrics: how many of each severity, and
 * each finding (bounded, one series per rule and subject) with its
 * severity as the value; its headline figure (the kinds table's figure: a
 * process's CPU %, a filesystem's % used) as a second gauge with the same
 * labels, so a fleet view can say "relay (94%)"; then its sentence and next
 * command as labels of a value-1 series (triage_report_finding_info, which
 * alert annotations read). Pure: findings in, samples out.
 */
#ifndef TRIAGE_COLLECT_FINDINGS_H
#define TRIAGE_COLLECT_FINDINGS_H

#include "collect/model.h"
#include "report/report.h"

/* The most findings exported one by one per sample (the counts cover all). */
#define COLLECT_MAX_FINDINGS 16

/*
 * Appends the findings' metrics (M_REPORT_FINDINGS, M_REPORT_FINDING, then
 * M_REPORT_FINDING_VALUE for those with a figure, then M_REPORT_FINDING_INFO)
 * to m. 0 or -ENOMEM.
 */
int collect_findings_metrics(const struct report_findings *f, struct metric_set *m);

#endif
