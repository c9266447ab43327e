/* triage u32 explain | lint | recipe: thin shells over src/u32/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "cmd/u32_cmd.h"
#include "common.h"
#include "u32/args.h"
#include "u32/explain.h"
#include "u32/lint.h"
#include "u32/nft.h"
#include "u32/recipe.h"
#include "u32/rule.h"
#include "u32/rule_error.h"
#include "u32/run.h"
#include "util/json.h"
#include "util/text.h"

static void print_line(void *ctx, const char *text)
{
	(void)ctx;
	text_put_safe(stdout, text);
	fputc('\n', stdout);
}

static void json_line(void *ctx, const char *text)
{
	json_string(ctx, text);
}

/* Frame n of path as the rules see it; frame data is copied to buf. */
static int load_packet(const char *path, unsigned long n, uint8_t **buf, struct u32_view *v)
{
	char err[512];
	int rc = u32_packet_load(path, n, buf, v, err, sizeof(err));

	if (rc)
		cmd_error("u32", "%s: %s", path, err);
	return rc == -ERANGE ? EXIT_USAGE : cmd_errno_status(CMD_ON_INPUT, rc);
}

struct explain_opts {
	const char *capture;
	unsigned long pktno;
	bool json;
	struct u32_kernel_profile kp;
	char *words[U32_RULE_ARGS_MAX]; /* the rule: an expression or match arguments */
	int nwords;
};

/* "triage u32: TOOL: WHAT: 'ARG'" and where to read more; EXIT_USAGE. */
static int tool_usage(const char *tool, const char *what, const char *arg)
{
	if (arg)
		return cmd_usage_error("u32", "%s: %s: '%s'", tool, what, arg);
	return cmd_usage_error("u32", "%s: %s", tool, what);
}

static int explain_usage(const char *what, const char *arg)
{
	return tool_usage("explain", what, arg);
}

static int parse_explain_option(struct explain_opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	char *end;

	if (strcmp(a, "--packet") == 0) {
		if (*i + 2 >= argc)
			return explain_usage("--packet wants a frame number and a capture", NULL);
		o->pktno = strtoul(argv[*i + 1], &end, 10);
		if (o->pktno == 0 || *end || argv[*i + 1][0] == '-')
			return explain_usage("bad --packet frame number (from 1)", argv[*i + 1]);
		o->capture = argv[*i + 2];
		*i += 2;
	} else if (strcmp(a, "--shift") == 0) {
		const char *val = *i + 1 < argc ? argv[*i + 1] : NULL;
		if (u32_kernel_profile_option(&o->kp, a, val) < 0)
			return explain_usage("bad --shift value (reject or mod32)", val ? val : "");
		++*i;
	} else {
		o->json = true;
	}
	return 0;
}

static int parse_explain_args(int argc, char **argv, struct explain_opts *o)
{
	int rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json") || !strcmp(a, "--packet") || !strcmp(a, "--shift")) {
			if ((rc = parse_explain_option(o, argc, argv, &i)))
				return rc;
			continue;
		}
		if (o->nwords + 2 > U32_RULE_ARGS_MAX)
			return explain_usage("too many words in the rule", NULL);
		o->words[o->nwords++] = argv[i];
		if (u32_rule_arg_takes_value(a) && i + 1 < argc)
			o->words[o->nwords++] = argv[++i];
	}
	if (o->nwords == 0)
		return explain_usage("no u32 expression given", NULL);
	return 0;
}

/*
 * Plain text, or {"explanation": [...], "packet": [...]} with --json.
 * m is the rule's U32_MATCH_U32 match (u32_cmd_explain picks it by kind).
 */
