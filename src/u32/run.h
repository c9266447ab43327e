/* Running a rule set over captures: per-rule counters and per-frame verdicts. */
#ifndef TRIAGE_U32_RUN_H
#define TRIAGE_U32_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "u32/u32.h"

struct rule_counts {
	uint64_t pkts, bytes, indet, layout_dep;
};

struct ruleset {
	struct rule *rules;
	struct rule_counts *counts;
	unsigned n, cap;
};

/* Adds a copy of r; 0 or -ENOMEM. */
int ruleset_add(struct ruleset *rs, const struct rule *r);
void ruleset_free(struct ruleset *rs);
/* Reads a rules file; -EINVAL with "FILE:LINE: message" in err. */
int ruleset_load(struct ruleset *rs, const char *path, const struct kernel_profile *kp, char *err,
		 size_t errlen);

/* One frame's outcome: status and, if VIEW_OK, a verdict per rule. */
struct frame_verdicts {
	uint64_t number; /* 1-based over all captures */
	enum view_status status;
	uint32_t iplen;
	struct rule_result *res; /* n entries */
};

#endif
