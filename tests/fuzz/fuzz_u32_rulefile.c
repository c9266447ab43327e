/*
 * Fuzzes a whole rules file (u32 test/lint --rules FILE): lines read by
 * u32_ruleset_read with both kernel profiles, every refusal rendered, and
 * every rule of an accepted file evaluated on one packet at a few lengths
 * and linted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../unit/u32_view.h"
#include "u32_fuzz.h"
#include "u32/lint.h"
#include "u32/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct u32_lint_warning w[16];
	struct u32_rule_result res;
	struct u32_ruleset rs = { 0 };
	char err[512];
	FILE *f;

	if (size > 65536 || !size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (u32_ruleset_read(&rs, f, "fuzz.rules", size & 1 ? &fuzz_kp_old : &fuzz_kp, err,
			     sizeof(err)) == 0) {
		for (unsigned k = 0; k < rs.n; k++) {
			for (unsigned len = 0; len <= sizeof(fuzz_packet); len += 11) {
				struct u32_view v = udp4_view(fuzz_packet, len);
				u32_rule_eval(&rs.rules[k], &fuzz_kp, &v,
					      (enum u32_bm_layout)(len % 5), &res);
			}
			u32_rule_lint(&rs.rules[k], w, 16);
		}
	}
	u32_ruleset_free(&rs);
	fclose(f);
	return 0;
}
