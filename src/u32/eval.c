/*
 * The --u32 expression: parser (iptables 1.8.9 libxt_u32 behaviour,
 * messages and character positions included), the kernel's load-time
 * checks, the -S print form, and the xt_u32 evaluator.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "u32/internal.h"
#include "u32/eval.h"

static bool u32_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_digit_of(char c, unsigned base)
{
	int d = u32_hex_digit(c);

	return d >= 0 && (unsigned)d < base;
}

/*
 * strtoumax(s, &end, 0) as glibc does it, behind libxtables' wrapper that
 * refuses a '-' after leading blanks and values above UINT32_MAX.
 * Returns the number of characters consumed, 0 on failure.
 */
static size_t u32_read_number(const char *s, uint32_t *out)
{
	const char *p = s, *digits;
	unsigned base = 10;
	uint64_t v = 0;
	bool overflow = false;

	while (u32_is_space(*p))
		p++;
	if (*p == '-')
		return 0;
	if (*p == '+')
		p++;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && is_digit_of(p[2], 16)) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	digits = p;
	while (is_digit_of(*p, base)) {
		v = v * base + (unsigned)u32_hex_digit(*p);
		if (v > UINT32_MAX)
			overflow = true;
		p++;
	}
	if (p == digits || overflow)
		return 0;
	*out = (uint32_t)v;
	return (size_t)(p - s);
}

struct u32_parser {
	const char *start, *p;
	struct u32_expr *e;
	unsigned locind, valind;
	int state; /* 0: location, 1: values */
	char *err;
	size_t errlen;
};

static unsigned pos_of(const struct u32_parser *ps)
{
	return (unsigned)(ps->p - ps->start);
}

static int parse_number_at(struct u32_parser *ps, uint32_t *out)
{
	size_t n = u32_read_number(ps->p, out);

	if (n == 0)
		return u32_errorf(ps->err, ps->errlen,
				  "u32: at char %u: not a number or out of range", pos_of(ps));
	ps->p += n;
	return 0;
}

static int parse_operator(struct u32_parser *ps, uint8_t *op)
{
	char c = *ps->p;

	if (c == '&') {
		*op = U32_OP_AND;
	} else if (c == '<' || c == '>') {
		ps->p++;
		if (*ps->p != c)
			return u32_errorf(ps->err, ps->errlen,
					  "u32: at char %u: a second '%c' was expected", pos_of(ps),
					  c);
		*op = c == '<' ? U32_OP_SHL : U32_OP_SHR;
	} else if (c == '@') {
		*op = U32_OP_AT;
	} else {
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: operator expected",
				  pos_of(ps));
	}
	ps->p++;
	return 0;
}

static int parse_location_token(struct u32_parser *ps, struct u32_test *t)
{
	int rc;

	if (*ps->p == '=') {
		if (ps->locind == 0)
			return u32_errorf(ps->err, ps->errlen,
					  "u32: at char %u: location spec missing", pos_of(ps));
		ps->p++;
		ps->state = 1;
		return 0;
	}
	if (ps->locind != 0) {
		uint8_t op = 0;
		rc = parse_operator(ps, &op);
		if (rc)
			return rc;
		if (ps->locind < U32_MAX_NUMS)
			t->op[ps->locind] = op;
	}
	if (ps->locind >= U32_MAX_NUMS) {
		/* iptables stores into the spare 11th slot, then complains */
		uint32_t dummy;
		rc = parse_number_at(ps, &dummy);
		if (rc)
			return rc;
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: too many operators",
				  pos_of(ps));
	}
	rc = parse_number_at(ps, &t->num[ps->locind]);
	if (rc)
		return rc;
	ps->locind++;
	return 0;
}

static void close_test(struct u32_parser *ps, struct u32_test *t)
{
	t->nnums = ps->locind;
	t->nranges = ps->valind;
	ps->e->ntests++;
}

static int parse_range(struct u32_parser *ps, struct u32_test *t)
{
	uint32_t lo, hi;
	int rc;

	if (ps->valind > 0) {
		if (*ps->p != ',')
			return u32_errorf(ps->err, ps->errlen,
					  "u32: at char %u: expected \",\" or \"&&\"", pos_of(ps));
		ps->p++;
	}
	rc = parse_number_at(ps, &lo);
	if (rc)
		return rc;
	while (u32_is_space(*ps->p))
		ps->p++;
	hi = lo;
	if (*ps->p == ':') {
		ps->p++;
		rc = parse_number_at(ps, &hi);
		if (rc)
			return rc;
	}
	if (ps->valind >= U32_MAX_RANGES)
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: too many \",\"s",
				  pos_of(ps));
	t->min[ps->valind] = lo;
	t->max[ps->valind] = hi;
	ps->valind++;
	return 0;
}

