/*
 * u32 and string rules as native nftables payload expressions.
 *
 * Only exact forms are given. Every u32 read becomes a 32-bit payload
 * load at the same place, so the kernel's bound check (the 4 bytes must lie
 * inside the datagram, else the rule does not match) is the same in both;
 * masks and shifts fold into one mask and a comparison of the masked word.
 * The bases nftables has are the network header (@nh), the transport
 * header (@th: IPv4 header length, but only when the fragment offset is
 * 0) and the inner header (@ih: after the TCP data offset, only for TCP
 * with a full 20-byte header, fragment offset 0). A u32 jump is translated
 * only where the rule itself guarantees those conditions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "u32/nft.h"

enum nft_base { BASE_NH, BASE_TH, BASE_IH };

struct nft_out {
	char *buf;
	size_t len, at;
	bool overflow;
};

static void put(struct nft_out *o, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void put(struct nft_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->at, o->len - o->at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->at)
		o->overflow = true;
	else
		o->at += (size_t)n;
}

static int no_form(struct u32_nft *out, const char *kind, const char *fmt, ...) PRINTF_LIKE(3, 4);
static int no_form(struct u32_nft *out, const char *kind, const char *fmt, ...)
{
	va_list ap;

	out->kind = kind;
	va_start(ap, fmt);
	vsnprintf(out->reason, sizeof(out->reason), fmt, ap);
	va_end(ap);
	out->exact = false;
	out->text[0] = '\0';
	return 0;
}

static bool test_is_fixed_and(const struct u32_test *t, uint32_t pos, uint32_t *mask)
{
	if (t->nnums != 2 || t->num[0] != pos || t->op[1] != U32_OP_AND)
		return false;
	*mask = t->num[1];
	return true;
}

/* Every value the test accepts has these bits zero (and the test reads them). */
static bool test_forces_zero(const struct u32_test *t, uint32_t pos, uint32_t bits)
{
	uint32_t mask;

	if (!test_is_fixed_and(t, pos, &mask) || (mask & bits) != bits || t->nranges == 0)
		return false;
	for (unsigned k = 0; k < t->nranges; k++)
		if (t->min[k] != t->max[k] || (t->min[k] & bits))
			return false;
	return true;
}

static bool test_forces_value(const struct u32_test *t, uint32_t pos, uint32_t mask, uint32_t value)
{
	uint32_t m;

	return test_is_fixed_and(t, pos, &m) && m == mask && t->nranges == 1 &&
	       t->min[0] == value && t->max[0] == value;
}

/* Some non-inverted u32 match of r has a test for which pred holds. */
static bool rule_has_test(const struct u32_rule *r, bool (*pred)(const struct u32_test *t))
{
	for (unsigned k = 0; k < r->nmatches; k++) {
		const struct u32_match *m = &r->m[k];
		if (m->kind != U32_MATCH_U32 || m->invert)
			continue;
		for (unsigned i = 0; i < m->u32.ntests; i++)
			if (pred(&m->u32.test[i]))
				return true;
	}
	return false;
}

static bool frag0_test(const struct u32_test *t)
{
	return test_forces_zero(t, 4, 0x1FFF); /* 4&0x1FFF=0, 4&0x3FFF=0 */
}

static bool tcp_test(const struct u32_test *t)
{
	return test_forces_value(t, 6, 0xFF, 6); /* 6&0xFF=6 */
}

static bool has_ports(const struct u32_rule *r)
{
	return r->sport.set || r->dport.set;
}

/* The rule matches IPv4 packets only with fragment offset 0. */
static bool implies_frag0(const struct u32_rule *r)
{
	/*
	 * Not the port matches: iptables-nft loads them as "tcp dport", and
	 * the kernel's fast path for aligned 1/2/4-byte payload loads reads
	 * the transport header of non-first fragments too.
	 */
	return r->frag == 0 || rule_has_test(r, frag0_test);
}

static bool implies_tcp(const struct u32_rule *r)
{
	return (r->proto == 6 && !r->proto_invert) || rule_has_test(r, tcp_test);
}

