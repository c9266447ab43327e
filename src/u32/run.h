/* Running a rule set over captures: per-rule counters and per-frame verdicts. */
#ifndef TRIAGE_U32_RUN_H
#define TRIAGE_U32_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "u32/rule.h"

struct u32_rule_counts {
	uint64_t pkts, bytes, indet, layout_dep;
};

struct u32_ruleset {
	struct u32_rule *rules;
	struct u32_rule_counts *counts;
	unsigned n, cap;
};

/* Adds a copy of r; 0 or -ENOMEM. */
int u32_ruleset_add(struct u32_ruleset *rs, const struct u32_rule *r);
void u32_ruleset_free(struct u32_ruleset *rs);
/* Reads a rules file; -EINVAL with "FILE:LINE: message" in err. */
int u32_ruleset_load(struct u32_ruleset *rs, const char *path, const struct u32_kernel_profile *kp,
		     char *err, size_t errlen);

/* One frame's outcome: status and, if U32_VIEW_OK, a verdict per rule. */
struct u32_frame_verdicts {
	uint64_t number; /* 1-based over all captures */
	enum u32_view_status status;
	uint32_t iplen;
	struct u32_rule_result *res; /* n entries */
};

#endif
