/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * Unit tests of the u32/string models. Expected values are the facts the
 * spec (docs: shared reference u32-spec.md) recorded from iptables 1.8.9
 * and Linux 6.18: parser messages and positions (2.5), --hex-string
 * quirks (4.1), case folding (5.2), bm's icase gap (T17/T18), window rule
 * (S9/S10), out-of-range reads (T6).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "u32/args.h"
#include "u32/eval.h"
#include "u32/recipe.h"
#include "u32/rule.h"
#include "u32/run.h"
#include "u32/strmatch.h"
#include "u32_view.h"
#include "unit.h"

static const struct u32_kernel_profile KP = { 0 };

static const char *parse_msg(const char *expr)
{
	static char err[U32_ERR_LEN];
	struct u32_expr e;

	err[0] = '\0';
	if (u32_parse(expr, &e, err, sizeof(err)) == 0)
		return "ok";
	return err;
}

TEST(u32_parser_messages)
{
	ASSERT_STREQ(parse_msg("0"), "u32: abrupt end of input after location specifier");
	ASSERT_STREQ(parse_msg("0=1&&"), "u32: abrupt end of input after location specifier");
	ASSERT_STREQ(parse_msg("0="), "u32: test ended with no value specified");
	ASSERT_STREQ(parse_msg("0=1&&=1"), "u32: at char 5: location spec missing");
	ASSERT_STREQ(parse_msg("0 < 2 = 1"), "u32: at char 3: a second '<' was expected");
	ASSERT_STREQ(parse_msg(" 0 > > 2 = 1"), "u32: at char 4: a second '>' was expected");
	ASSERT_STREQ(parse_msg("0 1=1"), "u32: at char 2: operator expected");
	ASSERT_STREQ(parse_msg("0 >>= 1"), "u32: at char 4: not a number or out of range");
	ASSERT_STREQ(parse_msg("0&1&2&3&4&5&6&7&8&9&10=0"), "u32: at char 22: too many operators");
	ASSERT_STREQ(parse_msg("0 & 0xff = 1 & 2"), "u32: at char 14: a second '&' was expected");
	ASSERT_STREQ(parse_msg("0=&&1=1"), "u32: at char 3: value spec missing");
	ASSERT_STREQ(parse_msg("0=0x"), "u32: at char 3: expected \",\" or \"&&\"");
	ASSERT_STREQ(parse_msg("0=1,2,3,4,5,6,7,8,9,10,11"), "u32: at char 25: too many \",\"s");
	ASSERT_STREQ(parse_msg("0=4294967296"), "u32: at char 2: not a number or out of range");
	ASSERT_STREQ(parse_msg("08=1"), "u32: at char 1: operator expected");
	ASSERT_STREQ(parse_msg("+4=1"), "ok");
}

TEST(u32_numbers_and_format)
{
	struct u32_expr e;
	char err[U32_ERR_LEN], buf[256];

	ASSERT_EQ(u32_parse("010=0x10:0X20 && 4&0x1FFF=0", &e, err, sizeof(err)), 0);
	u32_format(&e, buf, sizeof(buf));
	ASSERT_STREQ(buf, "0x8=0x10:0x20&&0x4&0x1fff=0x0");
	ASSERT_EQ(u32_parse("0<<32=1", &e, err, sizeof(err)), 0);
	ASSERT_EQ(u32_check_kernel(&e, &KP, err, sizeof(err)), -EINVAL);
	struct u32_kernel_profile old = { .shift_mod32 = true };
	ASSERT_EQ(u32_check_kernel(&e, &old, err, sizeof(err)), 0);
}

/* A UDP/IPv4 datagram with the given payload, checksum left at zero. */
static unsigned build_udp(uint8_t *p, const uint8_t *pay, unsigned n)
{
	unsigned len = 28 + n;

	memset(p, 0, 28);
	p[0] = 0x45;
	p[2] = (uint8_t)(len >> 8);
	p[3] = (uint8_t)len;
	p[9] = 17;
	p[20] = 0x9c;
	p[21] = 0x40;
	p[22] = 0x27;
	p[23] = 0x0f;
	memcpy(p + 28, pay, n);
	return len;
}

