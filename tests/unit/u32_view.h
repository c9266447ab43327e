/* The view a match has of a UDP/IPv4 datagram of len bytes (unit test and fuzz harness). */
#ifndef TRIAGE_TEST_U32_VIEW_H
#define TRIAGE_TEST_U32_VIEW_H

#include "u32/view.h"

static inline struct u32_view udp4_view(const uint8_t *p, unsigned len)
{
	struct u32_view v = { .data = p,
			      .len = len,
			      .caplen = len,
			      .family = 4,
			      .l3len = 20,
			      .l4off = 20,
			      .l4len = 8,
			      .proto = 17,
			      .wirelen = len };
	return v;
}

#endif
