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
#include "u32/lint.h"
#include "u32/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	if (u32_ruleset_read(&rs, f, "fuzz.rules", size & 1 ? &old : &kp, err, sizeof(err)) == 0) {
		for (unsigned k = 0; k < rs.n; k++) {
			for (unsigned len = 0; len <= sizeof(packet); len += 11) {
				struct u32_view v = udp4_view(packet, len);
				u32_rule_eval(&rs.rules[k], &kp, &v, (enum u32_bm_layout)(len % 5),
					      &res);
			}
			u32_rule_lint(&rs.rules[k], w, 16);
		}
	}
	u32_ruleset_free(&rs);
	fclose(f);
	return 0;
}
