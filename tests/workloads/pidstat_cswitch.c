/* Fixed voluntary switch rate: sleeps until absolute deadlines argv[2]
 * times a second (default 200) for argv[1] seconds. */
#include <time.h>

#include "pidstat_common.h"

int main(int argc, char **argv)
{
	double dur = wl_duration(argc, argv);
	long rate = argc > 2 ? atol(argv[2]) : 200;
	long step = 1000000000L / (rate > 0 ? rate : 200);
	struct timespec t;
	double end = wl_now() + dur;

	clock_gettime(CLOCK_MONOTONIC, &t);
	while (wl_now() < end) {
		t.tv_nsec += step;
		if (t.tv_nsec >= 1000000000L) {
			t.tv_nsec -= 1000000000L;
			t.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
	}
	return 0;
}
