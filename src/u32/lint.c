/*
 * u32 lint: known mistakes in u32 and string rules (spec sections 3, 5,
 * 6 and 8), each with the fix.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "u32/lint.h"
#include "u32/recipe.h"

struct linter {
	const struct u32_rule *r;
	struct u32_lint_warning *w;
	unsigned n, max;
};

static void warn(struct linter *l, const char *id, const char *fix, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

static void warn(struct linter *l, const char *id, const char *fix, const char *fmt, ...)
{
	va_list ap;

	if (l->n >= l->max)
		return;
	l->w[l->n].id = id;
	va_start(ap, fmt);
	vsnprintf(l->w[l->n].text, sizeof(l->w[l->n].text), fmt, ap);
	va_end(ap);
	snprintf(l->w[l->n].fix, sizeof(l->w[l->n].fix), "%s", fix);
	l->n++;
}

static bool op_is(const struct u32_test *t, unsigned k, uint8_t op, uint32_t n)
{
	return k < t->nnums && t->op[k] == op && t->num[k] == n;
}

/* Does the test start with 0>>22&0x3C@ (skip the IPv4 header)? */
static bool walks_ihl(const struct u32_test *t)
{
	return t->nnums >= 4 && t->num[0] == 0 && op_is(t, 1, U32_OP_SHR, 22) &&
	       op_is(t, 2, U32_OP_AND, 0x3C) && t->op[3] == U32_OP_AT;
}

/* 0>>22&0x3C@12>>26&0x3C@P: returns the payload byte the test isolates, or -1. */
static int tcp_payload_byte(const struct u32_test *t)
{
	if (!walks_ihl(t) || t->nnums < 7 || t->num[3] != 12 || !op_is(t, 4, U32_OP_SHR, 26) ||
	    !op_is(t, 5, U32_OP_AND, 0x3C) || t->op[6] != U32_OP_AT)
		return -1;
	if (op_is(t, 7, U32_OP_SHR, 24))
		return (int)t->num[6];
	if (op_is(t, 7, U32_OP_AND, 0xFF) && t->nnums == 8)
		return (int)t->num[6] + 3;
	return -1;
}

static bool value_only(const struct u32_test *t, uint32_t v)
{
	return t->nranges == 1 && t->min[0] == v && t->max[0] == v;
}

static bool is_frag_guard(const struct u32_test *t)
{
	return t->nnums == 2 && t->num[0] == 4 && op_is(t, 1, U32_OP_AND, t->num[1]) &&
	       (t->num[1] & 0x1FFF) == 0x1FFF && value_only(t, 0);
}

static bool is_v6_check(const struct u32_test *t)
{
	return t->nnums == 2 && t->num[0] == 0 && op_is(t, 1, U32_OP_SHR, 28) && value_only(t, 6);
}

static void lint_u32_test(struct linter *l, const struct u32_test *t, unsigned idx)
{
	int b = tcp_payload_byte(t);

	if (b == 2 && t->nranges == 1 && t->min[0] <= 1 && t->max[0] >= 1)
		warn(
		    l, "tls-record-version",
		    "read byte 5: ...@12>>26&0x3C@5>>24=0x01, or ...@2&0xFF=0x01",
		    "test %u reads TCP payload byte 2, the low byte of the TLS record version, not "
		    "byte 5, the handshake type: it matches TLS 1.0-record ServerHellos and misses "
		    "ClientHellos sent with record version 03 03",
		    idx + 1);
	if (t->nnums >= 2 && t->num[0] == 9 && op_is(t, 1, U32_OP_AND, 0xFF))
		warn(
		    l, "low-byte-offset", "the protocol (byte 9) as a low byte is 6&0xFF",
		    "test %u: 9&0xFF keeps the low byte of bytes 9-12, which is byte 12 (the first "
		    "byte of the source address), not the protocol",
		    idx + 1);
	for (unsigned r = 0; r < t->nranges; r++)
		if (t->min[r] > t->max[r])
			warn(l, "empty-range", "write the range as low:high",
			     "test %u: range 0x%x:0x%x has min > max and never matches", idx + 1,
			     t->min[r], t->max[r]);
}

