/* Exits mid-run: burns a little CPU (1 ms of every 10 ms) and exits after
 * argv[1] seconds (default 2.5). */
#include <time.h>

#include "pidstat_common.h"

int main(int argc, char **argv)
{
	double end = wl_now() + (argc > 1 ? atof(argv[1]) : 2.5);
	struct timespec t9ms = { 0, 9000000 };
	volatile unsigned long x = 0;

	while (wl_now() < end) {
		double until = wl_now() + 0.001;

		while (wl_now() < until)
			x++;
		nanosleep(&t9ms, NULL);
	}
	return 0;
}
