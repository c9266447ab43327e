/* triage u32 translate: native nftables forms of u32/string rules (src/u32/nft.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd/u32_cmd.h"
#include "common.h"
#include "u32/args.h"
#include "u32/nft.h"
#include "u32/rule.h"
#include "u32/rule_error.h"
#include "u32/run.h"
#include "util/json.h"
#include "util/text.h"

struct translate_opts {
	const char *rules_file;
	bool json;
	int family; /* 0: from the rule (ip unless an ip6tables command line) */
	char *words[U32_RULE_ARGS_MAX];
	int nwords;
};

static int translate_usage(const char *what, const char *arg)
{
	if (arg)
		return cmd_usage_error("u32", "translate: %s: '%s'", what, arg);
	return cmd_usage_error("u32", "translate: %s", what);
}

static int parse_translate_args(int argc, char **argv, struct translate_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--json") == 0)
			o->json = true;
		else if (strcmp(a, "--rules") == 0 && i + 1 < argc)
			o->rules_file = argv[++i];
		else if (strcmp(a, "--family") == 0 && i + 1 < argc) {
			const char *f = argv[++i];
			o->family = strcmp(f, "ip") == 0 ? 4 : strcmp(f, "ip6") == 0 ? 6 : -1;
			if (o->family < 0)
				return translate_usage("--family is ip or ip6", f);
		} else if (o->nwords < U32_RULE_ARGS_MAX)
			o->words[o->nwords++] = argv[i];
		else
			return translate_usage("too many words", a);
	}
	if (!o->rules_file == !o->nwords)
		return translate_usage("give one RULE or --rules FILE", NULL);
	return 0;
}

static int load_rules(struct translate_opts *o, struct u32_ruleset *rs)
{
	struct u32_kernel_profile kp = { 0 }; /* today's kernel */
	char err[512];
	int rc;

	if (o->rules_file) {
		rc = u32_ruleset_load(rs, o->rules_file, &kp, err, sizeof(err));
		if (rc)
			cmd_error("u32", "translate: %s", err);
		return rc == -ENOMEM ? EXIT_RUNTIME : rc ? EXIT_USAGE : 0;
	}
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error *why = calloc(1, sizeof(*why));
	rc = r && why ? u32_rule_from_words(r, o->nwords, o->words, NULL, &kp, why, NULL) : -ENOMEM;
	if (rc == -EINVAL) {
		u32_rule_error_render(why, err, sizeof(err));
		cmd_error("u32", "translate: %s%s", err,
			  why->id == U32_RULE_UNKNOWN_OPTION && !strcmp(why->what, "--algo")
			      ? " (iptables refuses the rule too: --algo belongs to -m string; "
				"drop it)"
			      : "");
	}
	if (!rc)
		rc = u32_ruleset_add(rs, r);
	free(r);
	free(why);
	return rc == -ENOMEM ? EXIT_RUNTIME : rc ? EXIT_USAGE : 0;
}

/* A chain name from the rule's name: nft identifiers are letters, digits, '_'. */
static void chain_name(const struct u32_rule *r, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "u32_");
	const char *name = r->name[0] ? r->name : "rule"; /* a rule from the command line */

	for (const char *p = name; *p && at + 1 < len; p++)
		buf[at++] =
		    (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
			? *p
			: '_';
	buf[at] = '\0';
}

/* The enumerated rules as a chain of their own: jump to it, a verdict on each rule. */
static void print_chain(const struct u32_rule *r, const struct u32_nft *t)
{
	char name[U32_RULE_NAME_LEN + 8];

	chain_name(r, name, sizeof(name));
	printf("# %s; the rules are disjoint: append your verdict to each and jump here\n",
	       t->reason);
	printf("chain %s {\n", name);
	for (const char *p = t->rules; *p;) {
		const char *nl = strchr(p, '\n');
		printf("\t%.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
	printf("}\n");
}

static void print_plain(const struct u32_rule *r, const struct u32_nft *t, bool named)
{
	if (named) {
		text_put_safe(stdout, r->name);
		fputc('\t', stdout);
	}
	if (t->exact && t->nrules > 1)
		print_chain(r, t);
	else if (t->exact)
		printf("%s\n", t->text);
	else
		printf("# no exact native form: %s\n", t->reason);
}

static void print_json_rules(struct json_writer *w, const struct u32_nft *t)
{
	json_key(w, "nft_rules");
	json_array_begin(w);
	if (t->nrules == 1)
		json_string(w, t->text);
	for (const char *p = t->rules; p && *p;) {
		const char *nl = strchr(p, '\n');
		json_string_len(w, p, (size_t)(nl - p));
		p = nl + 1;
	}
	json_end(w);
}

static void print_json(struct json_writer *w, const struct u32_rule *r, const struct u32_nft *t)
{
	json_object_begin(w);
	json_kv_string(w, "name", r->name);
	json_kv_string(w, "family", t->family == 4 ? "ip" : "ip6");
	json_kv_bool(w, "exact", t->exact);
	json_kv_uint(w, "rules", t->nrules);
	if (t->exact && t->nrules == 1)
		json_kv_string(w, "nft", t->text);
	if (t->exact)
		print_json_rules(w, t);
	if (t->exact && t->kind) /* enumerated */
		json_kv_string(w, "how", t->reason);
	if (!t->exact)
		json_kv_string(w, "why", t->kind);
	json_kv_string(w, "reason", t->reason);
	json_end(w);
}

int u32_cmd_translate(int argc, char **argv)
{
	struct translate_opts o = { 0 };
	struct u32_ruleset rs = { 0 };
	struct u32_nft *t = malloc(sizeof(*t));
	struct json_writer w;
	int rc;

	if (!t)
		return EXIT_RUNTIME;
	if ((rc = parse_translate_args(argc, argv, &o)) || (rc = load_rules(&o, &rs)))
		goto out;
	if (o.json) {
		json_init(&w, stdout, false);
		json_object_begin(&w);
		json_key(&w, "rules");
		json_array_begin(&w);
	}
	for (unsigned k = 0; k < rs.n && !rc; k++) {
		const struct u32_rule *r = &rs.rules[k];
		int fam = o.family ? o.family : r->family_hint == 6 ? 6 : 4;
		if (u32_nft_translate(r, fam, t)) {
			cmd_error("u32", "translate: %s: the nftables rule is too long", r->name);
			rc = EXIT_RUNTIME;
		} else if (o.json)
			print_json(&w, r, t);
		else
			print_plain(r, t, o.rules_file != NULL);
		u32_nft_release(t);
	}
	if (o.json) {
		json_finish(&w);
		fputc('\n', stdout);
	}
out:
	u32_ruleset_free(&rs);
	free(t);
	return rc;
}
