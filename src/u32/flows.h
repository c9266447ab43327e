/* The flows a rule matched on live traffic (triage u32 test -i): 5-tuples and counts. */
#ifndef TRIAGE_U32_FLOWS_H
#define TRIAGE_U32_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include "u32/view.h"

#define U32_FLOWS_MAX 256 /* flows kept per rule; later ones count as "other" */

struct u32_flow {
	uint8_t family, proto;
	uint8_t src[16], dst[16];
	uint16_t sport, dport; /* 0 when not TCP/UDP or not in this fragment */
	uint64_t pkts;
};

struct u32_flows {
	struct u32_flow f[U32_FLOWS_MAX];
	unsigned n;
	uint64_t other; /* packets of flows beyond the table */
};

/* The 5-tuple of the datagram in v. */
void u32_flow_of(const struct u32_view *v, struct u32_flow *key);
/* Counts one packet of key. */
void u32_flows_add(struct u32_flows *fl, const struct u32_flow *key);
/* The indexes of the (at most n) busiest flows, busiest first; returns how many. */
unsigned u32_flows_top(const struct u32_flows *fl, unsigned *idx, unsigned n);
/* "udp 10.0.0.1:53 > 10.0.0.2:40000" */
void u32_flow_format(const struct u32_flow *f, char *buf, size_t len);

#endif