static enum u32_verdict u32_on(const char *expr, const struct u32_view *v)
{
	struct u32_expr e;
	char err[U32_ERR_LEN];

	if (u32_parse(expr, &e, err, sizeof(err)))
		return (enum u32_verdict) - 1;
	return u32_eval(&e, &KP, v, NULL);
}

TEST(u32_bounds)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"A", 1);
	struct u32_view v = udp4_view(p, len);

	/* T7: payload byte 0 as a low byte works, as a high byte reads out of range */
	ASSERT_EQ(u32_on("0>>22&0x3C@5&0xFF=0x41", &v), U32_VERDICT_YES);
	ASSERT_EQ(u32_on("0>>22&0x3C@8>>24=0x41", &v), U32_VERDICT_NO);
	ASSERT_EQ(u32_on("25&0xFF=0x41", &v), U32_VERDICT_YES);
	ASSERT_EQ(u32_on("26=0:0xFFFFFFFF", &v), U32_VERDICT_NO);
	/* a capture that holds fewer bytes than the datagram: indeterminate */
	v.caplen = 26;
	ASSERT_EQ(u32_on("25&0xFF=0x41", &v), U32_VERDICT_INDET);
	ASSERT_EQ(u32_on("0>>24=0x44 && 25&0xFF=0x41", &v), U32_VERDICT_NO);
}

/* Pre-6.18.40 x86 kernels executed the C shift: counts taken modulo 32. */
TEST(u32_shift_mod32)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"A", 1);
	struct u32_view v = udp4_view(p, len);
	struct u32_kernel_profile old = { .shift_mod32 = true };
	struct u32_expr e;
	char err[U32_ERR_LEN];

	ASSERT_EQ(u32_parse("0<<32>>56=0x45 && 0>>33=0x2280000e", &e, err, sizeof(err)), 0);
	ASSERT_EQ(u32_eval(&e, &old, &v, NULL), U32_VERDICT_YES);
}

TEST(u32_at_overflow)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"\xff\xff\xff\xff", 4);
	struct u32_view v = udp4_view(p, len);

	ASSERT_EQ(u32_on("28@0=0:0xFFFFFFFF", &v), U32_VERDICT_NO);
	ASSERT_EQ(u32_on("0>>22&0x3C@0>>16@0=0:0xFFFFFFFF", &v), U32_VERDICT_NO);
	ASSERT_EQ(u32_on("0>>22&0x3C@4=0:0xFFFFFFFF", &v), U32_VERDICT_YES);
}

static int hex(const char *s, char *out, unsigned *n)
{
	static char err[U32_ERR_LEN];
	uint8_t buf[U32_STR_MAX_PATTERN + 1];
	int rc = u32_str_parse_hex(s, buf, n, err, sizeof(err));

	if (rc) {
		strcpy(out, err);
		return rc;
	}
	memcpy(out, buf, *n);
	out[*n] = '\0';
	return 0;
}

TEST(hex_string_quirks)
{
	char out[400];
	unsigned n;
	char big[300] = "|";

	ASSERT_EQ(hex("|41 42|", out, &n), 0);
	ASSERT_STREQ(out, "AB");
	ASSERT_EQ(hex("|41||42|", out, &n), 0);
	ASSERT_STREQ(out, "A|42");
	ASSERT_EQ(hex("|41|\\x", out, &n), 0);
	ASSERT_STREQ(out, "A\\x");
	ASSERT_EQ(hex("abc|", out, &n), 0);
	ASSERT_STREQ(out, "abc");
	ASSERT_EQ(hex("\\|", out, &n), 0);
	ASSERT_STREQ(out, "|");
	ASSERT_EQ(hex("|41  42|", out, &n), -EINVAL);
	ASSERT_STREQ(out, "Invalid hex char ' '");
	ASSERT_EQ(hex("|414|", out, &n), -EINVAL);
	ASSERT_STREQ(out, "Invalid hex block");
	ASSERT_EQ(hex("||", out, &n), -EINVAL);
	ASSERT_STREQ(out, "Odd number of hex digits");
	for (int k = 0; k < 127; k++)
		strcat(big, "41");
	strcat(big, "|");
	ASSERT_EQ(hex(big, out, &n), 0);
	ASSERT_EQ(n, 127);
	big[strlen(big) - 1] = '\0';
	strcat(big, "41|");
	ASSERT_EQ(hex(big, out, &n), -EINVAL);
}

