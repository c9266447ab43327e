/*
 * Rules: shell-style word splitting of a rules-file line, the iptables
 * option handling for -m u32, -m string and the basic matches around them
 * (-p, --sport, --dport, -f, -m comment), and per-packet rule evaluation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "u32/internal.h"
#include "u32/rule.h"
#include "u32/rule_error.h"
#include "util/inplace.h"

/* The tables below hold their strings in place: see util/inplace.h. */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Copies one double-quoted section; backslash escapes only " \ $ ` and newline. */
static const char *copy_dquoted(const char *p, char **o)
{
	while (*p && *p != '"') {
		if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1]))
			p++;
		*(*o)++ = *p++;
	}
	return *p == '"' ? p + 1 : NULL;
}

static const char *copy_word(const char *p, char **o)
{
	while (*p && !is_blank(*p)) {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');
			if (!end)
				return NULL;
			memcpy(*o, p + 1, (size_t)(end - p - 1));
			*o += end - p - 1;
			p = end + 1;
		} else if (*p == '"') {
			p = copy_dquoted(p + 1, o);
			if (!p)
				return NULL;
		} else if (*p == '\\' && p[1]) {
			*(*o)++ = p[1];
			p += 2;
		} else {
			*(*o)++ = *p++;
		}
	}
	return p;
}

int u32_split_words(const char *line, char *buf, char **words, int maxwords, char *err,
		    size_t errlen)
{
	const char *p = line;
	char *o = buf;
	int n = 0;

	for (;;) {
		while (is_blank(*p))
			p++;
		if (*p == '\0' || *p == '#')
			return n;
		if (n == maxwords)
			return u32_errorf(err, errlen, "too many words (at most %d)", maxwords);
		words[n++] = o;
		p = copy_word(p, &o);
		if (!p)
			return u32_errorf(err, errlen, "unterminated quote");
		*o++ = '\0';
	}
}

struct rule_parser {
	struct u32_rule *r;
	int argc, i;
	char **argv;
	bool invert;
	int cur_u32, cur_str; /* index of the last match of kind u32 / string, -1 if none */
	bool have_u32[U32_RULE_MAX_MATCHES], have_pat_str, have_pat_hex;
	bool both_patterns[U32_RULE_MAX_MATCHES]; /* --string and --hex-string in one match */
	bool have_proto, have_frag, have_comment; /* options iptables takes once */
	struct u32_rule_error *err;
};

/* A refusal that names a limit. */
static int fail_count(struct u32_rule_error *err, enum u32_rule_error_id id, int n)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", n);
	return u32_rule_fail(err, id, NULL, num);
}

/* getopt's complaint, which iptables prints without the extension's name. */
static const char *next_arg(struct rule_parser *ps, const char *opt)
{
	if (ps->i + 1 >= ps->argc) {
		u32_rule_fail(ps->err, U32_RULE_NEEDS_ARGUMENT, NULL, opt);
		return NULL;
	}
	return ps->argv[++ps->i];
}

static int parse_u16(const char *s, uint16_t *out)
{
	char *end;
	unsigned long v;

	if (*s == '-' || *s == '\0')
		return -EINVAL;
	v = strtoul(s, &end, 0);
	if (*end || v > 65535)
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}

/* iptables' own message for a match it cannot load; ours for one we do not model. */
static int unmodelled_match(struct rule_parser *ps, const char *name)
{
	STRINGS_IN_PLACE
	static const char known[][12] = {
		"addrtype", "bpf",     "connbytes", "connlimit", "connmark",   "conntrack",
		"dscp",	    "ecn",     "esp",	    "hashlimit", "helper",     "icmp",
		"iprange",  "length",  "limit",	    "mac",	 "mark",       "multiport",
		"owner",    "pkttype", "policy",    "recent",	 "sctp",       "set",
		"socket",   "state",   "statistic", "tcpmss",	 "time",       "tos",
		"ttl",	    "hl",      "frag",	    "ah",	 "ipv6header", "rt",
		"icmp6",    "physdev", "cgroup",    "cpu",	 "devgroup",   "rpfilter"
	};
	STRINGS_IN_PLACE_END

	for (size_t k = 0; k < ARRAY_SIZE(known); k++)
		if (strcmp(name, known[k]) == 0)
			return u32_rule_fail(ps->err, U32_RULE_UNMODELLED_MATCH, NULL, name);
	return u32_rule_fail(ps->err, U32_RULE_UNKNOWN_MATCH, NULL, name);
}