/* Where a u32 location's last read happens: base and offset, ops from *first. */
static int classify_location(const struct u32_test *t, enum nft_base *base, uint32_t *pos,
			     unsigned *first)
{
	static const uint8_t ihl_op[] = { 0, U32_OP_SHR, U32_OP_AND, U32_OP_AT };
	static const uint32_t ihl_num[] = { 0, 22, 0x3C };
	static const uint8_t doff_op[] = { U32_OP_SHR, U32_OP_AND, U32_OP_AT };
	static const uint32_t doff_num[] = { 12, 26, 0x3C };
	unsigned k = 0, nat = 0;

	for (unsigned i = 1; i < t->nnums; i++)
		nat += t->op[i] == U32_OP_AT;
	*base = BASE_NH;
	if (nat == 0) {
		*pos = t->num[0];
		*first = 1;
		return 0;
	}
	if (t->nnums < 4)
		return -1;
	for (k = 0; k < 3; k++)
		if (t->num[k] != ihl_num[k] || (k && t->op[k] != ihl_op[k]))
			return -1;
	if (t->op[3] != U32_OP_AT)
		return -1;
	if (nat == 1) {
		*base = BASE_TH;
		*pos = t->num[3];
		*first = 4;
		return 0;
	}
	if (nat != 2 || t->nnums < 7)
		return -1;
	for (k = 0; k < 3; k++)
		if (t->num[3 + k] != doff_num[k] || t->op[4 + k] != doff_op[k])
			return -1;
	*base = BASE_IH;
	*pos = t->num[6];
	*first = 7;
	return 0;
}

/*
 * The value u32 compares is ((W & mask) << shift) for shift >= 0, or
 * >> -shift, with no bit of W & mask lost on the way.
 */
static void fold_ops_to(const struct u32_test *t, unsigned first, unsigned end, uint32_t *mask,
			int *shift)
{
	uint32_t m = 0xFFFFFFFF;
	int s = 0;

	for (unsigned k = first; k < end && m; k++) {
		uint32_t n = t->num[k];
		if (t->op[k] == U32_OP_AND) {
			m &= s >= 0 ? n >> s : (uint32_t)((uint64_t)n << -s);
			continue;
		}
		s += t->op[k] == U32_OP_SHL ? (int)n : -(int)n;
		if (s >= 32 || s <= -32)
			m = 0;
		else if (s >= 0)
			m &= 0xFFFFFFFFu >> s; /* bits pushed out at the top */
		else
			m &= 0xFFFFFFFFu << -s; /* bits pushed out at the bottom */
	}
	*mask = m;
	*shift = m ? s : 0;
}

static void fold_ops(const struct u32_test *t, unsigned first, uint32_t *mask, int *shift)
{
	fold_ops_to(t, first, t->nnums, mask, shift);
}

/* The range of W & mask that gives a compared value in [lo, hi]; false if none. */
static bool unshift_range(uint32_t lo, uint32_t hi, int shift, uint64_t *xlo, uint64_t *xhi)
{
	if (lo > hi)
		return false;
	if (shift >= 0) {
		uint64_t d = 1ull << shift;
		*xlo = (lo + d - 1) / d;
		*xhi = hi / d;
	} else {
		*xlo = (uint64_t)lo << -shift;
		*xhi = (uint64_t)hi << -shift; /* W & mask has no bits below -shift */
		if (*xhi > 0xFFFFFFFF)
			*xhi = 0xFFFFFFFF;
	}
	return *xlo <= *xhi && *xlo <= 0xFFFFFFFF;
}

/* 0>>22&0x3C@12>>28=5:15 and the like: the TCP data offset is at least 5. */
static bool doff5_test(const struct u32_test *t)
{
	enum nft_base base;
	uint32_t pos, mask;
	unsigned first;
	int shift;
	uint64_t lo, hi;

	if (classify_location(t, &base, &pos, &first) || base != BASE_TH || pos != 12)
		return false;
	fold_ops(t, first, &mask, &shift);
	if (mask != 0xF0000000 || t->nranges == 0)
		return false;
	for (unsigned k = 0; k < t->nranges; k++)
		if (unshift_range(t->min[k], t->max[k], shift, &lo, &hi) && lo < 0x50000000)
			return false;
	return true;
}

