/*
 * From a captured frame to the packet a netfilter match sees (spec 1.1,
 * 1.2): strip the link layer (Ethernet with any number of 802.1Q/802.1ad
 * tags, Linux cooked SLL/SLL2, raw IP), drop what ip_rcv()/ipv6_rcv()
 * would drop before PREROUTING, and trim to the IP datagram length so
 * Ethernet padding is invisible.
 */
#include <pcap/dlt.h>
#include <string.h>

#include "common.h"
#include "u32/view.h"

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Offset of the IP header and its ethertype; -1 when the frame carries no IP. */
static int link_header(int dlt, const uint8_t *f, uint32_t caplen, uint16_t *etype)
{
	uint32_t off;

	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < 14)
			return -1;
		off = 12;
		*etype = be16(f + off);
		while ((*etype == 0x8100 || *etype == 0x88a8 || *etype == 0x9100) &&
		       off + 6 <= caplen) {
			off += 4;
			*etype = be16(f + off);
		}
		return (int)off + 2;
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return -1;
		*etype = be16(f + 14);
		return 16;
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return -1;
		*etype = be16(f);
		return 20;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
#if defined(DLT_RAW) && DLT_RAW != 14
	case 14: /* DLT_RAW on OpenBSD-written files */
#endif
		if (caplen < 1)
			return -1;
		*etype = (f[0] >> 4) == 6 ? 0x86DD : (f[0] >> 4) == 4 ? 0x0800 : 0;
		return 0;
	default:
		return -1;
	}
}

/* One's-complement sum over 32-bit words (hlen is a multiple of 4). */
static bool ipv4_checksum_ok(const uint8_t *p, uint32_t hlen)
{
	uint64_t sum = 0;
	uint32_t w;

	for (uint32_t k = 0; k < hlen; k += 4) {
		memcpy(&w, p + k, 4);
		sum += w;
	}
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return sum == 0xFFFF;
}

static void transport_len(struct u32_view *v)
{
	if (v->nonfirst_frag || v->l4off == 0)
		return;
	if (v->proto == 6 && v->l4off + 13 <= v->caplen && v->l4off + 20 <= v->len)
		v->l4len = (uint32_t)(v->data[v->l4off + 12] >> 4) * 4;
	else if (v->proto == 17 && v->l4off + 8 <= v->len)
		v->l4len = 8;
}

static enum u32_view_status ipv4_view(const uint8_t *ip, uint32_t cap, uint32_t wire,
				      struct u32_view *v)
{
	uint32_t ihl, tot;
	uint16_t frag;

	if (cap < 20)
		return U32_VIEW_SHORT;
	ihl = (uint32_t)(ip[0] & 0x0F) * 4;
	tot = be16(ip + 2);
	if ((ip[0] >> 4) != 4 || ihl < 20 || tot > wire || tot < ihl)
		return U32_VIEW_DROPPED;
	if (cap < ihl)
		return U32_VIEW_SHORT;
	if (!ipv4_checksum_ok(ip, ihl))
		return U32_VIEW_DROPPED;
	frag = be16(ip + 6);
	v->family = 4;
	v->len = tot;
	v->caplen = cap < tot ? cap : tot;
	v->l3len = ihl;
	v->proto = ip[9];
	v->is_frag = (frag & 0x3FFF) != 0;
	v->nonfirst_frag = (frag & 0x1FFF) != 0;
	v->l4off = v->nonfirst_frag ? 0 : ihl;
	return U32_VIEW_OK;
}

static bool ipv6_addr_is(const uint8_t *a, const uint8_t *prefix, unsigned n)
{
	return memcmp(a, prefix, n) == 0;
}

