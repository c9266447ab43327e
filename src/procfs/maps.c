/* Line parsers of /proc/kallsyms and /proc/PID/maps; see maps.h. */
#include "procfs/maps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int procfs_kallsyms_parse_line(const char *line, uint64_t *addr, char *type, const char **name,
			       size_t *name_len)
{
	char *end;
	const char *p;

	errno = 0;
	*addr = strtoull(line, &end, 16);
	if (end == line || errno || *end != ' ' || !end[1] || end[2] != ' ')
		return -EINVAL;
	*type = end[1];
	p = end + 3;
	*name = p;
	while (*p && *p != ' ' && *p != '\t' && *p != '\n')
		p++;
	*name_len = (size_t)(p - *name);
	return *name_len ? 0 : -EINVAL;
}

bool procfs_kallsyms_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

int procfs_maps_parse_line(const char *line, struct map_line *m)
{
	char perms[5];
	unsigned long long start, end, pgoff, inode;
	int pos = 0;

	memset(m, 0, sizeof(*m));
	if (sscanf(line, "%llx-%llx %4s %llx %*x:%*x %llu%n", &start, &end, perms, &pgoff, &inode,
		   &pos) != 5 ||
	    strlen(perms) != 4 || end < start)
		return -EINVAL;
	m->start = start;
	m->end = end;
	m->pgoff = pgoff;
	m->inode = inode;
	m->exec = perms[2] == 'x';
	line += pos;
	while (*line == ' ' || *line == '\t')
		line++;
	m->path = line;
	m->path_len = strcspn(line, "\n");
	return 0;
}
