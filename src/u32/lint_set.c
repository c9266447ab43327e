/*
 * Reading rules for lint: what iptables would refuse is reported (with a
 * fix for the blog's stray --algo), and the rest is kept to be linted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u32/args.h"
#include "u32/lint.h"

static const char REFUSED[] = "iptables refuses this rule: ";
/* iptables loads these (-m recent, -m limit...): it is triage that cannot read them */
static const char UNCHECKED[] = "triage cannot check this rule: ";

static const char *refusal_prefix(const struct u32_rule_error *why)
{
	return why->id == U32_RULE_UNMODELLED_MATCH ? UNCHECKED : REFUSED;
}

/* --algo in a rule without -m string: iptables' "unknown option". */
static bool stray_algo(const struct u32_rule_error *why)
{
	return why->id == U32_RULE_UNKNOWN_OPTION && strcmp(why->what, "--algo") == 0;
}

static int lint_say(struct u32_lint_set *ls, const char *rule, bool is_note, const char *what,
		    const char *text, const char *fix)
{
	struct u32_lint_msg *m = realloc(ls->msgs, (ls->nmsgs + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	ls->msgs = m;
	m += ls->nmsgs++;
	memset(m, 0, sizeof(*m));
	snprintf(m->rule, sizeof(m->rule), "%s", rule);
	m->is_note = is_note;
	snprintf(m->text, sizeof(m->text), "%s%s", what, text);
	snprintf(m->fix, sizeof(m->fix), "%s", fix ? fix : "");
	return 0;
}

/* Records a refusal: 1, or -ENOMEM. */
static int refuse(struct u32_lint_set *ls, const char *rule, const char *what,
		  const struct u32_rule_error *why)
{
	char msg[U32_ERR_LEN];

	u32_rule_error_render(why, msg, sizeof(msg));
	return lint_say(ls, rule, false, what, msg,
			stray_algo(why) ? "--algo belongs to -m string; a rule with only -m u32 "
					  "takes no --algo (drop it, or add -m string --algo bm "
					  "--string ...)"
					: NULL)
		   ?: 1;
}

int u32_lint_add(struct u32_lint_set *ls, int n, char **words, const char *name)
{
	static const struct u32_kernel_profile kp = { 0 };
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error *why = calloc(1, sizeof(*why));
	const char *note = NULL;
	bool retried = false;
	int rc = -ENOMEM;

	if (!r || !why)
		goto out;
	rc = u32_rule_from_words(r, n, words, NULL, &kp, why, &note);
	if (rc == -EINVAL && why->id == U32_RULE_WORDS)
		rc = refuse(ls, name, "", why); /* cannot even be split into words */
	if (note && lint_say(ls, name, true, "", note, NULL))
		rc = -ENOMEM;
	if (rc == -EINVAL && stray_algo(why)) {
		retried = true;
		rc = refuse(ls, name, REFUSED, why) < 0
			 ? -ENOMEM
			 : u32_rule_from_words(r, n, words, "--algo", &kp, why, NULL);
	}
	if (rc == -EINVAL)
		rc = refuse(ls, name, refusal_prefix(why), why);
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (rc == 0 && u32_ruleset_add(&ls->rs, r))
		rc = -ENOMEM;
	if (rc == 1 || (rc == 0 && retried))
		ls->refused++;
out:
	free(r);
	free(why);
	return rc < 0 ? rc : 0;
}

void u32_lint_set_free(struct u32_lint_set *ls)
{
	u32_ruleset_free(&ls->rs);
	free(ls->msgs);
	ls->msgs = NULL;
	ls->nmsgs = 0;
}