static void explain_render(const struct explain_opts *o, const struct u32_match *m, bool others,
			   const struct u32_view *v)
{
	struct json_writer jw;
	struct u32_text_sink out = { print_line, NULL };

	if (o->json) {
		json_init(&jw, stdout, false);
		json_object_begin(&jw);
		json_key(&jw, "explanation");
		json_array_begin(&jw);
		out = (struct u32_text_sink){ json_line, &jw };
	}
	u32_explain(&m->u32, &out);
	if (m->invert)
		out.line(out.ctx, "! --u32: the rule matches when the expression does not, "
				  "including when a read is out of range");
	if (others)
		out.line(out.ctx, "the rule's other matches (-p, ports, -f, -m string) are not "
				  "explained here");
	if (o->json) {
		json_end(&jw);
		json_key(&jw, "packet");
		json_array_begin(&jw);
	}
	if (v) {
		if (!o->json)
			print_line(NULL, "");
		u32_explain_packet(&m->u32, &o->kp, v, &out);
		if (m->invert && u32_eval(&m->u32, &o->kp, v, NULL) != U32_VERDICT_INDET)
			out.line(out.ctx, u32_eval(&m->u32, &o->kp, v, NULL) == U32_VERDICT_YES
					      ? "with !: no match"
					      : "with !: match");
	}
	if (o->json) {
		json_finish(&jw);
		fputc('\n', stdout);
	}
}

/* The one -m u32 match of the rule the user wrote; EXIT_USAGE with a message if none. */
static int explain_rule(struct explain_opts *o, struct u32_rule *r)
{
	char msg[U32_ERR_LEN];
	struct u32_rule_error *why = calloc(1, sizeof(*why));
	int rc =
	    why ? u32_rule_from_words(r, o->nwords, o->words, NULL, &o->kp, why, NULL) : -ENOMEM;

	if (rc == -EINVAL)
		u32_rule_error_render(why, msg, sizeof(msg));
	free(why);
	if (rc == -ENOMEM)
		return EXIT_RUNTIME;
	if (rc) {
		cmd_error("u32", "explain: %s", msg);
		return EXIT_USAGE;
	}
	unsigned nu32 = 0;
	for (unsigned k = 0; k < r->nmatches; k++)
		nu32 += r->m[k].kind == U32_MATCH_U32;
	if (nu32 != 1) {
		cmd_error("u32", "explain: the rule has %u -m u32 matches; give one", nu32);
		return EXIT_USAGE;
	}
	return 0;
}

int u32_cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { 0 };
	struct u32_rule *r = calloc(1, sizeof(*r));
	uint8_t *buf = NULL;
	struct u32_view v;
	int rc;

	if (!r)
		return EXIT_RUNTIME;
	rc = parse_explain_args(argc, argv, &o);
	if (rc == 0)
		rc = explain_rule(&o, r);
	if (rc == 0 && o.capture)
		rc = load_packet(o.capture, o.pktno, &buf, &v);
	if (rc == 0) {
		unsigned u = 0;
		while (r->m[u].kind != U32_MATCH_U32)
			u++;
		bool others = r->nmatches > 1 || r->proto >= 0 || r->frag >= 0;
		explain_render(&o, &r->m[u], others, o.capture ? &v : NULL);
	}
	free(buf);
	free(r);
	return rc;
}

static void lint_print(const struct u32_rule *r, const struct u32_lint_warning *w, unsigned nw,
		       struct json_writer *jw)
{
	for (unsigned k = 0; k < nw; k++) {
		if (jw) {
			json_object_begin(jw);
			json_kv_string(jw, "rule", r->name);
			json_kv_string(jw, "id", w[k].id);
			json_kv_string(jw, "warning", w[k].text);
			json_kv_string(jw, "fix", w[k].fix);
			json_end(jw);
			continue;
		}
		fputs("warning: ", stdout);
		text_put_safe(stdout, r->name);
		printf(": [%s] ", w[k].id);
		text_put_safe(stdout, w[k].text);
		fputs("\n  fix: ", stdout);
		text_put_safe(stdout, w[k].fix);
		fputc('\n', stdout);
	}
}

struct lint_input {
	struct u32_lint_set set;
	bool json;
	unsigned inline_rules;
	char *words[U32_RULE_ARGS_MAX]; /* the rule being written in words */
	int nwords;
};

/* Ends the rule being written in words, if any. */
static int lint_flush(struct lint_input *in)
{
	char name[32];
	int rc;

	if (in->nwords == 0)
		return 0;
	snprintf(name, sizeof(name), "rule%u", ++in->inline_rules);
	rc = u32_lint_add(&in->set, in->nwords, in->words, name);
	in->nwords = 0;
	return rc ? EXIT_RUNTIME : 0;
}

