/* Rule sets: loading a rules file and holding counters. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u32/run.h"

/*
 * A rule is about 27 KB (eight matches, each with its Boyer-Moore tables):
 * the array starts at one rule and doubles, so that a single rule (lint,
 * explain, the command line) costs one rule, not eight.
 */
int u32_ruleset_add(struct u32_ruleset *rs, const struct u32_rule *r)
{
	if (rs->n == rs->cap) {
		unsigned cap = rs->cap ? rs->cap * 2 : 1;
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

/*
 * The names already read, hashed: a rules file of 64 KB holds about 10,000
 * rules, and comparing each new name with every earlier one (27 KB apart
 * in memory) took seconds. Open addressing over rule indices + 1.
 */
struct name_set {
	unsigned *slot;
	unsigned size; /* a power of two, at least twice the names held */
};

static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static bool name_taken(const struct name_set *ns, const struct u32_ruleset *rs, const char *name)
{
	for (unsigned i = name_hash(name) & (ns->size - 1); ns->slot[i];
	     i = (i + 1) & (ns->size - 1))
		if (strcmp(rs->rules[ns->slot[i] - 1].name, name) == 0)
			return true;
	return false;
}

static void name_put(struct name_set *ns, const struct u32_ruleset *rs, unsigned idx)
{
	unsigned i = name_hash(rs->rules[idx].name) & (ns->size - 1);

	while (ns->slot[i])
		i = (i + 1) & (ns->size - 1);
	ns->slot[i] = idx + 1;
}

/* Makes room for one more name (rebuilding at twice the size); 0 or -ENOMEM. */
static int name_reserve(struct name_set *ns, const struct u32_ruleset *rs)
{
	if (2 * (rs->n + 1) <= ns->size)
		return 0;
	unsigned size = ns->size ? ns->size * 2 : 16;
	unsigned *slot = calloc(size, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	free(ns->slot);
	ns->slot = slot;
	ns->size = size;
	for (unsigned k = 0; k < rs->n; k++)
		name_put(ns, rs, k);
	return 0;
}

int u32_ruleset_read(struct u32_ruleset *rs, FILE *f, const char *name,
		     const struct u32_kernel_profile *kp, char *err, size_t errlen)
{
	char *line = NULL, msg[U32_ERR_LEN];
	size_t cap = 0;
	unsigned lineno = 0;
	struct u32_rule *r = malloc(sizeof(*r));
	struct u32_rule_error *why = malloc(sizeof(*why));
	struct name_set names = { 0 };
	int rc = 0;

	/* rs may hold rules already (given on the command line): their names count */
	if (!r || !why || name_reserve(&names, rs)) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: %s", name, strerror(-rc));
		goto out;
	}
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		int pr = u32_rule_parse_line(r, line, kp, why);
		if (pr == 1)
			continue;
		if (pr == 0 && name_taken(&names, rs, r->name))
			pr = u32_rule_fail(why, U32_RULE_NAME_TAKEN, NULL, r->name);
		if (pr < 0) {
			u32_rule_error_render(why, msg, sizeof(msg));
			snprintf(err, errlen, "%s:%u: %s", name, lineno, msg);
			rc = pr;
			goto out;
		}
		rc = name_reserve(&names, rs);
		if (!rc)
			rc = u32_ruleset_add(rs, r);
		if (!rc)
			name_put(&names, rs, rs->n - 1);
		if (rc) {
			snprintf(err, errlen, "%s:%u: %s", name, lineno, strerror(-rc));
			goto out;
		}
	}
out:
	free(line);
	free(r);
	free(why);
	free(names.slot);
	return rc;
}

int u32_ruleset_load(struct u32_ruleset *rs, const char *path, const struct u32_kernel_profile *kp,
		     char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = u32_ruleset_read(rs, f, path, kp, err, errlen);
	fclose(f);
	return rc;
}

int u32_run_init(struct u32_run *run, struct u32_ruleset *rs, const struct u32_run_opts *o)
{
	memset(run, 0, sizeof(*run));
	run->rs = rs;
	run->opts = *o;
	run->fv.res = calloc(rs->n ? rs->n : 1, sizeof(*run->fv.res));
	if (o->defrag)
		run->defrag = u32_defrag_new();
	if (!run->fv.res || (o->defrag && !run->defrag)) {
		u32_run_free(run);
		return -ENOMEM;
	}
	return 0;
}

void u32_run_free(struct u32_run *run)
{
	free(run->fv.res);
	u32_defrag_free(run->defrag);
	run->fv.res = NULL;
	run->defrag = NULL;
}

/* Every rule on one datagram, and the counters iptables -L -v -x would show. */
static void account(struct u32_run *run, const struct u32_view *v)
{
	struct u32_ruleset *rs = run->rs;

	for (unsigned k = 0; k < rs->n; k++) {
		struct u32_rule_counts *c = &rs->counts[k];
		struct u32_rule_result *res = &run->fv.res[k];
		u32_rule_eval(&rs->rules[k], &run->opts.kp, v, run->opts.layout, res);
		if (res->v == U32_VERDICT_YES) {
			c->pkts++;
			c->bytes += v->len;
		} else if (res->v == U32_VERDICT_INDET) {
			c->indet++;
		}
		c->layout_dep += res->layout_dependent;
	}
}

/* With defrag: 0 evaluate v, 1 held, -ENOMEM; v becomes the datagram when complete. */
static int reassemble(struct u32_run *run, struct u32_view *v)
{
	struct u32_view whole;
	int rc = u32_defrag_add(run->defrag, v, &whole);

	if (rc == 2) {
		*v = whole;
		return 0;
	}
	return rc;
}

struct run_capture {
	struct u32_run *run;
	int dlt;
	u32_frame_fn on_frame;
	void *ctx;
};

/* One frame: its view, reassembly, every rule, then the caller's turn. */
static int run_frame(void *ctx, const struct u32_frame *f)
{
	struct run_capture *rc = ctx;
	struct u32_run *run = rc->run;
	struct u32_frame_verdicts *fv = &run->fv;
	struct u32_view v;
	int held = 0;

	fv->number = ++run->frames;
	fv->status = u32_view_from_frame(rc->dlt, f->data, f->caplen, f->wirelen, &v);
	if (fv->status == U32_VIEW_OK && run->defrag && (held = reassemble(run, &v)) < 0)
		return held;
	if (fv->status == U32_VIEW_OK && held == 1)
		fv->status = U32_VIEW_HELD;
	fv->iplen = fv->status == U32_VIEW_OK ? v.len : 0;
	if (fv->status == U32_VIEW_OK) {
		run->ip++;
		account(run, &v);
		fv->view = &v;
	} else {
		fv->view = NULL;
		run->skipped++;
	}
	return rc->on_frame ? rc->on_frame(rc->ctx, fv) : 0;
}

int u32_ruleset_run(struct u32_run *run, struct u32_capture *cap, u32_frame_fn on_frame, void *ctx,
		    char *err, size_t errlen)
{
	struct run_capture rc = { .run = run, .dlt = cap->dlt, .on_frame = on_frame, .ctx = ctx };

	return u32_capture_loop(cap, run_frame, &rc, err, errlen);
}

int u32_ruleset_run_live(struct u32_run *run, struct u32_capture *cap, u32_frame_fn on_frame,
			 bool (*stop)(void *ctx), void *ctx, char *err, size_t errlen)
{
	struct run_capture rc = { .run = run, .dlt = cap->dlt, .on_frame = on_frame, .ctx = ctx };
	int n = 0;

	while (n >= 0 && !stop(ctx))
		n = u32_capture_dispatch(cap, run_frame, &rc, 100, err, errlen);
	/* what arrived before the stop is counted too */
	while (n >= 0 && (n = u32_capture_dispatch(cap, run_frame, &rc, 0, err, errlen)) > 0)
		;
	return n < 0 ? n : 0;
}

int u32_packet_load(const char *path, unsigned long n, uint8_t **buf, struct u32_view *v, char *err,
		    size_t errlen)
{
	char msg[512];
	struct u32_capture cap;
	struct u32_frame f;
	enum u32_view_status st;
	unsigned long k = 0;
	int rc;

	*buf = NULL;
	rc = u32_capture_open(&cap, path, err, errlen);
	if (rc)
		return rc;
	while ((rc = u32_capture_next(&cap, &f, msg, sizeof(msg))) == 1 && ++k < n)
		;
	if (rc != 1) {
		/* a damaged capture is a failure, a frame number past the end a mistake */
		if (rc < 0)
			snprintf(err, errlen, "frame %lu: %s", k + 1, msg);
		else
			snprintf(err, errlen, "no frame %lu (the capture has %lu)", n, k);
		u32_capture_close(&cap);
		return rc < 0 ? -EIO : -ERANGE;
	}
	*buf = malloc(f.caplen ? f.caplen : 1);
	if (!*buf) {
		u32_capture_close(&cap);
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	memcpy(*buf, f.data, f.caplen);
	st = u32_view_from_frame(cap.dlt, *buf, f.caplen, f.wirelen, v);
	u32_capture_close(&cap);
	if (st != U32_VIEW_OK) {
		snprintf(err, errlen, "frame %lu: %s", n, u32_view_status_reason(st));
		return -EPROTO;
	}
	return 0;
}
