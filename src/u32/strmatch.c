/*
 * The string match: libxt_string's --hex-string parser, the kernel's
 * Latin-1 case folding, lib/ts_bm.c and lib/ts_kmp.c searches, and the
 * window and chunk rules of skb_find_text() (spec sections 4 and 5).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "u32/internal.h"
#include "u32/strmatch.h"

/* lib/ctype.c: 0xDF and 0xE0-0xFF except 0xF7 are lower case. */
static bool k_islower(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 0xDF && c != 0xF7);
}

static bool k_isupper(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7);
}

uint8_t u32_str_fold(uint8_t c)
{
	return k_islower(c) ? (uint8_t)(c - 0x20) : c;
}

uint8_t u32_str_unfold(uint8_t c)
{
	return k_isupper(c) ? (uint8_t)(c + 0x20) : c;
}

struct hex_state {
	const char *s;
	size_t n, i;
	unsigned out;
	bool inhex, escape;
};

/* Emits one byte from position i; the step after a '|' is not re-inspected. */
static int hex_emit(struct hex_state *h, uint8_t *out, char *err, size_t errlen)
{
	const char *s = h->s;

	if (h->escape) {
		if (h->i + 1 >= h->n)
			return u32_errorf(err, errlen, "Bad literal placement at end of string");
		out[h->out++] = (uint8_t)s[h->i + 1];
		h->i += 2;
		h->escape = false;
	} else if (h->inhex) {
		if (h->i + 1 >= h->n)
			return u32_errorf(err, errlen, "Odd number of hex digits");
		if (h->i + 2 >= h->n)
			return u32_errorf(err, errlen, "Invalid hex block");
		if (u32_hex_digit(s[h->i]) < 0)
			return u32_errorf(err, errlen, "Invalid hex char '%c'", s[h->i]);
		if (u32_hex_digit(s[h->i + 1]) < 0)
			return u32_errorf(err, errlen, "Invalid hex char '%c'", s[h->i + 1]);
		out[h->out++] = (uint8_t)(u32_hex_digit(s[h->i]) * 16 + u32_hex_digit(s[h->i + 1]));
		h->i += s[h->i + 2] == ' ' ? 3 : 2;
	} else {
		out[h->out++] = (uint8_t)s[h->i++];
	}
	return 0;
}

int u32_str_parse_hex(const char *arg, uint8_t *out, unsigned *outlen, char *err, size_t errlen)
{
	struct hex_state h = { .s = arg, .n = strlen(arg) };
	int rc;

	if (h.n == 0)
		return u32_errorf(err, errlen, "STRING must contain at least one char");
	while (h.i < h.n) {
		if (h.out >= U32_STR_MAX_PATTERN)
			return u32_errorf(err, errlen, "STRING too long \"%s\"", arg);
		if (arg[h.i] == '\\' && !h.inhex) {
			h.escape = true;
		} else if (arg[h.i] == '\\') {
			return u32_errorf(err, errlen, "Cannot include literals in hex data");
		} else if (arg[h.i] == '|') {
			h.inhex = !h.inhex;
			if (h.inhex)
				while (arg[h.i + 1] == ' ')
					h.i++;
			if (h.i + 1 >= h.n)
				break;
			h.i++;
		}
		rc = hex_emit(&h, out, err, errlen);
		if (rc)
			return rc;
	}
	*outlen = h.out;
	return 0;
}

