/* Fuzzes every pure /proc parser with the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/host.h"
#include "procfs/parsers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct pid_stat st;
	struct pid_status ss;
	struct pid_io io;
	struct pid_schedstat sch;
	struct pid_statm sm;
	struct sys_stat sys;
	struct loadavg la;
	struct psi psi;
	struct host_facts h;
	uint64_t v;

	procfs_pid_stat_parse(buf, size, &st);
	procfs_pid_status_parse(buf, size, &ss);
	procfs_pid_io_parse(buf, size, &io);
	procfs_pid_schedstat_parse(buf, size, &sch);
	if (!procfs_pid_statm_parse(buf, size, &sm))
		(void)procfs_statm_anon_pages(&sm, &v);
	procfs_uptime_parse(buf, size, &v);
	procfs_sys_stat_parse(buf, size, &sys);
	procfs_meminfo_total_parse(buf, size, &v);
	procfs_loadavg_parse(buf, size, &la);
	procfs_psi_parse(buf, size, &psi);
	memset(&h, 0, sizeof(h));
	procfs_host_meta_parse(buf, size, &h);
	return 0;
}