/* The address checks of ipv6_rcv() that run before PREROUTING. */
static bool ipv6_addrs_dropped(const uint8_t *ip)
{
	static const uint8_t loop[16] = { [15] = 1 };
	static const uint8_t mapped[12] = { [10] = 0xFF, [11] = 0xFF };
	const uint8_t *src = ip + 8, *dst = ip + 24;

	if (src[0] == 0xFF || ipv6_addr_is(src, loop, 16) || ipv6_addr_is(dst, loop, 16))
		return true;
	if (ipv6_addr_is(src, mapped, 12) || ipv6_addr_is(dst, mapped, 12))
		return true;
	return dst[0] == 0xFF && (dst[1] & 0x0F) <= 1;
}

/* Walks extension headers the way ipv6_find_hdr() does for -p. */
static void ipv6_transport(struct u32_view *v)
{
	uint8_t nh = v->data[6];
	uint32_t off = 40, nhpos = 6; /* nhpos: the byte that names header nh */

	for (;;) {
		if (nh == 0 || nh == 43 || nh == 60 || nh == 51) {
			if (off + 2 > v->caplen)
				break;
			uint32_t hl =
			    nh == 51 ? (v->data[off + 1] + 2u) * 4 : (v->data[off + 1] + 1u) * 8;
			nh = v->data[off];
			nhpos = off;
			off += hl;
		} else if (nh == 44) {
			if (off + 8 > v->caplen)
				break;
			uint16_t fo = be16(v->data + off + 2);
			v->is_frag = (fo & 0xFFF9) != 0; /* an atomic fragment is whole */
			v->nonfirst_frag = (fo & 0xFFF8) != 0;
			v->v6frag_hdr = off;
			v->v6frag_nhpos = nhpos;
			nh = v->data[off];
			off += 8;
			if (v->nonfirst_frag)
				break;
		} else {
			break;
		}
	}
	v->proto = nh;
	v->l4off = v->nonfirst_frag || off > v->len ? 0 : off;
}

static enum u32_view_status ipv6_view(const uint8_t *ip, uint32_t cap, uint32_t wire,
				      struct u32_view *v)
{
	uint32_t len;

	if (cap < 40)
		return U32_VIEW_SHORT;
	len = 40u + be16(ip + 4);
	if ((ip[0] >> 4) != 6 || len > wire || ipv6_addrs_dropped(ip))
		return U32_VIEW_DROPPED;
	v->family = 6;
	v->len = len;
	v->caplen = cap < len ? cap : len;
	v->l3len = 40;
	ipv6_transport(v);
	return U32_VIEW_OK;
}

enum u32_view_status u32_view_from_frame(int dlt, const uint8_t *frame, uint32_t caplen,
					 uint32_t wirelen, struct u32_view *v)
{
	uint16_t etype = 0;
	int off = link_header(dlt, frame, caplen, &etype);
	enum u32_view_status st;

	memset(v, 0, sizeof(*v));
	if (wirelen < caplen)
		wirelen = caplen;
	if (off < 0 || (etype != 0x0800 && etype != 0x86DD) || (uint32_t)off >= caplen)
		return U32_VIEW_NOT_IP;
	v->data = frame + off;
	v->wirelen = wirelen - (uint32_t)off;
	v->l2len = dlt == DLT_EN10MB ? (uint32_t)off : 14;
	if (etype == 0x0800)
		st = ipv4_view(v->data, caplen - (uint32_t)off, v->wirelen, v);
	else
		st = ipv6_view(v->data, caplen - (uint32_t)off, v->wirelen, v);
	if (st == U32_VIEW_OK)
		transport_len(v);
	return st;
}

const char *u32_view_status_reason(enum u32_view_status s)
{
	switch (s) {
	case U32_VIEW_OK:
		return "ok";
	case U32_VIEW_NOT_IP:
		return "not IPv4/IPv6";
	case U32_VIEW_DROPPED:
		return "dropped by the IP layer before PREROUTING (bad header, checksum or length)";
	case U32_VIEW_HELD:
		return "fragment held for reassembly (--defrag)";
	default:
		return "IP header cut short by the capture";
	}
}
