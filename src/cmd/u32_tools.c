/* triage u32 explain | lint | recipe: thin shells over src/u32/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "common.h"
#include "u32/capture.h"
#include "u32/run.h"
#include "u32/u32.h"
#include "util/json.h"
#include "util/text.h"

int u32_cmd_explain(int argc, char **argv);
int u32_cmd_lint(int argc, char **argv);
int u32_cmd_recipe(int argc, char **argv);

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

/* Finds frame n (1-based) of path and builds its view; frame data is copied to buf. */
static int load_packet(const char *path, unsigned long n, uint8_t **buf, struct pkt_view *v)
{
	char err[512];
	struct capture cap;
	struct frame f;
	int rc;
	unsigned long k = 0;

	if (capture_open(&cap, path, err, sizeof(err))) {
		cmd_error("u32", "%s: %s", path, err);
		return EXIT_RUNTIME;
	}
	while ((rc = capture_next(&cap, &f, err, sizeof(err))) == 1 && ++k < n)
		;
	if (rc != 1) {
		cmd_error("u32", "%s: no frame %lu%s%s", path, n, rc < 0 ? ": " : "",
			  rc < 0 ? err : "");
		capture_close(&cap);
		return EXIT_USAGE;
	}
	*buf = malloc(f.caplen ? f.caplen : 1);
	if (!*buf) {
		capture_close(&cap);
		return EXIT_RUNTIME;
	}
	memcpy(*buf, f.data, f.caplen);
	enum view_status st = pkt_view_from_frame(cap.dlt, *buf, f.caplen, f.wirelen, v);
	capture_close(&cap);
	if (st != VIEW_OK) {
		cmd_error("u32", "%s: frame %lu: %s", path, n, view_status_reason(st));
		return EXIT_USAGE;
	}
	return 0;
}

struct explain_opts {
	const char *expr, *capture;
	unsigned long pktno;
	bool json;
	struct kernel_profile kp;
};

static int parse_explain_args(int argc, char **argv, struct explain_opts *o)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			o->json = true;
		} else if (strcmp(argv[i], "--packet") == 0 && i + 2 < argc) {
			o->pktno = strtoul(argv[++i], NULL, 10);
			o->capture = argv[++i];
		} else if (strcmp(argv[i], "--shift") == 0 && i + 1 < argc) {
			o->kp.shift_mod32 = strcmp(argv[++i], "mod32") == 0;
		} else if (!o->expr) {
			o->expr = argv[i];
		} else {
			cmd_error("u32", "explain: unexpected argument \"%s\"", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!o->expr || (o->capture && o->pktno == 0)) {
		cmd_error("u32", "usage: triage u32 explain EXPR [--packet N CAPTURE]");
		return EXIT_USAGE;
	}
	return 0;
}

/* Plain text, or {"explanation": [...], "packet": [...]} with --json. */
static void explain_render(const struct explain_opts *o, const struct u32_expr *e,
			   const struct pkt_view *v)
{
	struct json_writer jw;
	struct text_sink out = { print_line, NULL };

	if (o->json) {
		json_init(&jw, stdout, false);
		json_object_begin(&jw);
		json_key(&jw, "explanation");
		json_array_begin(&jw);
		out = (struct text_sink){ json_line, &jw };
	}
	u32_explain(e, &out);
	if (o->json) {
		json_end(&jw);
		json_key(&jw, "packet");
		json_array_begin(&jw);
	}
	if (v) {
		if (!o->json)
			print_line(NULL, "");
		u32_explain_packet(e, &o->kp, v, &out);
	}
	if (o->json) {
		json_finish(&jw);
		fputc('\n', stdout);
	}
}

int u32_cmd_explain(int argc, char **argv)
{
	struct explain_opts o = { 0 };
	struct u32_expr e;
	char err[U32_ERR_LEN];
	uint8_t *buf = NULL;
	struct pkt_view v;
	int rc = parse_explain_args(argc, argv, &o);

	if (rc)
		return rc;
	if (u32_parse(o.expr, &e, err, sizeof(err)) ||
	    u32_check_kernel(&e, &o.kp, err, sizeof(err))) {
		cmd_error("u32", "%s", err);
		return EXIT_USAGE;
	}
	if (o.capture && (rc = load_packet(o.capture, o.pktno, &buf, &v)))
		return rc;
	explain_render(&o, &e, o.capture ? &v : NULL);
	free(buf);
	return EXIT_OK;
}

