/* Known mistakes in u32/string rules, each with its fix. */
#ifndef TRIAGE_U32_LINT_H
#define TRIAGE_U32_LINT_H

#include "u32/rule.h"

struct u32_lint_warning {
	const char *id;
	char text[512];
	char fix[512];
};
/* Returns the number of warnings written (at most max). */
unsigned u32_rule_lint(const struct u32_rule *r, struct u32_lint_warning *w, unsigned max);

#endif
