/*
 * Fuzzes the rule-line parser and the command-line rule forms (shell
 * words, iptables command lines, iptables options, u32
 * expressions, --hex-string) and runs every accepted rule through the
 * evaluators, lint, explain and the -S printer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/u32_view.h"
#include "u32/args.h"
#include "u32/explain.h"
#include "u32/lint.h"
#include "u32/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(void *ctx, const char *text)
{
	(void)ctx;
	(void)text;
}

static const uint8_t packet[] = {
	0x45, 0x00, 0x00, 0x30, 0x00, 0x01, 0x00, 0x00, 0x40, 0x11, 0x00, 0x00,
	0x0a, 0xc9, 0x00, 0x01, 0x0a, 0xc9, 0x00, 0x02, 0x9c, 0x40, 0x00, 0x35,
	0x00, 0x1c, 0x00, 0x00, 0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x03, 'w',  'w',  'w',	0x00, 0x00, 0x01, 0xdf,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct u32_kernel_profile kp = { 0 },
					       old = { .shift_mod32 = true, .to_start = true };
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
	/* every refusal renders to a message */
	int rc = u32_rule_parse_line(r, line, size & 1 ? &old : &kp, &why);
	if (rc < 0)
		u32_rule_error_render(&why, err, sizeof(err));
	if (rc == 0) {
		for (unsigned len = 0; len <= sizeof(packet); len += 7) {
			struct u32_view v = udp4_view(packet, len);
			u32_rule_eval(r, &kp, &v, (enum u32_bm_layout)(len % 5), &res);
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
