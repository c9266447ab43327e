/* The first line (or the JSON document's opening) of every run (spec 3.1). */
#include "pidstat/pidstat.h"

#include "procfs/parsers.h"
#include "util/json.h"

int pidstat_cpu_count(const struct procfs *pf, const struct host_facts *h)
{
	char buf[65536];
	struct sys_stat st;
	ssize_t n;

	if (h->ncpu > 0)
		return h->ncpu;
	/* no /sys count: the cpuN lines of /proc/stat, as sysstat falls back */
	n = procfs_read(pf, "stat", buf, sizeof(buf));
	if (n > 0 && !procfs_sys_stat_parse(buf, (size_t)n, &st))
		return (int)st.ncpu_lines;
	return 0;
}

/* sysstat prints the locale's date (%x), two-digit year and all. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-y2k"
static void locale_date(char *buf, size_t size, const struct tm *tm)
{
	strftime(buf, size, "%x", tm);
}
#pragma GCC diagnostic pop

/* Opens sysstat's JSON document up to the statistics array the loop fills. */
static void json_banner(struct json_writer *j, const struct host_facts *h, int ncpu,
			const char *date)
{
	json_object_begin(j);
	json_key(j, "sysstat");
	json_object_begin(j);
	json_key(j, "hosts");
	json_array_begin(j);
	json_object_begin(j);
	json_kv_string(j, "nodename", h->nodename);
	json_kv_string(j, "sysname", h->sysname);
	json_kv_string(j, "release", h->release);
	json_kv_string(j, "machine", h->machine);
	json_kv_int(j, "number-of-cpus", ncpu);
	json_kv_string(j, "date", date);
	json_key(j, "statistics");
	json_array_begin(j);
}

void pidstat_write_banner(struct pidstat_run *r, int ncpu)
{
	const struct host_facts *h = r->host;
	char date[64];

	if (r->iso_time)
		strftime(date, sizeof(date), "%Y-%m-%d", &r->tstamp[0]);
	else
		locale_date(date, sizeof(date), &r->tstamp[0]);
	if (r->json)
		json_banner(r->json, h, ncpu, date);
	else
		fprintf(r->out.f, "%s %s (%s) \t%s \t_%s_\t(%d CPU)\n", h->sysname, h->release,
			h->nodename, date, h->machine, ncpu);
}
