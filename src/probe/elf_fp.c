#include "probe/elf_fp.h"

#include <elf.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

/*
 * Headers are copied out with memcpy: the buffer may come from anywhere
 * (a fuzzer, a truncated file), so no alignment or bounds are assumed.
 */
static bool read_at(const uint8_t *buf, size_t len, uint64_t off, void *out, size_t n)
{
	if (off > len || n > len - off)
		return false;
	memcpy(out, buf + off, n);
	return true;
}

static bool section(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh, unsigned i,
		    Elf64_Shdr *sh)
{
	if (i >= eh->e_shnum || eh->e_shentsize < sizeof(*sh))
		return false;
	return read_at(buf, len, eh->e_shoff + (uint64_t)i * eh->e_shentsize, sh, sizeof(*sh));
}

static bool name_is(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh, const Elf64_Shdr *sh,
		    const char *want)
{
	size_t n = strlen(want) + 1;
	Elf64_Shdr strs;
	char got[32];

	if (n > sizeof(got) || !section(buf, len, eh, eh->e_shstrndx, &strs))
		return false;
	if (sh->sh_name > strs.sh_size || n > strs.sh_size - sh->sh_name)
		return false;
	return read_at(buf, len, strs.sh_offset + sh->sh_name, got, n) && !memcmp(got, want, n);
}

/* The first n code bytes at virtual address addr, from the executable section holding them. */
static bool code_at(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh, uint64_t addr,
		    uint8_t *out, size_t n)
{
	Elf64_Shdr sh;

	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (!section(buf, len, eh, i, &sh))
			return false;
		if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr > sh.sh_size ||
		    n > sh.sh_size - (addr - sh.sh_addr))
			continue;
		return read_at(buf, len, sh.sh_offset + (addr - sh.sh_addr), out, n);
	}
	return false;
}

static int has_fp_prologue(const uint8_t *p)
{
	static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
	static const uint8_t fp[] = { 0x55, 0x48, 0x89, 0xe5 };

	if (!memcmp(p, endbr64, sizeof(endbr64)))
		p += sizeof(endbr64);
	return !memcmp(p, fp, sizeof(fp));
}

static void survey_symbols(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh,
			   const Elf64_Shdr *dynsym, struct elf_fp_survey *out)
{
	size_t n = dynsym->sh_size / sizeof(Elf64_Sym);

	/* A symbol table larger than the file is corrupt: stop at the end of the buffer. */
	for (size_t i = 0; i < n; i++) {
		uint8_t code[8];
		Elf64_Sym s;

		if (!read_at(buf, len, dynsym->sh_offset + i * sizeof(s), &s, sizeof(s)))
			return;
		if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_size < 16 || !code_at(buf, len, eh, s.st_value, code, sizeof(code)))
			continue;
		out->functions++;
		out->with_fp += (unsigned)has_fp_prologue(code);
	}
}

int elf_fp_survey(const uint8_t *buf, size_t len, struct elf_fp_survey *out)
{
	Elf64_Shdr sh, dynsym = { 0 };
	bool have_dynsym = false;
	Elf64_Ehdr eh;

	memset(out, 0, sizeof(*out));
	if (!read_at(buf, len, 0, &eh, sizeof(eh)) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64)
		return -EINVAL;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (!section(buf, len, &eh, i, &sh))
			return -EINVAL;
		if (sh.sh_type == SHT_DYNSYM) {
			dynsym = sh;
			have_dynsym = true;
		}
		if (name_is(buf, len, &eh, &sh, ".eh_frame"))
			out->has_eh_frame = 1;
	}
	if (!have_dynsym)
		return -EINVAL;
	survey_symbols(buf, len, &eh, &dynsym, out);
	return 0;
}