static int add_match(struct rule_parser *ps, const char *name)
{
	struct u32_match *m;

	if (strcmp(name, "comment") == 0)
		ps->have_comment = false; /* each -m comment takes one --comment */
	if (strcmp(name, "comment") == 0 || strcmp(name, "tcp") == 0 || strcmp(name, "udp") == 0)
		return 0;
	if (strcmp(name, "u32") && strcmp(name, "string"))
		return unmodelled_match(ps, name);
	if (ps->r->nmatches == U32_RULE_MAX_MATCHES)
		return fail_count(ps->err, U32_RULE_TOO_MANY_MATCHES, U32_RULE_MAX_MATCHES);
	m = &ps->r->m[ps->r->nmatches];
	memset(m, 0, sizeof(*m));
	if (name[0] == 'u') {
		m->kind = U32_MATCH_U32;
		ps->cur_u32 = (int)ps->r->nmatches;
	} else {
		m->kind = U32_MATCH_STRING;
		m->str.to = 65535;
		ps->cur_str = (int)ps->r->nmatches;
		ps->have_pat_str = ps->have_pat_hex = false;
	}
	ps->r->nmatches++;
	return 0;
}

/*
 * The checks xtables_option_parse() makes before it looks at a value, in
 * its order: getopt's missing argument, a repeated option, a '!' the
 * option does not take. 0, or -EINVAL with iptables' message.
 */
static int opt_precheck(struct rule_parser *ps, const char *ext, const char *opt, bool takes_value,
			bool seen, bool invertible)
{
	if (takes_value && ps->i + 1 >= ps->argc)
		return u32_rule_fail(ps->err, U32_RULE_NEEDS_ARGUMENT, NULL, opt);
	if (seen)
		return u32_rule_fail(ps->err, U32_RULE_REPEATED, ext, opt);
	if (ps->invert && !invertible)
		return u32_rule_fail(ps->err, U32_RULE_NOT_INVERTIBLE, ext, opt);
	return 0;
}

static int opt_u32(struct rule_parser *ps)
{
	struct u32_match *m = &ps->r->m[ps->cur_u32];
	int rc = opt_precheck(ps, "u32", "--u32", true, ps->have_u32[ps->cur_u32], true);

	if (rc)
		return rc;
	ps->have_u32[ps->cur_u32] = true;
	m->invert = ps->invert;
	if (u32_parse(next_arg(ps, "--u32"), &m->u32, ps->err->detail, sizeof(ps->err->detail)))
		return u32_rule_fail(ps->err, U32_RULE_BAD_EXPR, "u32", NULL);
	return 0;
}

/* --string and --hex-string together are refused by the final check (check_matches). */
static int opt_string_pattern(struct rule_parser *ps, struct u32_str_match *s, bool hex)
{
	const char *name = hex ? "--hex-string" : "--string";
	bool *seen = hex ? &ps->have_pat_hex : &ps->have_pat_str;
	const char *arg;
	size_t n;
	int rc = opt_precheck(ps, "string", name, true, *seen, true);

	if (rc)
		return rc;
	arg = next_arg(ps, name);
	*seen = true;
	ps->both_patterns[ps->cur_str] = ps->have_pat_str && ps->have_pat_hex;
	ps->r->m[ps->cur_str].invert = ps->invert;
	s->have_pattern = true;
	s->hex = hex;
	if (hex &&
	    u32_str_parse_hex(arg, s->pat, &s->plen, ps->err->detail, sizeof(ps->err->detail)))
		return u32_rule_fail(ps->err, U32_RULE_BAD_HEX, "string", NULL);
	if (hex)
		return 0;
	n = strlen(arg);
	if (n > U32_STR_MAX_PATTERN)
		return u32_rule_fail(ps->err, U32_RULE_STRING_TOO_LONG, "string", arg);
	memcpy(s->pat, arg, n);
	s->plen = (unsigned)n;
	return 0;
}

