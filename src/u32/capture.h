/* Reading pcap and pcapng captures with libpcap, frame by frame. */
#ifndef TRIAGE_U32_CAPTURE_H
#define TRIAGE_U32_CAPTURE_H

#include <stdint.h>
#include <stdio.h>

struct u32_capture {
	void *pcap; /* pcap_t */
	int dlt;
	FILE *mem; /* for captures read from memory */
};

struct u32_frame {
	const uint8_t *data;
	uint32_t caplen, wirelen;
};

/* 0 or -errno; err gets libpcap's message. */
int u32_capture_open(struct u32_capture *c, const char *path, char *err, size_t errlen);
/* Reads a capture held in memory (the fuzz harness uses this). */
int u32_capture_open_mem(struct u32_capture *c, const void *data, size_t len, char *err,
			 size_t errlen);
/* 1 with a frame, 0 at the end, -EIO on a damaged file (message in err). */
int u32_capture_next(struct u32_capture *c, struct u32_frame *f, char *err, size_t errlen);
/*
 * Calls fn for every frame until the end (0), a damaged file (-EIO, message
 * in err) or fn returning nonzero (that value). Faster than u32_capture_next().
 */
int u32_capture_loop(struct u32_capture *c, int (*fn)(void *ctx, const struct u32_frame *f),
		     void *ctx, char *err, size_t errlen);
/*
 * Reads packets arriving on a network interface (read-only, not
 * promiscuous, incoming only: what PREROUTING sees). 0, -EPERM without
 * the privilege to capture, -ENODEV for an unknown interface, -EIO;
 * libpcap's message in err.
 */
int u32_capture_open_live(struct u32_capture *c, const char *iface, char *err, size_t errlen);
/*
 * Calls fn for the packets that arrived, waiting at most wait_ms for the
 * first: the number of packets (>= 0), -EIO (message in err), or fn's
 * nonzero return as a negative number.
 */
int u32_capture_dispatch(struct u32_capture *c, int (*fn)(void *ctx, const struct u32_frame *f),
			 void *ctx, int wait_ms, char *err, size_t errlen);
void u32_capture_close(struct u32_capture *c);

#endif
