/*
 * Rules: iptables' option handling for -m u32, -m string and the basic
 * matches around them (-p, --sport, --dport, -f, -m comment), rules-file
 * lines, and the evaluation of a whole rule on a packet.
 */
#ifndef TRIAGE_U32_RULE_H
#define TRIAGE_U32_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "u32/eval.h"
#include "u32/rule_error.h"
#include "u32/strmatch.h"
#include "u32/verdict.h"
#include "u32/view.h"

#define U32_RULE_MAX_MATCHES 8
#define U32_RULE_NAME_LEN 64

/* Basic matches around u32/string in a rule. */
struct u32_port_match {
	bool set, invert;
	uint16_t lo, hi;
};

/*
 * -m state --state / -m conntrack --ctstate of an iptables command line.
 * The offline engine sets them aside (it sees no connections); translate
 * carries them into nftables as "ct state", the expression iptables-nft
 * itself loads for them.
 */
enum {
	U32_CT_INVALID = 1,
	U32_CT_ESTABLISHED = 2,
	U32_CT_RELATED = 4,
	U32_CT_NEW = 8,
	U32_CT_UNTRACKED = 16,
};

struct u32_ct_match {
	bool set, invert;
	uint8_t states; /* U32_CT_* */
	char other[48]; /* a conntrack option or state we do not carry, or "" */
};

enum u32_match_kind { U32_MATCH_U32, U32_MATCH_STRING };

/*
 * A match is one kind, so its kind's data share the space: a rule holds
 * eight matches, and keeping both side by side made it 70% larger. Only
 * the member named by kind is valid; check kind before reading either.
 */
struct u32_match {
	enum u32_match_kind kind;
	bool invert;
	union {
		struct u32_expr u32;	  /* U32_MATCH_U32 */
		struct u32_str_match str; /* U32_MATCH_STRING */
	};
};

struct u32_rule {
	char name[U32_RULE_NAME_LEN];
	struct u32_match m[U32_RULE_MAX_MATCHES];
	unsigned nmatches;
	int proto; /* -1: any */
	bool proto_invert;
	int frag; /* -1 any, 1 "-f", 0 "! -f" */
	struct u32_port_match sport, dport;
	char text[1024];	/* the match arguments as given, normalised blanks */
	int family_hint;	/* 6 when the rule is known to be an ip6tables rule */
	struct u32_ct_match ct; /* from an iptables command line only */
};

/*
 * Shell-style word splitting of one line: blanks separate words, '...'
 * and "..." quote, backslash escapes; a word starting with '#' ends the
 * line. Returns the number of words or -EINVAL (message in err).
 * The words point into buf, which must be at least strlen(line)+1 bytes.
 */
int u32_split_words(const char *line, char *buf, char **words, int maxwords, char *err,
		    size_t errlen);

/* Parses iptables match arguments into r: 0, or -EINVAL/-ENOMEM and why in err. */
int u32_rule_parse(struct u32_rule *r, int argc, char **argv, const struct u32_kernel_profile *kp,
		   struct u32_rule_error *err);
/* Parses a rules-file line: 0 ok, 1 blank/comment, -EINVAL/-ENOMEM and why in err. */
int u32_rule_parse_line(struct u32_rule *r, const char *line, const struct u32_kernel_profile *kp,
			struct u32_rule_error *err);

struct u32_rule_result {
	enum u32_verdict v;
	bool layout_dependent;
};
void u32_rule_eval(const struct u32_rule *r, const struct u32_kernel_profile *kp,
		   const struct u32_view *v, enum u32_bm_layout layout,
		   struct u32_rule_result *res);

#endif