/* m is a U32_MATCH_U32 match (its caller checks the kind). */
static void lint_u32(struct linter *l, const struct u32_match *m, bool guarded, bool v6)
{
	const struct u32_expr *e = &m->u32;
	bool transport = false;

	for (unsigned t = 0; t < e->ntests; t++) {
		lint_u32_test(l, &e->test[t], t);
		transport |= walks_ihl(&e->test[t]);
	}
	if (transport && !guarded)
		warn(l, "no-fragment-guard", "add the test 4&0x1FFF=0 (or ! -f) before the others",
		     "transport fields are read without a fragment guard: on a non-first fragment "
		     "0>>22&0x3C@ lands in the middle of the payload");
	if (transport && v6)
		warn(l, "ipv4-offsets-on-ipv6",
		     "for IPv6 the transport header is at 40 (without extension headers): read "
		     "e.g. 40+N directly",
		     "the rule is for IPv6 but 0>>22&0x3C is the IPv4 header-length idiom; on "
		     "IPv6 it reads bits of the traffic class");
	for (unsigned t = 0; v6 && t < e->ntests; t++) {
		const struct u32_test *ct = &e->test[t];
		if (ct->nnums == 2 && ct->num[0] == 6 && op_is(ct, 1, U32_OP_AND, 0xFF))
			warn(l, "ipv4-offsets-on-ipv6", "the IPv6 next header is byte 6: 3&0xFF",
			     "test %u reads the IPv4 protocol field (byte 9); on IPv6 that is a "
			     "byte of the source address",
			     t + 1);
		if (is_frag_guard(ct))
			warn(
			    l, "ipv4-offsets-on-ipv6",
			    "IPv6 fragments carry a fragment header (next header 44) instead",
			    "test %u is the IPv4 fragment guard; on IPv6 bytes 4-7 are the payload "
			    "length, next header and hop limit",
			    t + 1);
	}
	if (m->invert && transport)
		warn(l, "inverted-out-of-range",
		     "put a length or protocol guard in a separate, non-inverted match",
		     "! --u32 also matches every packet too short for one of its reads");
}

