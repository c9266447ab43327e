/* Kernel and user symbolization; see syms.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe/syms.h"
#include "util/grow.h"

/* Past the last symbol of a table, an unsized symbol covers this much. */
#define LAST_SYM_SPAN 4096
/*
 * An unsized symbol ends at the next one, but at most this far: markers
 * such as _einittext must not swallow the BPF JIT or module areas.
 */
#define MAX_SYM_SPAN (1u << 20)

void symtab_init(struct symtab *t)
{
	memset(t, 0, sizeof(*t));
}

void symtab_release(struct symtab *t)
{
	free(t->syms);
	free(t->pool);
	symtab_init(t);
}

int symtab_add(struct symtab *t, uint64_t addr, uint64_t size, const char *name, size_t name_len,
	       int prio)
{
	struct sym *s;

	if (t->pool_len + name_len + 1 > UINT32_MAX)
		return -E2BIG;
	if (util_grow(&t->syms, &t->cap, t->len + 1, sizeof(*t->syms)) ||
	    util_grow(&t->pool, &t->pool_cap, t->pool_len + name_len + 1, 1))
		return -ENOMEM;
	s = &t->syms[t->len++];
	s->addr = addr;
	s->size = size;
	s->prio = prio;
	s->name = (uint32_t)t->pool_len;
	memcpy(t->pool + t->pool_len, name, name_len);
	t->pool[t->pool_len + name_len] = '\0';
	t->pool_len += name_len + 1;
	t->sorted = false;
	return 0;
}

/* By address; at one address the preferred alias first, then the sized one. */
static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio > y->prio ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

void symtab_finish(struct symtab *t)
{
	size_t out = 0;

	if (t->len)
		qsort(t->syms, t->len, sizeof(*t->syms), sym_cmp);
	for (size_t i = 0; i < t->len; i++)
		if (!out || t->syms[out - 1].addr != t->syms[i].addr)
			t->syms[out++] = t->syms[i];
	t->len = out;
	for (size_t i = 0; i + 1 < t->len; i++)
		if (!t->syms[i].size) {
			uint64_t gap = t->syms[i + 1].addr - t->syms[i].addr;

			t->syms[i].size = gap < MAX_SYM_SPAN ? gap : MAX_SYM_SPAN;
		}
	if (t->len && !t->syms[t->len - 1].size)
		t->syms[t->len - 1].size = LAST_SYM_SPAN;
	t->sorted = true;
}

