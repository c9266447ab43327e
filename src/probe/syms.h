/*
 * Symbolization of stack addresses without debug symbols in the kernel:
 *   - kernel addresses from /proc/kallsyms (real addresses need root or
 *     kptr_restrict=0; all zeros mean "hidden" and load as an error);
 *   - user addresses from /proc/PID/maps plus the ELF .symtab/.dynsym of
 *     each mapped file, read with libelf; [vdso] from our own copy of it. A file whose own symbols
 * are stripped is completed from /usr/lib/debug/.build-id/xx/yyyy.debug when its NT_GNU_BUILD_ID
 * note names one (Debian's -dbg packages).
 *
 * The pure parts (sorted symbol table, kallsyms and maps line parsers,
 * file offset to ELF address translation) are exposed for unit tests.
 * Functions return 0 or -errno and never print.
 */
#ifndef TRIAGE_PROBE_SYMS_H
#define TRIAGE_PROBE_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/maps.h" /* the line parsers the symbolizer uses */
#include "procfs/procfs.h"

/* ---- a sorted address -> name table ---- */

struct sym {
	uint64_t addr;
	uint64_t size; /* 0 until symtab_finish() bounds it by the next symbol */
	uint32_t name; /* offset into the table's string pool */
	int prio;      /* among aliases at one address, the highest wins */
};

struct symtab {
	struct sym *syms;
	size_t len, cap;
	char *pool;
	size_t pool_len, pool_cap;
	bool sorted;
};

void symtab_init(struct symtab *t);
void symtab_release(struct symtab *t);
/* Adds a symbol; size 0 means "unknown, up to the next symbol". */
int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, const char *name, size_t name_len,
	       int prio);
/* Sorts, keeps one name per address, gives unsized symbols an extent. */
void symtab_finish(struct symtab *t);
/*
 * The symbol containing addr, or NULL; *off gets addr minus its start.
 * The last unsized symbol covers only its own address plus 4 KiB.
 */
const char *symtab_lookup(const struct symtab *t, uint64_t addr, uint64_t *off);

/* ---- kernel symbols ---- */

/*
 * Loads the text symbols of <pf root>/proc/kallsyms. -EACCES when every
 * address reads as zero (kptr_restrict hides them).
 */
int syms_load_kernel(const struct procfs *pf, struct symtab *out);
/*
 * Only the symbols containing addrs (sorted, unique; -EINVAL otherwise):
 * each of them looks up as in the full table, and kallsyms is read without
 * keeping the rest. No addresses: an empty table, kallsyms not read.
 */
int syms_load_kernel_for(const struct procfs *pf, const uint64_t *addrs, size_t n,
			 struct symtab *out);

/* ---- user symbols ---- */

/* A PT_LOAD segment: file range [off, off+filesz) maps at vaddr. */
struct elf_seg {
	uint64_t off, vaddr, filesz, memsz;
};

#define ELF_SYMS_MAX_SEGS 16
#define BUILD_ID_MAX 64

/* The symbols of one ELF file, with what is needed to place them. */
struct elf_syms {
	struct symtab tab;
	struct elf_seg segs[ELF_SYMS_MAX_SEGS];
	size_t nsegs;
	unsigned char build_id[BUILD_ID_MAX];
	size_t build_id_len;
	bool debug_file_used; /* symbols came (also) from /usr/lib/debug */
	bool stripped;	      /* no .symtab and no debug file: only exported names */
};

/*
 * File offset -> ELF virtual address through the PT_LOAD segments, which
 * is how PIE executables and shared objects are placed wherever they are
 * mapped. Returns 0 or -ENOENT when no segment holds off.
 */
int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t off, uint64_t *vaddr);

/* Build id as lower-case hex into buf (size >= 2*BUILD_ID_MAX+1). */
void syms_build_id_hex(const unsigned char *id, size_t len, char *buf);

/*
 * Loads the function symbols of the ELF file open on fd. debug_root is
 * the directory holding .build-id/ (normally "/usr/lib/debug"; NULL to
 * never look there). The fd is not closed.
 */
int elf_syms_load_fd(int fd, const char *debug_root, struct elf_syms *out);
int elf_syms_load(const char *path, const char *debug_root, struct elf_syms *out);
/* Same, for an ELF image in memory (the vDSO). */
int elf_syms_load_mem(const void *image, size_t size, struct elf_syms *out);
void elf_syms_release(struct elf_syms *es);

/* A resolved frame. Strings belong to the symbolizer. */
struct sym_loc {
	const char *name;   /* NULL when unknown */
	uint64_t offset;    /* addr - symbol start */
	const char *module; /* basename of the mapped file, or NULL */
	bool stripped;	    /* the module has no .symtab and no debug file */
	bool anon;	    /* in executable memory with no file (a JIT), module NULL */
};

struct proc_syms;

/*
 * A symbolizer for process pid. It reads the maps at once: call
 * syms_proc_refresh() while the process lives to pick up later mappings
 * (dlopen); a process that exited keeps its last maps.
 */
int syms_proc_open(const struct procfs *pf, pid_t pid, const char *debug_root,
		   struct proc_syms **out);
int syms_proc_refresh(struct proc_syms *ps);
void syms_proc_close(struct proc_syms *ps);
/*
 * Resolves a user address; returns 0, or -ENOENT (loc still has the module
 * if mapped, or anon set for executable memory without a file).
 */
int syms_proc_resolve(struct proc_syms *ps, uint64_t addr, struct sym_loc *loc);

#endif
