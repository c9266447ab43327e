#include "probe/elf_fp.h"

#include <elf.h>
#include <errno.h>
#include <string.h>

static const Elf64_Shdr *section(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh, unsigned i)
{
	uint64_t off = eh->e_shoff + (uint64_t)i * eh->e_shentsize;

	if (i >= eh->e_shnum || eh->e_shentsize < sizeof(Elf64_Shdr) ||
	    off > len - sizeof(Elf64_Shdr))
		return NULL;
	return (const Elf64_Shdr *)(const void *)(buf + off);
}

static const char *section_name(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh,
				const Elf64_Shdr *sh)
{
	const Elf64_Shdr *strs = section(buf, len, eh, eh->e_shstrndx);

	if (!strs || strs->sh_offset > len || sh->sh_name >= len - strs->sh_offset)
		return "";
	if (!memchr(buf + strs->sh_offset + sh->sh_name, 0, len - strs->sh_offset - sh->sh_name))
		return "";
	return (const char *)buf + strs->sh_offset + sh->sh_name;
}

/* The file bytes at virtual address addr, if an allocated section holds n of them. */
static const uint8_t *bytes_at(const uint8_t *buf, size_t len, const Elf64_Ehdr *eh, uint64_t addr,
			       size_t n)
{
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = section(buf, len, eh, i);

		if (!sh || sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
			continue;
		if (addr < sh->sh_addr || addr - sh->sh_addr + n > sh->sh_size)
			continue;
		if (sh->sh_offset > len || addr - sh->sh_addr + n > len - sh->sh_offset)
			return NULL;
		return buf + sh->sh_offset + (addr - sh->sh_addr);
	}
	return NULL;
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
			   const Elf64_Shdr *dynsym, struct fp_survey *out)
{
	size_t n;

	if (dynsym->sh_offset > len || dynsym->sh_size > len - dynsym->sh_offset)
		return;
	n = dynsym->sh_size / sizeof(Elf64_Sym);
	for (size_t i = 0; i < n; i++) {
		const Elf64_Sym *s =
		    (const Elf64_Sym *)(const void *)(buf + dynsym->sh_offset + i * sizeof(*s));
		const uint8_t *code;

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || s->st_shndx == SHN_UNDEF ||
		    s->st_size < 16)
			continue;
		code = bytes_at(buf, len, eh, s->st_value, 8);
		if (!code)
			continue;
		out->functions++;
		out->with_fp += (unsigned)has_fp_prologue(code);
	}
}

int elf_fp_survey(const uint8_t *buf, size_t len, struct fp_survey *out)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)buf;
	const Elf64_Shdr *dynsym = NULL;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_X86_64)
		return -EINVAL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *sh = section(buf, len, eh, i);

		if (!sh)
			return -EINVAL;
		if (sh->sh_type == SHT_DYNSYM)
			dynsym = sh;
		if (!strcmp(section_name(buf, len, eh, sh), ".eh_frame"))
			out->has_eh_frame = 1;
	}
	if (!dynsym)
		return -EINVAL;
	survey_symbols(buf, len, eh, dynsym, out);
	return 0;
}