static int opt_string_window(struct rule_parser *ps, struct u32_str_match *s, const char *opt)
{
	bool from = strcmp(opt, "--from") == 0;
	int rc = opt_precheck(ps, "string", opt, true, from ? s->have_from : s->have_to, false);
	uint16_t v;

	if (rc)
		return rc;
	if (parse_u16(next_arg(ps, opt), &v))
		return u32_rule_fail(ps->err, U32_RULE_BAD_WINDOW, "string", opt);
	*(from ? &s->from : &s->to) = v;
	*(from ? &s->have_from : &s->have_to) = true;
	return 0;
}

static int opt_string_algo(struct rule_parser *ps, struct u32_str_match *s)
{
	const char *arg;
	int rc = opt_precheck(ps, "string", "--algo", true, s->have_algo, false);

	if (rc)
		return rc;
	arg = next_arg(ps, "--algo");
	if (strcmp(arg, "bm") && strcmp(arg, "kmp"))
		return u32_rule_fail(ps->err, U32_RULE_KERNEL_ALGO, "string", arg);
	s->algo = arg[0] == 'b' ? U32_ALGO_BM : U32_ALGO_KMP;
	s->have_algo = true;
	return 0;
}

static int opt_string(struct rule_parser *ps, const char *opt)
{
	struct u32_str_match *s = &ps->r->m[ps->cur_str].str;
	int rc;

	if (strcmp(opt, "--string") == 0 || strcmp(opt, "--hex-string") == 0)
		return opt_string_pattern(ps, s, opt[2] == 'h');
	if (strcmp(opt, "--algo") == 0)
		return opt_string_algo(ps, s);
	if (strcmp(opt, "--icase") == 0) {
		rc = opt_precheck(ps, "string", opt, false, s->icase, false);
		s->icase = true;
		return rc;
	}
	return opt_string_window(ps, s, opt);
}

/*
 * One port as iptables 1.8.9 reads it: decimal digits, kept modulo 65536
 * (its parser truncates, so 70000 is 4464), or a few well-known names.
 */
