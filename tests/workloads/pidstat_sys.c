/* System-time burner: reads /dev/zero in 1 MiB chunks (time spent clearing
 * user pages in the kernel) for argv[1] seconds. */
#include <fcntl.h>
#include <unistd.h>

#include "pidstat_common.h"

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	double end = wl_now() + wl_duration(argc, argv);
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		return 1;
	while (wl_now() < end)
		for (int i = 0; i < 20; i++)
			if (read(fd, buf, sizeof(buf)) < 0)
				return 1;
	return 0;
}
