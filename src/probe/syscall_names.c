#include "probe/syscall_names.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* names[] and offsets[]: see the rule in src/probe/module.mk */
#include "syscall_table.h"

#define N_OFFSETS (sizeof(offsets) / sizeof(offsets[0]))

const char *syscall_name(unsigned nr)
{
	return nr < N_OFFSETS && offsets[nr] ? names + offsets[nr] : NULL;
}

int syscall_nr(const char *name)
{
	for (unsigned i = 0; i < N_OFFSETS; i++)
		if (offsets[i] && !strcmp(names + offsets[i], name))
			return (int)i;
	return -ENOENT;
}

unsigned syscall_table_size(void)
{
	return N_OFFSETS;
}