static int parse_value_token(struct u32_parser *ps, struct u32_test *t)
{
	if (*ps->p != '&')
		return parse_range(ps, t);
	ps->p++;
	if (*ps->p != '&')
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: a second '&' was expected",
				  pos_of(ps));
	if (ps->valind == 0)
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: value spec missing",
				  pos_of(ps));
	close_test(ps, t);
	if (ps->e->ntests > U32_MAX_TESTS)
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: too many \"&&\"s",
				  pos_of(ps));
	ps->p++;
	ps->state = 0;
	ps->locind = 0;
	ps->valind = 0;
	return 0;
}

static int parse_end(struct u32_parser *ps, struct u32_test *t)
{
	if (ps->state == 0)
		return u32_errorf(ps->err, ps->errlen,
				  "u32: abrupt end of input after location specifier");
	if (ps->valind == 0)
		return u32_errorf(ps->err, ps->errlen, "u32: test ended with no value specified");
	close_test(ps, t);
	if (ps->e->ntests > U32_MAX_TESTS)
		return u32_errorf(ps->err, ps->errlen, "u32: at char %u: too many \"&&\"s",
				  pos_of(ps));
	return 0;
}

int u32_parse(const char *arg, struct u32_expr *e, char *err, size_t errlen)
{
	struct u32_test spare = { .nnums = 0 };
	struct u32_parser ps = { .start = arg, .p = arg, .e = e, .err = err, .errlen = errlen };
	int rc;

	memset(e, 0, sizeof(*e));
	for (;;) {
		/* the 11th test is parsed into a spare slot before the error */
		struct u32_test *t = e->ntests < U32_MAX_TESTS ? &e->test[e->ntests] : &spare;

		while (u32_is_space(*ps.p))
			ps.p++;
		if (*ps.p == '\0')
			return parse_end(&ps, t);
		rc = ps.state == 0 ? parse_location_token(&ps, t) : parse_value_token(&ps, t);
		if (rc)
			return rc;
	}
}

int u32_check_kernel(const struct u32_expr *e, const struct u32_kernel_profile *kp, char *err,
		     size_t errlen)
{
	for (unsigned t = 0; t < e->ntests; t++) {
		const struct u32_test *ct = &e->test[t];
		for (unsigned k = 1; k < ct->nnums; k++) {
			bool shift = ct->op[k] == U32_OP_SHL || ct->op[k] == U32_OP_SHR;
			if (shift && ct->num[k] >= 32 && !kp->shift_mod32)
				return u32_errorf(
				    err, errlen,
				    "the kernel refuses this rule at load (Invalid argument): "
				    "shift count %u in test %u is 32 or more (xt_u32 checks "
				    "this since Linux 6.18.40; --shift mod32 models older x86 "
				    "kernels)",
				    ct->num[k], t + 1);
		}
	}
	return 0;
}

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...) PRINTF_LIKE(4, 5);

static size_t append(char *buf, size_t len, size_t at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at >= len)
		return at;
	va_start(ap, fmt);
	n = vsnprintf(buf + at, len - at, fmt, ap);
	va_end(ap);
	return n < 0 ? at : at + (size_t)n;
}

void u32_format(const struct u32_expr *e, char *buf, size_t len)
{
	static const char *const ops[] = { "&", "<<", ">>", "@" };
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned t = 0; t < e->ntests; t++) {
		const struct u32_test *ct = &e->test[t];
		if (t)
			at = append(buf, len, at, "&&");
		at = append(buf, len, at, "0x%x", ct->num[0]);
		for (unsigned k = 1; k < ct->nnums; k++)
			at = append(buf, len, at, "%s0x%x", ops[ct->op[k]], ct->num[k]);
		at = append(buf, len, at, "=");
		for (unsigned r = 0; r < ct->nranges; r++) {
			at = append(buf, len, at, "%s0x%x", r ? "," : "", ct->min[r]);
			if (ct->max[r] != ct->min[r])
				at = append(buf, len, at, ":0x%x", ct->max[r]);
		}
	}
}

static uint32_t read_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void trace_step(struct u32_trace *tr, const struct u32_step *s)
{
	if (tr && tr->nsteps < sizeof(tr->step) / sizeof(tr->step[0]))
		tr->step[tr->nsteps++] = *s;
}

/* Reads the word at pos, or says why it cannot. */
static enum u32_verdict read_word(const struct u32_view *v, uint32_t pos, uint32_t *out)
{
	if (pos + 4 > v->caplen)
		return U32_VERDICT_INDET;
	*out = read_be32(v->data + pos);
	return U32_VERDICT_YES;
}

static uint32_t apply_shift(uint8_t op, uint32_t val, uint32_t n,
			    const struct u32_kernel_profile *kp)
{
	if (n >= 32) {
		if (!kp->shift_mod32)
			return 0; /* unreachable: refused at load */
		n &= 31;
	}
	return op == U32_OP_SHL ? val << n : val >> n;
}

