/*
 * Does a shared library keep frame pointers? A survey of the function
 * prologues named in its .dynsym: with -fno-omit-frame-pointer nearly every
 * non-trivial x86-64 function starts with push %rbp; mov %rsp,%rbp (after
 * an optional endbr64). Pure: works on a buffer holding the ELF file.
 */
#ifndef TRIAGE_PROBE_ELF_FP_H
#define TRIAGE_PROBE_ELF_FP_H

#include <stddef.h>
#include <stdint.h>

struct elf_fp_survey {
	unsigned functions; /* defined FUNC symbols of at least 16 bytes, read */
	unsigned with_fp;   /* of them, starting with the frame-pointer prologue */
	int has_eh_frame;   /* .eh_frame present: DWARF unwinding is possible */
};

/* Returns 0, or -EINVAL for anything that is not a 64-bit x86-64 ELF with .dynsym. */
int elf_fp_survey(const uint8_t *buf, size_t len, struct elf_fp_survey *out);

#endif
