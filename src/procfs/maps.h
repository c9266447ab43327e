/*
 * Pure line parsers of /proc/kallsyms and /proc/PID/maps (the symbolizer in
 * src/probe/syms.c reads the files). No I/O; unit tests and fuzzers call
 * them directly.
 */
#ifndef TRIAGE_PROCFS_MAPS_H
#define TRIAGE_PROCFS_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Parses one /proc/kallsyms line "ADDR TYPE NAME [MODULE]". Sets *name and
 * *name_len to the name inside line. Returns 0, or -EINVAL when malformed.
 */
int procfs_kallsyms_parse_line(const char *line, uint64_t *addr, char *type, const char **name,
			       size_t *name_len);
/* True for the types of code symbols (t, T, w, W). */
bool procfs_kallsyms_is_text(char type);

/* One line of /proc/PID/maps. */
struct map_line {
	uint64_t start, end, pgoff;
	uint64_t inode;
	bool exec;
	const char *path; /* points into the parsed line; "" for anonymous */
	size_t path_len;
};

/* Parses one maps line (without its newline). Returns 0 or -EINVAL. */
int procfs_maps_parse_line(const char *line, struct map_line *m);

#endif
