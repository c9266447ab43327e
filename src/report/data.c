/*
 * The report's data: what the collection could not do. Apart from the
 * window (collect.c) so that the parts that skip something (results,
 * kernel log, eBPF) need nothing of the window's driver.
 */
#include <stdarg.h>
#include <stdio.h>

#include "report/report.h"

void report_skip(struct report_data *d, const char *what, const char *fmt, ...)
{
	va_list ap;
	struct rp_skipped *s;

	if (d->nskipped >= RP_MAX_SKIPPED)
		return;
	s = &d->skipped[d->nskipped++];
	snprintf(s->what, sizeof(s->what), "%s", what);
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}