long u32_str_kmp_search(const uint8_t *pat, unsigned m, bool icase, const uint8_t *t, size_t n)
{
	unsigned prefix[U32_STR_MAX_PATTERN], q = 0;
	uint8_t p[U32_STR_MAX_PATTERN];

	if (m == 0 || m > U32_STR_MAX_PATTERN)
		return -1;
	for (unsigned k = 0; k < m; k++)
		p[k] = icase ? u32_str_fold(pat[k]) : pat[k];
	prefix[0] = 0;
	for (unsigned k = 1, j = 0; k < m; k++) {
		while (j > 0 && p[j] != p[k])
			j = prefix[j - 1];
		if (p[j] == p[k])
			j++;
		prefix[k] = j;
	}
	for (size_t i = 0; i < n; i++) {
		if (q == 0 && !icase) {
			/* nothing matched yet: jump to the next possible start */
			const uint8_t *hit = memchr(t + i, p[0], n - i);
			if (!hit)
				return -1;
			i = (size_t)(hit - t);
		}
		uint8_t c = icase ? u32_str_fold(t[i]) : t[i];
		while (q > 0 && p[q] != c)
			q = prefix[q - 1];
		if (p[q] == c)
			q++;
		if (q == m)
			return (long)(i + 1 - m);
	}
	return -1;
}

/* ts_bm.c's subpattern(): does p[j..j+g) re-occur as the suffix p[i..i+g)? */
static bool bm_subpattern(const uint8_t *p, int i, int j, int g)
{
	int x = i + g - 1, y = j + g - 1;

	while (p[x--] == p[y--]) {
		if (y < 0)
			return true;
		if (--g == 0)
			return p[i - 1] != p[j - 1];
	}
	return false;
}

void u32_str_bm_prepare(struct u32_bm_tables *bt, const uint8_t *pat, unsigned m, bool icase)
{
	int len = (int)m;

	bt->m = m;
	bt->icase = icase;
	for (unsigned k = 0; k < m; k++)
		bt->pat[k] = icase ? u32_str_fold(pat[k]) : pat[k];
	for (int c = 0; c < 256; c++)
		bt->bad[c] = m;
	for (int k = 0; k < len - 1; k++) {
		bt->bad[bt->pat[k]] = (unsigned)(len - 1 - k);
		if (icase)
			bt->bad[u32_str_unfold(bt->pat[k])] = (unsigned)(len - 1 - k);
	}
	bt->good[0] = 1;
	for (int k = 1; k < len; k++)
		bt->good[k] = m;
	for (int i = len - 1, g = 1; i > 0; g++, i--) {
		for (int j = i - 1; j >= 1 - g; j--) {
			if (bm_subpattern(bt->pat, i, j, g)) {
				bt->good[g] = (unsigned)(len - j - g);
				break;
			}
		}
	}
}

long u32_str_bm_search(const struct u32_bm_tables *bt, const uint8_t *t, size_t n)
{
	size_t m = bt->m, shift = m - 1;

	if (m == 0)
		return -1;
	while (shift < n) {
		size_t i = 0;
		if (bt->icase) {
			while (i < m && u32_str_fold(t[shift - i]) == bt->pat[m - 1 - i])
				i++;
		} else {
			while (i < m && t[shift - i] == bt->pat[m - 1 - i])
				i++;
		}
		if (i == m)
			return (long)(shift - (m - 1));
		size_t by_bad = shift - i + bt->bad[t[shift - i]];
		size_t by_good = shift + bt->good[i];
		shift = by_bad > by_good ? by_bad : by_good;
	}
	return -1;
}

#define CUTS_MAX 24 /* a 64 KiB frame has at most 16 page fragments */
#define PAGE_BYTES 4096u
#define ETH_HEADER 14u	   /* veth's hard_header_len: the linear part AF_PACKET sends */
#define LINEAR_LIMIT 4080u /* packet_alloc_skb: PAGE_SIZE - 16 bytes of headroom */
#define COSTLY_ORDER 3u	   /* PAGE_ALLOC_COSTLY_ORDER, the largest page order used */

/* What ip_rcv()/ipv6_rcv() pull into the linear area before PREROUTING. */
static uint32_t ip_pulled_len(const struct u32_view *v)
{
	/* ipv6_parse_hopopts() reads a Hop-by-Hop header before the hook */
	if (v->family == 6 && v->data[6] == 0 && v->caplen >= 42)
		return 40 + (v->data[41] + 1u) * 8;
	return v->l3len;
}

