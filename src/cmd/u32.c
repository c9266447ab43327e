/*
 * triage u32: test, explain, lint and generate iptables -m u32 / -m string
 * rules against pcap/pcapng captures. The models live in src/u32/; this
 * file parses the command line and renders results.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "cmd/u32_cmd.h"
#include "common.h"
#include "help/u32.h"
#include "u32/args.h"
#include "u32/capture.h"
#include "u32/rule.h"
#include "u32/rule_error.h"
#include "u32/flows.h"
#include "u32/run.h"
#include "runloop/clock.h"
#include "runloop/stop.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/text.h"

#define MAX_CAPTURES 64
#define MAX_INLINE_WORDS 256

struct test_opts {
	struct u32_kernel_profile kp;
	enum u32_bm_layout layout;
	bool verdicts, json, defrag;
	const char *captures[MAX_CAPTURES];
	unsigned ncaptures;
	char *words[MAX_INLINE_WORDS];
	int nwords;
	const char *iface; /* -i: live traffic instead of captures */
	double duration;   /* -d: seconds of it (0: until Ctrl-C) */
	bool live_verdicts;
};

static int usage_error(const char *fmt, ...) PRINTF_LIKE(1, 2);

static int usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return cmd_usage_error("u32", "%s", msg);
}

static int parse_layout(const char *s, enum u32_bm_layout *out)
{
	static const char *const names[] = { "auto", "linear", "l3", "l4", "kmp" };
	int k = parse_keyword(s, names, ARRAY_SIZE(names));

	if (k < 0)
		return k;
	*out = (enum u32_bm_layout)k;
	return 0;
}

/* Parses the inline rule collected so far (if any) and adds it, named ruleN. */
static int add_inline_rule(struct u32_ruleset *rs, struct test_opts *o)
{
	char msg[U32_ERR_LEN];
	struct u32_rule_error *why = NULL;
	struct u32_rule *r = NULL;
	const char *note = NULL;
	int rc = -ENOMEM;

	if (o->nwords == 0)
		return 0;
	r = calloc(1, sizeof(*r));
	why = calloc(1, sizeof(*why));
	if (!r || !why)
		goto out;
	rc = u32_rule_from_words(r, o->nwords, o->words, NULL, &o->kp, why, &note);
	o->nwords = 0;
	snprintf(r->name, sizeof(r->name), "rule%u", rs->n + 1);
	if (note)
		cmd_error("u32", "%s: note: %s", r->name, note);
	if (rc == -EINVAL) {
		u32_rule_error_render(why, msg, sizeof(msg));
		cmd_error("u32", "%s: %s", r->name, msg);
		cmd_see_help("u32");
	} else if (rc == 0 && u32_ruleset_add(rs, r)) {
		rc = -ENOMEM;
	}
out:
	free(r);
	free(why);
	return rc == -EINVAL ? EXIT_USAGE : rc ? EXIT_RUNTIME : 0;
}

/*
 * Options of triage itself. Returns the number of words consumed (1 or 2),
 * 0 when a is not one of them, or an exit status (negated) on error.
 */
static int test_option(struct test_opts *o, struct u32_ruleset *rs, const char *a, const char *val)
{
	char err[U32_ERR_LEN];
	int rc = u32_kernel_profile_option(&o->kp, a, val);

	if (rc < 0)
		return -usage_error("bad %s value (%s): '%s'", a,
				    strcmp(a, "--shift") ? "end or start" : "reject or mod32",
				    val ? val : "");
	if (rc == 1)
		return 2;
	if (strcmp(a, "--verdicts") == 0)
		o->verdicts = true;
	else if (strcmp(a, "--json") == 0)
		o->json = true;
	else if (strcmp(a, "--defrag") == 0)
		o->defrag = true;
	else if ((strcmp(a, "--bm-layout") == 0 || strcmp(a, "--rules") == 0) && !val)
		return -usage_error("option needs a value: '%s'", a);
	else if (strcmp(a, "--bm-layout") == 0) {
		if (parse_layout(val, &o->layout))
			return -usage_error(
			    "bad --bm-layout value (auto, linear, l3, l4, kmp): '%s'", val);
		return 2;
	} else if (strcmp(a, "--rules") == 0) {
		int lrc = u32_ruleset_load(rs, val, &o->kp, err, sizeof(err));

		if (lrc) {
			cmd_error("u32", "%s", err);
			return -cmd_errno_status(CMD_ON_INPUT, lrc);
		}
		return 2;
	} else
		return 0;
	return 1;
}

