/* Turning command-line words into one rule's match arguments (see args.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "u32/args.h"
#include "u32/internal.h"
#include "u32/rule.h"
#include "util/inplace.h"

static const char CONNTRACK_NOTE[] =
    "-m state/conntrack is not modelled and was left out; note that any conntrack user "
    "turns on defragmentation in that namespace, so u32 and string then see reassembled "
    "datagrams (triage u32 test --defrag)";

static bool is_one_of(const char *w, const char (*list)[20], size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(w, list[k]) == 0)
			return true;
	return false;
}

bool u32_rule_arg_takes_value(const char *word)
{
	STRINGS_IN_PLACE
	static const char opts[][20] = {
		"-m",
		"--match",
		"--u32",
		"--algo",
		"--from",
		"--to",
		"--string",
		"--hex-string",
		"-p",
		"--protocol",
		"--sport",
		"--dport",
		"--source-port",
		"--destination-port",
		"--comment",
	};
	STRINGS_IN_PLACE_END
	return is_one_of(word, opts, ARRAY_SIZE(opts));
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	return s;
}

bool u32_rule_arg_is_command(const char *word)
{
	size_t n = strcspn(word, " \t\n");
	const char *base = word, *rest;

	for (const char *p = word; p < word + n; p++)
		if (*p == '/')
			base = p + 1;
	if (!strncmp(base, "iptables", 8))
		rest = base + 8;
	else if (!strncmp(base, "ip6tables", 9))
		rest = base + 9;
	else
		return false;
	/* iptables, ip6tables-nft, /usr/sbin/iptables-legacy, ... */
	return rest == word + n || *rest == '-';
}

bool u32_rule_arg_is_whole_rule(const char *arg)
{
	const char *s = skip_blanks(arg);

	if (!strpbrk(s, " \t\n"))
		return false;
	return *s == '-' || *s == '!' || u32_rule_arg_is_command(s);
}

bool u32_rule_arg_is_expr(const char *arg)
{
	const char *s = skip_blanks(arg);

	return *s != '\0' && *s != '-' && *s != '!' && !u32_rule_arg_is_command(s);
}

/* One --state/--ctstate list ("ESTABLISHED,RELATED") into U32_CT_* bits; false if a name is not
 * one. */
static bool parse_ct_states(const char *list, uint8_t *bits)
{
	static const struct {
		const char *name;
		uint8_t bit;
	} names[] = { { "INVALID", U32_CT_INVALID },
		      { "ESTABLISHED", U32_CT_ESTABLISHED },
		      { "RELATED", U32_CT_RELATED },
		      { "NEW", U32_CT_NEW },
		      { "UNTRACKED", U32_CT_UNTRACKED } };
	const char *p = list;

	*bits = 0;
	while (*p) {
		size_t n = strcspn(p, ","), k;
		for (k = 0; k < ARRAY_SIZE(names); k++)
			if (strlen(names[k].name) == n && !strncasecmp(p, names[k].name, n))
				break;
		if (k == ARRAY_SIZE(names))
			return false;
		*bits |= names[k].bit;
		p += n + (p[n] == ',');
	}
	return *bits != 0;
}

/*
 * Sets -m state/conntrack and their options aside, keeping --state or
 * --ctstate in ct (and the first other option, which translate refuses).
 * Returns the index of the last word taken.
 */
static int take_conntrack(int k, int n, char **w, struct u32_ct_match *ct)
{
	const char *want = strcmp(w[k + 1], "state") == 0 ? "--state" : "--ctstate";

	for (k += 2; k < n; k += 2) {
		bool inv = strcmp(w[k], "!") == 0;
		int o = k + inv;
		if (o + 1 >= n || strncmp(w[o], "--", 2) || !strcmp(w[o], "--u32") ||
		    u32_rule_arg_takes_value(w[o]))
			break;
		if (!strcmp(w[o], want) && !ct->set && parse_ct_states(w[o + 1], &ct->states)) {
			ct->set = true;
			ct->invert = inv;
		} else if (!ct->other[0]) {
			snprintf(ct->other, sizeof(ct->other), "%s%s %s", inv ? "! " : "", w[o],
				 w[o + 1]);
		}
		k = o;
	}
	return k - 1;
}