/* Applies one operator; U32_VERDICT_NO when an '@' read leaves the packet. */
static enum u32_verdict apply_op(const struct u32_test *ct, unsigned k, const struct u32_view *v,
				 const struct u32_kernel_profile *kp, uint32_t *val, uint32_t *at,
				 struct u32_step *s)
{
	uint32_t n = ct->num[k], len = v->len;

	s->op = ct->op[k];
	s->operand = n;
	s->before = *val;
	switch (ct->op[k]) {
	case U32_OP_AND:
		*val &= n;
		break;
	case U32_OP_SHL:
	case U32_OP_SHR:
		*val = apply_shift(ct->op[k], *val, n, kp);
		break;
	default:
		s->read = true;
		if (*at + *val < *at)
			return U32_VERDICT_NO;
		*at += *val;
		s->readpos = *at + n;
		if (*at + 4 < *at || len < *at + 4 || n > len - *at - 4)
			return U32_VERDICT_NO;
		if (read_word(v, *at + n, val) == U32_VERDICT_INDET)
			return U32_VERDICT_INDET;
	}
	s->after = *val;
	return U32_VERDICT_YES;
}

static bool in_ranges(const struct u32_test *ct, uint32_t val)
{
	for (unsigned r = 0; r < ct->nranges; r++)
		if (ct->min[r] <= val && val <= ct->max[r])
			return true;
	return false;
}

static enum u32_verdict eval_test(const struct u32_expr *e, unsigned t,
				  const struct u32_kernel_profile *kp, const struct u32_view *v,
				  struct u32_trace *tr)
{
	const struct u32_test *ct = &e->test[t];
	struct u32_step s = { .test = t, .read = true, .readpos = ct->num[0] };
	uint32_t at = 0, val = 0, pos = ct->num[0];
	enum u32_verdict r;

	if (v->len < 4 || pos > v->len - 4) {
		s.fail_oob = true;
		trace_step(tr, &s);
		return U32_VERDICT_NO;
	}
	if (read_word(v, pos, &val) == U32_VERDICT_INDET) {
		s.indet = true;
		trace_step(tr, &s);
		return U32_VERDICT_INDET;
	}
	s.after = val;
	trace_step(tr, &s);
	for (unsigned k = 1; k < ct->nnums; k++) {
		struct u32_step st = { .test = t, .index = k };
		r = apply_op(ct, k, v, kp, &val, &at, &st);
		st.fail_oob = r == U32_VERDICT_NO;
		st.indet = r == U32_VERDICT_INDET;
		trace_step(tr, &st);
		if (r != U32_VERDICT_YES)
			return r;
	}
	return in_ranges(ct, val) ? U32_VERDICT_YES : U32_VERDICT_NO;
}

/* The same walk as eval_test() without the trace: the per-packet hot path. */
static enum u32_verdict eval_test_fast(const struct u32_test *ct,
				       const struct u32_kernel_profile *kp,
				       const struct u32_view *v)
{
	uint32_t at = 0, val, pos = ct->num[0], len = v->len, n;

	if (len < 4 || pos > len - 4)
		return U32_VERDICT_NO;
	if (pos + 4 > v->caplen)
		return U32_VERDICT_INDET;
	val = read_be32(v->data + pos);
	for (unsigned k = 1; k < ct->nnums; k++) {
		n = ct->num[k];
		switch (ct->op[k]) {
		case U32_OP_AND:
			val &= n;
			break;
		case U32_OP_SHL:
		case U32_OP_SHR:
			val = apply_shift(ct->op[k], val, n, kp);
			break;
		default:
			if (at + val < at)
				return U32_VERDICT_NO;
			at += val;
			if (at + 4 < at || len < at + 4 || n > len - at - 4)
				return U32_VERDICT_NO;
			if (at + n + 4 > v->caplen)
				return U32_VERDICT_INDET;
			val = read_be32(v->data + at + n);
		}
	}
	return in_ranges(ct, val) ? U32_VERDICT_YES : U32_VERDICT_NO;
}

enum u32_verdict u32_eval(const struct u32_expr *e, const struct u32_kernel_profile *kp,
			  const struct u32_view *v, struct u32_trace *tr)
{
	if (!tr) {
		for (unsigned t = 0; t < e->ntests; t++) {
			enum u32_verdict r = eval_test_fast(&e->test[t], kp, v);
			if (r != U32_VERDICT_YES)
				return r;
		}
		return U32_VERDICT_YES;
	}
	if (tr) {
		tr->nsteps = 0;
		tr->failed_test = -1;
		tr->oob = false;
	}
	for (unsigned t = 0; t < e->ntests; t++) {
		enum u32_verdict r = eval_test(e, t, kp, v, tr);
		if (r != U32_VERDICT_YES) {
			if (tr) {
				tr->failed_test = (int)t;
				tr->oob = tr->nsteps && tr->step[tr->nsteps - 1].fail_oob;
			}
			return r;
		}
	}
	return U32_VERDICT_YES;
}
