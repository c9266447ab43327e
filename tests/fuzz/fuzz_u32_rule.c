/*
 * Fuzzes the rule-line parser and the command-line rule forms (shell
 * words, iptables command lines, iptables options, u32
 * expressions, --hex-string) and runs every accepted rule through the
 * evaluators, lint, explain, the -S printer and the nftables translation.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/u32_view.h"
#include "u32_fuzz.h"
#include "u32/args.h"
#include "u32/explain.h"
#include "u32/lint.h"
#include "u32/nft.h"
#include "u32/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(void *ctx, const char *text)
{
	(void)ctx;
	(void)text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct u32_text_sink out = { sink, NULL };
	struct u32_lint_warning w[16];
	struct u32_rule_result res;
	char err[U32_ERR_LEN], canon[1024];
	struct u32_rule_error why = { 0 };
	struct u32_rule *r;
	char *line;

	if (size > 4096)
		return 0;
	line = malloc(size + 1);
	r = malloc(sizeof(*r));
	if (!line || !r)
		goto out;
	memcpy(line, data, size);
	line[size] = '\0';
	/* the same text as a rule given to lint (bare expression, command line, --algo retry) */
	struct u32_lint_set ls = { 0 };
	(void)u32_lint_add(&ls, 1, &line, "fuzz");
	u32_lint_set_free(&ls);
	/* the command-line forms (iptables command lines keep -m state) translate */
	struct u32_nft *t = malloc(sizeof(*t));
	if (t && u32_rule_from_words(r, 1, &line, NULL, &fuzz_kp, &why, NULL) == 0) {
		(void)u32_nft_translate(r, 4, t);
		u32_nft_release(t);
		(void)u32_nft_translate(r, 6, t);
		u32_nft_release(t);
	}
	free(t);
	/* every refusal renders to a message */
	int rc = u32_rule_parse_line(r, line, size & 1 ? &fuzz_kp_old : &fuzz_kp, &why);
	if (rc < 0)
		u32_rule_error_render(&why, err, sizeof(err));
	if (rc == 0) {
		for (unsigned len = 0; len <= sizeof(fuzz_packet); len += 7) {
			struct u32_view v = udp4_view(fuzz_packet, len);
			u32_rule_eval(r, &fuzz_kp, &v, (enum u32_bm_layout)(len % 5), &res);
		}
		u32_rule_lint(r, w, 16);
		for (unsigned k = 0; k < r->nmatches; k++) {
			if (r->m[k].kind != U32_MATCH_U32)
				continue;
			u32_format(&r->m[k].u32, canon, sizeof(canon));
			u32_explain(&r->m[k].u32, &out);
		}
	}
out:
	free(line);
	free(r);
	return 0;
}
