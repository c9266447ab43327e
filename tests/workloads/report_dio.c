/*
 * report_dio DEV THREADS BLOCK_KB SECS: THREADS threads read DEV with
 * O_DIRECT, back to back, at block-aligned offsets walking through the
 * device, so the device always has a read in flight. Prints "reader PID",
 * then "ready" once every thread has completed one read.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

struct reader {
	int fd;
	size_t block;
	uint64_t blocks;
	unsigned first;
	pthread_barrier_t *started;
};

static void *read_forever(void *arg)
{
	struct reader *r = arg;
	void *buf;
	uint64_t i = r->first;

	if (posix_memalign(&buf, 4096, r->block) != 0)
		_exit(1);
	for (int announced = 0;; i++) {
		off_t off = (off_t)((i * 7919) % r->blocks) * r->block;

		if (pread(r->fd, buf, r->block, off) != (ssize_t)r->block)
			_exit(1);
		if (!announced++)
			pthread_barrier_wait(r->started);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_barrier_t started;
	uint64_t bytes = 0;
	int n, fd;

	if (argc != 5 || (n = atoi(argv[2])) < 1 || n > 16 || atoi(argv[3]) < 4)
		rw_usage("report_dio DEV THREADS BLOCK_KB SECS");
	rw_lifetime(argv[4]);
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &bytes) != 0) {
		perror(argv[1]);
		return 1;
	}
	struct reader r = { fd, (size_t)atoi(argv[3]) << 10, 0, 0, &started };

	r.blocks = bytes / r.block;
	if (r.blocks < 2)
		return 1;
	pthread_barrier_init(&started, NULL, n + 1);
	rw_say("reader %d", getpid());
	for (int i = 0; i < n; i++) {
		pthread_t t;
		struct reader *mine = malloc(sizeof(*mine));

		*mine = r;
		mine->first = i * 1000;
		if (pthread_create(&t, NULL, read_forever, mine) != 0)
			return 1;
	}
	pthread_barrier_wait(&started);
	rw_say("ready");
	for (;;)
		pause();
}