static int lint_word(struct lint_input *in, char *word)
{
	if (in->nwords == U32_RULE_ARGS_MAX) {
		return cmd_usage_error("u32", "lint: too many words in one rule (at most %d): '%s'",
				       U32_RULE_ARGS_MAX, word);
	}
	in->words[in->nwords++] = word;
	return 0;
}

/* The grammar of src/u32/args.h, plus --json and --rules FILE. */
static int lint_collect(int argc, char **argv, struct lint_input *in)
{
	char err[U32_ERR_LEN];
	struct u32_kernel_profile kp = { 0 };
	int rc = 0;

	for (int i = 1; i < argc && rc == 0; i++) {
		char *a = argv[i];
		bool has_value = i + 1 < argc && u32_rule_arg_takes_value(a);
		if (strcmp(a, "--json") == 0) {
			in->json = true;
		} else if (strcmp(a, "--rules") == 0 && i + 1 < argc) {
			if (u32_ruleset_load(&in->set.rs, argv[++i], &kp, err, sizeof(err))) {
				cmd_error("u32", "%s", err);
				return EXIT_USAGE;
			}
		} else if (strcmp(a, "--") == 0) {
			rc = lint_flush(in);
		} else if (u32_rule_arg_is_whole_rule(a) ||
			   (in->nwords == 0 && u32_rule_arg_is_expr(a))) {
			if (!(rc = lint_flush(in)) && !(rc = lint_word(in, a)))
				rc = lint_flush(in);
		} else if (!(rc = lint_word(in, a)) && has_value) {
			rc = lint_word(in, argv[++i]);
		}
	}
	return rc ? rc : lint_flush(in);
}

static void lint_print_msgs(const struct lint_input *in, struct json_writer *jw)
{
	for (unsigned k = 0; k < in->set.nmsgs; k++) {
		const struct u32_lint_msg *m = &in->set.msgs[k];
		if (jw) {
			json_object_begin(jw);
			json_kv_string(jw, "rule", m->rule);
			json_kv_string(jw, m->is_note ? "note" : "error", m->text);
			if (m->fix[0])
				json_kv_string(jw, "fix", m->fix);
			json_end(jw);
			continue;
		}
		/* a rule iptables refuses is an error: stderr, as the other commands' */
		FILE *out = m->is_note ? stdout : stderr;

		fputs(m->is_note ? "note: " : "triage u32: lint: ", out);
		text_put_safe(out, m->rule);
		fputs(": ", out);
		text_put_safe(out, m->text);
		if (m->fix[0]) {
			fputs("\n  fix: ", out);
			text_put_safe(out, m->fix);
		}
		fputc('\n', out);
	}
}

/* Plain text, or {"messages": [...], "warnings": [...], "refused": N} with --json. */
static int lint_report(const struct lint_input *in)
{
	struct u32_lint_warning w[32];
	struct json_writer jw;
	unsigned total = 0;

	if (in->json) {
		json_init(&jw, stdout, false);
		json_object_begin(&jw);
		json_key(&jw, "messages");
		json_array_begin(&jw);
	}
	lint_print_msgs(in, in->json ? &jw : NULL);
	if (in->json) {
		json_end(&jw);
		json_key(&jw, "warnings");
		json_array_begin(&jw);
	}
	for (unsigned k = 0; k < in->set.rs.n; k++) {
		unsigned nw = u32_rule_lint(&in->set.rs.rules[k], w, ARRAY_SIZE(w));
		lint_print(&in->set.rs.rules[k], w, nw, in->json ? &jw : NULL);
		total += nw;
	}
	if (in->json) {
		json_end(&jw);
		json_kv_uint(&jw, "refused", in->set.refused);
		json_finish(&jw);
		fputc('\n', stdout);
	} else if (total == 0 && in->set.refused == 0) {
		printf("no warnings\n");
	}
	/* a rule that does not parse is the same mistake in every tool: 2 */
	return in->set.refused ? EXIT_USAGE : total ? 1 : 0;
}