TEST(kernel_case_folding)
{
	ASSERT_EQ(u32_str_fold('a'), 'A');
	ASSERT_EQ(u32_str_fold(0xE9), 0xC9);
	ASSERT_EQ(u32_str_fold(0xF7), 0xF7);
	ASSERT_EQ(u32_str_fold(0xDF), 0xBF);
	ASSERT_EQ(u32_str_fold(0xFF), 0xDF);
	ASSERT_EQ(u32_str_unfold(0xD7), 0xD7);
	ASSERT_EQ(u32_str_unfold(0xC9), 0xE9);
}

static void str_setup(struct u32_str_match *m, enum u32_str_algo algo, bool icase, const char *pat,
		      unsigned plen, unsigned from, unsigned to)
{
	memset(m, 0, sizeof(*m));
	m->algo = algo;
	m->icase = icase;
	memcpy(m->pat, pat, plen);
	m->plen = plen;
	m->from = (uint16_t)from;
	m->to = (uint16_t)to;
	u32_str_bm_prepare(&m->bm, m->pat, plen, icase);
}

struct str_case {
	enum u32_str_algo algo;
	bool icase;
	const char *pat;
	unsigned plen, from, to;
};

/* The result of the string match c on v under kernel profile kp and bm layout. */
static struct u32_str_result str_on(const struct u32_view *v, struct str_case c,
				    const struct u32_kernel_profile *kp, enum u32_bm_layout layout)
{
	struct u32_str_match m;
	struct u32_str_result r;

	str_setup(&m, c.algo, c.icase, c.pat, c.plen, c.from, c.to);
	u32_str_eval(&m, kp, v, layout, &r);
	return r;
}

TEST(bm_icase_gap)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"\xdf\xdf\x41", 3);
	struct u32_view v = udp4_view(p, len);
	struct str_case bf41 = { U32_ALGO_BM, true, "\xbf\x41", 2, 28, 65535 };

	/* T17: bm --icase |bf41| misses on DF DF 41, kmp finds it */
	ASSERT_EQ(str_on(&v, bf41, &KP, U32_BM_LINEAR).v, U32_VERDICT_NO);
	bf41.algo = U32_ALGO_KMP;
	ASSERT_EQ(str_on(&v, bf41, &KP, U32_BM_LINEAR).v, U32_VERDICT_YES);
	/* T18: BF BF 41 is found by bm without icase */
	len = build_udp(p, (const uint8_t *)"\xbf\xbf\x41", 3);
	v = udp4_view(p, len);
	bf41.algo = U32_ALGO_BM;
	bf41.icase = false;
	ASSERT_EQ(str_on(&v, bf41, &KP, U32_BM_LINEAR).v, U32_VERDICT_YES);
}

TEST(string_window)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"ABCDEFzz", 8);
	struct u32_view v = udp4_view(p, len);
	struct u32_kernel_profile old = { .to_start = true };
	struct str_case s9 = { U32_ALGO_BM, false, "ABCDEF", 6, 28, 34 };
	struct str_case s10 = { U32_ALGO_BM, false, "ABCDEF", 6, 28, 33 };
	struct str_case one = { U32_ALGO_KMP, false, "A", 1, 28, 28 };

	ASSERT_EQ(str_on(&v, s9, &KP, U32_BM_AUTO).v, U32_VERDICT_YES);
	ASSERT_EQ(str_on(&v, s10, &KP, U32_BM_AUTO).v, U32_VERDICT_NO);
	ASSERT_EQ(str_on(&v, s10, &old, U32_BM_AUTO).v, U32_VERDICT_YES); /* before Linux 6.7 */
	ASSERT_EQ(str_on(&v, one, &KP, U32_BM_AUTO).v, U32_VERDICT_NO);
}

