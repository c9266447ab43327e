/* Fuzzes the libc frame-pointer survey of `triage doctor` with arbitrary ELF bytes. */
#include <stddef.h>
#include <stdint.h>

#include "probe/elf_fp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_fp_survey s;

	elf_fp_survey(data, size, &s);
	return 0;
}
