/* libpcap reads both pcap and pcapng; this wraps it for the u32 command. */
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <unistd.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "u32/capture.h"

static int capture_start(struct u32_capture *c, pcap_t *p, const char *pcap_err, char *err,
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

/*
 * libpcap reads each record with two small freads. The stream is read with
 * read(2) through a large buffer, and stdio's per-call locking is turned off
 * (the stream never leaves this thread). A mapped file would save the copy
 * but dies of SIGBUS when the file shrinks while it is read; a truncated
 * stream only ends early, which libpcap reports as a damaged file.
 */
static FILE *open_stream(const char *path)
{
	FILE *f;
	int fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	f = fdopen(fd, "rb");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	__fsetlocking(f, FSETLOCKING_BYCALLER);
	return f;
}

int u32_capture_open(struct u32_capture *c, const char *path, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	FILE *f;
	pcap_t *p;

	memset(c, 0, sizeof(*c));
	f = open_stream(path);
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s", strerror(e));
		return -e;
	}
	p = pcap_fopen_offline(f, perr);
	if (!p)
		fclose(f);
	return capture_start(c, p, perr, err, errlen);
}

int u32_capture_open_mem(struct u32_capture *c, const void *data, size_t len, char *err,
			 size_t errlen)
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

int u32_capture_next(struct u32_capture *c, struct u32_frame *f, char *err, size_t errlen)
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

struct loop_ctx {
	pcap_t *p;
	int (*fn)(void *ctx, const struct u32_frame *f);
	void *ctx;
	int stop;
};

static void loop_one(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct loop_ctx *l = (struct loop_ctx *)user;
	struct u32_frame f = { .data = data, .caplen = h->caplen, .wirelen = h->len };

	if (l->stop)
		return;
	l->stop = l->fn(l->ctx, &f);
	if (l->stop)
		pcap_breakloop(l->p);
}

int u32_capture_loop(struct u32_capture *c, int (*fn)(void *ctx, const struct u32_frame *f),
		     void *ctx, char *err, size_t errlen)
{
	struct loop_ctx l = { .p = c->pcap, .fn = fn, .ctx = ctx };
	int rc = pcap_loop(c->pcap, -1, loop_one, (u_char *)&l);

	if (l.stop)
		return l.stop;
	if (rc == PCAP_ERROR) {
		snprintf(err, errlen, "%s", pcap_geterr(c->pcap));
		return -EIO;
	}
	return 0;
}

int u32_capture_open_live(struct u32_capture *c, const char *iface, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_create(iface, perr);
	int rc;

	memset(c, 0, sizeof(*c));
	if (!p) {
		snprintf(err, errlen, "%s", perr);
		return -EIO;
	}
	/* whole packets, handed over at once, 100 ms at most between checks */
	pcap_set_snaplen(p, 262144);
	pcap_set_promisc(p, 0);
	pcap_set_immediate_mode(p, 1);
	pcap_set_timeout(p, 100);
	rc = pcap_activate(p);
	if (rc < 0) {
		snprintf(err, errlen, "%s", pcap_geterr(p));
		pcap_close(p);
		return rc == PCAP_ERROR_PERM_DENIED	 ? -EPERM
		       : rc == PCAP_ERROR_NO_SUCH_DEVICE ? -ENODEV
							 : -EIO;
	}
	/* our own poll() bounds each wait: libpcap's timeout need not in immediate mode */
	if (pcap_setdirection(p, PCAP_D_IN) < 0 || pcap_setnonblock(p, 1, perr) < 0 ||
	    pcap_get_selectable_fd(p) < 0) {
		snprintf(err, errlen, "%s", pcap_geterr(p));
		pcap_close(p);
		return -EIO;
	}
	c->pcap = p;
	c->dlt = pcap_datalink(p);
	return 0;
}

int u32_capture_dispatch(struct u32_capture *c, int (*fn)(void *ctx, const struct u32_frame *f),
			 void *ctx, int wait_ms, char *err, size_t errlen)
{
	struct loop_ctx l = { .p = c->pcap, .fn = fn, .ctx = ctx };
	struct pollfd pfd = { .fd = pcap_get_selectable_fd(c->pcap), .events = POLLIN };
	int rc = poll(&pfd, 1, wait_ms);

	if (rc < 0 && errno != EINTR) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return -EIO;
	}
	if (rc <= 0)
		return 0;
	rc = pcap_dispatch(c->pcap, -1, loop_one, (u_char *)&l);
	if (l.stop)
		return l.stop < 0 ? l.stop : -l.stop;
	if (rc == PCAP_ERROR) {
		snprintf(err, errlen, "%s", pcap_geterr(c->pcap));
		return -EIO;
	}
	return rc < 0 ? 0 : rc;
}

void u32_capture_close(struct u32_capture *c)
{
	/* pcap_close() also closes a FILE handed to pcap_fopen_offline() */
	if (c->pcap)
		pcap_close(c->pcap);
	c->pcap = NULL;
	c->mem = NULL;
}
