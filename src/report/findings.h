/* Internal to src/report: building findings, a library the rules (rules_*.c) and verdict.c share.
 */
#ifndef TRIAGE_REPORT_FINDINGS_H
#define TRIAGE_REPORT_FINDINGS_H

#include "report/report.h"

/* Appends a finding (subject empty, cpu -1); NULL when out of memory. */
struct rp_finding *report_finding_add(struct report_findings *f, enum report_kind k,
				      enum report_sev sev);
void report_finding_say(struct rp_finding *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The short form: one clause, the finding's whole point (the headline is made of it). */
void report_finding_brief(struct rp_finding *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * The next command, and the words that lead to it ("Profile it"; "" for
 * none): the plain text puts them after the summary only when there is a
 * command, so no sentence is left hanging on a colon.
 */
void report_finding_next(struct rp_finding *x, const char *lead, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void report_finding_ev(struct rp_finding *x, const char *metric, double value, const char *unit);
void report_finding_pid(struct rp_finding *x, pid_t pid);
/* pid, comm and the cgroup that explains x's kind (report_proc_cgroup_for) */
void report_subject_proc(struct rp_finding *x, const struct rp_proc *p);
/* The group of p that explains a finding of kind k (per controller on v1). */
const char *report_proc_cgroup_for(const struct rp_proc *p, enum report_kind k);
void report_set_str(char *dst, size_t size, const char *src);

/* "ran on CPUs 0-1, allowed on all" / "pinned to CPU 2" ("" when unknown). */
void report_placement_words(const struct rp_proc *p, int ncpu, char *buf, size_t size);
/* "1,2,3" for a command line. */
void report_pid_list(const pid_t *pids, size_t n, char *buf, size_t size);
const struct rp_proc *report_proc_by_pid(const struct report_data *d, pid_t pid);
/*
 * "<before>N%<after>" with the window's PSI "some" figure for one resource
 * into buf, or "" where the kernel has no PSI: a sentence names the figure
 * only when it exists. Returns buf.
 */
const char *report_psi_phrase(const struct report_data *d, enum rp_psi which, const char *before,
			      const char *after, char *buf, size_t size);

/* What was fine (verdict.c), after the rules ran. */
void report_checked(const struct report_data *d, struct report_findings *f);
void report_headline(const struct report_data *d, struct report_findings *f);

#endif
