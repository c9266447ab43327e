/*
 * Fuzzes the capture reader (libpcap over pcap/pcapng bytes), the
 * link-layer view and reassembly through the real run loop of triage u32
 * test (u32_ruleset_run): a few u32 and string rules on every frame and on
 * every datagram the reassembly model completes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "u32/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const rules[] = {
	"a -m u32 --u32 \"0>>22&0x3C@12>>26&0x3C@0>>24=0x16 && 0>>22&0x3C@12>>26&0x3C@5>>24=1\"",
	"b -m u32 ! --u32 \"0>>28=6 && 40&0xFFFF=53\"",
	"c -p udp --dport 53 -m string --algo bm --icase --hex-string '|03|www|00 0001|'",
	"d -m string --algo kmp --from 20 --to 200 --string ABC",
};

/* Checks what the loop hands out; stops after 10000 frames. */
static int check_frame(void *ctx, const struct u32_frame_verdicts *fv)
{
	const struct u32_ruleset *rs = ctx;

	for (unsigned k = 0; fv->status == U32_VIEW_OK && k < rs->n; k++)
		if (fv->res[k].v > U32_VERDICT_INDET)
			abort();
	return fv->number >= 10000;
}

/*
 * The four rules, parsed once: the set does not depend on the input, and
 * building it (four 27 KB rules) on every input cost more than the run.
 */
static struct u32_ruleset *ruleset(const struct u32_kernel_profile *kp)
{
	static struct u32_ruleset rs;
	static struct u32_rule r;
	struct u32_rule_error why;

	if (rs.n)
		return &rs;
	for (unsigned k = 0; k < 4; k++)
		if (u32_rule_parse_line(&r, rules[k], kp, &why) || u32_ruleset_add(&rs, &r))
			abort();
	return &rs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct u32_run_opts o = { .layout = (enum u32_bm_layout)(size % 5) };
	struct u32_ruleset *rs = ruleset(&o.kp);
	struct u32_capture cap;
	struct u32_run run;
	char err[512];

	memset(rs->counts, 0, rs->n * sizeof(rs->counts[0])); /* as a fresh set */
	/* each input twice: fragments matched one by one, then reassembled first */
	for (int pass = 0; pass < 2; pass++) {
		o.defrag = pass == 1;
		if (u32_run_init(&run, rs, &o))
			break;
		if (u32_capture_open_mem(&cap, data, size, err, sizeof(err)) == 0) {
			(void)u32_ruleset_run(&run, &cap, check_frame, rs, err, sizeof(err));
			u32_capture_close(&cap);
		}
		u32_run_free(&run);
	}
	return 0;
}