/* -i IFACE, -d DURATION: words consumed, 0 if a is neither, or -status. */
static int live_option(struct test_opts *o, const char *a, const char *val)
{
	if (strcmp(a, "-i") && strcmp(a, "--interface") && strcmp(a, "-d") &&
	    strcmp(a, "--duration"))
		return 0;
	if (!val)
		return -usage_error("option needs a value: '%s'", a);
	if (a[1] == 'i' || a[2] == 'i') {
		o->iface = val;
		return 2;
	}
	if (parse_duration(val, &o->duration) || o->duration > 1e7)
		return -usage_error("bad -d value (a duration: 10, 10s, 1m): '%s'", val);
	return 2;
}

/* Collects a word of an inline rule; returns the words consumed or -status. */
static int rule_word(struct test_opts *o, char *word, char *next)
{
	if (o->nwords + 2 >= MAX_INLINE_WORDS)
		return -usage_error("too many words in an inline rule (at most %d): '%s'",
				    MAX_INLINE_WORDS - 2, word);
	o->words[o->nwords++] = word;
	/* a value-taking option keeps its value; an unknown one is left to the rule parser */
	if (u32_rule_arg_takes_value(word) && next && strcmp(next, "--")) {
		o->words[o->nwords++] = next;
		return 2;
	}
	return 1;
}

/* One argument that is not an option of triage: returns the words consumed or -status. */
static int test_arg(struct test_opts *o, struct u32_ruleset *rs, char *a, char *next)
{
	bool rule_time = o->ncaptures == 0; /* rules come before the captures */
	int status;

	if (strcmp(a, "--") == 0)
		return -add_inline_rule(rs, o) ?: 1;
	if (rule_time && u32_rule_arg_is_whole_rule(a)) {
		/* a whole rule in one argument stands alone */
		if ((status = add_inline_rule(rs, o)))
			return -status;
		o->words[o->nwords++] = a;
		return -add_inline_rule(rs, o) ?: 1;
	}
	if (rule_time && ((a[0] == '-' && a[1]) || strcmp(a, "!") == 0))
		return rule_word(o, a, next);
	if (a[0] == '-' && a[1])
		return -usage_error("unknown option: '%s'", a);
	if ((status = add_inline_rule(rs, o)))
		return -status;
	if (o->ncaptures == MAX_CAPTURES)
		return -usage_error("too many captures (at most %d): '%s'", MAX_CAPTURES, a);
	o->captures[o->ncaptures++] = a;
	return 1;
}

static int parse_test_args(int argc, char **argv, struct test_opts *o, struct u32_ruleset *rs)
{
	int rc, status;

	for (int i = 1; i < argc; i += rc) {
		char *next = i + 1 < argc ? argv[i + 1] : NULL;
		/* before the first rule, -i and -d are ours (in a rule, iptables') */
		rc = o->nwords == 0 && rs->n == 0 ? live_option(o, argv[i], next) : 0;
		if (rc == 0)
			rc = test_option(o, rs, argv[i], next);
		if (rc == 0)
			rc = test_arg(o, rs, argv[i], next);
		if (rc < 0)
			return -rc;
	}
	if ((status = add_inline_rule(rs, o)))
		return status;
	o->live_verdicts = o->verdicts && !o->json;
	o->verdicts |= o->json; /* --json carries the per-frame verdicts too */
	if (rs->n == 0)
		return usage_error("no rules: give a RULE or --rules FILE");
	if (o->iface && o->ncaptures)
		return usage_error("-i reads live traffic: give no capture too ('%s')",
				   o->captures[0]);
	if (o->ncaptures == 0 && !o->iface)
		return usage_error("no capture given (or -i IFACE for live traffic)");
	return 0;
}

