/*
 * u32 explain: says in words what each test reads, recognising the usual
 * idioms (IPv4 header length, TCP header length, byte isolation), and with
 * a packet shows the offsets and values of every step and where it fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "u32/explain.h"

static void say(const struct u32_text_sink *out, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void say(const struct u32_text_sink *out, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	out->line(out->ctx, buf);
}

/* What the running base points at, as far as the idioms tell. */
enum base_kind { BASE_IP, BASE_L4, BASE_PAYLOAD, BASE_UNKNOWN };

static const char *base_name(enum base_kind b)
{
	static const char *const names[] = { "the IP header", "the transport header",
					     "the TCP payload", "the computed base" };
	return names[b];
}

/* A header-length idiom: read at pos from base `at`, >>shift&0x3C, then @ lands on `then`. */
struct length_idiom {
	enum base_kind at, then;
	uint32_t pos, shift;
	const char *words;
};

static const struct length_idiom length_idioms[] = {
	{ BASE_IP, BASE_L4, 0, 22,
	  "  >>22&0x3C: IPv4 header length: IHL x 4 bytes (skip the IPv4 header)" },
	{ BASE_L4, BASE_PAYLOAD, 12, 26,
	  "  >>26&0x3C: TCP header length: data offset x 4 bytes (skip the TCP header)" },
};

/* The idiom that numbers k and k+1 of t form when read at pos from base b, or NULL. */
static const struct length_idiom *length_idiom_at(const struct u32_test *t, unsigned k,
						  enum base_kind b, uint32_t pos)
{
	if (k + 1 >= t->nnums || t->op[k] != U32_OP_SHR || t->op[k + 1] != U32_OP_AND ||
	    t->num[k + 1] != 0x3C)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(length_idioms); i++) {
		const struct length_idiom *id = &length_idioms[i];
		if (id->at == b && id->pos == pos && id->shift == t->num[k])
			return id;
	}
	return NULL;
}

/*
 * Describes which bytes of the word read at pos a mask or shift keeps;
 * live is the set of bits that can still be set (all after a fresh read).
 */
static void describe_isolation(const struct u32_test *t, unsigned k, uint32_t pos, enum base_kind b,
			       uint32_t *live, int *byte, const struct u32_text_sink *out)
{
	uint32_t n = t->num[k];
	bool fresh = *live == 0xFFFFFFFF;

	if (t->op[k] == U32_OP_AND && (*live & n) == *live) {
		say(out, "  &0x%x: no effect (the value has no other bits left)", n);
		return;
	}
	if (fresh && ((t->op[k] == U32_OP_SHR && n == 24) || (t->op[k] == U32_OP_AND && n == 0xFF)))
		*byte = (int)(n == 24 ? pos : pos + 3);
	if (fresh && t->op[k] == U32_OP_SHR && n == 24)
		say(out, "  >>24: keep the top byte = byte %u of %s", pos, base_name(b));
	else if (fresh && t->op[k] == U32_OP_SHR && n == 16)
		say(out, "  >>16: keep the top two bytes = bytes %u-%u of %s", pos, pos + 1,
		    base_name(b));
	else if (fresh && t->op[k] == U32_OP_AND && n == 0xFF)
		say(out, "  &0xFF: keep the low byte = byte %u of %s", pos + 3, base_name(b));
	else if (fresh && t->op[k] == U32_OP_AND && n == 0xFFFF)
		say(out, "  &0xFFFF: keep the low two bytes = bytes %u-%u of %s", pos + 2, pos + 3,
		    base_name(b));
	else if (t->op[k] == U32_OP_AND)
		say(out, "  &0x%x: keep only these bits", n);
	else if (t->op[k] == U32_OP_SHR)
		say(out, "  >>%u: shift right by %u bits", n, n);
	else
		say(out, "  <<%u: shift left by %u bits (bits shifted past bit 31 are lost)", n, n);
	if (t->op[k] == U32_OP_AND)
		*live &= n;
	else if (t->op[k] == U32_OP_SHR)
		*live = n >= 32 ? 0 : *live >> n;
	else
		*live = n >= 32 ? 0 : *live << n;
}

/* What a byte at the start of a TCP payload means for TLS. */
static void tls_note(int byte, const struct u32_text_sink *out)
{
	static const char *const meaning[] = {
		"TLS record type (0x16 = handshake)",
		"major byte of the TLS record version (3)",
		"minor byte of the TLS record version (1 for TLS 1.0 records, 3 for 1.2) - not the "
		"handshake type, which is byte 5",
		"high byte of the TLS record length",
		"low byte of the TLS record length",
		"TLS handshake type (1 = ClientHello, 2 = ServerHello)",
	};
	if (byte >= 0 && byte < (int)ARRAY_SIZE(meaning))
		say(out, "  if this is TLS, payload byte %d is the %s", byte, meaning[byte]);
}

