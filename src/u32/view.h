/* The packet as a match sees it: link-layer stripping and the IP datagram's bounds. */
#ifndef TRIAGE_U32_VIEW_H
#define TRIAGE_U32_VIEW_H

#include <stdbool.h>
#include <stdint.h>

/* The packet as a match sees it: offset 0 = IP header. */
struct u32_view {
	const uint8_t *data;
	uint32_t len;	 /* IP datagram length (what the kernel sees) */
	uint32_t caplen; /* bytes of it present in the capture (<= len) */
	uint8_t family;	 /* 4 or 6 */
	uint32_t l3len;	 /* IPv4 IHL*4 or 40 */
	uint32_t l4off;	 /* transport header offset, 0 if unknown */
	uint32_t l4len;	 /* transport header length, 0 if unknown */
	uint8_t proto;	 /* transport protocol (after IPv6 extension headers) */
	bool nonfirst_frag;
	uint32_t v6frag_hdr, v6frag_nhpos; /* IPv6 fragment header, byte naming it */
	bool is_frag;
	uint32_t wirelen; /* frame length from the IP header on (trailer included) */
	uint32_t l2len;	  /* Ethernet header with its VLAN tags (14 when not Ethernet) */
	/* reassembled datagrams: where each later fragment's data starts */
	const uint32_t *frag_cuts;
	unsigned nfrag_cuts;
};

/* Link-layer stripping (spec 1.2). */
enum u32_view_status {
	U32_VIEW_OK,
	U32_VIEW_NOT_IP,
	U32_VIEW_DROPPED,
	U32_VIEW_SHORT,
	U32_VIEW_HELD
};
enum u32_view_status u32_view_from_frame(int dlt, const uint8_t *frame, uint32_t caplen,
					 uint32_t wirelen, struct u32_view *v);
const char *u32_view_status_reason(enum u32_view_status s);

#endif
