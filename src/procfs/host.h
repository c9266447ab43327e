/*
 * Host facts that outputs depend on (clock tick, page size, uname, CPU
 * count, time). In production they come from the running system; under a
 * fixture root (one with a "meta" file, see docs/fixtures.md) they come
 * from that file, so golden tests do not depend on the test machine.
 */
#ifndef TRIAGE_HOST_H
#define TRIAGE_HOST_H

#include <stdbool.h>
#include <time.h>

#include "procfs/procfs.h"

struct host_facts {
	long hz;
	long pagesize;
	char sysname[65], release[65], nodename[65], machine[65];
	int ncpu;	   /* cpuN directories under sys/devices/system/cpu */
	time_t start_time; /* when the run started (fixture: meta "epoch") */
	bool fixture;	   /* facts come from <root>/meta */
};

/* Fills h for the root pf was opened on. Returns 0 or -errno. */
int procfs_host_facts_load(struct host_facts *h, const struct procfs *pf);

/*
 * Parses a fixture meta file ("key=value" lines: hz, pagesize, sysname,
 * release, nodename, machine, epoch). Pure; for tests and fuzzers too.
 */
int procfs_host_meta_parse(const char *buf, size_t len, struct host_facts *h);

/* Counts cpuN directories under <root>/sys/devices/system/cpu; -errno if unreadable. */
int procfs_host_count_cpus(const struct procfs *pf);

#endif
