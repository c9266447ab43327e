/*
 * The -m string match: libxt_string's --hex-string parser, the kernel's
 * Latin-1 case folding, lib/ts_bm.c and lib/ts_kmp.c, and the chunk and
 * window rules of skb_find_text().
 */
#ifndef TRIAGE_U32_STRMATCH_H
#define TRIAGE_U32_STRMATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u32/verdict.h"
#include "u32/view.h"

#define U32_STR_MAX_PATTERN 128

enum u32_str_algo { U32_ALGO_BM, U32_ALGO_KMP };

struct u32_bm_tables {
	unsigned bad[256];
	unsigned good[U32_STR_MAX_PATTERN];
	uint8_t pat[U32_STR_MAX_PATTERN];
	unsigned m;
	bool icase;
};

struct u32_str_match {
	enum u32_str_algo algo;
	bool icase, hex;
	uint16_t from, to;
	uint8_t pat[U32_STR_MAX_PATTERN];
	unsigned plen;
	bool have_algo, have_from, have_to, have_pattern;
	struct u32_bm_tables bm; /* prepared once the rule is parsed */
};

/* The --hex-string parser of libxt_string 1.8.9, quirks included. */
int u32_str_parse_hex(const char *arg, uint8_t *out, unsigned *outlen, char *err, size_t errlen);
uint8_t u32_str_fold(uint8_t c);   /* kernel toupper() */
uint8_t u32_str_unfold(uint8_t c); /* kernel tolower() */

/* bm chunk layouts (spec 5.6). */
enum u32_bm_layout {
	U32_BM_AUTO,   /* AF_PACKET over a veth: [IP header][page fragments] from 4080 bytes */
	U32_BM_LINEAR, /* one chunk */
	U32_BM_L3,     /* split at the end of the IP header */
	U32_BM_L4,     /* split at the end of the transport header */
	U32_BM_KMP,    /* as if searched correctly (intended verdict) */
};

struct u32_str_result {
	enum u32_verdict v;
	bool layout_dependent; /* another plausible layout gives another bm verdict */
	int32_t found;	       /* absolute offset of the occurrence used, -1 if none */
};

void u32_str_eval(const struct u32_str_match *m, const struct u32_kernel_profile *kp,
		  const struct u32_view *v, enum u32_bm_layout layout, struct u32_str_result *res);
/* Plain searches over a buffer, exposed for the benchmark and tests. */
long u32_str_kmp_search(const uint8_t *pat, unsigned m, bool icase, const uint8_t *t, size_t n);
void u32_str_bm_prepare(struct u32_bm_tables *bt, const uint8_t *pat, unsigned m, bool icase);
long u32_str_bm_search(const struct u32_bm_tables *bt, const uint8_t *t, size_t n);

#endif
