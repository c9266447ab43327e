/*
 * Syscall numbers and names of the build architecture, generated at build
 * time from the installed UAPI header (asm/unistd_64.h) into
 * $(OUTPUT)/gen/syscall_table.h: no tracefs needed at run time.
 */
#ifndef TRIAGE_PROBE_SYSCALL_NAMES_H
#define TRIAGE_PROBE_SYSCALL_NAMES_H

/* The name of syscall nr, or NULL if the table has none. */
const char *syscall_name(unsigned nr);
/* The number of a syscall name ("openat"), or -ENOENT. */
int syscall_nr(const char *name);
/* One past the highest number in the table. */
unsigned syscall_table_size(void);

#endif
