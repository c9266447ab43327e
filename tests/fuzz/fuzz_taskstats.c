/* Fuzzes the taskstats netlink reply parser (kernel bytes, but never trusted). */
#include <stdint.h>
#include <stdlib.h>

#include "procfs/taskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct taskstats_brief b;

	procfs_taskstats_parse_reply(data, size, &b);
	return 0;
}