static const char *base_name(enum nft_base b)
{
	return b == BASE_NH ? "nh" : b == BASE_TH ? "th" : "ih";
}

/* One u32 test as a payload comparison; false if no accepted value exists. */
static bool put_test(struct nft_out *o, const struct u32_test *t, enum nft_base base, uint32_t pos,
		     unsigned first)
{
	uint32_t mask;
	int shift;
	uint64_t lo[U32_MAX_RANGES], hi[U32_MAX_RANGES];
	unsigned n = 0;

	fold_ops(t, first, &mask, &shift);
	for (unsigned k = 0; k < t->nranges; k++) {
		if (mask == 0) { /* the value is always 0 */
			if (t->min[k] == 0) {
				lo[0] = hi[0] = 0;
				n = 1;
				break;
			}
			continue;
		}
		if (unshift_range(t->min[k], t->max[k], shift, &lo[n], &hi[n]))
			n++;
	}
	if (n == 0)
		return false;
	put(o, " @%s,%u,32", base_name(base), pos * 8);
	if (mask != 0xFFFFFFFF)
		put(o, " & 0x%x", mask);
	if (n == 1 && lo[0] == hi[0]) {
		put(o, " == 0x%llx", (unsigned long long)lo[0]);
		return true;
	}
	put(o, n > 1 ? " { " : " ");
	for (unsigned k = 0; k < n; k++) {
		put(o, "%s0x%llx", k ? ", " : "", (unsigned long long)lo[k]);
		if (hi[k] != lo[k])
			put(o, "-0x%llx", (unsigned long long)hi[k]);
	}
	if (n > 1)
		put(o, " }");
	return true;
}

static int put_u32_match(struct nft_out *o, const struct u32_rule *r, const struct u32_expr *e,
			 int family, struct u32_nft *out)
{
	for (unsigned i = 0; i < e->ntests; i++) {
		const struct u32_test *t = &e->test[i];
		enum nft_base base;
		uint32_t pos;
		unsigned first;

		if (classify_location(t, &base, &pos, &first))
			return no_form(
			    out, "computed-jump",
			    "test %u: a jump computed from packet data other than the IP "
			    "header length (0>>22&0x3C@) and the TCP data offset "
			    "(12>>26&0x3C@); nftables payload offsets are constants",
			    i + 1);
		if (base != BASE_NH && family != 4)
			return no_form(
			    out, "ipv6-jump",
			    "test %u: on IPv6 u32's jumps read the IPv6 header's bits, "
			    "while nftables' transport header follows the extension headers",
			    i + 1);
		if (base != BASE_NH && !implies_frag0(r))
			return no_form(
			    out, "fragment-jump",
			    "test %u: on non-first fragments u32 jumps into the fragment's data, "
			    "where nftables has no transport header (add 4&0x1FFF=0 or ! -f)",
			    i + 1);
		if (base == BASE_IH && !implies_tcp(r))
			return no_form(
			    out, "non-tcp-jump",
			    "test %u: the TCP-payload jump also runs on non-TCP packets, "
			    "where nftables' inner header is elsewhere or absent (add -p "
			    "tcp or 6&0xFF=6)",
			    i + 1);
		/* nftables' inner header needs 20 TCP header bytes, u32 only its reads */
		if (base == BASE_IH && pos < 16 && !rule_has_test(r, doff5_test))
			return no_form(out, "short-tcp-header",
				       "test %u: on a TCP header cut short below 20 bytes "
				       "with a data offset under 5 u32 can still read, "
				       "nftables' inner header does not exist (add "
				       "0>>22&0x3C@12>>28=5:15)",
				       i + 1);
		if (!put_test(o, t, base, pos, first))
			return no_form(out, "never-matches",
				       "test %u can never pass; the rule never matches", i + 1);
	}
	return 0;
}