/* Drops what is not a match argument from a full iptables command line. */
static int strip_command(int n, char **w, char **out, const char **note)
{
	int k = 0, m = 0;

	if (k < n && (strstr(w[k], "iptables") || strstr(w[k], "ip6tables")))
		k++;
	for (; k < n; k++) {
		if (!strcmp(w[k], "-t") || !strcmp(w[k], "-I") || !strcmp(w[k], "-A") ||
		    !strcmp(w[k], "-D")) {
			k++;
			if (strcmp(w[k - 1], "-t") && k + 1 < n && w[k + 1][0] >= '0' &&
			    w[k + 1][0] <= '9')
				k++;
		} else if (!strcmp(w[k], "-j") || !strcmp(w[k], "--jump")) {
			break;
		} else if (!strcmp(w[k], "-m") && k + 1 < n &&
			   (!strcmp(w[k + 1], "state") || !strcmp(w[k + 1], "conntrack"))) {
			*note =
			    "-m state/conntrack is not modelled and was left out; note that any "
			    "conntrack user turns on defragmentation in that namespace, so u32 "
			    "and string then see reassembled datagrams";
			k += 2;
			while (k + 1 < n && !strncmp(w[k], "--", 2) && strcmp(w[k], "--u32"))
				k += 2;
			k--;
		} else {
			out[m++] = w[k];
		}
	}
	return m;
}

static void lint_print(const struct rule *r, const struct lint_warning *w, unsigned nw,
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

/* A bare u32 expression rather than match arguments? */
static bool is_bare_expr(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s != '-' && *s != '!' && strncmp(s, "iptables", 8) && strncmp(s, "ip6tables", 9);
}

/* Removes an option and its value from an argument list. */
static int drop_option(char **args, int n, const char *opt)
{
	int m = 0;

	for (int k = 0; k < n; k++) {
		if (strcmp(args[k], opt) == 0) {
			k++;
			continue;
		}
		args[m++] = args[k];
	}
	return m;
}

/* words of a bare expression are prefixed with "-m u32 --u32", held in prefix */
static int words_to_args(int n, char **words, char **args, char (*prefix)[8], const char **note)
{
	if (n == 1 && is_bare_expr(words[0])) {
		strcpy(prefix[0], "-m");
		strcpy(prefix[1], "u32");
		strcpy(prefix[2], "--u32");
		args[0] = prefix[0];
		args[1] = prefix[1];
		args[2] = prefix[2];
		args[3] = words[0];
		return 4;
	}
	return strip_command(n < 256 ? n : 256, words, args, note);
}

/* 0: parsed and added; 1: refused; 3: refused, then linted without the stray --algo. */
static int lint_words(struct ruleset *rs, int n, char **words, const char *name)
{
	char err[U32_ERR_LEN], *args[256], prefix[3][8];
	const char *note = NULL;
	struct kernel_profile kp = { 0 };
	struct rule *r = calloc(1, sizeof(*r));
	int m, rc, refused = 0;

	if (!r)
		return EXIT_RUNTIME;
	m = words_to_args(n, words, args, prefix, &note);
	snprintf(r->name, sizeof(r->name), "%s", name);
	rc = rule_parse(r, m, args, &kp, err, sizeof(err));
	if (note)
		printf("note: %s: %s\n", name, note);
	if (rc && strcmp(err, "unknown option \"--algo\"") == 0) {
		/* the blog's mistake: report it, then lint the rule without it */
		printf("error: %s: iptables refuses this rule: %s\n", name, err);
		printf("  fix: --algo belongs to -m string; a rule with only -m u32 takes no "
		       "--algo (drop it, or add -m string --algo bm --string ...)\n");
		m = drop_option(args, m, "--algo");
		rc = rule_parse(r, m, args, &kp, err, sizeof(err));
		refused = 1;
	}
	if (rc) {
		printf("error: %s: iptables refuses this rule: %s\n", name, err);
		free(r);
		return 1;
	}
	rc = ruleset_add(rs, r);
	free(r);
	return rc ? EXIT_RUNTIME : refused ? 3 : 0;
}

static int lint_collect(int argc, char **argv, struct ruleset *rs, bool *json, int *refused)
{
	char err[U32_ERR_LEN], *buf, *words[256];
	struct kernel_profile kp = { 0 };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			*json = true;
		} else if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
			if (ruleset_load(rs, argv[++i], &kp, err, sizeof(err))) {
				cmd_error("u32", "%s", err);
				return EXIT_USAGE;
			}
		} else {
			char name[32];
			snprintf(name, sizeof(name), "rule%u", rs->n + (unsigned)*refused + 1);
			buf = malloc(strlen(argv[i]) + 1);
			if (!buf)
				return EXIT_RUNTIME;
			int n = 1;
			if (is_bare_expr(argv[i]))
				words[0] = strcpy(buf, argv[i]);
			else
				n = u32_split_words(argv[i], buf, words, 256, err, sizeof(err));
			int rc = n < 0 ? (cmd_error("u32", "%s", err), EXIT_USAGE)
				       : lint_words(rs, n, words, name);
			free(buf);
			if (rc == 1 || rc == 3)
				(*refused)++;
			else if (rc)
				return rc;
		}
	}
	return 0;
}

