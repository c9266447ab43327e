/*
 * Running a rule set over captures: per-rule counters and per-frame
 * verdicts, with the kernel's reassembly before PREROUTING when asked.
 */
#ifndef TRIAGE_U32_RUN_H
#define TRIAGE_U32_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "u32/capture.h"
#include "u32/defrag.h"
#include "u32/rule.h"

struct u32_rule_counts {
	uint64_t pkts, bytes, indet, layout_dep;
};

struct u32_ruleset {
	struct u32_rule *rules;
	struct u32_rule_counts *counts;
	unsigned n, cap;
};

/* Adds a copy of r; 0 or -ENOMEM. */
int u32_ruleset_add(struct u32_ruleset *rs, const struct u32_rule *r);
void u32_ruleset_free(struct u32_ruleset *rs);
/* Reads rules from f, one a line; -EINVAL with "NAME:LINE: message" in err. */
int u32_ruleset_read(struct u32_ruleset *rs, FILE *f, const char *name,
		     const struct u32_kernel_profile *kp, char *err, size_t errlen);
/* Reads a rules file; -EINVAL with "FILE:LINE: message" in err. */
int u32_ruleset_load(struct u32_ruleset *rs, const char *path, const struct u32_kernel_profile *kp,
		     char *err, size_t errlen);

/* One frame's outcome: status and, if U32_VIEW_OK, a verdict per rule. */
struct u32_frame_verdicts {
	uint64_t number; /* 1-based over all captures */
	enum u32_view_status status;
	uint32_t iplen;
	struct u32_rule_result *res; /* n entries */
	const struct u32_view *view; /* the datagram, when status is U32_VIEW_OK */
};

struct u32_run_opts {
	struct u32_kernel_profile kp;
	enum u32_bm_layout layout;
	bool defrag; /* model nf_defrag_ipv4/ipv6 (a conntrack user in the namespace) */
};

/* Sees every frame's outcome, in order; nonzero stops the run with that value. */
typedef int (*u32_frame_fn)(void *ctx, const struct u32_frame_verdicts *fv);

/* One run over one or more captures, numbered as one sequence. */
struct u32_run {
	struct u32_ruleset *rs;
	struct u32_run_opts opts;
	struct u32_defrag *defrag; /* NULL without opts.defrag */
	struct u32_frame_verdicts fv;
	uint64_t frames, ip, skipped; /* frames, seen by the rules, not seen */
};

/* 0 or -ENOMEM. The counters of rs add up over the run. */
int u32_run_init(struct u32_run *run, struct u32_ruleset *rs, const struct u32_run_opts *o);
void u32_run_free(struct u32_run *run);
/*
 * Evaluates every rule on every frame of cap: 0 at the end of the capture,
 * -EIO for a damaged one (libpcap's message in err), -ENOMEM, or what
 * on_frame returned.
 */
int u32_ruleset_run(struct u32_run *run, struct u32_capture *cap, u32_frame_fn on_frame, void *ctx,
		    char *err, size_t errlen);

/*
 * The same over a live capture (u32_capture_open_live) until stop(ctx)
 * says so, checked at least every 100 ms: 0, -EIO (message in err),
 * -ENOMEM, or what on_frame returned.
 */
int u32_ruleset_run_live(struct u32_run *run, struct u32_capture *cap, u32_frame_fn on_frame,
			 bool (*stop)(void *ctx), void *ctx, char *err, size_t errlen);

/*
 * Frame n (1-based) of the capture at path, copied to *buf (the caller
 * frees it), as the rules see it in *v (explain --packet). 0; -EIO for a
 * capture that cannot be opened or is damaged before frame n; -ERANGE when
 * it has fewer frames; -EPROTO when the rules never see that frame (not
 * IP, or dropped before PREROUTING); -ENOMEM. err says why, without path.
 */
int u32_packet_load(const char *path, unsigned long n, uint8_t **buf, struct u32_view *v, char *err,
		    size_t errlen);

#endif