/* The text bytes the kernel's case folding maps onto pattern byte p, as mask/value. */
static bool fold_as_mask(uint8_t p, bool icase, uint8_t *mask, uint8_t *value)
{
	uint8_t want = icase ? u32_str_fold(p) : p, set[256];
	unsigned n = 0;

	for (unsigned t = 0; t < 256; t++)
		if ((icase ? u32_str_fold((uint8_t)t) : (uint8_t)t) == want)
			set[n++] = (uint8_t)t;
	if (n == 1) {
		*mask = 0xFF;
		*value = set[0];
		return true;
	}
	if (n == 2 && __builtin_popcount(set[0] ^ set[1]) == 1) {
		*mask = (uint8_t) ~(set[0] ^ set[1]);
		*value = set[0] & *mask;
		return true;
	}
	return false;
}

static int put_string_match(struct nft_out *o, const struct u32_str_match *s, struct u32_nft *out)
{
	uint8_t mask[U32_STR_MAX_PATTERN], value[U32_STR_MAX_PATTERN];

	if (s->to < s->from || (unsigned)(s->to - s->from) < s->plen)
		return no_form(out, "never-matches",
			       "the string window is shorter than the pattern; the rule "
			       "never matches");
	if ((unsigned)(s->to - s->from) != s->plen)
		return no_form(out, "substring-search",
			       "nftables has no substring search: the pattern may start anywhere "
			       "in a %u-byte window (a window exactly as long as the pattern, "
			       "--to = --from + %u, has one)",
			       (unsigned)(s->to - s->from), s->plen);
	if (s->algo == U32_ALGO_BM)
		return no_form(out, "bm-chunks",
			       "--algo bm misses a pattern that crosses an skb chunk "
			       "boundary, a payload comparison does not (use --algo kmp)");
	for (unsigned k = 0; k < s->plen; k++)
		if (!fold_as_mask(s->pat[k], s->icase, &mask[k], &value[k]))
			return no_form(
			    out, "icase-fold",
			    "--icase folds byte 0x%02x together with more than one other "
			    "byte; no bit mask selects exactly those",
			    s->pat[k]);
	for (unsigned k = 0; k < s->plen; k += 4) {
		unsigned len = s->plen - k < 4 ? s->plen - k : 4;
		uint32_t m = 0, v = 0, full = len == 4 ? 0xFFFFFFFF : (1u << (8 * len)) - 1;
		for (unsigned b = 0; b < len; b++) {
			m = m << 8 | mask[k + b];
			v = v << 8 | value[k + b];
		}
		put(o, " @nh,%u,%u", (s->from + k) * 8, len * 8);
		if (m != full)
			put(o, " & 0x%x", m);
		put(o, " == 0x%x", v);
	}
	return 0;
}

static void put_ports(struct nft_out *o, const char *proto, const char *dir,
		      const struct u32_port_match *p)
{
	if (!p->set)
		return;
	put(o, " %s %s %s%u", proto, dir, p->invert ? "!= " : "", p->lo);
	if (p->hi != p->lo)
		put(o, "-%u", p->hi);
}

/*
 * xt_state and nft's ct state read the same bit of the same conntrack
 * entry (an untracked or unknown packet is "untracked" or "invalid" in
 * both), and iptables-nft loads -m state as this very expression.
 */
static int put_ct_state(struct nft_out *o, const struct u32_ct_match *ct, struct u32_nft *out)
{
	static const char *const names[] = { "invalid", "established", "related", "new",
					     "untracked" };
	unsigned n = (unsigned)__builtin_popcount(ct->states), k = 0;

	if (ct->other[0])
		return no_form(out, "conntrack-option",
			       "conntrack option '%s' is not carried over (only --state and "
			       "--ctstate with plain state names are)",
			       ct->other);
	if (!ct->set)
		return 0;
	put(o, " ct state %s%s", ct->invert ? "!= " : "", n > 1 ? "{ " : "");
	for (unsigned b = 0; b < ARRAY_SIZE(names); b++)
		if (ct->states & (1u << b))
			put(o, "%s%s", k++ ? ", " : "", names[b]);
	put(o, "%s", n > 1 ? " }" : "");
	return 0;
}