static bool lower_alpha(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool name_byte(uint8_t c)
{
	return lower_alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

/* A dotted host name written as text: "www.example.com". */
static bool has_dotted_name(const uint8_t *p, unsigned n)
{
	for (unsigned k = 1; k + 2 < n; k++)
		if (p[k] == '.' && name_byte(p[k - 1]) && lower_alpha(p[k + 1]) &&
		    lower_alpha(p[k + 2]))
			return true;
	return false;
}

/* Length of a run of >= 2 wire-format labels starting at k, 0 if none. */
static unsigned label_run(const uint8_t *p, unsigned n, unsigned k, unsigned *labels)
{
	unsigned start = k;

	*labels = 0;
	while (k < n && p[k] >= 1 && p[k] <= 63 && k + 1 + p[k] <= n) {
		for (unsigned j = 1; j <= p[k]; j++)
			if (!name_byte(p[k + j]))
				return *labels >= 2 ? k - start : 0;
		k += 1u + p[k];
		(*labels)++;
	}
	return *labels >= 2 ? k - start : 0;
}

static bool port_has_53(const struct u32_port_match *p)
{
	return p->set && !p->invert && p->lo <= 53 && p->hi >= 53;
}

/* Is the rule about DNS (port 53 in --dport or a u32 port test, or 00 after the name)? */
static bool dns_context(const struct u32_rule *r, const struct u32_str_match *s)
{
	const uint8_t *dot = memchr(s->pat, '.', s->plen);

	/* a 00 after the name looks like a root label or a QTYPE */
	if (dot && memchr(dot, 0, s->plen - (unsigned)(dot - s->pat)))
		return true;
	if (port_has_53(&r->dport) || port_has_53(&r->sport))
		return true;
	for (unsigned k = 0; k < r->nmatches; k++) {
		if (r->m[k].kind != U32_MATCH_U32)
			continue; /* a string match has no expression */
		const struct u32_expr *e = &r->m[k].u32;
		for (unsigned t = 0; t < e->ntests; t++)
			for (unsigned g = 0; g < e->test[t].nranges; g++)
				if (e->test[t].min[g] == 53 && e->test[t].max[g] == 53)
					return true;
	}
	return false;
}

static void lint_dns_pattern(struct linter *l, const struct u32_str_match *s)
{
	unsigned labels;

	if (dns_context(l->r, s) && has_dotted_name(s->pat, s->plen))
		warn(l, "dns-dotted-name",
		     "write the name as length-prefixed labels with the 00 terminator, e.g. "
		     "--hex-string '|03|www|07|example|03|com|00|' (triage u32 recipe dns-query)",
		     "the pattern holds a dotted name; DNS packets carry length-prefixed labels, "
		     "not dots, so a DNS name written this way never matches");
	for (unsigned k = 0; k < s->plen; k++) {
		unsigned run = label_run(s->pat, s->plen, k, &labels), end = k + run;
		if (!run)
			continue;
		if (!s->icase)
			warn(l, "dns-case",
			     "add --icase (label lengths and A/AAAA types are not letters)",
			     "DNS names are case-insensitive and resolvers may randomise the case "
			     "(0x20 encoding): without --icase WWW.EXAMPLE.COM is missed");
		if (end == s->plen)
			warn(l, "dns-no-terminator", "end the name with |00|",
			     "the DNS name has no 00 terminator: it also matches longer names "
			     "(www.example.com.attacker.net)");
		else if (s->pat[end] == 0 && (s->plen - end - 1) % 2 == 1)
			warn(
			    l, "dns-no-terminator",
			    "the name ends with 00, then QTYPE takes two bytes: an A query is "
			    "|00 0001|",
			    "after the name's 00 an odd number of bytes follows: the 00 terminator "
			    "is probably missing (|...com|0001| expects QTYPE 0x01xx, e.g. CAA, "
			    "not A)");
		else if (s->pat[end] == 0 && end + 3 <= s->plen && s->pat[end + 1] == 0 &&
			 s->pat[end + 2] == 0x11)
			warn(l, "dns-qtype", "A is 0001, AAAA 001c, MX 000f, HTTPS 0041",
			     "QTYPE 0x0011 after the name is RP, not A");
		break;
	}
}

static void lint_string(struct linter *l, const struct u32_str_match *s)
{
	bool gap = false;

	if ((unsigned)s->to - s->from < s->plen || s->from > s->to)
		warn(l, "window-too-small",
		     "--to must be at least --from + pattern length (the whole pattern must fit "
		     "since Linux 6.7)",
		     "the window --from %u --to %u is shorter than the %u-byte pattern: it never "
		     "matches",
		     s->from, s->to, s->plen);
	for (unsigned k = 0; k < s->plen; k++) {
		uint8_t f = u32_str_fold(s->pat[k]);
		gap |= f == 0xBF || f == 0xDF;
	}
	if (s->algo == U32_ALGO_BM && s->icase && gap)
		warn(l, "bm-icase-gap", "use --algo kmp",
		     "bm with --icase on a pattern with 0xBF/0xDF/0xFF: text bytes 0xDF and 0xFF "
		     "can make bm skip a real match, even in a linear packet");
	if (s->from == 0 && s->plen <= 3)
		warn(l, "short-pattern-in-headers",
		     "start the search after the headers, e.g. --from 28 for UDP/IPv4",
		     "a %u-byte pattern searched from offset 0 can match IP addresses, ports or "
		     "other header bytes",
		     s->plen);
	lint_dns_pattern(l, s);
}

unsigned u32_rule_lint(const struct u32_rule *r, struct u32_lint_warning *w, unsigned max)
{
	struct linter l = { .r = r, .w = w, .max = max };
	bool guarded = r->frag == 0, v6 = r->family_hint == 6;

	for (unsigned k = 0; k < r->nmatches; k++) {
		const struct u32_match *m = &r->m[k];
		if (m->kind != U32_MATCH_U32 || m->invert)
			continue; /* only a plain u32 test guards the others */
		for (unsigned t = 0; t < m->u32.ntests; t++) {
			guarded |= is_frag_guard(&m->u32.test[t]);
			v6 |= is_v6_check(&m->u32.test[t]);
		}
	}
	for (unsigned k = 0; k < r->nmatches; k++) {
		switch (r->m[k].kind) {
		case U32_MATCH_U32:
			lint_u32(&l, &r->m[k], guarded, v6);
			break;
		case U32_MATCH_STRING:
			lint_string(&l, &r->m[k].str);
			break;
		}
	}
	return l.n;
}
