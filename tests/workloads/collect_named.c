/*
 * collect_named NAME spin|sleep SECONDS: names itself NAME (its comm, at
 * most 15 bytes: any bytes, to attack exporters), prints its PID, then
 * spins in user space or sleeps for SECONDS.
 */
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
	double end;

	if (argc != 4)
		return 2;
	prctl(PR_SET_NAME, argv[1], 0, 0, 0);
	printf("%d\n", (int)getpid());
	fflush(stdout);
	end = wl_now() + atof(argv[3]);
	if (strcmp(argv[2], "spin")) {
		while (wl_now() < end)
			sleep(1);
		return 0;
	}
	while (wl_now() < end)
		for (int i = 0; i < 200000; i++)
			x += (unsigned long)i * 2654435761u;
	return 0;
}