static int put_basic(struct nft_out *o, const struct u32_rule *r, int family, struct u32_nft *out)
{
	const char *proto = r->proto == 6 ? "tcp" : r->proto == 17 ? "udp" : NULL;
	int rc;

	if (r->frag >= 0 && family != 4)
		return no_form(out, "ipv4-option", "-f is an iptables (IPv4) option");
	if (r->frag >= 0)
		put(o, " ip frag-off & 0x1fff %s 0", r->frag ? "!=" : "==");
	if (r->proto >= 0) {
		put(o, " meta l4proto %s", r->proto_invert ? "!= " : "");
		if (proto)
			put(o, "%s", proto);
		else
			put(o, "%d", r->proto);
	}
	/*
	 * iptables-nft 1.8.9 loads -p and the ports as these very expressions
	 * (iptables-legacy's xt_tcpudp would also want the whole TCP/UDP header)
	 */
	if ((rc = put_ct_state(o, &r->ct, out)) || !out->exact || !has_ports(r))
		return rc;
	if (!proto || r->proto_invert)
		return no_form(out, "ports-without-protocol",
			       "port options without -p tcp or -p udp");
	put_ports(o, proto, "sport", &r->sport);
	put_ports(o, proto, "dport", &r->dport);
	return 0;
}

/* The single-rule form: @nh, @th or @ih payload expressions. */
static int translate_single(const struct u32_rule *r, int family, struct u32_nft *out)
{
	struct nft_out o = { .buf = out->text, .len = sizeof(out->text) };
	int rc;

	if ((rc = put_basic(&o, r, family, out)) || !out->exact)
		return rc;
	for (unsigned k = 0; k < r->nmatches && out->exact; k++) {
		const struct u32_match *m = &r->m[k];
		if (m->invert)
			return no_form(
			    out, "inverted",
			    "%s: an inverted match also matches where a read falls past "
			    "the packet end; an nftables payload read ends the rule there",
			    m->kind == U32_MATCH_U32 ? "! --u32" : "! --string");
		if (m->kind == U32_MATCH_U32)
			rc = put_u32_match(&o, r, &m->u32, family, out);
		else
			rc = put_string_match(&o, &m->str, out);
		if (rc)
			return rc;
	}
	if (!out->exact)
		return 0;
	if (o.overflow)
		return -ENOSPC;
	if (o.at == 0) /* no condition at all: every packet */
		put(&o, " meta nfproto %s", family == 4 ? "ipv4" : "ipv6");
	memmove(out->text, out->text + 1, strlen(out->text)); /* the leading blank */
	return 0;
}

/*
 * Computed jumps, enumerated. Where a jump's value comes from packet bits
 * (W & mask, shifted), each value of those bits fixes every later offset
 * relative to the network header, so the rule is the union over those
 * values of @nh loads at constant places plus the comparisons that pin
 * the bits. Each pin is a 32-bit load of the very word u32 read there,
 * so the bound checks stay u32's; the branches differ in some pinned bits
 * of one word, so they are disjoint.
 */
#define ENUM_MAX_PINS (U32_RULE_MAX_MATCHES * U32_MAX_TESTS * U32_MAX_NUMS)
#define ENUM_MAX_TESTS (U32_RULE_MAX_MATCHES * U32_MAX_TESTS)
#define ENUM_COUNT_LIMIT 1000000ull
#define ENUM_MAX_FIELDS 16
/* nft payload offsets are 16-bit byte counts: the last 4-byte load starts here */
#define NFT_MAX_LOAD_POS 65531u

struct pin {
	uint64_t pos;
	uint32_t mask, value;
};

struct final_read {
	uint64_t pos;
	unsigned first; /* the ops after the test's last read */
};

struct jump_enum {
	const struct u32_test *test[ENUM_MAX_TESTS];
	unsigned ntests;
	struct pin pin[ENUM_MAX_PINS];
	unsigned npins;
	struct final_read fin[ENUM_MAX_TESTS];
	const char *prefix; /* the basic and string statements, each rule's start */
	unsigned long long leaves;
	unsigned long long pruned; /* branches the rule's own tests rule out */
	bool too_far;		   /* some load lies past what an nft payload offset reaches */
	int err;
	char *buf; /* the rules, one a line */
	size_t at, cap;
	char field[ENUM_MAX_FIELDS][48]; /* the jump inputs, for the label */
	unsigned field_bits[ENUM_MAX_FIELDS], nfields;
};

