/* libpcap reads both pcap and pcapng; this wraps it for the u32 command. */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "u32/capture.h"

static int capture_start(struct capture *c, pcap_t *p, const char *pcap_err, char *err,
			 size_t errlen)
{
	if (!p) {
		snprintf(err, errlen, "%s", pcap_err);
		return -EINVAL;
	}
	c->pcap = p;
	c->dlt = pcap_datalink(p);
	return 0;
}

int capture_open(struct capture *c, const char *path, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";

	memset(c, 0, sizeof(*c));
	return capture_start(c, pcap_open_offline(path, perr), perr, err, errlen);
}

int capture_open_mem(struct capture *c, const void *data, size_t len, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;

	memset(c, 0, sizeof(*c));
	c->mem = fmemopen((void *)data, len, "rb");
	if (!c->mem) {
		snprintf(err, errlen, "fmemopen: %s", strerror(errno));
		return -errno;
	}
	p = pcap_fopen_offline(c->mem, perr);
	if (!p) {
		fclose(c->mem);
		c->mem = NULL;
	}
	return capture_start(c, p, perr, err, errlen);
}

int capture_next(struct capture *c, struct frame *f, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc = pcap_next_ex(c->pcap, &h, &data);

	if (rc == 1) {
		f->data = data;
		f->caplen = h->caplen;
		f->wirelen = h->len;
		return 1;
	}
	if (rc == PCAP_ERROR_BREAK)
		return 0;
	snprintf(err, errlen, "%s", pcap_geterr(c->pcap));
	return -EIO;
}

void capture_close(struct capture *c)
{
	/* pcap_close() also closes a FILE handed to pcap_fopen_offline() */
	if (c->pcap)
		pcap_close(c->pcap);
	c->pcap = NULL;
	c->mem = NULL;
}
