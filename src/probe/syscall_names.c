#include "probe/syscall_names.h"

#include <errno.h>
#include <string.h>

static const char *const names[] = {
#include "syscall_table.h"
};

const char *syscall_name(unsigned nr)
{
	return nr < sizeof(names) / sizeof(names[0]) ? names[nr] : NULL;
}

int syscall_nr(const char *name)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] && !strcmp(names[i], name))
			return (int)i;
	return -ENOENT;
}

unsigned syscall_table_size(void)
{
	return sizeof(names) / sizeof(names[0]);
}
