/* /proc/softirqs and its deltas (see softirqs.h). */
#include "procfs/softirqs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of buf at *pos, copied NUL-terminated into line; false at the end. */
static bool take_line(const char *buf, size_t len, size_t *pos, char *line, size_t size)
{
	const char *p = buf + *pos, *nl;
	size_t n;

	if (*pos >= len)
		return false;
	nl = memchr(p, '\n', len - *pos);
	n = (size_t)((nl ? nl : buf + len) - p);
	*pos += n + 1;
	if (n >= size)
		n = size - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	return true;
}

static int header(char *line, struct softirqs *out)
{
	char *save = NULL;

	for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *e;
		long id;

		if (strncmp(w, "CPU", 3))
			return -EINVAL;
		id = strtol(w + 3, &e, 10);
		if (*e || e == w + 3 || id < 0)
			return -EINVAL;
		if (out->ncols < HOST_MAX_CPUS)
			out->cpu_id[out->ncols++] = (int)id;
	}
	return out->ncols ? 0 : -EINVAL;
}

static int row(char *line, struct softirqs *out)
{
	char *colon = strchr(line, ':'), *p, *name = line;
	size_t v = out->nvec;

	if (!colon)
		return -EINVAL;
	if (v >= SOFTIRQ_MAX_VECTORS)
		return 0; /* a kernel with more vectors: the first ones are kept */
	*colon = '\0';
	while (*name == ' ')
		name++;
	{
		size_t n = strlen(name) < SOFTIRQ_NAME_MAX ? strlen(name) : SOFTIRQ_NAME_MAX - 1;

		memcpy(out->name[v], name, n);
		out->name[v][n] = '\0';
	}
	p = colon + 1;
	for (size_t c = 0; c < out->ncols; c++) {
		char *e;

		out->count[v][c] = strtoull(p, &e, 10);
		if (e == p)
			return -EINVAL;
		p = e;
	}
	out->nvec++;
	return 0;
}

int procfs_softirqs_parse(const char *buf, size_t len, struct softirqs *out)
{
	char line[8192];
	size_t pos = 0;
	int rc;

	out->nvec = out->ncols = 0;
	if (!take_line(buf, len, &pos, line, sizeof(line)) || header(line, out))
		return -EINVAL;
	while (take_line(buf, len, &pos, line, sizeof(line)))
		if (line[0] && (rc = row(line, out)))
			return rc;
	return 0;
}

int procfs_softirqs_read(const struct procfs *pf, struct softirqs *out)
{
	size_t size = 256 * 1024;
	char *buf = malloc(size);
	ssize_t n;
	int rc;

	if (!buf)
		return -ENOMEM;
	n = procfs_read(pf, "softirqs", buf, size);
	rc = n < 0 ? (int)n : procfs_softirqs_parse(buf, (size_t)n, out);
	free(buf);
	return rc;
}

static int column_of(const struct softirqs *s, int cpu)
{
	for (size_t c = 0; c < s->ncols; c++)
		if (s->cpu_id[c] == cpu)
			return (int)c;
	return -1;
}

int procfs_softirqs_top_vector(const struct softirqs *a, const struct softirqs *b, int cpu,
			       uint64_t *runs)
{
	int ca = column_of(a, cpu), cb = column_of(b, cpu), top = -1;

	*runs = 0;
	if (ca < 0 || cb < 0)
		return -1;
	for (size_t v = 0; v < a->nvec && v < b->nvec; v++) {
		uint64_t d;

		if (strcmp(a->name[v], b->name[v]) || b->count[v][cb] < a->count[v][ca])
			continue;
		d = b->count[v][cb] - a->count[v][ca];
		if (d > *runs) {
			*runs = d;
			top = (int)v;
		}
	}
	return top;
}