static char verdict_char(enum u32_verdict v)
{
	return v == U32_VERDICT_YES ? '1' : v == U32_VERDICT_NO ? '0' : '?';
}

static void csv_header(const struct u32_ruleset *rs)
{
	fputs("packet", stdout);
	for (unsigned k = 0; k < rs->n; k++) {
		fputc(',', stdout);
		csv_put_field(stdout, rs->rules[k].name);
	}
	fputc('\n', stdout);
}

static void csv_row(const struct u32_ruleset *rs, const struct u32_frame_verdicts *fv)
{
	printf("%llu", (unsigned long long)fv->number);
	for (unsigned k = 0; k < rs->n; k++) {
		fputc(',', stdout);
		fputc(fv->status == U32_VIEW_OK ? verdict_char(fv->res[k].v) : '-', stdout);
	}
	fputc('\n', stdout);
}

static void json_row(struct json_writer *w, const struct u32_ruleset *rs,
		     const struct u32_frame_verdicts *fv)
{
	json_object_begin(w);
	json_kv_uint(w, "packet", fv->number);
	json_kv_string(w, "status",
		       fv->status == U32_VIEW_OK ? "ip" : u32_view_status_reason(fv->status));
	json_key(w, "verdicts");
	json_object_begin(w);
	for (unsigned k = 0; k < rs->n; k++) {
		json_key(w, rs->rules[k].name);
		if (fv->status != U32_VIEW_OK || fv->res[k].v == U32_VERDICT_INDET)
			json_null(w);
		else
			json_int(w, fv->res[k].v == U32_VERDICT_YES);
	}
	json_end(w);
	json_key(w, "layout_dependent");
	json_array_begin(w);
	for (unsigned k = 0; fv->status == U32_VIEW_OK && k < rs->n; k++)
		if (fv->res[k].layout_dependent)
			json_string(w, rs->rules[k].name);
	json_end(w);
	json_end(w);
}

/* What the output needs while frames go by. */
struct test_output {
	const struct test_opts *o;
	const struct u32_ruleset *rs;
	struct json_writer *jw;
	const char *path; /* the capture being read, for the progress line */
	bool progress;
};

/* One frame's row (--verdicts/--json) and, on a terminal, progress. */
static int print_frame(void *ctx, const struct u32_frame_verdicts *fv)
{
	struct test_output *out = ctx;

	if (out->o->verdicts && out->o->json)
		json_row(out->jw, out->rs, fv);
	else if (out->o->verdicts)
		csv_row(out->rs, fv);
	if (out->progress && (fv->number & 0xFFFF) == 0)
		fprintf(stderr, "\r%s: %llu frames", out->path, (unsigned long long)fv->number);
	return 0;
}

static int run_capture(struct u32_run *run, struct test_output *out, const char *path)
{
	char err[512];
	struct u32_capture cap;
	int rc;

	rc = u32_capture_open(&cap, path, err, sizeof(err));
	if (rc) {
		cmd_error("u32", "%s: %s", path, err);
		return cmd_errno_status(CMD_ON_INPUT, rc);
	}
	out->path = path;
	rc = u32_ruleset_run(run, &cap, print_frame, out, err, sizeof(err));
	if (out->progress)
		fputs("\r\033[K", stderr);
	u32_capture_close(&cap);
	if (rc == -ENOMEM) {
		cmd_error("u32", "out of memory");
		return EXIT_RUNTIME;
	}
	if (rc < 0) {
		cmd_error("u32", "%s: %s", path, err);
		return EXIT_RUNTIME;
	}
	return 0;
}