const char *symtab_lookup(const struct symtab *t, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = t->len;
	const struct sym *s;

	if (!t->sorted || !t->len || addr < t->syms[0].addr)
		return NULL;
	while (hi - lo > 1) { /* last symbol with start <= addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	s = &t->syms[lo];
	if (addr - s->addr >= s->size)
		return NULL;
	if (off)
		*off = addr - s->addr;
	return t->pool + s->name;
}

/* ---- kernel ---- */

static int ksyms_read(FILE *f, struct symtab *out)
{
	char line[512];
	bool any_addr = false;

	while (fgets(line, sizeof(line), f)) {
		uint64_t addr;
		char type;
		const char *name;
		size_t len;

		if (procfs_kallsyms_parse_line(line, &addr, &type, &name, &len) ||
		    !procfs_kallsyms_is_text(type))
			continue;
		any_addr |= addr != 0;
		/* Global before local among aliases: the exported name reads best. */
		if (symtab_add(out, addr, 0, name, len, type == 'T' ? 2 : 1))
			return -ENOMEM;
	}
	if (ferror(f))
		return -EIO;
	return any_addr ? 0 : -EACCES;
}

int syms_load_kernel(const struct procfs *pf, struct symtab *out)
{
	int fd = procfs_openat(pf, "kallsyms", O_RDONLY);
	FILE *f;
	int err;

	symtab_init(out);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	err = ksyms_read(f, out);
	fclose(f);
	if (err) {
		symtab_release(out);
		return err;
	}
	symtab_finish(out);
	return 0;
}

/*
 * The sparse read: for the few addresses a window's stacks hold, only the
 * symbols that contain them. The sorted addresses cut the address space
 * into gaps, gap j being (a[j-1], a[j]]; each text symbol of kallsyms
 * (in any order: modules and BPF programs follow the core) lands in one
 * gap, which keeps its highest start (the preferred alias there, as
 * sym_cmp orders them) and its lowest. The symbol containing a[i] is the
 * highest start of the last non-empty gap at or before i, and it ends
 * where the first non-empty gap after that begins: what symtab_finish()
 * gives the full table, without storing or sorting 100,000 names.
 */
struct ksym_gap {
	uint64_t hi, lo; /* highest and lowest symbol start in the gap */
	int prio;	 /* of the symbol at hi */
	bool any;
	char *name; /* of the symbol at hi */
	size_t name_cap;
};

struct ksym_sparse {
	const uint64_t *a; /* sorted, unique */
	size_t n;
	struct ksym_gap *gap; /* n + 1 */
	bool any_addr;
};

/* The first index i with a[i] >= v (n when none). */
static size_t addr_lower_bound(const uint64_t *a, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int gap_set_name(struct ksym_gap *g, const char *name, size_t len)
{
	if (util_grow(&g->name, &g->name_cap, len + 1, 1))
		return -ENOMEM;
	memcpy(g->name, name, len);
	g->name[len] = '\0';
	return 0;
}

/* One kallsyms line into its gap. */
static int sparse_line(struct ksym_sparse *sp, const char *line)
{
	uint64_t addr;
	char type;
	const char *name;
	size_t len;
	struct ksym_gap *g;
	int prio;

	if (procfs_kallsyms_parse_line(line, &addr, &type, &name, &len) ||
	    !procfs_kallsyms_is_text(type))
		return 0;
	sp->any_addr |= addr != 0;
	prio = type == 'T' ? 2 : 1;
	g = &sp->gap[addr_lower_bound(sp->a, sp->n, addr)];
	if (!g->any || addr < g->lo)
		g->lo = addr;
	/* at one address the higher prio wins, and the first read among equals */
	if (g->any && (addr < g->hi || (addr == g->hi && prio <= g->prio))) {
		g->any = true;
		return 0;
	}
	g->any = true;
	g->hi = addr;
	g->prio = prio;
	return gap_set_name(g, name, len);
}

/* Every line of fd through sparse_line(), read in large blocks. */
static int sparse_read(struct ksym_sparse *sp, int fd)
{
	char buf[65536 + 1];
	size_t have = 0;

	for (;;) {
		ssize_t got = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *p = buf, *nl;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		have += (size_t)got;
		buf[have] = '\0';
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			*nl = '\0';
			if (sparse_line(sp, p))
				return -ENOMEM;
			p = nl + 1;
		}
		have -= (size_t)(p - buf);
		if (!got) /* the end: a last line without newline */
			return have ? sparse_line(sp, buf) : 0;
		if (have == sizeof(buf) - 1)
			have = 0; /* a line longer than the buffer: not a symbol line */
		memmove(buf, p, have);
	}
}

/* The table of the symbols containing sp's addresses. */
static int sparse_table(const struct ksym_sparse *sp, struct symtab *out)
{
	size_t best = SIZE_MAX, added = SIZE_MAX; /* the last non-empty gap; the last added */

	for (size_t i = 0; i < sp->n; i++) {
		const struct ksym_gap *g;
		uint64_t span = LAST_SYM_SPAN;
		size_t next;

		if (sp->gap[i].any)
			best = i;
		if (best == SIZE_MAX || best == added)
			continue; /* no symbol below a[i], or its symbol is in already */
		g = &sp->gap[best];
		/* gaps best+1..i are empty: the next symbol starts in the first full one after i */
		for (next = i + 1; next <= sp->n && !sp->gap[next].any; next++)
			;
		if (next <= sp->n) {
			uint64_t gap = sp->gap[next].lo - g->hi;

			span = gap < MAX_SYM_SPAN ? gap : MAX_SYM_SPAN;
		}
		if (symtab_add(out, g->hi, span, g->name, strlen(g->name), g->prio))
			return -ENOMEM;
		added = best;
	}
	symtab_finish(out);
	return 0;
}

int syms_load_kernel_for(const struct procfs *pf, const uint64_t *addrs, size_t n,
			 struct symtab *out)
{
	struct ksym_sparse sp = { .a = addrs, .n = n };
	int fd, err;

	symtab_init(out);
	for (size_t i = 1; i < n; i++)
		if (addrs[i - 1] >= addrs[i])
			return -EINVAL;
	if (!n) {
		symtab_finish(out);
		return 0; /* nothing to name: kallsyms stays unread */
	}
	fd = procfs_openat(pf, "kallsyms", O_RDONLY);
	if (fd < 0)
		return fd;
	sp.gap = calloc(n + 1, sizeof(*sp.gap));
	err = sp.gap ? sparse_read(&sp, fd) : -ENOMEM;
	close(fd);
	if (!err && !sp.any_addr)
		err = -EACCES;
	if (!err)
		err = sparse_table(&sp, out);
	for (size_t i = 0; sp.gap && i <= n; i++)
		free(sp.gap[i].name);
	free(sp.gap);
	if (err)
		symtab_release(out);
	return err;
}

/* ---- ELF ---- */

int elf_offset_to_vaddr(const struct elf_syms *es, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < es->nsegs; i++) {
		const struct elf_seg *s = &es->segs[i];

		if (off >= s->off && off - s->off < s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

void syms_build_id_hex(const unsigned char *id, size_t len, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * len] = '\0';
}

static int elf_read_segs(Elf *elf, struct elf_syms *es)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -EINVAL;
	for (size_t i = 0; i < n && es->nsegs < ELF_SYMS_MAX_SEGS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		es->segs[es->nsegs++] = (struct elf_seg){ .off = ph.p_offset,
							  .vaddr = ph.p_vaddr,
							  .filesz = ph.p_filesz,
							  .memsz = ph.p_memsz };
	}
	return es->nsegs ? 0 : -ENOEXEC;
}

static void elf_note_build_id(Elf_Data *data, struct elf_syms *es)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while ((off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= BUILD_ID_MAX) {
			memcpy(es->build_id, (char *)data->d_buf + desc_off, nh.n_descsz);
			es->build_id_len = nh.n_descsz;
			return;
		}
	}
}

static int sym_prio(const GElf_Sym *s)
{
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL:
		return 3;
	case STB_WEAK:
		return 2;
	default:
		return 1;
	}
}