TEST(bm_chunks_layout_dependent)
{
	uint8_t p[64];
	unsigned len = build_udp(p, (const uint8_t *)"x", 1);
	struct u32_view v = udp4_view(p, len);
	/* "00 00 9c 40" spans the end of the IP header (offset 20) */
	struct str_case across = { U32_ALGO_BM, false, "\x00\x00\x9c\x40", 4, 0, 65535 };
	struct u32_str_result r = str_on(&v, across, &KP, U32_BM_LINEAR);

	ASSERT_EQ(r.v, U32_VERDICT_YES);
	ASSERT_TRUE(r.layout_dependent);
	ASSERT_EQ(str_on(&v, across, &KP, U32_BM_L3).v, U32_VERDICT_NO);
}

/*
 * The auto layout past 8 KiB, as the kernel oracle measured it (big corpus,
 * frame v4-8500): an 8500-byte IPv4 datagram sent with AF_PACKET over a veth
 * is searched as 20 + 8172 + 308 bytes; bm misses a pattern across IP offset
 * 8192 and finds one that ends there.
 */
TEST(bm_auto_page_fragments)
{
	static uint8_t p[8500];
	struct u32_view v = udp4_view(p, sizeof(p));
	struct str_case across = { U32_ALGO_BM, false, "ABCDEF", 6, 0, 65535 };

	v.l2len = 14;
	memcpy(p + 8189, "ABCDEF", 6);
	ASSERT_EQ(str_on(&v, across, &KP, U32_BM_AUTO).v, U32_VERDICT_NO);
	ASSERT_EQ(str_on(&v, across, &KP, U32_BM_LINEAR).v, U32_VERDICT_YES);
	memset(p + 8189, 0, 6);
	memcpy(p + 8186, "ABCDEF", 6);
	ASSERT_EQ(str_on(&v, across, &KP, U32_BM_AUTO).v, U32_VERDICT_YES);
}

/*
 * Spec 5.4(3): without --icase the kernel's bm finds exactly the first
 * occurrence in a chunk (the kmp shortcut in u32_str_eval relies on it).
 */
TEST(bm_first_occurrence)
{
	struct u32_bm_tables bt;
	uint8_t text[64], pat[8];
	unsigned seed = 7;

	for (int round = 0; round < 20000; round++) {
		unsigned n = 1 + round % 64, m = 1 + (round / 64) % 8;
		for (unsigned k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			text[k] = (uint8_t)("aab\xdf"[(seed >> 16) % 4]);
		}
		for (unsigned k = 0; k < m; k++) {
			seed = seed * 1103515245u + 12345u;
			pat[k] = (uint8_t)("aab\xdf"[(seed >> 16) % 4]);
		}
		u32_str_bm_prepare(&bt, pat, m, false);
		ASSERT_EQ(u32_str_bm_search(&bt, text, n),
			  u32_str_kmp_search(pat, m, false, text, n));
	}
}