/* Keeps only the matches of an iptables command line (word[0] names the command). */
static void strip_command(struct u32_rule_args *ra)
{
	char **w = ra->word;
	int n = ra->n, m = 0;

	ra->family = strstr(w[0], "ip6tables") ? 6 : 4;
	for (int k = 1; k < n; k++) {
		if (!strcmp(w[k], "-t") || !strcmp(w[k], "-I") || !strcmp(w[k], "-A") ||
		    !strcmp(w[k], "-D")) {
			bool chain = strcmp(w[k], "-t") != 0;
			k++;
			if (chain && k + 1 < n && w[k + 1][0] >= '0' && w[k + 1][0] <= '9')
				k++; /* the rule number after -I CHAIN */
		} else if (!strcmp(w[k], "-j") || !strcmp(w[k], "--jump")) {
			break;
		} else if (!strcmp(w[k], "-m") && k + 1 < n &&
			   (!strcmp(w[k + 1], "state") || !strcmp(w[k + 1], "conntrack"))) {
			ra->note = CONNTRACK_NOTE;
			k = take_conntrack(k, n, w, &ra->ct);
		} else {
			w[m++] = w[k];
		}
	}
	ra->n = m;
}

/* A bare expression becomes -m u32 --u32 EXPR. */
static void expr_to_args(struct u32_rule_args *ra, char *expr)
{
	static const char *const words[] = { "-m", "u32", "--u32" };

	for (int k = 0; k < 3; k++) {
		snprintf(ra->u32_words[k], sizeof(ra->u32_words[k]), "%s", words[k]);
		ra->word[k] = ra->u32_words[k];
	}
	ra->word[3] = expr;
	ra->n = 4;
}

int u32_rule_args_build(struct u32_rule_args *ra, int n, char **words, char *err, size_t errlen)
{
	memset(ra, 0, sizeof(*ra));
	if (n == 1 && u32_rule_arg_is_expr(words[0])) {
		expr_to_args(ra, words[0]);
		return 0;
	}
	if (n == 1 && u32_rule_arg_is_whole_rule(words[0])) {
		ra->buf = malloc(strlen(words[0]) + 1);
		if (!ra->buf)
			return -ENOMEM;
		ra->n =
		    u32_split_words(words[0], ra->buf, ra->word, U32_RULE_ARGS_MAX, err, errlen);
		if (ra->n < 0)
			return ra->n;
	} else {
		if (n > U32_RULE_ARGS_MAX)
			return u32_errorf(err, errlen, "too many words in one rule (at most %d)",
					  U32_RULE_ARGS_MAX);
		memcpy(ra->word, words, (size_t)n * sizeof(*words));
		ra->n = n;
	}
	if (ra->n > 0 && u32_rule_arg_is_command(ra->word[0]))
		strip_command(ra);
	return 0;
}

void u32_rule_args_free(struct u32_rule_args *ra)
{
	free(ra->buf);
	ra->buf = NULL;
}

/* Leaves out an option and its value. */
static void drop_option(struct u32_rule_args *ra, const char *opt)
{
	int m = 0;

	for (int k = 0; k < ra->n; k++) {
		if (strcmp(ra->word[k], opt) == 0) {
			k++;
			continue;
		}
		ra->word[m++] = ra->word[k];
	}
	ra->n = m;
}

int u32_rule_from_words(struct u32_rule *r, int n, char **words, const char *drop,
			const struct u32_kernel_profile *kp, struct u32_rule_error *err,
			const char **note)
{
	struct u32_rule_args ra;
	int rc = u32_rule_args_build(&ra, n, words, err->detail, sizeof(err->detail));

	if (note)
		*note = ra.note;
	r->family_hint = 0;
	if (rc == -ENOMEM)
		rc = u32_rule_fail(err, U32_RULE_NOMEM, NULL, NULL);
	else if (rc)
		rc = u32_rule_fail(err, U32_RULE_WORDS, NULL, NULL);
	if (rc == 0 && drop)
		drop_option(&ra, drop);
	if (rc == 0)
		rc = u32_rule_parse(r, ra.n, ra.word, kp, err);
	r->family_hint = ra.family;
	r->ct = ra.ct;
	u32_rule_args_free(&ra);
	return rc;
}
