/*
 * The kinds of finding, one row each (sysstat's act[] for the report): the
 * stable name, the resource it is about, the rule that finds it, the
 * severity it is raised with unless the rule says otherwise, and its anchor
 * in docs/report.md. report_evaluate walks this table; live, recorded and
 * collected windows all go through it. Adding a kind over data the window
 * already has: an enum entry in report.h, a row in kinds.c, the rule
 * (declared in rules.h), its doc row and its unit test, then `make rules`
 * (its Prometheus alerts, contrib/prometheus/triage.rules.yml). The doc row
 * is also the kind's entry in man triage-report (scripts/report-man.awk).
 */
#ifndef TRIAGE_REPORT_KINDS_H
#define TRIAGE_REPORT_KINDS_H

#include "report/report.h"

/* Adds what it finds in d to f; returns 0 or -ENOMEM. */
typedef int (*report_rule_fn)(const struct report_data *d, struct report_findings *f);

/*
 * The strings are held in the row and the rule is found by a switch
 * (report_kind_rule): no pointers, so the table is not a relocation the
 * loader of the position-independent binary writes, copying its pages, at
 * every start of every command (issue 24).
 */
struct report_kind_row {
	enum report_kind kind;
	char name[24];
	enum report_resource resource;
	enum report_sev sev; /* the severity unless the rule's figures say otherwise */
	char anchor[40];     /* in docs/report.md */
	/*
	 * The fleet's view (triage fleet, collect's exports): the evidence
	 * that is the finding's headline figure ("": none), the words after
	 * that figure ("%", " zombies"), and the command to run next on the
	 * host, {subject} standing for the subject label (shell-quoted when
	 * filled) and {pid} for "$(pgrep -xo SUBJECT)" (a {pid} template about
	 * the subject "host", the system itself, gives way to a report there).
	 */
	char figure[24];
	char figure_unit[40];
	char fleet_next[96];
};

/* The row of k (every kind has one; NULL only for an out-of-range value). */
const struct report_kind_row *report_kind_row(enum report_kind k);
/* The rule that finds kind k (NULL only for an out-of-range value). */
report_rule_fn report_kind_rule(enum report_kind k);

#endif
