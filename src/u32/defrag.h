/* IPv4 and IPv6 reassembly before PREROUTING (nf_defrag_ipv4/ipv6). */
#ifndef TRIAGE_U32_DEFRAG_H
#define TRIAGE_U32_DEFRAG_H

#include "u32/view.h"

/*
 * IPv4 reassembly as nf_defrag_ipv4 does it when conntrack is in use: the
 * fragments are held, and the one that completes a datagram delivers the
 * whole datagram (offset field cleared, length and checksum fixed) to
 * PREROUTING instead of itself.
 */
struct u32_defrag;
struct u32_defrag *u32_defrag_new(void);
void u32_defrag_free(struct u32_defrag *d);
/*
 * Feeds one fragment view. Returns 0 when v is not a fragment (evaluate it
 * as is), 1 when it was held, 2 when it completed a datagram: *out then
 * views the reassembled datagram until the next call. -ENOMEM on failure.
 */
int u32_defrag_add(struct u32_defrag *d, const struct u32_view *v, struct u32_view *out);

#endif
