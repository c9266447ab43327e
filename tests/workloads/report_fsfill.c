/*
 * Filesystem-full workloads (the filesystem is the test's: a small tmpfs
 * or a loop-mounted ext4 it made).
 *   report_fsfill space DIR SECS   writes DIR/fill.PID until the write
 *                                  fails with ENOSPC, then tries 4 KiB more
 *                                  every 50 ms (each failing with ENOSPC)
 *   report_fsfill inodes DIR SECS  creates empty files DIR/i.PID.N until
 *                                  creat() fails with ENOSPC, then tries
 *                                  one more every 50 ms
 *   report_fsfill rate DIR KBPS SECS  appends to DIR/fill.PID at KBPS KiB/s
 *                                  (in 100 ms steps) until ENOSPC, then as
 *                                  "space"
 * Each prints "writer PID", then "ready" once the filesystem refused
 * (for "rate": once the first step is written), and "enospc N" lines are
 * never printed: the kernel's statvfs is the tests' oracle.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>

static char chunk[1 << 20];

/* Writes n bytes; 0, or the errno that stopped it. */
static int write_all(int fd, size_t n)
{
	while (n) {
		ssize_t w = write(fd, chunk, n < sizeof(chunk) ? n : sizeof(chunk));

		if (w < 0)
			return errno;
		n -= (size_t)w;
	}
	return 0;
}

/* The filesystem is full: keep asking for 4 KiB every 50 ms, as a logger would. */
static _Noreturn void keep_failing(int fd)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (write_all(fd, 4096) != ENOSPC)
			continue; /* something was freed: fill it again */
		rw_pace(&next, 50000000L);
	}
}

static int open_fill(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/fill.%d", dir, getpid());
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

static int space(const char *dir)
{
	int fd = open_fill(dir), err;

	if (fd < 0)
		return 1;
	rw_say("writer %d", getpid());
	while (!(err = write_all(fd, sizeof(chunk))))
		;
	if (err != ENOSPC)
		return 1;
	rw_say("ready");
	keep_failing(fd);
}

static int rate(const char *dir, long kbps)
{
	int fd = open_fill(dir), err = 0;
	struct timespec next;
	size_t step = (size_t)kbps * 1024 / 10;

	if (fd < 0 || kbps < 1)
		return 1;
	rw_say("writer %d", getpid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int first = 1; !(err = write_all(fd, step)); first = 0) {
		if (first)
			rw_say("ready");
		rw_pace(&next, 100000000L);
	}
	if (err != ENOSPC)
		return 1;
	keep_failing(fd);
}

static int inodes(const char *dir)
{
	char path[4096];
	struct timespec next;
	unsigned long n = 0;
	int fd;

	rw_say("writer %d", getpid());
	for (;; n++) {
		snprintf(path, sizeof(path), "%s/i.%d.%lu", dir, getpid(), n);
		if ((fd = creat(path, 0600)) < 0)
			break;
		close(fd);
	}
	if (errno != ENOSPC)
		return 1;
	rw_say("ready");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;; n++) {
		snprintf(path, sizeof(path), "%s/i.%d.%lu", dir, getpid(), n);
		if ((fd = creat(path, 0600)) >= 0)
			close(fd);
		rw_pace(&next, 50000000L);
	}
}

int main(int argc, char **argv)
{
	memset(chunk, 'x', sizeof(chunk));
	if (argc == 4 && !strcmp(argv[1], "space")) {
		rw_lifetime(argv[3]);
		return space(argv[2]);
	}
	if (argc == 4 && !strcmp(argv[1], "inodes")) {
		rw_lifetime(argv[3]);
		return inodes(argv[2]);
	}
	if (argc == 5 && !strcmp(argv[1], "rate")) {
		rw_lifetime(argv[4]);
		return rate(argv[2], atol(argv[3]));
	}
	rw_usage("report_fsfill space DIR SECS | inodes DIR SECS | rate DIR KBPS SECS");
	return 2;
}