/*
 * A frame sent with AF_PACKET over a veth: below 4080 bytes it is one
 * linear buffer. From 4080 on, packet_snd() keeps the 14-byte Ethernet
 * header linear and puts the rest in page fragments (alloc_skb_with_frags):
 * each of PAGE_SIZE << order bytes, the order the largest (at most 3) whose
 * size does not pass the bytes left rounded up to whole pages, and never
 * growing again. The IP layer then pulls its header into the linear part.
 * So an 8500-byte IPv4 packet is 20 + 8172 + 308, a 9000-byte IPv6 one
 * 40 + 8152 + 808, a 20000-byte one [header][to 16384][rest].
 */
static unsigned afpacket_cuts(const struct u32_view *v, uint32_t *cut)
{
	uint32_t frame = v->l2len + v->wirelen, left, at = ETH_HEADER, order = COSTLY_ORDER;
	unsigned n = 0;

	if (frame < LINEAR_LIMIT)
		return 0;
	cut[n++] = ip_pulled_len(v);
	for (left = frame - ETH_HEADER; left > 0 && n < CUTS_MAX;) {
		uint32_t pages = (left + PAGE_BYTES - 1) / PAGE_BYTES;
		while (order > 0 && pages < (1u << order))
			order--;
		uint32_t chunk = PAGE_BYTES << order;
		if (chunk >= left)
			break;
		at += chunk;
		left -= chunk;
		/* a boundary in frame bytes, seen from the IP header */
		if (at > v->l2len && at - v->l2len > cut[0])
			cut[n++] = at - v->l2len;
	}
	return n;
}

/* Chunk boundaries (absolute offsets) of a layout, in increasing order. */
static unsigned layout_cuts(const struct u32_view *v, enum u32_bm_layout layout, uint32_t *cut)
{
	unsigned n = 0;

	if (v->nfrag_cuts && layout != U32_BM_LINEAR) {
		/* a reassembled datagram: head fragment, then each later one */
		for (unsigned k = 0; k < v->nfrag_cuts && n < 3; k++)
			cut[n++] = v->frag_cuts[k];
		return n;
	}
	switch (layout) {
	case U32_BM_AUTO:
		return afpacket_cuts(v, cut);
	case U32_BM_L3:
		cut[n++] = v->l3len;
		break;
	case U32_BM_L4:
		if (v->l4off && v->l4len)
			cut[n++] = v->l4off + v->l4len;
		break;
	default:
		break;
	}
	return n;
}

/*
 * skb_find_text(): chunks start at from; a chunk is not cut at --to, and
 * reading stops once a chunk would start at or after --to. Searches over
 * the captured bytes only; the caller decides what a miss means.
 */
static long bm_over_chunks(const struct u32_bm_tables *bt, const struct u32_view *v, uint32_t from,
			   uint32_t to, enum u32_bm_layout layout)
{
	uint32_t cut[CUTS_MAX] = { 0 }, end = v->caplen < v->len ? v->caplen : v->len;
	unsigned ncut = layout_cuts(v, layout, cut);
	uint32_t pos = from;

	while (pos < end && pos < to) {
		uint32_t stop = end;
		for (unsigned k = 0; k < ncut; k++)
			if (cut[k] > pos && cut[k] < stop)
				stop = cut[k];
		long r = u32_str_bm_search(bt, v->data + pos, stop - pos);
		if (r >= 0)
			return (long)(pos - from) + r;
		pos = stop;
	}
	return -1;
}

static long kmp_over_view(const struct u32_str_match *m, const struct u32_view *v, uint32_t from,
			  uint32_t to)
{
	uint32_t end = v->caplen < v->len ? v->caplen : v->len;

	if (from >= end || from >= to)
		return -1;
	return u32_str_kmp_search(m->pat, m->plen, m->icase, v->data + from, end - from);
}

