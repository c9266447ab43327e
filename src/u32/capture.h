/* Reading pcap and pcapng captures with libpcap, frame by frame. */
#ifndef TRIAGE_U32_CAPTURE_H
#define TRIAGE_U32_CAPTURE_H

#include <stdint.h>
#include <stdio.h>

#include "u32/u32.h"

struct capture {
	void *pcap; /* pcap_t */
	int dlt;
	FILE *mem; /* for captures read from memory */
};

struct frame {
	const uint8_t *data;
	uint32_t caplen, wirelen;
};

/* 0 or -errno; err gets libpcap's message. */
int capture_open(struct capture *c, const char *path, char *err, size_t errlen);
/* Reads a capture held in memory (the fuzz harness uses this). */
int capture_open_mem(struct capture *c, const void *data, size_t len, char *err, size_t errlen);
/* 1 with a frame, 0 at the end, -EIO on a damaged file (message in err). */
int capture_next(struct capture *c, struct frame *f, char *err, size_t errlen);
/*
 * Calls fn for every frame until the end (0), a damaged file (-EIO, message
 * in err) or fn returning nonzero (that value). Faster than capture_next().
 */
int capture_loop(struct capture *c, int (*fn)(void *ctx, const struct frame *f), void *ctx,
		 char *err, size_t errlen);
void capture_close(struct capture *c);

#endif
