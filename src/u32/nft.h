/*
 * Native nftables forms of u32/string rules, given only where they match
 * exactly the packets the iptables rule matches (docs/u32.md, "translate").
 */
#ifndef TRIAGE_U32_NFT_H
#define TRIAGE_U32_NFT_H

#include <stdbool.h>
#include <stddef.h>

#include "u32/rule.h"

#define U32_NFT_TEXT_LEN 4096
#define U32_NFT_REASON_LEN 320
/*
 * A computed jump becomes one rule per value of the packet bits it reads;
 * past this many rules the translation is refused (docs/u32.md).
 */
#define U32_NFT_MAX_RULES 256

struct u32_nft {
	int family;			 /* 4: nft family ip (iptables), 6: ip6 (ip6tables) */
	bool exact;			 /* text/rules hold the form; else reason says why not */
	unsigned nrules;		 /* exact: 1 (text), or N enumerated rules (rules) */
	char text[U32_NFT_TEXT_LEN];	 /* nrules == 1: nft rule statements, no verdict */
	char *rules;			 /* nrules > 1: one rule's statements a line */
	char reason[U32_NFT_REASON_LEN]; /* not exact: why; enumerated: over what */
	const char *kind;		 /* the reason as a word: "substring-search"... */
};

/*
 * Translates r for family 4 or 6 into out. Returns 0 (out->exact tells
 * which answer), -EINVAL for another family, -ENOSPC when the rule text
 * does not fit, -ENOMEM. Rules past the single-rule forms whose only
 * obstacle is a computed jump are enumerated into out->rules: the rules
 * are disjoint, and a packet matches one of them exactly when it matches r.
 * Call u32_nft_release() after each translation.
 */
int u32_nft_translate(const struct u32_rule *r, int family, struct u32_nft *out);
void u32_nft_release(struct u32_nft *out);

#endif
