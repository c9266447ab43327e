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

struct u32_nft {
	int family;			 /* 4: nft family ip (iptables), 6: ip6 (ip6tables) */
	bool exact;			 /* text holds the rule; else reason says why not */
	char text[U32_NFT_TEXT_LEN];	 /* nft rule statements, without a verdict */
	char reason[U32_NFT_REASON_LEN]; /* why there is no exact native form */
	const char *kind;		 /* the reason as a word: "substring-search"... */
};

/*
 * Translates r for family 4 or 6 into out. Returns 0 (out->exact tells
 * which answer), -EINVAL for another family, -ENOSPC when the rule text
 * does not fit.
 */
int u32_nft_translate(const struct u32_rule *r, int family, struct u32_nft *out);

#endif
