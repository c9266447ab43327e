/* Known mistakes in u32/string rules, each with its fix. */
#ifndef TRIAGE_U32_LINT_H
#define TRIAGE_U32_LINT_H

#include <stdbool.h>

#include "u32/rule.h"
#include "u32/run.h"

struct u32_lint_warning {
	const char *id;
	char text[512];
	char fix[512];
};
/* Returns the number of warnings written (at most max). */
unsigned u32_rule_lint(const struct u32_rule *r, struct u32_lint_warning *w, unsigned max);

/* What lint says about a rule besides warnings: iptables' refusal, or a note. */
struct u32_lint_msg {
	char rule[32];
	bool is_note;
	char text[512];
	char fix[512]; /* for refusals that have one, else "" */
};

/* The rules given to lint, and what was said while reading them. */
struct u32_lint_set {
	struct u32_ruleset rs; /* the rules that parse, to be linted */
	struct u32_lint_msg *msgs;
	unsigned nmsgs;
	unsigned refused; /* rules iptables refuses */
};

/*
 * Reads one rule given in words (any form of u32/args.h) as rule name. A
 * rule iptables refuses is counted, with its refusal as a message; one
 * refused only for a stray --algo (the blog's mistake: --algo belongs to
 * -m string) is counted too, then read again without it so the rest of
 * it is linted. 0 or -ENOMEM.
 */
int u32_lint_add(struct u32_lint_set *ls, int n, char **words, const char *name);
void u32_lint_set_free(struct u32_lint_set *ls);

#endif
