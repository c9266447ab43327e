/*
 * report_fdhog LIMIT SECS: sets its soft RLIMIT_NOFILE to LIMIT (0: keeps
 * the one it has), opens /dev/null until open() fails with EMFILE (its own
 * limit) or ENFILE (the system's fs.file-max), then tries once more every
 * 50 ms, as a server accepting connections would. Prints "hog PID",
 * "open N" (the descriptors it holds then, 0-2 included) and "errno
 * EMFILE|ENFILE", then "ready".
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	struct rlimit rl;
	struct timespec next;
	long limit;
	int fd, held = 0;

	if (argc != 3 || (limit = atol(argv[1])) < 0)
		rw_usage("report_fdhog LIMIT SECS");
	rw_lifetime(argv[2]);
	if (limit && (getrlimit(RLIMIT_NOFILE, &rl) || (rl.rlim_cur = (rlim_t)limit, 0) ||
		      setrlimit(RLIMIT_NOFILE, &rl)))
		return 1;
	rw_say("hog %d", getpid());
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		held = fd;
	if (errno != EMFILE && errno != ENFILE)
		return 1;
	rw_say("open %d", held + 1);
	rw_say("errno %s", errno == EMFILE ? "EMFILE" : "ENFILE");
	rw_say("ready");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if ((fd = open("/dev/null", O_RDONLY)) >= 0)
			held = fd; /* one was freed (or the limit rose): keep it */
		rw_pace(&next, 50000000L);
	}
}
