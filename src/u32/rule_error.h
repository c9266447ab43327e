/*
 * Why a rule is refused: iptables' parser, the kernel at load time, or
 * triage's own limits. rule_parse() says which with an id and the word it
 * concerns; the text (iptables' own, byte for byte) is rendered from them.
 */
#ifndef TRIAGE_U32_RULE_ERROR_H
#define TRIAGE_U32_RULE_ERROR_H

#include <stddef.h>

#include "u32/verdict.h"

enum u32_rule_error_id {
	U32_RULE_OK,
	U32_RULE_NOMEM,
	/* iptables' parser: "what" is the option, match, value or count named */
	U32_RULE_NEEDS_ARGUMENT,    /* getopt: option "--from" requires an argument */
	U32_RULE_REPEATED,	    /* EXT: option "--from" can only be used once. */
	U32_RULE_NOT_INVERTIBLE,    /* EXT: option "--algo" cannot be inverted. */
	U32_RULE_MULTIPLE_FLAGS,    /* iptables: multiple -p flags not allowed */
	U32_RULE_TCP_PORT_REPEATED, /* libxt_tcp: Only one `--source-port' allowed */
	U32_RULE_UNKNOWN_OPTION,    /* unknown option "--algo" */
	U32_RULE_UNKNOWN_MATCH,	    /* Couldn't load match `x':No such file or directory */
	U32_RULE_DOUBLE_INVERT,	    /* multiple consecutive ! not allowed */
	U32_RULE_DANGLING_INVERT,   /* nothing appropriate following ! */
	U32_RULE_U32_MISSING,	    /* u32: option "--u32" must be specified */
	U32_RULE_ALGO_MISSING,	    /* string: option "--algo" must be specified */
	U32_RULE_PATTERN_MISSING,   /* STRING match: You must specify `--string' or ... */
	U32_RULE_BOTH_PATTERNS,	    /* --string cannot be used together with --hex-string */
	U32_RULE_BAD_WINDOW,	    /* string: bad value for option "--to", or out of range */
	U32_RULE_STRING_TOO_LONG,   /* STRING too long "..." */
	U32_RULE_BAD_PORT,	    /* Port "x" does not resolve to anything. */
	U32_RULE_BAD_PROTOCOL,	    /* unknown protocol "x" specified */
	U32_RULE_BAD_EXPR,	    /* libxt_u32's message, in detail */
	U32_RULE_BAD_HEX,	    /* libxt_string's --hex-string message, in detail */
	/* the kernel refuses at load what iptables accepted */
	U32_RULE_KERNEL_ALGO,  /* an algorithm other than bm/kmp */
	U32_RULE_KERNEL_EMPTY, /* an empty pattern */
	U32_RULE_KERNEL_FROM_AFTER_TO,
	U32_RULE_KERNEL_EXPR, /* xt_u32's checkentry, reason in detail */
	/* triage's own */
	U32_RULE_UNMODELLED_MATCH, /* a real match the model does not know */
	U32_RULE_TOO_MANY_MATCHES,
	U32_RULE_NO_MATCH,   /* neither -m u32, -m string, -p nor -f */
	U32_RULE_LINE_NAME,  /* a rules-file line without a usable name */
	U32_RULE_NAME_TAKEN, /* a rules file names two rules alike */
	U32_RULE_WORDS,	     /* words that cannot be split or built, detail says why */
};

struct u32_rule_error {
	enum u32_rule_error_id id;
	const char *ext;	  /* the extension speaking: "string", "u32", "comment", "udp" */
	char what[U32_ERR_LEN];	  /* the option, match, value or name concerned */
	char detail[U32_ERR_LEN]; /* a sub-parser's whole message */
};

/* Fills e and returns -EINVAL (-ENOMEM for U32_RULE_NOMEM). */
int u32_rule_fail(struct u32_rule_error *e, enum u32_rule_error_id id, const char *ext,
		  const char *what);
/* The message iptables (or the kernel, or triage) gives for e. */
void u32_rule_error_render(const struct u32_rule_error *e, char *buf, size_t len);

#endif
