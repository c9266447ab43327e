/* A finding's subject as text: the one way the report, record and collect name it. */
#include <stdio.h>

#include "report/report.h"

/* Appends one part ("PID 4711 relay", "cgroup /x") to buf at *used. */
static void part(char *buf, size_t size, size_t *used, const char *word, const char *name)
{
	int n;

	if (*used >= size)
		return;
	n = snprintf(buf + *used, size - *used, "%s%s%s%s", *used ? " " : "", word,
		     word[0] ? " " : "", name);
	if (n > 0)
		*used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

/*
 * REPORT_LABEL_WORDS: every part that applies, in one order, for people:
 * "PID 4711 relay cgroup /batch", "mount /var device /dev/vda1", "device vda",
 * "CPU 1", or "host".
 * REPORT_LABEL_METRIC: the first of those parts by the same order, bare and
 * without the PID (a metric's label: few series, stable across restarts):
 * "relay", "/batch", "/var", "vda", "cpu1", or "host".
 */
void report_subject_label(const struct rp_subject *s, enum report_label form, char *buf,
			  size_t size)
{
	bool metric = form == REPORT_LABEL_METRIC;
	size_t used = 0;
	char num[16];

	if (!size)
		return;
	buf[0] = '\0';
	if (s->pid) {
		snprintf(num, sizeof(num), "%d", (int)s->pid);
		if (!metric)
			part(buf, size, &used, "PID", num);
		if (s->comm[0])
			part(buf, size, &used, "", s->comm);
	}
	if (s->cgroup[0] && !(metric && used))
		part(buf, size, &used, metric ? "" : "cgroup", s->cgroup);
	if (s->mount[0] && !(metric && used))
		part(buf, size, &used, metric ? "" : "mount", s->mount);
	if (s->device[0] && !(metric && used))
		part(buf, size, &used, metric ? "" : "device", s->device);
	if (s->iface[0] && !(metric && used))
		part(buf, size, &used, metric ? "" : "interface", s->iface);
	if (s->cpu >= 0 && !(metric && used)) {
		snprintf(num, sizeof(num), metric ? "cpu%d" : "%d", s->cpu);
		part(buf, size, &used, metric ? "" : "CPU", num);
	}
	if (metric && !used && s->comm[0])
		part(buf, size, &used, "", s->comm);
	if (!used)
		snprintf(buf, size, "host");
}