static void known_bits(const struct jump_enum *je, uint64_t pos, uint32_t *mask, uint32_t *value)
{
	*mask = *value = 0;
	for (unsigned k = 0; k < je->npins; k++)
		if (je->pin[k].pos == pos) {
			*mask |= je->pin[k].mask;
			*value |= je->pin[k].value;
		}
}

/* The jump input as written ("0>>22&0x3C"), remembered once for the label. */
static void note_field(struct jump_enum *je, const struct u32_test *t, unsigned k, unsigned end,
		       uint32_t mask)
{
	static const char *const ops[] = { "&", "<<", ">>", "@" };
	char f[48];
	struct nft_out o = { .buf = f, .len = sizeof(f) };

	put(&o, "%u", t->num[k - 1]);
	for (unsigned i = k; i < end; i++)
		put(&o, t->op[i] == U32_OP_AND ? "%s0x%X" : "%s%u", ops[t->op[i]], t->num[i]);
	for (unsigned i = 0; i < je->nfields; i++)
		if (strcmp(je->field[i], f) == 0)
			return;
	if (je->nfields == ENUM_MAX_FIELDS)
		return;
	snprintf(je->field[je->nfields], sizeof(je->field[0]), "%s", f);
	je->field_bits[je->nfields++] = (unsigned)__builtin_popcount(mask);
}

static void append_rule(struct jump_enum *je, const char *line)
{
	size_t n = strlen(line);

	if (je->at + n + 2 > je->cap) {
		size_t cap = je->cap ? je->cap * 2 : 16384;
		while (cap < je->at + n + 2)
			cap *= 2;
		char *b = realloc(je->buf, cap);
		if (!b) {
			je->err = -ENOMEM;
			return;
		}
		je->buf = b;
		je->cap = cap;
	}
	memcpy(je->buf + je->at, line, n);
	je->at += n;
	je->buf[je->at++] = '\n';
	je->buf[je->at] = '\0';
}

/* One branch: its pins (one load per word) and the tests' final comparisons. */
static void emit_leaf(struct jump_enum *je)
{
	char line[U32_NFT_TEXT_LEN];
	struct nft_out o = { .buf = line, .len = sizeof(line) };

	put(&o, "%s", je->prefix);
	for (unsigned k = 0; k < je->npins; k++) {
		uint32_t mask, value;
		bool first = true;
		for (unsigned i = 0; i < k && first; i++)
			first = je->pin[i].pos != je->pin[k].pos;
		if (!first)
			continue;
		known_bits(je, je->pin[k].pos, &mask, &value);
		put(&o, " @nh,%llu,32", (unsigned long long)je->pin[k].pos * 8);
		if (mask != 0xFFFFFFFF)
			put(&o, " & 0x%x", mask);
		put(&o, " == 0x%x", value);
	}
	for (unsigned t = 0; t < je->ntests; t++) {
		if (je->fin[t].pos > NFT_MAX_LOAD_POS)
			je->too_far = true;
		put_test(&o, je->test[t], BASE_NH, (uint32_t)je->fin[t].pos, je->fin[t].first);
	}
	if (o.overflow)
		je->err = -ENOSPC;
	else
		append_rule(je, line + 1); /* without the leading blank */
}

/*
 * Some test's final comparison cannot hold given the bits this branch pins
 * at the word it reads (0>>24=0x45 with the IHL jump pinned to 6, or the
 * recipe's data-offset test with the offset pinned under 5): u32 fails the
 * branch on every packet, so it gets no rule. Ranges over bits the branch
 * leaves open are taken as satisfiable; keeping a branch is always exact.
 */
static bool leaf_contradicts(const struct jump_enum *je)
{
	for (unsigned t = 0; t < je->ntests; t++) {
		const struct u32_test *test = je->test[t];
		uint32_t mask, km, kv;
		int shift;
		bool possible = false;

		fold_ops(test, je->fin[t].first, &mask, &shift);
		known_bits(je, je->fin[t].pos, &km, &kv);
		for (unsigned k = 0; k < test->nranges && !possible; k++) {
			uint64_t lo, hi, v = kv & mask;
			if (mask == 0) /* the compared value is always 0 */
				possible = test->min[k] == 0;
			else if (!unshift_range(test->min[k], test->max[k], shift, &lo, &hi))
				continue;
			else if ((mask & ~km) == 0) /* every compared bit is pinned */
				possible = lo <= v && v <= hi;
			else /* one value: its pinned bits must agree */
				possible = lo != hi || ((lo ^ kv) & km & mask) == 0;
		}
		if (!possible)
			return true;
	}
	return false;
}