static bool sym_is_code(const GElf_Sym *s)
{
	int type = GELF_ST_TYPE(s->st_info);

	return (type == STT_FUNC || type == STT_GNU_IFUNC) && s->st_shndx != SHN_UNDEF &&
	       s->st_value;
}

static int elf_add_symbols(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, struct symtab *tab)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; data && i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(data, (int)i, &s) || !sym_is_code(&s))
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		if (symtab_add(tab, s.st_value, s.st_size, name, strlen(name), sym_prio(&s)))
			return -ENOMEM;
	}
	return 0;
}

/* Adds symbols of every section of type want (SHT_SYMTAB or SHT_DYNSYM); counts them in *found. */
static int elf_scan(Elf *elf, struct elf_syms *es, bool notes, size_t *found_symtab)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (notes && sh.sh_type == SHT_NOTE && !es->build_id_len) {
			Elf_Data *d = elf_getdata(scn, NULL);

			if (d)
				elf_note_build_id(d, es);
		}
		if (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			(*found_symtab)++;
		if (elf_add_symbols(elf, scn, &sh, &es->tab))
			return -ENOMEM;
	}
	return 0;
}

/* Adds the .symtab of <debug_root>/.build-id/xx/yyyy.debug, if present. */
static int elf_add_debug_file(const char *debug_root, struct elf_syms *es)
{
	char hex[2 * BUILD_ID_MAX + 1], path[4096];
	size_t unused = 0;
	Elf *elf;
	int fd, err;

	if (!debug_root || es->build_id_len < 2)
		return 0;
	syms_build_id_hex(es->build_id, es->build_id_len, hex);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", debug_root, hex, hex + 2);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* no debug package: the file's own symbols will do */
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	err = elf ? elf_scan(elf, es, false, &unused) : 0;
	if (elf)
		elf_end(elf);
	close(fd);
	es->debug_file_used = !err;
	return err;
}

/* Reads an opened ELF handle into out (ends the handle). */
static int elf_syms_from(Elf *elf, const char *debug_root, struct elf_syms *out)
{
	size_t symtabs = 0;
	int err;

	if (!elf)
		return -ENOEXEC;
	err = elf_kind(elf) == ELF_K_ELF ? elf_read_segs(elf, out) : -ENOEXEC;
	if (!err)
		err = elf_scan(elf, out, true, &symtabs);
	elf_end(elf);
	if (!err && !symtabs) /* stripped: local functions only in a debug file */
		err = elf_add_debug_file(debug_root, out);
	out->stripped = !symtabs && !out->debug_file_used;
	if (err) {
		elf_syms_release(out);
		return err;
	}
	symtab_finish(&out->tab);
	return 0;
}

int elf_syms_load_fd(int fd, const char *debug_root, struct elf_syms *out)
{
	memset(out, 0, sizeof(*out));
	symtab_init(&out->tab);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	return elf_syms_from(elf_begin(fd, ELF_C_READ_MMAP, NULL), debug_root, out);
}

int elf_syms_load_mem(const void *image, size_t size, struct elf_syms *out)
{
	memset(out, 0, sizeof(*out));
	symtab_init(&out->tab);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	/* libelf does not write through a read-only image it only reads. */
	return elf_syms_from(elf_memory((char *)image, size), NULL, out);
}

