/* libpcap reads both pcap and pcapng; this wraps it for the u32 command. */
#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>

#include "u32/capture.h"

static void capture_unmap(struct capture *c)
{
	if (c->map)
		munmap(c->map, c->maplen);
	c->map = NULL;
}

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

/*
 * libpcap reads each record with two small freads. A regular file is
 * mapped and handed to libpcap as a memory stream, which saves the read
 * syscalls and page-cache copies; anything else gets a large stdio buffer.
 */
static FILE *open_stream(struct capture *c, const char *path)
{
	struct stat st;
	FILE *f;
	int fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL | MADV_WILLNEED);
			f = fmemopen(m, (size_t)st.st_size, "rb");
			if (f) {
				/* a large buffer: fewer trips through fmemopen's reader */
				setvbuf(f, NULL, _IOFBF, 1 << 16);
				close(fd);
				c->map = m;
				c->maplen = (size_t)st.st_size;
				return f;
			}
			munmap(m, (size_t)st.st_size);
		}
	}
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

int capture_open(struct capture *c, const char *path, char *err, size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE] = "";
	FILE *f;
	pcap_t *p;

	memset(c, 0, sizeof(*c));
	f = open_stream(c, path);
	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	p = pcap_fopen_offline(f, perr);
	if (!p) {
		fclose(f);
		capture_unmap(c);
	}
	return capture_start(c, p, perr, err, errlen);
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

struct loop_ctx {
	pcap_t *p;
	int (*fn)(void *ctx, const struct frame *f);
	void *ctx;
	int stop;
};

static void loop_one(u_char *user, const struct pcap_pkthdr *h, const u_char *data)
{
	struct loop_ctx *l = (struct loop_ctx *)user;
	struct frame f = { .data = data, .caplen = h->caplen, .wirelen = h->len };

	if (l->stop)
		return;
	l->stop = l->fn(l->ctx, &f);
	if (l->stop)
		pcap_breakloop(l->p);
}

int capture_loop(struct capture *c, int (*fn)(void *ctx, const struct frame *f), void *ctx,
		 char *err, size_t errlen)
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

void capture_close(struct capture *c)
{
	/* pcap_close() also closes a FILE handed to pcap_fopen_offline() */
	if (c->pcap)
		pcap_close(c->pcap);
	c->pcap = NULL;
	c->mem = NULL;
	capture_unmap(c);
}
