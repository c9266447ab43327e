/*
 * Fuzzes the capture reader (libpcap over pcap/pcapng bytes) and the
 * link-layer view, evaluating a few u32 and string rules on every frame and
 * on every datagram the reassembly model completes.
 */
#include <stdint.h>
#include <stdlib.h>

#include "u32/capture.h"
#include "u32/defrag.h"
#include "u32/rule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const rules[] = {
	"a -m u32 --u32 \"0>>22&0x3C@12>>26&0x3C@0>>24=0x16 && 0>>22&0x3C@12>>26&0x3C@5>>24=1\"",
	"b -m u32 ! --u32 \"0>>28=6 && 40&0xFFFF=53\"",
	"c -p udp --dport 53 -m string --algo bm --icase --hex-string '|03|www|00 0001|'",
	"d -m string --algo kmp --from 20 --to 200 --string ABC",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct u32_kernel_profile kp = { 0 };
	struct u32_rule *r = calloc(4, sizeof(*r));
	struct u32_defrag *d = u32_defrag_new();
	struct u32_capture cap;
	struct u32_frame f;
	struct u32_view v;
	struct u32_rule_result res;
	struct u32_rule_error why;
	char err[512];
	unsigned n = 0;

	if (!r || !d)
		goto out;
	for (unsigned k = 0; k < 4; k++)
		if (u32_rule_parse_line(&r[k], rules[k], &kp, &why))
			abort();
	if (u32_capture_open_mem(&cap, data, size, err, sizeof(err)) == 0) {
		while (n++ < 10000 && u32_capture_next(&cap, &f, err, sizeof(err)) == 1) {
			if (u32_view_from_frame(cap.dlt, f.data, f.caplen, f.wirelen, &v) !=
			    U32_VIEW_OK)
				continue;
			for (unsigned k = 0; k < 4; k++)
				u32_rule_eval(&r[k], &kp, &v, U32_BM_AUTO, &res);
		}
		u32_capture_close(&cap);
	}
out:
	u32_defrag_free(d);
	free(r);
	return 0;
}
