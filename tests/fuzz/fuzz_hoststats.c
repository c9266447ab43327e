/* Fuzzes every host-level parser of the report (procfs/hoststats.h) with the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/hoststats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Big tables: static, so each run does not need megabytes of stack. */
static struct cpu_stat cpu;
static struct disk_stats disks;
static struct iface_stats ifaces;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct meminfo mi;
	struct vmstat vm;
	struct tcp_counters tcp;
	struct cg_cpu_stat cs;
	struct cg_mem_events me;
	struct kmsg_record r;
	struct kmsg_class c;
	struct cpuset set;
	char list[64];
	int64_t quota;
	uint64_t v, period;

	procfs_cpu_stat_parse(buf, size, &cpu);
	procfs_keyed_u64(buf, size, "MemTotal", &v);
	procfs_meminfo_parse(buf, size, &mi);
	procfs_vmstat_parse(buf, size, &vm);
	procfs_diskstats_parse(buf, size, &disks);
	procfs_netdev_parse(buf, size, &ifaces);
	memset(&tcp, 0, sizeof(tcp));
	procfs_tcp_snmp_parse(buf, size, &tcp);
	procfs_tcp_netstat_parse(buf, size, &tcp);
	procfs_cg_cpu_stat_parse(buf, size, &cs);
	procfs_cg_cpu_max_parse(buf, size, &quota, &period);
	procfs_cg_mem_events_parse(buf, size, &me);
	if (procfs_kmsg_record_parse(buf, size, &r) == 0)
		procfs_kmsg_classify(&r, &c);
	if (procfs_cpulist_parse(buf, size, &set) == 0)
		procfs_cpulist_format(&set, list, sizeof(list));
	procfs_status_cpus_allowed_parse(buf, size, &set);
	return 0;
}