static void print_counts_plain(const struct u32_run *run)
{
	const struct u32_ruleset *rs = run->rs;
	bool extra = false;

	for (unsigned k = 0; k < rs->n; k++)
		extra |= rs->counts[k].indet || rs->counts[k].layout_dep;
	printf("%8s %10s %-12s %s\n", "pkts", "bytes", "rule",
	       extra ? "[indet layout-dep] match" : "match");
	for (unsigned k = 0; k < rs->n; k++) {
		const struct u32_rule_counts *c = &rs->counts[k];
		printf("%8llu %10llu ", (unsigned long long)c->pkts, (unsigned long long)c->bytes);
		text_put_safe(stdout, rs->rules[k].name);
		printf("%*s ",
		       (int)(strlen(rs->rules[k].name) < 12 ? 12 - strlen(rs->rules[k].name) : 0),
		       "");
		if (extra)
			printf("[%llu %llu] ", (unsigned long long)c->indet,
			       (unsigned long long)c->layout_dep);
		text_put_safe(stdout, rs->rules[k].text);
		fputc('\n', stdout);
	}
	printf("# %llu frames, %llu IP packets seen by the rules, %llu not (not IP, or dropped "
	       "before PREROUTING)\n",
	       (unsigned long long)run->frames, (unsigned long long)run->ip,
	       (unsigned long long)run->skipped);
}

static void print_counts_json(struct json_writer *w, const struct u32_run *run)
{
	const struct u32_ruleset *rs = run->rs;

	json_key(w, "rules");
	json_array_begin(w);
	for (unsigned k = 0; k < rs->n; k++) {
		const struct u32_rule_counts *c = &rs->counts[k];
		json_object_begin(w);
		json_kv_string(w, "name", rs->rules[k].name);
		json_kv_string(w, "match", rs->rules[k].text);
		json_kv_uint(w, "pkts", c->pkts);
		json_kv_uint(w, "bytes", c->bytes);
		json_kv_uint(w, "indeterminate", c->indet);
		json_kv_uint(w, "layout_dependent", c->layout_dep);
		json_end(w);
	}
	json_end(w);
	json_kv_uint(w, "frames", run->frames);
	json_kv_uint(w, "ip_packets", run->ip);
	json_kv_uint(w, "not_seen", run->skipped);
}

/* The live dry run: what each rule would have matched on IFACE. */
struct live_ctx {
	const struct test_opts *o;
	const struct u32_ruleset *rs;
	struct runloop_stop stop;
	struct u32_flows *flows; /* one table per rule */
	double start, deadline, next_progress;
	uint64_t frames;
	bool progress;
};

static bool live_stop(void *ctx)
{
	struct live_ctx *l = ctx;
	double now = runloop_mono_s();

	if (l->progress && now >= l->next_progress) {
		uint64_t m = 0;
		for (unsigned k = 0; k < l->rs->n; k++)
			m += l->rs->counts[k].pkts;
		fprintf(stderr, "\r\033[K%s: %.0f s, %llu packets, %llu matches (Ctrl-C ends)",
			l->o->iface, now - l->start, (unsigned long long)l->frames,
			(unsigned long long)m);
		l->next_progress = now + 1;
	}
	return runloop_stop_requested(&l->stop) || (l->deadline > 0 && now >= l->deadline);
}

static int live_frame(void *ctx, const struct u32_frame_verdicts *fv)
{
	struct live_ctx *l = ctx;
	struct u32_flow key;
	char flow[160];
	bool any = false;

	l->frames++;
	if (fv->status != U32_VIEW_OK)
		return 0;
	u32_flow_of(fv->view, &key);
	for (unsigned k = 0; k < l->rs->n; k++) {
		if (fv->res[k].v != U32_VERDICT_YES)
			continue;
		u32_flows_add(&l->flows[k], &key);
		if (!l->o->live_verdicts)
			continue;
		if (!any) {
			u32_flow_format(&key, flow, sizeof(flow));
			printf("%llu\t%u bytes\t%s\t", (unsigned long long)fv->number, fv->iplen,
			       flow);
		}
		printf("%s", any ? "," : "");
		text_put_safe(stdout, l->rs->rules[k].name);
		any = true;
	}
	if (any)
		fputc('\n', stdout);
	return 0;
}