static enum u32_verdict window_verdict(const struct u32_str_match *m,
				       const struct u32_kernel_profile *kp,
				       const struct u32_view *v, long r)
{
	uint32_t from = m->from, to = m->to, need;

	if (r >= 0) {
		if (kp->to_start)
			return (uint32_t)r <= to - from ? U32_VERDICT_YES : U32_VERDICT_NO;
		return (uint32_t)r + m->plen <= (uint32_t)(to - from) ? U32_VERDICT_YES
								      : U32_VERDICT_NO;
	}
	/* not found in the captured part: decisive only if the window was there */
	need = kp->to_start ? to + m->plen : to;
	if (need > v->len)
		need = v->len;
	return v->caplen >= need ? U32_VERDICT_NO : U32_VERDICT_INDET;
}

static enum u32_verdict eval_layout(const struct u32_str_match *m, const struct u32_bm_tables *bt,
				    const struct u32_kernel_profile *kp, const struct u32_view *v,
				    enum u32_bm_layout layout, long *found)
{
	long r;

	if (m->from > m->to)
		return U32_VERDICT_NO;
	if (m->algo == U32_ALGO_KMP || layout == U32_BM_KMP)
		r = kmp_over_view(m, v, m->from, m->to);
	else
		r = bm_over_chunks(bt, v, m->from, m->to, layout);
	*found = r;
	return window_verdict(m, kp, v, r);
}

/* Does [at, at+m) contain a chunk boundary of any candidate layout? */
static bool crosses_any_cut(const struct u32_view *v, uint32_t at, uint32_t m)
{
	static const enum u32_bm_layout layouts[] = { U32_BM_L3, U32_BM_L4, U32_BM_AUTO };
	uint32_t cut[CUTS_MAX];

	for (unsigned k = 0; k < ARRAY_SIZE(layouts); k++) {
		unsigned n = layout_cuts(v, layouts[k], cut);
		for (unsigned j = 0; j < n; j++)
			if (cut[j] > at && cut[j] < at + m)
				return true;
	}
	return false;
}

/*
 * Without --icase bm finds exactly the first occurrence inside each chunk,
 * so when the first occurrence overall crosses no candidate boundary every
 * layout gives the verdict of that occurrence: one kmp pass decides.
 */
static bool bm_shortcut(const struct u32_str_match *m, const struct u32_kernel_profile *kp,
			const struct u32_view *v, struct u32_str_result *res)
{
	long r;

	if (m->icase || m->from > m->to)
		return false;
	r = kmp_over_view(m, v, m->from, m->to);
	if (r >= 0 && crosses_any_cut(v, m->from + (uint32_t)r, m->plen))
		return false;
	res->v = window_verdict(m, kp, v, r);
	res->found = r >= 0 ? (int32_t)(m->from + r) : -1;
	return true;
}

void u32_str_eval(const struct u32_str_match *m, const struct u32_kernel_profile *kp,
		  const struct u32_view *v, enum u32_bm_layout layout, struct u32_str_result *res)
{
	static const enum u32_bm_layout alts[] = { U32_BM_LINEAR, U32_BM_L3, U32_BM_L4,
						   U32_BM_AUTO };
	const struct u32_bm_tables *bt = &m->bm;
	long r = -1, r2;

	res->layout_dependent = false;
	if (m->algo == U32_ALGO_BM && layout != U32_BM_KMP && bm_shortcut(m, kp, v, res))
		return;
	res->v = eval_layout(m, bt, kp, v, layout, &r);
	res->found = r >= 0 ? (int32_t)(m->from + r) : -1;
	if (m->algo == U32_ALGO_BM && layout != U32_BM_KMP) {
		for (unsigned k = 0; k < ARRAY_SIZE(alts); k++)
			if (eval_layout(m, bt, kp, v, alts[k], &r2) != res->v)
				res->layout_dependent = true;
	}
}