static void explain_ranges(const struct u32_test *t, const struct u32_text_sink *out)
{
	for (unsigned r = 0; r < t->nranges; r++) {
		if (t->min[r] == t->max[r])
			say(out, "  %s value must be 0x%x (%u)", r ? "or the" : "the", t->min[r],
			    t->min[r]);
		else
			say(out, "  %s value must be in 0x%x-0x%x%s", r ? "or the" : "the",
			    t->min[r], t->max[r],
			    t->min[r] > t->max[r] ? " (empty range: never true)" : "");
	}
}

static void explain_test(const struct u32_test *t, unsigned idx, const struct u32_text_sink *out)
{
	enum base_kind b = BASE_IP, next = BASE_UNKNOWN;
	uint32_t pos = t->num[0], live = 0xFFFFFFFF;
	int byte = -1;

	say(out,
	    "test %u: read the 4 bytes at offset %u of the IP header (bytes %u-%u, "
	    "big-endian)",
	    idx + 1, pos, pos, pos + 3);
	for (unsigned k = 1; k < t->nnums; k++) {
		const struct length_idiom *id = length_idiom_at(t, k, b, pos);
		if (id) {
			say(out, "%s", id->words);
			next = id->then;
			live = 0x3C;
			k++;
			continue;
		}
		if (t->op[k] == U32_OP_AT) {
			b = next;
			pos = t->num[k];
			say(out,
			    "  @%u: move the base forward by that value (now at %s) and read "
			    "the 4 bytes at base + %u",
			    t->num[k], base_name(b), pos);
			next = BASE_UNKNOWN;
			live = 0xFFFFFFFF;
			byte = -1;
			continue;
		}
		describe_isolation(t, k, pos, b, &live, &byte, out);
		next = BASE_UNKNOWN;
	}
	explain_ranges(t, out);
	if (b == BASE_PAYLOAD)
		tls_note(byte, out);
}

void u32_explain(const struct u32_expr *e, const struct u32_text_sink *out)
{
	char canon[1024];

	u32_format(e, canon, sizeof(canon));
	say(out, "iptables -S form: --u32 \"%s\"", canon);
	say(out, "offset 0 is the first byte of the IP header; every read takes 4 bytes, "
		 "big-endian, and all 4 must lie inside the IP datagram or the whole match is "
		 "false");
	for (unsigned t = 0; t < e->ntests; t++)
		explain_test(&e->test[t], t, out);
	if (e->ntests > 1)
		say(out, "all %u tests must pass (&&); each test starts again from offset 0",
		    e->ntests);
}

static void explain_step(const struct u32_step *s, const struct u32_view *v,
			 const struct u32_text_sink *out)
{
	static const char *const ops[] = { "&", "<<", ">>", "@" };

	if (s->index == 0 && s->fail_oob) {
		say(out,
		    "test %u: read at %u: out of range (needs bytes %u-%u, the packet has %u "
		    "bytes) -> the whole match is false",
		    s->test + 1, s->readpos, s->readpos, s->readpos + 3, v->len);
		return;
	}
	if (s->indet) {
		say(out,
		    "test %u: bytes %u-%u are in the packet but not in the capture "
		    "(snaplen) -> indeterminate",
		    s->test + 1, s->readpos, s->readpos + 3);
		return;
	}
	if (s->index == 0) {
		say(out, "test %u: read at %u -> 0x%08x", s->test + 1, s->readpos, s->after);
		return;
	}
	if (s->op == U32_OP_AT && s->fail_oob) {
		say(out,
		    "  @%u: base + %u = %u: out of range (the packet has %u bytes) -> the "
		    "whole match is false",
		    s->operand, s->operand, s->readpos, v->len);
		return;
	}
	if (s->op == U32_OP_AT)
		say(out, "  @%u: base += 0x%x, read at %u -> 0x%08x", s->operand, s->before,
		    s->readpos, s->after);
	else if (s->op == U32_OP_AND)
		say(out, "  &0x%x: 0x%x -> 0x%x (%u)", s->operand, s->before, s->after, s->after);
	else
		say(out, "  %s%u: 0x%x -> 0x%x (%u)", ops[s->op], s->operand, s->before, s->after,
		    s->after);
}

void u32_explain_packet(const struct u32_expr *e, const struct u32_kernel_profile *kp,
			const struct u32_view *v, const struct u32_text_sink *out)
{
	struct u32_trace tr;
	enum u32_verdict r = u32_eval(e, kp, v, &tr);

	say(out, "packet: IPv%u, %u bytes seen by the match (%u captured)", v->family, v->len,
	    v->caplen);
	for (unsigned k = 0; k < tr.nsteps; k++) {
		const struct u32_step *s = &tr.step[k];
		explain_step(s, v, out);
		bool last_of_test = k + 1 == tr.nsteps || tr.step[k + 1].test != s->test;
		if (last_of_test && !s->fail_oob && !s->indet) {
			bool pass = (int)s->test != tr.failed_test;
			say(out, "  value 0x%x %s", s->after,
			    pass ? "is in the value set: test passes"
				 : "is not in the value set: test fails, the match is false");
		}
	}
	say(out, "result: %s",
	    r == U32_VERDICT_YES  ? "match"
	    : r == U32_VERDICT_NO ? "no match"
				  : "indeterminate (capture cut short)");
}