TEST(words_and_rules)
{
	char buf[256], *w[16], err[U32_ERR_LEN];
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error why;

	ASSERT_EQ(u32_split_words("a 'b c' \"d\\\"e\" f\\ g # no", buf, w, 16, err, sizeof(err)),
		  4);
	ASSERT_STREQ(w[1], "b c");
	ASSERT_STREQ(w[2], "d\"e");
	ASSERT_STREQ(w[3], "f g");
	ASSERT_EQ(u32_split_words("a 'b", buf, w, 16, err, sizeof(err)), -EINVAL);
	ASSERT_TRUE(r != NULL);
	ASSERT_EQ(u32_rule_parse_line(r, "n1 -m u32 --u32 '0=1' -m string --algo kmp --string x",
				      &KP, &why),
		  0);
	ASSERT_EQ(r->nmatches, 2);
	ASSERT_EQ(u32_rule_parse_line(r, "n2 -m string --algo bm --string ''", &KP, &why), -EINVAL);
	ASSERT_EQ(why.id, U32_RULE_KERNEL_EMPTY);
	ASSERT_EQ(u32_rule_parse_line(r, "   # comment", &KP, &why), 1);
	free(r);
}

/*
 * Repeated options, missing arguments and the order of the final checks:
 * each message is what iptables 1.8.9 (nf_tables) printed for the same
 * arguments (tests/u32/parser-oracle.t runs them through iptables itself).
 */
TEST(rule_parse_messages)
{
	static const struct {
		const char *line, *msg;
	} cases[] = {
		{ "r -m string", "STRING match: You must specify `--string' or `--hex-string'" },
		{ "r -m string --algo bm",
		  "STRING match: You must specify `--string' or `--hex-string'" },
		{ "r -m string --string x", "string: option \"--algo\" must be specified" },
		{ "r -m string --string x --hex-string '|41|'",
		  "string: option \"--algo\" must be specified" },
		{ "r -m u32 --u32", "option \"--u32\" requires an argument" },
		{ "r -m string --algo bm --string x --from",
		  "option \"--from\" requires an argument" },
		{ "r -m string --algo bm --string x --from 1 --from 2",
		  "string: option \"--from\" can only be used once." },
		{ "r -m string --algo bm --string x --from 1 ! --from 2",
		  "string: option \"--from\" can only be used once." },
		{ "r -m string --algo bm --string x --to 1 --to 2",
		  "string: option \"--to\" can only be used once." },
		{ "r -m string --algo bm --string x --icase --icase",
		  "string: option \"--icase\" can only be used once." },
		{ "r -m string --algo bm ! --algo kmp --string x",
		  "string: option \"--algo\" can only be used once." },
		{ "r -m u32 --u32 0=1 ! --u32 0=2",
		  "u32: option \"--u32\" can only be used once." },
		{ "r -m comment --comment a -m u32 --u32 0=1 --comment b",
		  "comment: option \"--comment\" can only be used once." },
		{ "r -p tcp -p udp", "multiple -p flags not allowed" },
		{ "r ! -f -f", "multiple -f flags not allowed" },
		{ "r -p tcp --dport 1 ! --dport 2", "Only one `--destination-port' allowed" },
		{ "r -p udp --sport 1 --sport 2",
		  "udp: option \"--source-port\" can only be used once." },
	};
	char err[U32_ERR_LEN];
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error why;

	ASSERT_TRUE(r != NULL);
	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		err[0] = '\0';
		ASSERT_EQ(u32_rule_parse_line(r, cases[k].line, &KP, &why), -EINVAL);
		u32_rule_error_render(&why, err, sizeof(err));
		ASSERT_STREQ(err, cases[k].msg);
	}
	/* the id says what the text says: lint's --algo retry relies on it */
	ASSERT_EQ(u32_rule_parse_line(r, "r -m u32 --u32 0=1 --algo bm", &KP, &why), -EINVAL);
	ASSERT_EQ(why.id, U32_RULE_UNKNOWN_OPTION);
	ASSERT_STREQ(why.what, "--algo");
	free(r);
}

