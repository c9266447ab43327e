/*
 * The rules a user writes on a command line, one grammar for test, explain
 * and lint. One rule is any of:
 *  - match arguments as separate words: -m u32 --u32 "EXPR" -m string ...;
 *  - one argument holding a whole rule: "-m u32 --u32 '...'", split with
 *    shell quoting (it has blanks and starts with '-' or '!');
 *  - an iptables/ip6tables command line, in words or in one argument: the
 *    command, -t TABLE, -I/-A/-D CHAIN [N], -j TARGET... and -m
 *    state/conntrack are set aside, the matches are kept;
 *  - where the caller allows it (lint, explain), a bare u32 expression.
 * "--" separates rules given in words.
 */
#ifndef TRIAGE_U32_ARGS_H
#define TRIAGE_U32_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "u32/rule.h"

#define U32_RULE_ARGS_MAX 256

struct u32_rule_args {
	char *word[U32_RULE_ARGS_MAX]; /* the match arguments, for u32_rule_parse() */
	int n;
	int family;		/* 4 or 6 for an iptables or ip6tables command line, else 0 */
	const char *note;	/* why part of a command line was set aside, or NULL */
	struct u32_ct_match ct; /* the -m state/conntrack set aside */
	char *buf;		/* words split out of one argument (owned) */
	char u32_words[3][8];
};

/* An option of the modelled matches that takes the next word as its value. */
bool u32_rule_arg_takes_value(const char *word);
/* One argument holding a whole rule or iptables command line. */
bool u32_rule_arg_is_whole_rule(const char *arg);
/* A bare u32 expression: neither an option, '!' nor an iptables command. */
bool u32_rule_arg_is_expr(const char *arg);
/* The first word is the iptables or ip6tables command ("iptables", "/sbin/ip6tables-nft"). */
bool u32_rule_arg_is_command(const char *word);

/*
 * Builds the match arguments of one rule from the n words a user gave for
 * it (n >= 1; a single word may be a whole rule or a bare expression).
 * ra->word may point into words. 0, or -EINVAL/-ENOMEM with a message in err.
 */
int u32_rule_args_build(struct u32_rule_args *ra, int n, char **words, char *err, size_t errlen);
void u32_rule_args_free(struct u32_rule_args *ra);

/*
 * Builds one rule from the n words a user gave for it and parses it into r
 * (family_hint set from an iptables/ip6tables command line). drop names an
 * option left out with its value (lint's retry without a stray --algo), or
 * NULL. *note, if note is not NULL, says why part of a command line was set
 * aside (or is NULL). 0, or -EINVAL/-ENOMEM and why in err (U32_RULE_WORDS
 * when the words themselves cannot be split or are too many).
 */
int u32_rule_from_words(struct u32_rule *r, int n, char **words, const char *drop,
			const struct u32_kernel_profile *kp, struct u32_rule_error *err,
			const char **note);

#endif
