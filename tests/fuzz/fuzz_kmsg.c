/*
 * Fuzzes the kernel log: a /dev/kmsg record ("prio,seq,ts,flags;text",
 * the text partly shaped by process names: OOM kills, hung tasks, segfaults)
 * and the classifier the report's kernel-log rules read. The input is cut
 * into records at newlines, like reads from /dev/kmsg or a fixture file.
 */
#include <stdint.h>
#include <string.h>

#include "procfs/hoststats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct kmsg_record r;
	struct kmsg_class c;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		if (procfs_kmsg_record_parse(p, len, &r) == 0) {
			procfs_kmsg_classify(&r, &c);
			if (strnlen(c.comm, sizeof(c.comm)) == sizeof(c.comm) ||
			    strnlen(c.device, sizeof(c.device)) == sizeof(c.device) ||
			    strnlen(c.cgroup, sizeof(c.cgroup)) == sizeof(c.cgroup) ||
			    strnlen(c.lock, sizeof(c.lock)) == sizeof(c.lock) ||
			    strnlen(c.owner_comm, sizeof(c.owner_comm)) == sizeof(c.owner_comm))
				__builtin_trap(); /* fields stay terminated */
		}
		p += len;
	}
	return 0;
}