static void walk_jumps(struct jump_enum *je, unsigned ti, unsigned k, uint64_t at,
		       uint64_t readpos);

/* Test ti has read the word at readpos; ops k.. follow (up to a jump or the end). */
static void walk_jumps(struct jump_enum *je, unsigned ti, unsigned k, uint64_t at, uint64_t readpos)
{
	const struct u32_test *t = je->test[ti];
	unsigned j = k, saved = je->npins;
	uint32_t mask, kmask, kval, unknown, sub = 0;
	int shift;

	if (je->err || je->too_far || je->leaves > ENUM_COUNT_LIMIT)
		return;
	if (readpos > NFT_MAX_LOAD_POS) {
		je->too_far = true;
		return;
	}
	while (j < t->nnums && t->op[j] != U32_OP_AT)
		j++;
	if (j == t->nnums) { /* the compared word: on to the next test */
		je->fin[ti] = (struct final_read){ readpos, k };
		if (ti + 1 == je->ntests && leaf_contradicts(je))
			je->pruned++;
		else if (ti + 1 == je->ntests && ++je->leaves <= U32_NFT_MAX_RULES)
			emit_leaf(je);
		else if (ti + 1 < je->ntests)
			walk_jumps(je, ti + 1, 1, 0, je->test[ti + 1]->num[0]);
		return;
	}
	fold_ops_to(t, k, j, &mask, &shift);
	known_bits(je, readpos, &kmask, &kval);
	unknown = mask & ~kmask;
	note_field(je, t, k, j, mask);
	if (__builtin_popcount(unknown) > 20) { /* over the count limit at once */
		je->leaves = ENUM_COUNT_LIMIT + 1;
		return;
	}
	je->pin[je->npins++] = (struct pin){ readpos, unknown, 0 };
	do {
		uint32_t v = (kval & mask) | sub;
		uint64_t jump = shift >= 0 ? (uint64_t)v << shift : v >> -shift;
		uint64_t nat = at + jump, npos = nat + t->num[j];
		je->pin[saved].value = sub;
		/* xt_u32: a jump or read past 2^32 fails, so the branch never matches */
		if (npos + 4 <= 0xFFFFFFFFull)
			walk_jumps(je, ti, j + 1, nat, npos);
		je->npins = saved + 1;
		sub = (sub - unknown) & unknown;
	} while (sub);
	je->npins = saved;
}

/* The rule's statements other than u32: basic matches and exact strings. */
static int enum_prefix(const struct u32_rule *r, int family, struct jump_enum *je,
		       struct u32_nft *out, struct nft_out *o)
{
	int rc;

	if ((rc = put_basic(o, r, family, out)) || !out->exact)
		return rc;
	for (unsigned k = 0; k < r->nmatches; k++) {
		const struct u32_match *m = &r->m[k];
		if (m->invert)
			return no_form(
			    out, "inverted",
			    "%s: an inverted match also matches where a read falls past "
			    "the packet end; an nftables payload read ends the rule there",
			    m->kind == U32_MATCH_U32 ? "! --u32" : "! --string");
		if (m->kind == U32_MATCH_STRING) {
			if ((rc = put_string_match(o, &m->str, out)) || !out->exact)
				return rc;
			continue;
		}
		for (unsigned i = 0; i < m->u32.ntests; i++) {
			char scratch[U32_NFT_TEXT_LEN];
			struct nft_out s = { .buf = scratch, .len = sizeof(scratch) };
			const struct u32_test *t = &m->u32.test[i];
			unsigned last = 0;
			for (unsigned n = 1; n < t->nnums; n++)
				if (t->op[n] == U32_OP_AT)
					last = n;
			if (!put_test(&s, t, BASE_NH, 0, last + 1))
				return no_form(out, "never-matches",
					       "test %u can never pass; the rule never matches",
					       i + 1);
			je->test[je->ntests++] = t;
		}
	}
	return o->overflow ? -ENOSPC : 0;
}

