/*
 * hostile_named NAME spin|sleep SECONDS: names itself NAME (comm: at most
 * 15 bytes, any bytes), prints its PID, then for SECONDS either spins in
 * user space or sleeps; both modes try to open a path made of NAME every
 * 50 ms (ENOENT), so syscall traces carry the hostile bytes too. Its
 * command line is whatever the caller gave (exec -a sets argv[0]).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "pidstat_common.h"

int main(int argc, char **argv)
{
	volatile unsigned long x = 0;
	char path[64];
	double end, next = 0;
	int spin;

	if (argc != 4)
		return 2;
	prctl(PR_SET_NAME, argv[1], 0, 0, 0);
	snprintf(path, sizeof(path), "/nonexistent/%s", argv[1]);
	spin = !strcmp(argv[2], "spin");
	printf("%d\n", (int)getpid());
	fflush(stdout);
	end = wl_now() + atof(argv[3]);
	for (double t = wl_now(); t < end; t = wl_now()) {
		if (t >= next) {
			int fd = open(path, O_RDONLY);
			if (fd >= 0)
				close(fd);
			next = t + 0.05;
		}
		if (!spin) {
			usleep(50000);
			continue;
		}
		for (int i = 0; i < 200000; i++)
			x += (unsigned long)i * 2654435761u;
	}
	return 0;
}