int elf_syms_load(const char *path, const char *debug_root, struct elf_syms *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0) {
		memset(out, 0, sizeof(*out));
		return -errno;
	}
	err = elf_syms_load_fd(fd, debug_root, out);
	close(fd);
	return err;
}

void elf_syms_release(struct elf_syms *es)
{
	symtab_release(&es->tab);
}

/* ---- per process ---- */

struct cached_file {
	dev_t dev;
	ino_t ino;
	char *base;	    /* basename, for display */
	int err;	    /* load error, remembered so a bad file is tried once */
	uint64_t vdso_size; /* the vDSO image (not a file) when non-zero */
	struct elf_syms es;
};

/* files index of executable memory without a file behind it (JIT code) */
#define PROC_MAP_ANON SIZE_MAX

struct proc_map {
	uint64_t start, end, pgoff;
	size_t file; /* index into files, or PROC_MAP_ANON */
};

struct proc_syms {
	const struct procfs *pf;
	long vdso_file; /* index of our own vDSO in files, -1 until loaded, -2 if unusable */
	pid_t pid;
	char *debug_root;
	struct proc_map *maps;
	size_t nmaps, mcap;
	struct cached_file *files;
	size_t nfiles, fcap;
};

/* Opens the file behind a mapping: map_files works for deleted files and other mount namespaces. */
static int open_mapped_file(const struct proc_syms *ps, const struct map_line *m)
{
	char rel[4200];
	int fd;

	snprintf(rel, sizeof(rel), "%d/map_files/%" PRIx64 "-%" PRIx64, (int)ps->pid, m->start,
		 m->end);
	fd = procfs_openat(ps->pf, rel, O_RDONLY);
	if (fd >= 0)
		return fd;
	snprintf(rel, sizeof(rel), "%d/root%.*s", (int)ps->pid, (int)m->path_len, m->path);
	return procfs_openat(ps->pf, rel, O_RDONLY);
}

static char *dup_basename(const char *path, size_t len)
{
	const char *slash = memrchr(path, '/', len);
	const char *b = slash ? slash + 1 : path;

	return strndup(b, len - (size_t)(b - path));
}

/* Index of the cached file for this mapping, loading it on first sight; -errno if unusable. */
static long file_index(struct proc_syms *ps, const struct map_line *m)
{
	struct cached_file *cf;
	struct stat st;
	int fd = open_mapped_file(ps, m);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		close(fd);
		return -EIO;
	}
	for (size_t i = 0; i < ps->nfiles; i++)
		if (!ps->files[i].vdso_size && ps->files[i].dev == st.st_dev &&
		    ps->files[i].ino == st.st_ino) {
			close(fd);
			return (long)i;
		}
	if (util_grow(&ps->files, &ps->fcap, ps->nfiles + 1, sizeof(*ps->files))) {
		close(fd);
		return -ENOMEM;
	}
	cf = &ps->files[ps->nfiles];
	cf->dev = st.st_dev;
	cf->ino = st.st_ino;
	cf->base = dup_basename(m->path, m->path_len);
	cf->err = elf_syms_load_fd(fd, ps->debug_root, &cf->es);
	close(fd);
	if (!cf->base) {
		elf_syms_release(&cf->es);
		return -ENOMEM;
	}
	return (long)ps->nfiles++;
}