TEST(rule_arguments)
{
	char err[U32_ERR_LEN], e1[] = "6&0xFF=17", one[] = "-m u32 --u32 '6&0xFF=17'",
			       cmd[] = "ip6tables -t raw -I PREROUTING 2 -p udp -m conntrack "
				       "--ctstate NEW -m u32 --u32 6=6 -j DROP";
	char line[] = "iptables -A INPUT -m u32 --u32 0=1 -j LOG", bad[] = "-m u32 --u32 '0=1";
	char ctinv[] = "iptables -A X -m conntrack ! --ctstate established,RELATED --ctorigsrc "
		       "10.0.0.1 ! -f -j DROP";
	char buf[sizeof(line)], *words[16];
	int n = u32_split_words(line, buf, words, 16, err, sizeof(err));
	struct u32_rule_args ra;

	ASSERT_TRUE(u32_rule_arg_is_expr(e1));
	ASSERT_TRUE(!u32_rule_arg_is_expr("-m") && !u32_rule_arg_is_expr("! 0=1"));
	ASSERT_TRUE(!u32_rule_arg_is_expr("/usr/sbin/iptables-nft"));
	ASSERT_TRUE(u32_rule_arg_is_command("ip6tables -A X") &&
		    u32_rule_arg_is_command("iptables"));
	ASSERT_TRUE(!u32_rule_arg_is_command("iptables.pcap") &&
		    !u32_rule_arg_is_command("my-iptables"));
	ASSERT_TRUE(u32_rule_arg_is_whole_rule(one) && u32_rule_arg_is_whole_rule(cmd));
	ASSERT_TRUE(!u32_rule_arg_is_whole_rule("-m") && !u32_rule_arg_is_whole_rule("0 = 1"));
	/* a bare expression becomes -m u32 --u32 EXPR */
	ASSERT_EQ(u32_rule_args_build(&ra, 1, (char *[]){ e1 }, err, sizeof(err)), 0);
	ASSERT_EQ(ra.n, 4);
	ASSERT_STREQ(ra.word[2], "--u32");
	ASSERT_STREQ(ra.word[3], e1);
	u32_rule_args_free(&ra);
	/* one argument is split with shell quoting */
	ASSERT_EQ(u32_rule_args_build(&ra, 1, (char *[]){ one }, err, sizeof(err)), 0);
	ASSERT_EQ(ra.n, 4);
	ASSERT_STREQ(ra.word[3], "6&0xFF=17");
	u32_rule_args_free(&ra);
	/* a command line keeps only its matches: table, chain, number, conntrack, target go */
	ASSERT_EQ(u32_rule_args_build(&ra, 1, (char *[]){ cmd }, err, sizeof(err)), 0);
	ASSERT_EQ(ra.n, 6);
	ASSERT_STREQ(ra.word[0], "-p");
	ASSERT_STREQ(ra.word[2], "-m");
	ASSERT_STREQ(ra.word[5], "6=6");
	ASSERT_EQ(ra.family, 6);
	ASSERT_TRUE(ra.note != NULL);
	/* the conntrack state is kept for translate */
	ASSERT_TRUE(ra.ct.set && !ra.ct.invert && ra.ct.other[0] == '\0');
	ASSERT_EQ(ra.ct.states, U32_CT_NEW);
	u32_rule_args_free(&ra);
	ASSERT_EQ(u32_rule_args_build(&ra, 1, (char *[]){ ctinv }, err, sizeof(err)), 0);
	ASSERT_TRUE(ra.ct.set && ra.ct.invert);
	ASSERT_EQ(ra.ct.states, U32_CT_ESTABLISHED | U32_CT_RELATED);
	ASSERT_STREQ(ra.ct.other, "--ctorigsrc 10.0.0.1");
	ASSERT_EQ(ra.n, 2); /* "! -f" stays: its "!" is not conntrack's */
	ASSERT_STREQ(ra.word[0], "!");
	u32_rule_args_free(&ra);
	ASSERT_EQ(n, 9); /* the command line as separate words */
	ASSERT_EQ(u32_rule_args_build(&ra, n, words, err, sizeof(err)), 0);
	ASSERT_EQ(ra.n, 4);
	ASSERT_EQ(ra.family, 4);
	u32_rule_args_free(&ra);
	ASSERT_EQ(u32_rule_args_build(&ra, 1, (char *[]){ bad }, err, sizeof(err)), -EINVAL);
	u32_rule_args_free(&ra);
}