int u32_cmd_lint(int argc, char **argv)
{
	struct ruleset rs = { 0 };
	struct lint_warning w[32];
	struct json_writer jw;
	bool json = false;
	int refused = 0, rc = lint_collect(argc, argv, &rs, &json, &refused);
	unsigned total = 0;

	if (rc || (rs.n == 0 && refused == 0)) {
		if (!rc)
			cmd_error("u32", "usage: triage u32 lint RULE...|--rules FILE");
		ruleset_free(&rs);
		return rc ? rc : EXIT_USAGE;
	}
	if (json) {
		json_init(&jw, stdout, false);
		json_object_begin(&jw);
		json_key(&jw, "warnings");
		json_array_begin(&jw);
	}
	for (unsigned k = 0; k < rs.n; k++) {
		unsigned nw = rule_lint(&rs.rules[k], w, ARRAY_SIZE(w));
		lint_print(&rs.rules[k], w, nw, json ? &jw : NULL);
		total += nw;
	}
	if (json) {
		json_end(&jw);
		json_kv_uint(&jw, "refused", (unsigned)refused);
		json_finish(&jw);
		fputc('\n', stdout);
	} else if (total == 0 && refused == 0) {
		printf("no warnings\n");
	}
	ruleset_free(&rs);
	return total || refused ? 1 : 0;
}

int u32_cmd_recipe(int argc, char **argv)
{
	const char *sni = NULL, *type = NULL, *domain = NULL;
	char buf[2048], err[U32_ERR_LEN];
	bool v6 = false;
	int rc;

	if (argc < 2) {
		cmd_error("u32", "usage: triage u32 recipe tls-client-hello|dns-query ...");
		return EXIT_USAGE;
	}
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--sni") == 0 && i + 1 < argc)
			sni = argv[++i];
		else if (strcmp(argv[i], "--type") == 0 && i + 1 < argc)
			type = argv[++i];
		else if (strcmp(argv[i], "--ipv6") == 0)
			v6 = true;
		else if (!domain && argv[i][0] != '-')
			domain = argv[i];
		else {
			cmd_error("u32", "recipe: unexpected argument \"%s\"", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (strcmp(argv[1], "tls-client-hello") == 0 && !domain && !type && !v6)
		rc = recipe_tls(sni, buf, sizeof(buf), err, sizeof(err));
	else if (strcmp(argv[1], "dns-query") == 0 && domain && !sni)
		rc = recipe_dns(domain, type, v6, buf, sizeof(buf), err, sizeof(err));
	else {
		cmd_error("u32", "usage: triage u32 recipe tls-client-hello [--sni DOMAIN] | "
				 "dns-query DOMAIN [--type TYPE] [--ipv6]");
		return EXIT_USAGE;
	}
	if (rc) {
		cmd_error("u32", "%s", err);
		return EXIT_USAGE;
	}
	printf("%s\n", buf);
	return EXIT_OK;
}
