/* The report's findings as metrics (see findings.h). */
#include "collect/findings.h"

#include <stdio.h>
#include <string.h>

#include "report/kinds.h"

/* Whether m already holds a finding with these labels (from start on). */
static bool have_finding(const struct metric_set *m, size_t start, const char *rule,
			 const char *subject)
{
	for (size_t i = start; i < m->n; i++)
		if (m->s[i].id == M_REPORT_FINDING && !strcmp(m->s[i].lv[0], rule) &&
		    !strcmp(m->s[i].lv[1], subject))
			return true;
	return false;
}

/* The finding's headline figure (its kind's row names which evidence); false when it has none. */
static bool headline_figure(const struct rp_finding *x, double *value)
{
	const struct report_kind_row *row = report_kind_row(x->kind);

	for (int i = 0; row && row->figure[0] && i < x->nev; i++)
		if (x->ev[i].metric && !strcmp(x->ev[i].metric, row->figure)) {
			*value = x->ev[i].value;
			return true;
		}
	return false;
}

/* The kept finding's headline figure, as M_REPORT_FINDING_VALUE with its severity series' labels.
 */
static int add_figure(struct metric_set *m, size_t sev_at, const struct rp_finding *x)
{
	char rule[COLLECT_LABEL_MAX], subject[COLLECT_LABEL_MAX];
	double v;

	if (!headline_figure(x, &v))
		return 0;
	/* copies: adding to m may move m->s */
	snprintf(rule, sizeof(rule), "%s", m->s[sev_at].lv[0]);
	snprintf(subject, sizeof(subject), "%s", m->s[sev_at].lv[1]);
	return metric_add(m, M_REPORT_FINDING_VALUE, rule, subject, v);
}

/* The finding's sentence (its brief form, else the summary) and next command, as labels. */
static int add_info(struct metric_set *m, size_t sev_at, const struct rp_finding *x)
{
	char rule[COLLECT_LABEL_MAX], subject[COLLECT_LABEL_MAX];
	const char *lv[] = { rule, subject, x->brief[0] ? x->brief : x->summary, x->next };

	/* copies: adding to m may move m->s */
	snprintf(rule, sizeof(rule), "%s", m->s[sev_at].lv[0]);
	snprintf(subject, sizeof(subject), "%s", m->s[sev_at].lv[1]);
	return metric_add_labels(m, M_REPORT_FINDING_INFO, lv, 4, 1);
}

int collect_findings_metrics(const struct report_findings *f, struct metric_set *m)
{
	static const double sev_value[] = { [SEV_CRITICAL] = 3, [SEV_WARNING] = 2, [SEV_INFO] = 1 };
	const struct rp_finding *kept_f[COLLECT_MAX_FINDINGS];
	unsigned count[3] = { 0 };
	size_t start = m->n, kept = 0;
	int rc = 0;

	for (size_t i = 0; i < f->n; i++)
		count[f->f[i].sev]++;
	for (int s = SEV_CRITICAL; s <= SEV_INFO && !rc; s++)
		rc = metric_add(m, M_REPORT_FINDINGS, report_sev_name((enum report_sev)s), NULL,
				count[s]);
	start = m->n;
	/* findings come most severe first: the first ones are the ones kept */
	for (size_t i = 0; i < f->n && kept < COLLECT_MAX_FINDINGS && !rc; i++) {
		const struct rp_finding *x = &f->f[i];
		const char *rule = report_kind_name(x->kind);
		char subject[COLLECT_LABEL_MAX];

		/* the report core names the subject; the PID is left out to keep series few */
		report_subject_label(&x->subject, REPORT_LABEL_METRIC, subject, sizeof(subject));
		/* two processes of one name with one rule are one series, the worse */
		if (have_finding(m, start, rule, subject))
			continue;
		rc = metric_add(m, M_REPORT_FINDING, rule, subject, sev_value[x->sev]);
		kept_f[kept++] = x;
	}
	/* then each kept finding's figure, for the fleet view */
	for (size_t i = 0; i < kept && !rc; i++)
		rc = add_figure(m, start + i, kept_f[i]);
	/* then each kept finding's words, for alert annotations (as many series) */
	for (size_t i = 0; i < kept && !rc; i++)
		rc = add_info(m, start + i, kept_f[i]);
	return rc;
}