static void label_enumerated(struct jump_enum *je, struct u32_nft *out, unsigned long long n,
			     bool exact)
{
	struct nft_out o = { .buf = out->reason, .len = sizeof(out->reason) };

	if (exact)
		put(&o, "exact, as %llu rule%s: computed jump enumerated over ", n,
		    n > 1 ? "s" : "");
	else
		put(&o,
		    "a computed jump: one rule per value of the bits it reads takes %s%llu "
		    "rules, over the %u allowed; enumerated over ",
		    n > ENUM_COUNT_LIMIT ? "more than " : "",
		    n > ENUM_COUNT_LIMIT ? ENUM_COUNT_LIMIT : n, U32_NFT_MAX_RULES);
	for (unsigned i = 0; i < je->nfields; i++)
		put(&o, "%s%s (%llu value%s)", i ? " x " : "", je->field[i],
		    1ull << je->field_bits[i], je->field_bits[i] ? "s" : "");
	if (je->pruned)
		put(&o, ", less %llu combination%s the rule's own tests rule out", je->pruned,
		    je->pruned > 1 ? "s" : "");
}

static int translate_enumerated(const struct u32_rule *r, int family, struct u32_nft *out)
{
	struct jump_enum *je = calloc(1, sizeof(*je));
	char prefix[U32_NFT_TEXT_LEN] = "";
	struct nft_out o = { .buf = prefix, .len = sizeof(prefix) };
	int rc;

	if (!je)
		return -ENOMEM;
	if ((rc = enum_prefix(r, family, je, out, &o)) || !out->exact)
		goto out;
	je->prefix = prefix;
	walk_jumps(je, 0, 1, 0, je->test[0]->num[0]);
	if ((rc = je->err))
		goto out;
	if (je->too_far) {
		no_form(out, "offset-too-far",
			"a computed jump reaches past byte %u, beyond nftables' payload offsets",
			NFT_MAX_LOAD_POS);
	} else if (je->leaves == 0) {
		no_form(out, "never-matches",
			"every value of the computed jump reads past 4 GiB or fails one of the "
			"rule's own tests; the rule never matches");
	} else if (je->leaves > U32_NFT_MAX_RULES) {
		no_form(out, "too-many-rules", "%s", "");
		label_enumerated(je, out, je->leaves, false);
	} else {
		out->nrules = (unsigned)je->leaves;
		out->kind = "enumerated-jump";
		label_enumerated(je, out, je->leaves, true);
		if (out->nrules > 1) {
			out->rules = je->buf;
			je->buf = NULL;
		} else { /* the jump reads no bits: one rule after all */
			je->buf[strcspn(je->buf, "\n")] = '\0';
			snprintf(out->text, sizeof(out->text), "%s", je->buf);
		}
	}
out:
	free(je->buf);
	free(je);
	return rc;
}

static bool is_jump_kind(const char *kind)
{
	static const char *const jumps[] = { "computed-jump", "fragment-jump", "non-tcp-jump",
					     "short-tcp-header", "ipv6-jump" };

	for (size_t k = 0; k < sizeof(jumps) / sizeof(jumps[0]); k++)
		if (kind && strcmp(kind, jumps[k]) == 0)
			return true;
	return false;
}

static void reset(struct u32_nft *out, int family)
{
	memset(out, 0, sizeof(*out));
	out->family = family;
	out->exact = true;
}

int u32_nft_translate(const struct u32_rule *r, int family, struct u32_nft *out)
{
	int rc;

	if (family != 4 && family != 6)
		return -EINVAL;
	reset(out, family);
	if ((rc = translate_single(r, family, out)) || out->exact) {
		out->nrules = out->exact ? 1 : 0;
		return rc;
	}
	if (!is_jump_kind(out->kind))
		return 0;
	reset(out, family);
	return translate_enumerated(r, family, out);
}

void u32_nft_release(struct u32_nft *out)
{
	free(out->rules);
	out->rules = NULL;
}
