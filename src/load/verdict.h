/*
 * The verdict: plain sentences, each carrying the numbers it rests on.
 * Built once from the numbers; the plain and JSON renderers print the same
 * sentences.
 */
#ifndef TRIAGE_LOAD_VERDICT_H
#define TRIAGE_LOAD_VERDICT_H

#include "load/snapshot.h"

#define VERDICT_MAX_LINES 6
#define VERDICT_LINE_MAX 320

struct load_verdict {
	char line[VERDICT_MAX_LINES][VERDICT_LINE_MAX];
	int nlines;
};

/* The figures a verdict is made of, from a snapshot or from --watch's averages. */
struct verdict_input {
	double load1; /* the kernel's 1-minute figure */
	int ncpu;
	double runnable;     /* tasks (or their 1-minute share) that are runnable */
	double d_counted;    /* in D and counted */
	double before;	     /* --watch: share from before the start; < 0 for a snapshot */
	double unattributed; /* --watch: the total less before and the task shares */
	double reason[D_REASON_COUNT]; /* counted D by reason (tasks or shares) */
	unsigned frozen;	       /* frozen tasks now (shown D, not counted) */
	bool have_psi_io;
	double psi_io_some10; /* PSI io some avg10, % */
	bool have_psi_cpu;
	double psi_cpu_some10;
	bool averaged;	 /* the figures are 1-minute shares, not counts now */
	double coverage; /* averaged: the weight of the sampled time in the 1-minute figure */
};

void load_verdict_build(const struct verdict_input *in, struct load_verdict *out);

/* The verdict input of a one-shot snapshot. */
void load_verdict_input_from_snapshot(const struct load_snapshot *s, struct verdict_input *in);

#endif
