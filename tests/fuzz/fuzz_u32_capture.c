/*
 * Fuzzes the capture reader (libpcap over pcap/pcapng bytes) and the
 * link-layer view, evaluating a few u32 and string rules on every frame.
 */
#include <stdint.h>
#include <stdlib.h>

#include "u32/capture.h"
#include "u32/u32.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const rules[] = {
	"a -m u32 --u32 \"0>>22&0x3C@12>>26&0x3C@0>>24=0x16 && 0>>22&0x3C@12>>26&0x3C@5>>24=1\"",
	"b -m u32 ! --u32 \"0>>28=6 && 40&0xFFFF=53\"",
	"c -p udp --dport 53 -m string --algo bm --icase --hex-string '|03|www|00 0001|'",
	"d -m string --algo kmp --from 20 --to 200 --string ABC",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct kernel_profile kp = { 0 };
	struct rule *r = calloc(4, sizeof(*r));
	struct capture cap;
	struct frame f;
	struct pkt_view v;
	struct rule_result res;
	char err[512];
	unsigned n = 0;

	if (!r)
		return 0;
	for (unsigned k = 0; k < 4; k++)
		if (rule_parse_line(&r[k], rules[k], &kp, err, sizeof(err)))
			abort();
	if (capture_open_mem(&cap, data, size, err, sizeof(err)) == 0) {
		while (n++ < 10000 && capture_next(&cap, &f, err, sizeof(err)) == 1) {
			if (pkt_view_from_frame(cap.dlt, f.data, f.caplen, f.wirelen, &v) !=
			    VIEW_OK)
				continue;
			for (unsigned k = 0; k < 4; k++)
				rule_eval(&r[k], &kp, &v, BM_AUTO, &res);
		}
		capture_close(&cap);
	}
	free(r);
	return 0;
}
