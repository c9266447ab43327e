/*
 * Fuzzes the symbolizer's parsers with the same bytes: a /proc/kallsyms
 * line, a /proc/PID/maps line, and an ELF image (the symbols of a file a
 * target maps are attacker-controlled), then a few lookups.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/syms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct map_line m;
	struct elf_syms es;
	uint64_t addr, off, vaddr;
	const char *name;
	size_t len;
	char type;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	procfs_kallsyms_parse_line(line, &addr, &type, &name, &len);
	procfs_maps_parse_line(line, &m);
	free(line);
	if (!elf_syms_load_mem(data, size, &es)) {
		for (uint64_t a = 0; a < 0x4000; a += 0x111)
			symtab_lookup(&es.tab, a, &off);
		elf_offset_to_vaddr(&es, size / 2, &vaddr);
		elf_syms_release(&es);
	}
	return 0;
}