static int parse_port(const char *s, uint16_t *out)
{
	STRINGS_IN_PLACE
	static const struct {
		char name[8];
		STRINGS_IN_PLACE_END
		uint16_t port;
	} services[] = { { "domain", 53 }, { "http", 80 }, { "https", 443 }, { "ssh", 22 } };
	unsigned long v = 0;
	size_t k;

	for (k = 0; s[k] >= '0' && s[k] <= '9' && k < 9; k++)
		v = v * 10 + (unsigned long)(s[k] - '0');
	if (k > 0 && s[k] == '\0') {
		*out = (uint16_t)v;
		return 0;
	}
	for (k = 0; k < ARRAY_SIZE(services); k++) {
		if (strcmp(s, services[k].name) == 0) {
			*out = services[k].port;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_ports(const char *arg, struct u32_port_match *pm, char *bad, size_t badlen)
{
	char buf[64], *colon;

	snprintf(bad, badlen, "%s", arg);
	if (strlen(arg) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	pm->lo = 0;
	if (buf[0] && parse_port(buf, &pm->lo)) {
		snprintf(bad, badlen, "%s", buf);
		return -EINVAL;
	}
	pm->hi = pm->lo;
	if (colon && colon[1] == '\0')
		pm->hi = 65535;
	else if (colon && parse_port(colon + 1, &pm->hi)) {
		snprintf(bad, badlen, "%s", colon + 1);
		return -EINVAL;
	}
	pm->set = true;
	return 0;
}

static int opt_basic_proto(struct rule_parser *ps, const char *opt)
{
	STRINGS_IN_PLACE
	static const struct {
		char name[10];
		STRINGS_IN_PLACE_END
		int num;
	} protos[] = { { "tcp", 6 },	    { "udp", 17 },   { "icmp", 1 }, { "icmpv6", 58 },
		       { "ipv6-icmp", 58 }, { "sctp", 132 }, { "all", -1 } };
	const char *arg = next_arg(ps, opt);
	char *end;

	if (!arg)
		return -EINVAL;
	ps->r->proto_invert = ps->invert;
	for (size_t k = 0; k < ARRAY_SIZE(protos); k++) {
		if (strcmp(arg, protos[k].name) == 0) {
			ps->r->proto = protos[k].num;
			return 0;
		}
	}
	unsigned long v = strtoul(arg, &end, 10);
	if (*arg == '\0' || *end || v > 255)
		return u32_rule_fail(ps->err, U32_RULE_BAD_PROTOCOL, NULL, arg);
	ps->r->proto = v == 0 ? -1 : (int)v;
	return 0;
}

/* --sport/--dport, once each: libxt_tcp and libxt_udp word the repeat differently. */
static int opt_basic_port(struct rule_parser *ps, const char *opt, bool sport)
{
	struct u32_port_match *pm = sport ? &ps->r->sport : &ps->r->dport;
	const char *name = sport ? "--source-port" : "--destination-port";
	const char *arg;
	char bad[64];

	if (ps->i + 1 >= ps->argc)
		return u32_rule_fail(ps->err, U32_RULE_NEEDS_ARGUMENT, NULL, opt);
	if (pm->set && ps->r->proto == 6)
		return u32_rule_fail(ps->err, U32_RULE_TCP_PORT_REPEATED, "tcp", name);
	if (pm->set)
		return u32_rule_fail(ps->err, U32_RULE_REPEATED, "udp", name);
	arg = next_arg(ps, opt);
	pm->invert = ps->invert;
	if (parse_ports(arg, pm, bad, sizeof(bad)))
		return u32_rule_fail(ps->err, U32_RULE_BAD_PORT, NULL, bad);
	return 0;
}

/* iptables' own -p and -f take a value check after "multiple ... flags". */
static int opt_basic_once(struct rule_parser *ps, bool *seen, const char *flag)
{
	if (*seen)
		return u32_rule_fail(ps->err, U32_RULE_MULTIPLE_FLAGS, NULL, flag);
	*seen = true;
	return 0;
}

static int opt_basic(struct rule_parser *ps, const char *opt, bool *handled)
{
	int rc;

	*handled = true;
	if (strcmp(opt, "-p") == 0 || strcmp(opt, "--protocol") == 0) {
		if (ps->i + 1 >= ps->argc)
			return u32_rule_fail(ps->err, U32_RULE_NEEDS_ARGUMENT, NULL, opt);
		rc = opt_basic_once(ps, &ps->have_proto, "-p");
		return rc ? rc : opt_basic_proto(ps, opt);
	}
	if (strcmp(opt, "-f") == 0 || strcmp(opt, "--fragment") == 0) {
		ps->r->frag = ps->invert ? 0 : 1;
		return opt_basic_once(ps, &ps->have_frag, "-f");
	}
	bool tcpudp = ps->r->proto == 6 || ps->r->proto == 17;
	bool sport = !strcmp(opt, "--sport") || !strcmp(opt, "--source-port");
	bool dport = !strcmp(opt, "--dport") || !strcmp(opt, "--destination-port");
	if (tcpudp && (sport || dport))
		return opt_basic_port(ps, opt, sport);
	if (strcmp(opt, "--comment") == 0) {
		rc = opt_precheck(ps, "comment", opt, true, ps->have_comment, false);
		ps->have_comment = true;
		return rc ? rc : next_arg(ps, opt) ? 0 : -EINVAL;
	}
	*handled = false;
	return 0;
}

static bool is_string_opt(const char *opt)
{
	STRINGS_IN_PLACE
	static const char names[][14] = { "--algo",  "--from",	 "--to",
					  "--icase", "--string", "--hex-string" };
	STRINGS_IN_PLACE_END
	for (size_t k = 0; k < ARRAY_SIZE(names); k++)
		if (strcmp(opt, names[k]) == 0)
			return true;
	return false;
}

static int parse_one(struct rule_parser *ps)
{
	const char *opt = ps->argv[ps->i];
	bool handled;
	int rc;

	if (strcmp(opt, "!") == 0) {
		if (ps->invert)
			return u32_rule_fail(ps->err, U32_RULE_DOUBLE_INVERT, NULL, NULL);
		ps->invert = true;
		return 0;
	}
	if (strcmp(opt, "-m") == 0 || strcmp(opt, "--match") == 0) {
		const char *name = next_arg(ps, opt);
		return name ? add_match(ps, name) : -EINVAL;
	}
	if (strcmp(opt, "--u32") == 0 && ps->cur_u32 >= 0)
		rc = opt_u32(ps);
	else if (is_string_opt(opt) && ps->cur_str >= 0)
		rc = opt_string(ps, opt);
	else {
		rc = opt_basic(ps, opt, &handled);
		if (!rc && !handled)
			rc = u32_rule_fail(ps->err, U32_RULE_UNKNOWN_OPTION, NULL, opt);
	}
	ps->invert = false;
	return rc;
}

static int check_u32_match(struct rule_parser *ps, unsigned k, const struct u32_kernel_profile *kp)
{
	if (!ps->have_u32[k])
		return u32_rule_fail(ps->err, U32_RULE_U32_MISSING, "u32", NULL);
	if (u32_check_kernel(&ps->r->m[k].u32, kp, ps->err->detail, sizeof(ps->err->detail)))
		return u32_rule_fail(ps->err, U32_RULE_KERNEL_EXPR, "u32", NULL);
	return 0;
}

/* libxt_string's own check, the option table's (--algo, exclusions), then the kernel's. */
static int check_string_match(struct rule_parser *ps, unsigned k)
{
	struct u32_str_match *s = &ps->r->m[k].str;

	if (!s->have_pattern)
		return u32_rule_fail(ps->err, U32_RULE_PATTERN_MISSING, "string", NULL);
	if (!s->have_algo)
		return u32_rule_fail(ps->err, U32_RULE_ALGO_MISSING, "string", NULL);
	if (ps->both_patterns[k])
		return u32_rule_fail(ps->err, U32_RULE_BOTH_PATTERNS, "string", NULL);
	if (s->plen == 0)
		return u32_rule_fail(ps->err, U32_RULE_KERNEL_EMPTY, "string", NULL);
	if (s->from > s->to)
		return u32_rule_fail(ps->err, U32_RULE_KERNEL_FROM_AFTER_TO, "string", NULL);
	u32_str_bm_prepare(&s->bm, s->pat, s->plen, s->icase);
	return 0;
}

/* The final checks of each extension, then what the kernel refuses at load. */
static int check_matches(struct rule_parser *ps, const struct u32_kernel_profile *kp)
{
	int rc = 0;

	for (unsigned k = 0; k < ps->r->nmatches && !rc; k++) {
		switch (ps->r->m[k].kind) {
		case U32_MATCH_U32:
			rc = check_u32_match(ps, k, kp);
			break;
		case U32_MATCH_STRING:
			rc = check_string_match(ps, k);
			break;
		}
	}
	return rc;
}

static void join_args(char *out, size_t len, int argc, char **argv)
{
	size_t at = 0;

	out[0] = '\0';
	for (int k = 0; k < argc && at < len; k++) {
		bool quote =
		    argv[k][0] == '\0' || strpbrk(argv[k], " \t\"'\\$`!&|;<>()*?#") != NULL;
		if (strcmp(argv[k], "!") == 0)
			quote = false;
		int n;
		if (quote && !strchr(argv[k], '\''))
			n = snprintf(out + at, len - at, "%s'%s'", k ? " " : "", argv[k]);
		else
			n = snprintf(out + at, len - at, "%s%s", k ? " " : "", argv[k]);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

int u32_rule_parse(struct u32_rule *r, int argc, char **argv, const struct u32_kernel_profile *kp,
		   struct u32_rule_error *err)
{
	struct rule_parser ps = {
		.r = r, .argc = argc, .argv = argv, .cur_u32 = -1, .cur_str = -1, .err = err
	};
	int rc;

	err->id = U32_RULE_OK;
	r->nmatches = 0;
	r->proto = -1;
	r->family_hint = 0;
	r->proto_invert = false;
	r->frag = -1;
	memset(&r->sport, 0, sizeof(r->sport));
	memset(&r->dport, 0, sizeof(r->dport));
	memset(&r->ct, 0, sizeof(r->ct));
	join_args(r->text, sizeof(r->text), argc, argv);
	for (ps.i = 0; ps.i < argc; ps.i++) {
		rc = parse_one(&ps);
		if (rc)
			return rc;
	}
	if (ps.invert)
		return u32_rule_fail(err, U32_RULE_DANGLING_INVERT, NULL, NULL);
	if (r->nmatches == 0 && r->proto < 0 && r->frag < 0)
		return u32_rule_fail(err, U32_RULE_NO_MATCH, NULL, NULL);
	return check_matches(&ps, kp);
}

int u32_rule_parse_line(struct u32_rule *r, const char *line, const struct u32_kernel_profile *kp,
			struct u32_rule_error *err)
{
	char *buf = malloc(strlen(line) + 1), *words[256];
	int n, rc;

	err->id = U32_RULE_OK;
	if (!buf)
		return u32_rule_fail(err, U32_RULE_NOMEM, NULL, NULL);
	n = u32_split_words(line, buf, words, (int)ARRAY_SIZE(words), err->detail,
			    sizeof(err->detail));
	if (n <= 0) {
		free(buf);
		return n < 0 ? u32_rule_fail(err, U32_RULE_WORDS, NULL, NULL) : 1;
	}
	if (strlen(words[0]) >= U32_RULE_NAME_LEN || words[0][0] == '-') {
		rc = fail_count(err, U32_RULE_LINE_NAME, U32_RULE_NAME_LEN - 1);
	} else {
		rc = u32_rule_parse(r, n - 1, words + 1, kp, err);
		snprintf(r->name, sizeof(r->name), "%s", words[0]);
	}
	free(buf);
	return rc;
}

/* xt_tcp/xt_udp: fragments never match; an unreadable header is a hotdrop. */
static enum u32_verdict eval_ports(const struct u32_rule *r, const struct u32_view *v)
{
	uint32_t need = r->proto == 6 ? 20 : 8;
	uint16_t sp, dp;

	if (!r->sport.set && !r->dport.set)
		return U32_VERDICT_YES;
	if (v->nonfirst_frag || v->l4off == 0 || v->l4off + need > v->len)
		return U32_VERDICT_NO;
	if (v->l4off + 4 > v->caplen)
		return U32_VERDICT_INDET;
	sp = (uint16_t)(v->data[v->l4off] << 8 | v->data[v->l4off + 1]);
	dp = (uint16_t)(v->data[v->l4off + 2] << 8 | v->data[v->l4off + 3]);
	if (r->sport.set && ((sp >= r->sport.lo && sp <= r->sport.hi) == r->sport.invert))
		return U32_VERDICT_NO;
	if (r->dport.set && ((dp >= r->dport.lo && dp <= r->dport.hi) == r->dport.invert))
		return U32_VERDICT_NO;
	return U32_VERDICT_YES;
}

static enum u32_verdict eval_basic(const struct u32_rule *r, const struct u32_view *v)
{
	if (r->proto >= 0 && ((v->proto == r->proto) == r->proto_invert))
		return U32_VERDICT_NO;
	if (r->frag >= 0 && (v->nonfirst_frag != (r->frag == 1)))
		return U32_VERDICT_NO;
	return eval_ports(r, v);
}

static enum u32_verdict invert(enum u32_verdict x, bool inv)
{
	if (!inv || x == U32_VERDICT_INDET)
		return x;
	return x == U32_VERDICT_YES ? U32_VERDICT_NO : U32_VERDICT_YES;
}

/* One match without its '!'; a layout-dependent string verdict is flagged in res. */
static enum u32_verdict eval_match(const struct u32_match *m, const struct u32_kernel_profile *kp,
				   const struct u32_view *v, enum u32_bm_layout layout,
				   struct u32_rule_result *res)
{
	struct u32_str_result sr;

	switch (m->kind) {
	case U32_MATCH_U32:
		return u32_eval(&m->u32, kp, v, NULL);
	case U32_MATCH_STRING:
		u32_str_eval(&m->str, kp, v, layout, &sr);
		res->layout_dependent |= sr.layout_dependent;
		return sr.v;
	}
	return U32_VERDICT_INDET; /* a kind the parser never makes */
}

void u32_rule_eval(const struct u32_rule *r, const struct u32_kernel_profile *kp,
		   const struct u32_view *v, enum u32_bm_layout layout, struct u32_rule_result *res)
{
	enum u32_verdict acc = eval_basic(r, v);

	res->layout_dependent = false;
	for (unsigned k = 0; k < r->nmatches && acc != U32_VERDICT_NO; k++) {
		const struct u32_match *m = &r->m[k];
		enum u32_verdict x = invert(eval_match(m, kp, v, layout, res), m->invert);
		if (x == U32_VERDICT_NO)
			acc = U32_VERDICT_NO;
		else if (x == U32_VERDICT_INDET)
			acc = U32_VERDICT_INDET;
	}
	res->v = acc;
}
