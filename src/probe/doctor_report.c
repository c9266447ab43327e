/* triage doctor's report as data; see doctor_report.h. */
#include "probe/doctor_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct doc_check *doctor_check_add(struct doc_report *r, const char *name, enum doc_status st,
				   const char *fix, const char *fmt, ...)
{
	struct doc_check *c;
	va_list ap;

	if (r->nchecks == DOC_MAX_CHECKS)
		return NULL;
	c = &r->checks[r->nchecks++];
	c->name = name;
	c->status = st;
	c->fix = st == DOC_OK ? NULL : fix;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return c;
}

const struct doc_check *doctor_check_find(const struct doc_report *r, const char *name)
{
	for (size_t i = 0; i < r->nchecks; i++)
		if (!strcmp(r->checks[i].name, name))
			return &r->checks[i];
	return NULL;
}