/* Our own [vdso] mapping: the kernel maps the same image into every 64-bit process. */
static int own_vdso(const struct proc_syms *ps, uint64_t *start, uint64_t *size)
{
	char line[512];
	int fd = procfs_openat(ps->pf, "self/maps", O_RDONLY);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	int err = -ENOENT;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -ENOENT;
	}
	while (err && fgets(line, sizeof(line), f)) {
		struct map_line m;

		if (!procfs_maps_parse_line(line, &m) && m.path_len == 6 &&
		    !memcmp(m.path, "[vdso]", 6)) {
			*start = m.start;
			*size = m.end - m.start;
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/*
 * The target's [vdso] is symbolized from our own copy of the image, when
 * ours is mapped at the auxv address and has the same size (a 32-bit
 * target has a different one).
 */
static long vdso_index(struct proc_syms *ps, const struct map_line *m)
{
	uint64_t start = 0, size = 0;
	struct cached_file *cf;

	if (ps->vdso_file == -1) {
		ps->vdso_file = -2;
		if (own_vdso(ps, &start, &size) || start != getauxval(AT_SYSINFO_EHDR) ||
		    util_grow(&ps->files, &ps->fcap, ps->nfiles + 1, sizeof(*ps->files)))
			return -ENOENT;
		cf = &ps->files[ps->nfiles];
		memset(cf, 0, sizeof(*cf));
		cf->base = strdup("[vdso]");
		cf->err = elf_syms_load_mem((const void *)(uintptr_t)start, size, &cf->es);
		if (!cf->base || cf->err) {
			free(cf->base);
			elf_syms_release(&cf->es);
			return -ENOENT;
		}
		cf->vdso_size = size;
		ps->vdso_file = (long)ps->nfiles++;
	}
	if (ps->vdso_file < 0 || ps->files[ps->vdso_file].vdso_size != m->end - m->start)
		return -ENOENT;
	return ps->vdso_file;
}

static int add_map(struct proc_syms *ps, struct proc_map **maps, size_t *n, size_t *cap,
		   const struct map_line *m)
{
	long idx;

	size_t file;

	if (!m->exec)
		return 0;
	if (m->path_len == 6 && !memcmp(m->path, "[vdso]", 6))
		idx = vdso_index(ps, m);
	else if (!m->path_len || m->path[0] != '/')
		idx = -ENODATA; /* anonymous or JIT code: kept, to say so; no symbols */
	else
		idx = file_index(ps, m);
	if (idx == -ENOMEM)
		return -ENOMEM;
	if (idx < 0 && idx != -ENODATA)
		return 0;
	file = idx < 0 ? PROC_MAP_ANON : (size_t)idx;
	if (util_grow(maps, cap, *n + 1, sizeof(**maps)))
		return -ENOMEM;
	(*maps)[(*n)++] = (struct proc_map){ m->start, m->end, m->pgoff, file };
	return 0;
}

int syms_proc_refresh(struct proc_syms *ps)
{
	struct proc_map *maps = NULL;
	size_t n = 0, cap = 0;
	char rel[64], line[4400];
	int fd, err = 0;
	FILE *f;

	snprintf(rel, sizeof(rel), "%d/maps", (int)ps->pid);
	fd = procfs_openat(ps->pf, rel, O_RDONLY);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		struct map_line m;

		if (!procfs_maps_parse_line(line, &m))
			err = add_map(ps, &maps, &n, &cap, &m);
	}
	fclose(f);
	if (!err && !n)
		err = -ESRCH; /* an exited process reads as empty: keep the last maps */
	if (err) {
		free(maps);
		return err;
	}
	free(ps->maps);
	ps->maps = maps;
	ps->nmaps = n;
	ps->mcap = cap;
	return 0;
}

int syms_proc_open(const struct procfs *pf, pid_t pid, const char *debug_root,
		   struct proc_syms **out)
{
	struct proc_syms *ps = calloc(1, sizeof(*ps));
	int err;

	*out = NULL;
	if (!ps)
		return -ENOMEM;
	ps->pf = pf;
	ps->pid = pid;
	ps->vdso_file = -1;
	if (debug_root && !(ps->debug_root = strdup(debug_root))) {
		free(ps);
		return -ENOMEM;
	}
	err = syms_proc_refresh(ps);
	if (err) {
		syms_proc_close(ps);
		return err;
	}
	*out = ps;
	return 0;
}

void syms_proc_close(struct proc_syms *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->nfiles; i++) {
		free(ps->files[i].base);
		elf_syms_release(&ps->files[i].es);
	}
	free(ps->files);
	free(ps->maps);
	free(ps->debug_root);
	free(ps);
}

int syms_proc_resolve(struct proc_syms *ps, uint64_t addr, struct sym_loc *loc)
{
	size_t lo = 0, hi = ps->nmaps;
	const struct proc_map *m;
	const struct cached_file *cf;
	uint64_t vaddr;

	memset(loc, 0, sizeof(*loc));
	while (lo < hi) { /* maps are sorted and disjoint */
		size_t mid = lo + (hi - lo) / 2;

		if (ps->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ps->nmaps || addr < ps->maps[lo].start)
		return -ENOENT;
	m = &ps->maps[lo];
	if (m->file == PROC_MAP_ANON) {
		loc->anon = true;
		return -ENOENT;
	}
	cf = &ps->files[m->file];
	loc->module = cf->base;
	loc->stripped = cf->es.stripped;
	if (cf->err || elf_offset_to_vaddr(&cf->es, addr - m->start + m->pgoff, &vaddr))
		return -ENOENT;
	loc->name = symtab_lookup(&cf->es.tab, vaddr, &loc->offset);
	return loc->name ? 0 : -ENOENT;
}