static void live_report(const struct live_ctx *l, const struct u32_run *run, double secs)
{
	struct json_writer w;
	unsigned top[5];
	char flow[160];

	if (l->o->json) {
		json_init(&w, stdout, false);
		json_object_begin(&w);
		json_kv_string(&w, "interface", l->o->iface);
		json_kv_double(&w, "seconds", secs, 3);
		json_kv_uint(&w, "frames", run->frames);
		json_kv_uint(&w, "ip_packets", run->ip);
		json_key(&w, "rules");
		json_array_begin(&w);
	} else if (!l->o->live_verdicts) {
		printf("%8s %10s %-12s %s\n", "pkts", "pkts/s", "rule", "match");
	}
	for (unsigned k = 0; k < l->rs->n; k++) {
		const struct u32_rule_counts *c = &l->rs->counts[k];
		unsigned n = u32_flows_top(&l->flows[k], top, 5);
		double pps = secs > 0 ? (double)c->pkts / secs : 0;
		if (l->o->json) {
			json_object_begin(&w);
			json_kv_string(&w, "name", l->rs->rules[k].name);
			json_kv_string(&w, "match", l->rs->rules[k].text);
			json_kv_uint(&w, "pkts", c->pkts);
			json_kv_uint(&w, "bytes", c->bytes);
			json_kv_double(&w, "pkts_per_s", pps, 2);
			json_key(&w, "top_flows");
			json_array_begin(&w);
		} else if (!l->o->live_verdicts) {
			printf("%8llu %10.2f ", (unsigned long long)c->pkts, pps);
			text_put_safe(stdout, l->rs->rules[k].name);
			fputc(' ', stdout);
			text_put_safe(stdout, l->rs->rules[k].text);
			fputc('\n', stdout);
		}
		for (unsigned i = 0; i < n; i++) {
			const struct u32_flow *f = &l->flows[k].f[top[i]];
			u32_flow_format(f, flow, sizeof(flow));
			if (l->o->json) {
				json_object_begin(&w);
				json_kv_string(&w, "flow", flow);
				json_kv_uint(&w, "pkts", f->pkts);
				json_end(&w);
			} else if (!l->o->live_verdicts) {
				printf("%8s %10llu   %s\n", "", (unsigned long long)f->pkts, flow);
			}
		}
		if (l->o->json)
			json_end(&w), json_end(&w);
	}
	if (l->o->json) {
		json_finish(&w);
		fputc('\n', stdout);
	} else {
		printf("# %.2f s on %s: %llu frames, %llu IP packets seen by the rules, no rule "
		       "installed\n",
		       secs, l->o->iface, (unsigned long long)run->frames,
		       (unsigned long long)run->ip);
	}
}