TEST(dns_encoding)
{
	uint8_t out[256];
	char err[U32_ERR_LEN];

	ASSERT_EQ(u32_dns_encode_name("www.example.com", out, sizeof(out), err, sizeof(err)), 17);
	ASSERT_EQ(out[0], 3);
	ASSERT_EQ(out[4], 7);
	ASSERT_EQ(out[16], 0);
	ASSERT_EQ(u32_dns_encode_name("a..b", out, sizeof(out), err, sizeof(err)), -EINVAL);
	ASSERT_EQ(u32_dns_type_code("HTTPS"), 65);
	ASSERT_EQ(u32_dns_type_code("TYPE99"), 99);
	ASSERT_EQ(u32_dns_type_code("nope"), -EINVAL);
}

/*
 * Rule names in a rules file are unique, also against the rules already in
 * the set; many names (the lookup table is rebuilt as it grows) and a name
 * taken again thousands of lines later.
 */
TEST(ruleset_names)
{
	static const struct u32_kernel_profile kp = { 0 };
	size_t cap = 3000 * 10 + 64, len = 0; /* "r2999 -f\n" is 9 bytes */
	char *text = malloc(cap), err[512];
	struct u32_ruleset rs = { 0 };
	struct u32_rule *r = calloc(1, sizeof(*r));
	struct u32_rule_error why;
	FILE *f;

	ASSERT_TRUE(text && r);
	for (unsigned k = 0; k < 3000; k++)
		len += (size_t)snprintf(text + len, cap - len, "r%u -f\n", k);
	f = fmemopen(text, len, "r");
	ASSERT_EQ(u32_ruleset_read(&rs, f, "many", &kp, err, sizeof(err)), 0);
	fclose(f);
	ASSERT_UEQ(rs.n, 3000);
	ASSERT_STREQ(rs.rules[2999].name, "r2999");
	u32_ruleset_free(&rs);

	/* the same 3000 lines, then r17 again */
	len += (size_t)snprintf(text + len, cap - len, "r17 -p udp\n");
	f = fmemopen(text, len, "r");
	ASSERT_EQ(u32_ruleset_read(&rs, f, "many", &kp, err, sizeof(err)), -EINVAL);
	fclose(f);
	ASSERT_STREQ(err, "many:3001: rule name \"r17\" used twice");
	u32_ruleset_free(&rs);

	/* a name already in the set before the file is read */
	ASSERT_EQ(u32_rule_parse_line(r, "r2 -f", &kp, &why), 0);
	ASSERT_EQ(u32_ruleset_add(&rs, r), 0);
	f = fmemopen(text, 3 * 6, "r"); /* r0, r1, r2 */
	ASSERT_EQ(u32_ruleset_read(&rs, f, "few", &kp, err, sizeof(err)), -EINVAL);
	fclose(f);
	ASSERT_STREQ(err, "few:3: rule name \"r2\" used twice");
	u32_ruleset_free(&rs);
	free(r);
	free(text);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, u32_parser_messages);
	RUN(&st, u32_numbers_and_format);
	RUN(&st, u32_bounds);
	RUN(&st, u32_shift_mod32);
	RUN(&st, u32_at_overflow);
	RUN(&st, hex_string_quirks);
	RUN(&st, kernel_case_folding);
	RUN(&st, bm_icase_gap);
	RUN(&st, string_window);
	RUN(&st, bm_chunks_layout_dependent);
	RUN(&st, bm_auto_page_fragments);
	RUN(&st, bm_first_occurrence);
	RUN(&st, words_and_rules);
	RUN(&st, rule_parse_messages);
	RUN(&st, rule_arguments);
	RUN(&st, dns_encoding);
	RUN(&st, ruleset_names);
	printf("%d run, %d failed\n", st.run, st.failed);
	return st.failed ? 1 : 0;
}