int u32_cmd_lint(int argc, char **argv)
{
	struct lint_input *in = calloc(1, sizeof(*in));
	int rc;

	if (!in)
		return EXIT_RUNTIME;
	rc = lint_collect(argc, argv, in);
	if (rc == 0 && in->set.rs.n == 0 && in->set.refused == 0) {
		rc = cmd_usage_error("u32", "lint: no rule given");
	} else if (rc == 0) {
		rc = lint_report(in);
	}
	u32_lint_set_free(&in->set);
	free(in);
	return rc;
}

/* The nftables form of a recipe's iptables command line, where exact. */
static int print_recipe_nft(char *cmdline, int family, const char *chain)
{
	struct u32_kernel_profile kp = { 0 };
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error *why = calloc(1, sizeof(*why));
	struct u32_nft *t = malloc(sizeof(*t));
	int rc =
	    r && why && t ? u32_rule_from_words(r, 1, &cmdline, NULL, &kp, why, NULL) : -ENOMEM;

	if (!rc)
		rc = u32_nft_translate(r, family, t);
	if (!rc && t->exact && t->nrules == 1)
		printf("nft 'add rule %s filter %s %s'\n", family == 4 ? "ip" : "ip6", chain,
		       t->text);
	else if (!rc && t->exact) /* the recipes pin their jumps: not reached today */
		printf("# exact nftables form %s: see triage u32 translate\n", t->reason);
	else if (!rc)
		printf("# no exact nftables form: %s\n", t->reason);
	else
		cmd_error("u32", "recipe: cannot translate the recipe (%s)", strerror(-rc));
	if (!rc)
		u32_nft_release(t);
	free(r);
	free(why);
	free(t);
	return rc ? EXIT_RUNTIME : EXIT_OK;
}

static int recipe_usage(const char *what, const char *arg)
{
	return tool_usage("recipe", what, arg);
}

struct recipe_opts {
	const char *sni, *type, *domain;
	bool v6, nft;
};

static int parse_recipe_args(int argc, char **argv, struct recipe_opts *o)
{
	for (int i = 2; i < argc; i++) {
		bool has_value = i + 1 < argc;
		if (strcmp(argv[i], "--sni") == 0 && has_value)
			o->sni = argv[++i];
		else if (strcmp(argv[i], "--type") == 0 && has_value)
			o->type = argv[++i];
		else if (strcmp(argv[i], "--ipv6") == 0)
			o->v6 = true;
		else if (strcmp(argv[i], "--nft") == 0)
			o->nft = true;
		else if (!o->domain && argv[i][0] != '-')
			o->domain = argv[i];
		else
			return recipe_usage("unexpected argument", argv[i]);
	}
	return 0;
}

int u32_cmd_recipe(int argc, char **argv)
{
	struct recipe_opts o = { 0 };
	char buf[2048], err[U32_ERR_LEN];
	int rc;

	if (argc < 2)
		return recipe_usage("which recipe?", NULL);
	if ((rc = parse_recipe_args(argc, argv, &o)))
		return rc;
	if (strcmp(argv[1], "tls-client-hello") == 0) {
		if (o.domain || o.type || o.v6)
			return recipe_usage("tls-client-hello takes only --sni DOMAIN and --nft",
					    o.domain ? o.domain
					    : o.type ? "--type"
						     : "--ipv6");
		rc = u32_recipe_tls_at(o.sni, o.nft, buf, sizeof(buf), err, sizeof(err));
	} else if (strcmp(argv[1], "dns-query") == 0) {
		if (!o.domain || o.sni)
			return recipe_usage(
			    o.sni ? "dns-query takes no --sni" : "dns-query wants a DOMAIN", NULL);
		rc = u32_recipe_dns_at(o.domain, o.type, o.v6, o.nft, buf, sizeof(buf), err,
				       sizeof(err));
	} else {
		return recipe_usage("unknown recipe (tls-client-hello, dns-query)", argv[1]);
	}
	if (rc) {
		cmd_error("u32", "recipe: %s", err);
		return EXIT_USAGE;
	}
	printf("%s\n", buf);
	return o.nft ? print_recipe_nft(buf, o.v6 ? 6 : 4, o.domain ? "input" : "forward")
		     : EXIT_OK;
}
