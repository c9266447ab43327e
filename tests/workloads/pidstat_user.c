/* User-time burner: spins in user space for argv[1] seconds. */
#include "pidstat_common.h"

int main(int argc, char **argv)
{
	double end = wl_now() + wl_duration(argc, argv);
	volatile unsigned long x = 0;

	while (wl_now() < end)
		for (int i = 0; i < 200000; i++)
			x += (unsigned long)i * 2654435761u;
	return 0;
}
