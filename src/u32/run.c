/* Rule sets: loading a rules file and holding counters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u32/run.h"

int u32_ruleset_add(struct u32_ruleset *rs, const struct u32_rule *r)
{
	if (rs->n == rs->cap) {
		unsigned cap = rs->cap ? rs->cap * 2 : 8;
		struct u32_rule *nr = realloc(rs->rules, cap * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		rs->rules = nr;
		struct u32_rule_counts *nc = realloc(rs->counts, cap * sizeof(*nc));
		if (!nc)
			return -ENOMEM;
		rs->counts = nc;
		rs->cap = cap;
	}
	rs->rules[rs->n] = *r;
	memset(&rs->counts[rs->n], 0, sizeof(rs->counts[0]));
	rs->n++;
	return 0;
}

void u32_ruleset_free(struct u32_ruleset *rs)
{
	free(rs->rules);
	free(rs->counts);
	memset(rs, 0, sizeof(*rs));
}

static bool name_taken(const struct u32_ruleset *rs, const char *name)
{
	for (unsigned k = 0; k < rs->n; k++)
		if (strcmp(rs->rules[k].name, name) == 0)
			return true;
	return false;
}

int u32_ruleset_load(struct u32_ruleset *rs, const char *path, const struct u32_kernel_profile *kp,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, msg[U32_ERR_LEN];
	size_t cap = 0;
	unsigned lineno = 0;
	struct u32_rule *r = malloc(sizeof(*r));
	struct u32_rule_error *why = malloc(sizeof(*why));
	int rc = 0;

	if (!f || !r || !why) {
		rc = f ? -ENOMEM : -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		int pr = u32_rule_parse_line(r, line, kp, why);
		if (pr == 1)
			continue;
		if (pr == 0 && name_taken(rs, r->name))
			pr = u32_rule_fail(why, U32_RULE_NAME_TAKEN, NULL, r->name);
		if (pr < 0) {
			u32_rule_error_render(why, msg, sizeof(msg));
			snprintf(err, errlen, "%s:%u: %s", path, lineno, msg);
			rc = pr;
			goto out;
		}
		rc = u32_ruleset_add(rs, r);
		if (rc) {
			snprintf(err, errlen, "%s:%u: %s", path, lineno, strerror(-rc));
			goto out;
		}
	}
out:
	free(line);
	free(r);
	free(why);
	if (f)
		fclose(f);
	return rc;
}
