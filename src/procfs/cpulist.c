#define _GNU_SOURCE /* memmem */
/* CPU lists ("0-3,8") as /proc and /sys print them, and a fixed bitmap of them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "procfs/hoststats.h"

void procfs_cpuset_add(struct cpuset *s, unsigned cpu)
{
	if (cpu < HOST_MAX_CPUS)
		s->w[cpu / 64] |= 1ull << (cpu % 64);
}

bool procfs_cpuset_has(const struct cpuset *s, unsigned cpu)
{
	return cpu < HOST_MAX_CPUS && (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned procfs_cpuset_count(const struct cpuset *s)
{
	unsigned n = 0;

	for (int i = 0; i < CPUSET_WORDS; i++)
		n += (unsigned)__builtin_popcountll(s->w[i]);
	return n;
}

int procfs_cpuset_first(const struct cpuset *s)
{
	for (unsigned c = 0; c < HOST_MAX_CPUS; c++)
		if (procfs_cpuset_has(s, c))
			return (int)c;
	return -1;
}

static int take_cpu(const char **p, const char *end, unsigned *out)
{
	unsigned v = 0;
	const char *start = *p;

	while (*p < end && **p >= '0' && **p <= '9' && v < 1000000)
		v = v * 10 + (unsigned)(*(*p)++ - '0');
	if (*p == start)
		return -EINVAL;
	*out = v;
	return 0;
}

int procfs_cpulist_parse(const char *buf, size_t len, struct cpuset *out)
{
	const char *p = buf, *end = buf + len;
	unsigned lo, hi;

	memset(out, 0, sizeof(*out));
	while (end > p && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	while (p < end) {
		if (take_cpu(&p, end, &lo))
			return -EINVAL;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			if (take_cpu(&p, end, &hi) || hi < lo)
				return -EINVAL;
		}
		for (unsigned c = lo; c <= hi && c < HOST_MAX_CPUS; c++)
			procfs_cpuset_add(out, c);
		if (p < end && *p++ != ',')
			return -EINVAL;
	}
	return 0;
}

void procfs_cpulist_format(const struct cpuset *s, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned c = 0; c < HOST_MAX_CPUS && used < size; c++) {
		unsigned e = c;
		int n;

		if (!procfs_cpuset_has(s, c))
			continue;
		while (e + 1 < HOST_MAX_CPUS && procfs_cpuset_has(s, e + 1))
			e++;
		if (e == c)
			n = snprintf(buf + used, size - used, "%s%u", used ? "," : "", c);
		else
			n = snprintf(buf + used, size - used, "%s%u-%u", used ? "," : "", c, e);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
		c = e;
	}
}

int procfs_status_cpus_allowed_parse(const char *buf, size_t len, struct cpuset *out)
{
	static const char key[] = "\nCpus_allowed_list:";
	const char *end = buf + len, *p = memmem(buf, len, key, sizeof(key) - 1), *nl;

	if (!p)
		return -EINVAL;
	p += sizeof(key) - 1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	nl = memchr(p, '\n', (size_t)(end - p));
	return procfs_cpulist_parse(p, (size_t)((nl ? nl : end) - p), out);
}
