/* Fuzzes the load explainer's parsers and the D classifier with the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load/dreason.h"
#include "procfs/task_info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	char wchan[KSYM_MAX];
	struct task_cgroups cg;
	struct d_verdict v;
	struct kstack st;
	size_t n = size < sizeof(wchan) - 1 ? size : sizeof(wchan) - 1;

	procfs_kstack_parse(buf, size, &st);
	procfs_task_cgroups_parse(buf, size, &cg);
	procfs_freezer_state_parse(buf, size);
	procfs_cgroup_events_frozen_parse(buf, size);
	memcpy(wchan, buf, n);
	wchan[n] = '\0';
	load_dreason_classify(wchan, &st, &v);
	load_dreason_classify("", &st, &v);
	load_dreason_classify(wchan, NULL, &v);
	return 0;
}