static int run_live(struct test_opts *o, struct u32_ruleset *rs)
{
	struct u32_run_opts ro = { .kp = o->kp, .layout = o->layout, .defrag = o->defrag };
	struct live_ctx *l = calloc(1, sizeof(*l));
	struct u32_capture cap;
	struct u32_run run;
	char err[512];
	int rc;

	if (!l || !(l->flows = calloc(rs->n, sizeof(*l->flows))) || u32_run_init(&run, rs, &ro)) {
		if (l)
			free(l->flows);
		free(l);
		return EXIT_RUNTIME;
	}
	rc = u32_capture_open_live(&cap, o->iface, err, sizeof(err));
	if (rc) {
		cmd_error("u32", "%s: %s", o->iface, err);
		rc = rc == -EPERM ? EXIT_NOSUPPORT : rc == -ENODEV ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	*l = (struct live_ctx){ .o = o, .rs = rs, .flows = l->flows, .progress = isatty(2) == 1 };
	runloop_stop_init(&l->stop);
	runloop_stop_arm(&l->stop); /* Ctrl-C ends the run, and we print what was seen */
	fprintf(stderr, "triage u32: listening on %s for %s, no rule installed\n", o->iface,
		o->duration > 0 ? "the duration given" : "ever (Ctrl-C ends)");
	l->start = l->next_progress = runloop_mono_s();
	l->deadline = o->duration > 0 ? l->start + o->duration : 0;
	rc = u32_ruleset_run_live(&run, &cap, live_frame, live_stop, l, err, sizeof(err));
	double secs = runloop_mono_s() - l->start;
	if (l->progress)
		fputs("\r\033[K", stderr);
	u32_capture_close(&cap);
	if (rc < 0) {
		cmd_error("u32", "%s: %s", o->iface, rc == -ENOMEM ? strerror(ENOMEM) : err);
		rc = EXIT_RUNTIME;
	} else {
		live_report(l, &run, secs);
	}
	fflush(stdout);
	runloop_stop_disarm(&l->stop);
out:
	u32_run_free(&run);
	free(l->flows);
	free(l);
	return rc;
}

static int run_test(struct test_opts *o, struct u32_ruleset *rs)
{
	struct json_writer jw;
	struct test_output out = { .o = o, .rs = rs, .jw = &jw, .progress = isatty(2) == 1 };
	struct u32_run_opts ro = { .kp = o->kp, .layout = o->layout, .defrag = o->defrag };
	struct u32_run run;
	int rc = 0;

	if (u32_run_init(&run, rs, &ro))
		return EXIT_RUNTIME;
	if (o->json) {
		json_init(&jw, stdout, false);
		json_object_begin(&jw);
		if (o->verdicts) {
			json_key(&jw, "packets");
			json_array_begin(&jw);
		}
	} else if (o->verdicts) {
		csv_header(rs);
	}
	for (unsigned k = 0; k < o->ncaptures && rc == 0; k++)
		rc = run_capture(&run, &out, o->captures[k]);
	/* counts of a capture that could not be read to the end would mislead */
	if (o->json) {
		if (o->verdicts)
			json_end(&jw);
		if (rc == 0)
			print_counts_json(&jw, &run);
		json_finish(&jw);
		fputc('\n', stdout);
	} else if (!o->verdicts && rc == 0) {
		print_counts_plain(&run);
	}
	u32_run_free(&run);
	return rc;
}

static int cmd_u32_test(int argc, char **argv)
{
	struct test_opts *o = calloc(1, sizeof(*o));
	struct u32_ruleset rs = { 0 };
	int rc;

	if (!o)
		return EXIT_RUNTIME;
	rc = parse_test_args(argc, argv, o, &rs);
	if (rc == 0)
		rc = o->iface ? run_live(o, &rs) : run_test(o, &rs);
	u32_ruleset_free(&rs);
	free(o);
	return rc;
}

int cmd_u32(int argc, char **argv)
{
	static const char *const subcommands[] = { "test", "explain", "lint", "recipe",
						   "translate" };

	if (argc < 2)
		return usage_error("which subcommand? (test, explain, lint, recipe, translate)");
	/* "triage u32 [SUB] --help": the one page covers every subcommand */
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    (argc == 3 && (strcmp(argv[2], "-h") == 0 || strcmp(argv[2], "--help") == 0))) {
		fputs(triage_help_u32, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "test") == 0)
		return cmd_u32_test(argc - 1, argv + 1);
	if (strcmp(argv[1], "explain") == 0)
		return u32_cmd_explain(argc - 1, argv + 1);
	if (strcmp(argv[1], "lint") == 0)
		return u32_cmd_lint(argc - 1, argv + 1);
	if (strcmp(argv[1], "recipe") == 0)
		return u32_cmd_recipe(argc - 1, argv + 1);
	if (strcmp(argv[1], "translate") == 0)
		return u32_cmd_translate(argc - 1, argv + 1);
	return cmd_unknown_word("u32", "not a u32 subcommand", argv[1], subcommands,
				ARRAY_SIZE(subcommands));
}
