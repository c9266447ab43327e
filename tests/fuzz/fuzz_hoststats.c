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

	cpu_stat_parse(buf, size, &cpu);
	keyed_u64(buf, size, "MemTotal", &v);
	meminfo_parse(buf, size, &mi);
	vmstat_parse(buf, size, &vm);
	diskstats_parse(buf, size, &disks);
	netdev_parse(buf, size, &ifaces);
	memset(&tcp, 0, sizeof(tcp));
	tcp_snmp_parse(buf, size, &tcp);
	tcp_netstat_parse(buf, size, &tcp);
	cg_cpu_stat_parse(buf, size, &cs);
	cg_cpu_max_parse(buf, size, &quota, &period);
	cg_mem_events_parse(buf, size, &me);
	if (kmsg_record_parse(buf, size, &r) == 0)
		kmsg_classify(&r, &c);
	if (cpulist_parse(buf, size, &set) == 0)
		cpulist_format(&set, list, sizeof(list));
	status_cpus_allowed_parse(buf, size, &set);
	return 0;
}
