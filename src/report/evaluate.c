/* The driver: every row of the kinds table over one window, then order, checked list, headline. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/findings.h"
#include "report/kinds.h"

static int finding_cmp(const void *a, const void *b)
{
	const struct rp_finding *x = a, *y = b;

	if (x->sev != y->sev)
		return x->sev < y->sev ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->subject.pid != y->subject.pid)
		return x->subject.pid < y->subject.pid ? -1 : 1;
	return strcmp(x->summary, y->summary);
}

/* Runs one row's rule; its findings with SEV_DEFAULT get the row's severity. */
static int run_rule(const struct report_kind_row *r, const struct report_data *d,
		    struct report_findings *f)
{
	size_t before = f->n;
	int rc = report_kind_rule(r->kind)(d, f);

	for (size_t i = before; i < f->n; i++)
		if (f->f[i].sev == SEV_DEFAULT)
			f->f[i].sev = r->sev;
	return rc;
}

int report_evaluate(const struct report_data *d, struct report_findings *out)
{
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < RK_COUNT; k++)
		if (run_rule(report_kind_row((enum report_kind)k), d, out))
			return -ENOMEM;
	if (out->n > 1)
		qsort(out->f, out->n, sizeof(*out->f), finding_cmp);
	report_checked(d, out);
	report_headline(d, out);
	return 0;
}
