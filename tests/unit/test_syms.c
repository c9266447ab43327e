/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The symbolizer. Oracles: nm and readelf on ELF files this test builds
 * with the system compiler, dladdr() for libc in this very process, and
 * an independent read of /proc/kallsyms.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "unit.h"
#include "probe/stacks.h"
#include "probe/syms.h"

/* ---- pure parts ---- */

TEST(symtab_lookup_bounds_and_aliases)
{
	struct symtab t;
	uint64_t off = 99;

	symtab_init(&t);
	ASSERT_EQ(symtab_add(&t, 0x2000, 0x10, "sized", 5, 1), 0);
	ASSERT_EQ(symtab_add(&t, 0x1000, 0, "first", 5, 1), 0);
	ASSERT_EQ(symtab_add(&t, 0x1000, 0, "first_alias_global", 18, 3), 0);
	ASSERT_EQ(symtab_add(&t, 0x1800, 0, "unsized", 7, 1), 0);
	ASSERT_EQ(symtab_add(&t, 0x3000, 0, "last", 4, 1), 0);
	symtab_finish(&t);
	ASSERT_EQ(t.len, 4);
	ASSERT_TRUE(symtab_lookup(&t, 0xfff, &off) == NULL);
	ASSERT_STREQ(symtab_lookup(&t, 0x1000, &off), "first_alias_global");
	ASSERT_UEQ(off, 0);
	ASSERT_STREQ(symtab_lookup(&t, 0x17ff, &off), "first_alias_global");
	ASSERT_UEQ(off, 0x7ff);
	/* Unsized: runs to the next symbol. */
	ASSERT_STREQ(symtab_lookup(&t, 0x1fff, &off), "unsized");
	ASSERT_STREQ(symtab_lookup(&t, 0x200f, &off), "sized");
	ASSERT_UEQ(off, 0xf);
	/* Sized: nothing in the gap after it. */
	ASSERT_TRUE(symtab_lookup(&t, 0x2010, &off) == NULL);
	/* The last unsized symbol covers 4 KiB. */
	ASSERT_STREQ(symtab_lookup(&t, 0x3fff, &off), "last");
	ASSERT_TRUE(symtab_lookup(&t, 0x4000, &off) == NULL);
	symtab_release(&t);
}

TEST(symtab_caps_unsized_span)
{
	struct symtab t;
	uint64_t off;

	symtab_init(&t);
	symtab_add(&t, 0xffffffff81000000ull, 0, "_einittext", 10, 1);
	symtab_add(&t, 0xffffffffc0000000ull, 0, "module_fn", 9, 1);
	symtab_finish(&t);
	ASSERT_STREQ(symtab_lookup(&t, 0xffffffff81000010ull, &off), "_einittext");
	ASSERT_TRUE(symtab_lookup(&t, 0xffffffffa0000000ull, &off) == NULL);
	symtab_release(&t);
}

TEST(kallsyms_lines)
{
	uint64_t addr;
	char type;
	const char *name;
	size_t len;

	ASSERT_EQ(
	    procfs_kallsyms_parse_line("ffffffff81000000 T _text\n", &addr, &type, &name, &len), 0);
	ASSERT_UEQ(addr, 0xffffffff81000000ull);
	ASSERT_EQ(type, 'T');
	ASSERT_EQ(len, 5);
	ASSERT_TRUE(!strncmp(name, "_text", len));
	ASSERT_EQ(procfs_kallsyms_parse_line("ffffffffc0a01000 t nf_hook\t[nf_tables]\n", &addr,
					     &type, &name, &len),
		  0);
	ASSERT_EQ(len, 7);
	ASSERT_EQ(procfs_kallsyms_parse_line("zz T x\n", &addr, &type, &name, &len), -EINVAL);
	ASSERT_EQ(procfs_kallsyms_parse_line("ffffffff81000000 T\n", &addr, &type, &name, &len),
		  -EINVAL);
	ASSERT_EQ(procfs_kallsyms_parse_line("ffffffff81000000  T x\n", &addr, &type, &name, &len),
		  -EINVAL);
	ASSERT_TRUE(procfs_kallsyms_is_text('t') && procfs_kallsyms_is_text('W') &&
		    !procfs_kallsyms_is_text('D'));
}

TEST(maps_lines)
{
	struct map_line m;

	ASSERT_EQ(procfs_maps_parse_line("55d0c0a00000-55d0c0a21000 r-xp 00002000 fd:01 1234   "
					 "/opt/my app/bin (deleted)\n",
					 &m),
		  0);
	ASSERT_UEQ(m.start, 0x55d0c0a00000ull);
	ASSERT_UEQ(m.end, 0x55d0c0a21000ull);
	ASSERT_UEQ(m.pgoff, 0x2000);
	ASSERT_UEQ(m.inode, 1234);
	ASSERT_TRUE(m.exec);
	ASSERT_EQ(m.path_len, strlen("/opt/my app/bin (deleted)"));
	ASSERT_EQ(procfs_maps_parse_line("7ffd1000-7ffd2000 rw-p 00000000 00:00 0\n", &m), 0);
	ASSERT_TRUE(!m.exec);
	ASSERT_EQ(m.path_len, 0);
	ASSERT_EQ(procfs_maps_parse_line("7ffd1000-7ffd0000 rw-p 00000000 00:00 0\n", &m), -EINVAL);
	ASSERT_EQ(procfs_maps_parse_line("garbage\n", &m), -EINVAL);
}

TEST(offset_to_vaddr)
{
	struct elf_syms es = { .nsegs = 2 };
	uint64_t v = 0;

	es.segs[0] = (struct elf_seg){ .off = 0, .vaddr = 0, .filesz = 0x1000, .memsz = 0x1000 };
	es.segs[1] = (struct elf_seg){ .off = 0x1000, .vaddr = 0x401000, .filesz = 0x500 };
	ASSERT_EQ(elf_offset_to_vaddr(&es, 0x1234, &v), 0);
	ASSERT_UEQ(v, 0x401234);
	ASSERT_EQ(elf_offset_to_vaddr(&es, 0x10, &v), 0);
	ASSERT_UEQ(v, 0x10);
	ASSERT_EQ(elf_offset_to_vaddr(&es, 0x1500, &v), -ENOENT);
}

TEST(folded_names_are_safe)
{
	char buf[32];

	stacks_folded_sanitize(buf, sizeof(buf), "a;b c\td\x1b[0m");
	ASSERT_STREQ(buf, "a_b_c\\x09d\\x1b[0m");
	stacks_folded_sanitize(buf, sizeof(buf), "x\xc2\x9by");
	ASSERT_TRUE(strchr(buf, '\x9b') == NULL);
}

/* ---- ELF files built here, nm as the oracle ---- */

static const char test_src[] =
    "__attribute__((noinline)) int alpha_function(int x) { return x * 3 + 1; }\n"
    "__attribute__((noinline)) static int beta_local(int x) { return alpha_function(x) ^ 7; }\n"
    "__attribute__((noinline)) int gamma_function(int x) { int s = 0;"
    " for (int i = 0; i < x; i++) s += beta_local(i); return s; }\n"
    "int main(int argc, char **argv) { return gamma_function(argc) & 1; }\n";

static char workdir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Builds the test program in several forms; returns 0 when the toolchain works. */
static int build_test_elves(void)
{
	FILE *f;

	snprintf(workdir, sizeof(workdir), "/tmp/triage-test-syms.XXXXXX");
	if (!mkdtemp(workdir))
		return -1;
	f = fopen(strcat(strcpy((char[128]){ 0 }, workdir), "/t.c"), "w");
	if (!f)
		return -1;
	fputs(test_src, f);
	fclose(f);
	return sh(
	    "cd %s && cc -O1 -g -fPIE -pie -Wl,--build-id -o pie t.c && "
	    "cc -O1 -g -no-pie -Wl,--build-id -o nopie t.c && "
	    "cc -O1 -g -shared -fPIC -Wl,--build-id -o lib.so t.c && "
	    "objcopy --only-keep-debug pie pie.debug && strip --strip-all -o pie.stripped pie",
	    workdir);
}

/* Every sized function symbol nm lists must resolve to its name (or an alias at its address). */
static int check_against_nm(const char *file, int *checked)
{
	char cmd[256], line[512], path[128];
	struct elf_syms es;
	FILE *nm;
	int bad = 0;

	snprintf(path, sizeof(path), "%s/%s", workdir, file);
	if (elf_syms_load(path, NULL, &es))
		return -1;
	snprintf(cmd, sizeof(cmd), "nm -S --defined-only %s", path);
	nm = popen(cmd, "r");
	while (nm && fgets(line, sizeof(line), nm)) {
		unsigned long long addr, size;
		char type, name[256];
		uint64_t off, alias_off;
		const char *got, *got_end;

		if (sscanf(line, "%llx %llx %c %255s", &addr, &size, &type, name) != 4 ||
		    (type != 'T' && type != 't') || !size)
			continue;
		got = symtab_lookup(&es.tab, addr, &off);
		got_end = symtab_lookup(&es.tab, addr + size - 1, &alias_off);
		(*checked)++;
		if (!got || off || !got_end || alias_off != size - 1 ||
		    (strcmp(got, name) && symtab_lookup(&es.tab, addr, NULL) != got)) {
			fprintf(stderr, "%s: %s at %llx size %llx -> %s+%" PRIu64 "\n", file, name,
				addr, size, got ? got : "(none)", off);
			bad++;
		}
	}
	if (nm)
		pclose(nm);
	elf_syms_release(&es);
	return bad;
}

TEST(elf_symbols_match_nm)
{
	int checked = 0;

	ASSERT_EQ(check_against_nm("pie", &checked), 0);
	ASSERT_EQ(check_against_nm("nopie", &checked), 0);
	ASSERT_EQ(check_against_nm("lib.so", &checked), 0);
	ASSERT_TRUE(checked >= 9); /* alpha, beta, gamma in each at least */
}

/* The build id as readelf prints it. */
static void readelf_build_id(const char *path, char *out, size_t len)
{
	char cmd[256], line[256];
	FILE *p;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n %s", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "Build ID: ");

		if (b) {
			snprintf(out, len, "%s", b + 10);
			out[strcspn(out, "\n")] = '\0';
		}
	}
	if (p)
		pclose(p);
}

TEST(stripped_file_uses_build_id_debug_file)
{
	char path[128], hex[2 * BUILD_ID_MAX + 1], oracle[2 * BUILD_ID_MAX + 1];
	struct elf_syms es;
	uint64_t off;

	snprintf(path, sizeof(path), "%s/pie.stripped", workdir);
	/* Without a debug file only .dynsym is left: the local function is gone. */
	ASSERT_EQ(elf_syms_load(path, NULL, &es), 0);
	readelf_build_id(path, oracle, sizeof(oracle));
	syms_build_id_hex(es.build_id, es.build_id_len, hex);
	ASSERT_STREQ(hex, oracle);
	ASSERT_TRUE(!es.debug_file_used);
	elf_syms_release(&es);
	/* Lay out a debug root the way Debian's -dbg packages do. */
	ASSERT_EQ(
	    sh("mkdir -p %s/dbg/.build-id/%.2s && cp %s/pie.debug %s/dbg/.build-id/%.2s/%s.debug",
	       workdir, hex, workdir, workdir, hex, hex + 2),
	    0);
	snprintf(oracle, sizeof(oracle), "%s/dbg", workdir);
	ASSERT_EQ(elf_syms_load(path, oracle, &es), 0);
	ASSERT_TRUE(es.debug_file_used);
	{
		char cmd[256], line[256];
		unsigned long long addr = 0;
		FILE *p;

		snprintf(cmd, sizeof(cmd), "nm %s/pie | awk '$3 == \"beta_local\" { print $1 }'",
			 workdir);
		p = popen(cmd, "r");
		if (p && fgets(line, sizeof(line), p))
			addr = strtoull(line, NULL, 16);
		if (p)
			pclose(p);
		ASSERT_TRUE(addr != 0);
		ASSERT_STREQ(symtab_lookup(&es.tab, addr + 1, &off), "beta_local");
	}
	elf_syms_release(&es);
}

/* ---- a live process: this one ---- */

int unit_marker_function(int x);
__attribute__((noinline)) int unit_marker_function(int x)
{
	return x * 7 + 3;
}

TEST(live_process_resolves_exe_and_libc)
{
	struct procfs *pf;
	struct proc_syms *ps;
	struct sym_loc loc;
	Dl_info info;
	uint64_t addr = (uint64_t)(uintptr_t)&unit_marker_function;
	void *libc_fn = dlsym(RTLD_DEFAULT, "getpid");

	ASSERT_EQ(procfs_open(&pf, NULL), 0);
	ASSERT_EQ(syms_proc_open(pf, getpid(), NULL, &ps), 0);
	ASSERT_EQ(syms_proc_resolve(ps, addr + 2, &loc), 0);
	ASSERT_STREQ(loc.name, "unit_marker_function");
	ASSERT_UEQ(loc.offset, 2);
	ASSERT_STREQ(loc.module, "test_syms");
	/* libc: dladdr is the oracle (any alias at the same address will do). */
	ASSERT_TRUE(libc_fn && dladdr(libc_fn, &info) && info.dli_saddr == libc_fn);
	ASSERT_EQ(syms_proc_resolve(ps, (uint64_t)(uintptr_t)libc_fn + 1, &loc), 0);
	ASSERT_UEQ(loc.offset, 1);
	ASSERT_TRUE(strstr(loc.module, "libc") != NULL);
	ASSERT_TRUE(!strcmp(loc.name, info.dli_sname) || !strcmp(loc.name, "__getpid"));
	/* Unmapped memory. */
	ASSERT_EQ(syms_proc_resolve(ps, 8, &loc), -ENOENT);
	syms_proc_close(ps);
	procfs_close(pf);
}

/* The vDSO: its image dumped to a file, with nm -D as the oracle. */
TEST(live_process_resolves_vdso)
{
	const char *base = (const char *)getauxval(AT_SYSINFO_EHDR);
	char path[128], cmd[256], line[256];
	unsigned long long vaddr = 0;
	size_t size = 0;
	struct proc_syms *ps;
	struct sym_loc loc;
	struct procfs *pf;
	FILE *f;

	ASSERT_TRUE(base != NULL);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, b;

		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &a, &b) == 2)
			size = b - a;
	}
	if (f)
		fclose(f);
	ASSERT_TRUE(size > 0);
	snprintf(path, sizeof(path), "%s/vdso.so", workdir);
	f = fopen(path, "w");
	ASSERT_TRUE(f != NULL);
	fwrite(base, 1, size, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "nm -D --defined-only %s 2>/dev/null | awk '{ sub(/@.*/, \"\", $3) } $3 == "
		 "\"__vdso_clock_gettime\" { print $1 }'",
		 path);
	f = popen(cmd, "r");
	if (f && fgets(line, sizeof(line), f))
		vaddr = strtoull(line, NULL, 16);
	if (f)
		pclose(f);
	ASSERT_TRUE(vaddr != 0);
	ASSERT_EQ(procfs_open(&pf, NULL), 0);
	ASSERT_EQ(syms_proc_open(pf, getpid(), NULL, &ps), 0);
	ASSERT_EQ(syms_proc_resolve(ps, (uint64_t)(uintptr_t)base + vaddr + 4, &loc), 0);
	ASSERT_STREQ(loc.module, "[vdso]");
	ASSERT_UEQ(loc.offset, 4);
	/* clock_gettime is a weak alias at the same address. */
	ASSERT_TRUE(!strcmp(loc.name, "__vdso_clock_gettime") ||
		    !strcmp(loc.name, "clock_gettime"));
	syms_proc_close(ps);
	procfs_close(pf);
}

/* ---- the kernel: an independent read of /proc/kallsyms ---- */

TEST(kallsyms_lookup_matches_file)
{
	struct procfs *pf;
	struct symtab k;
	char line[512];
	FILE *f;
	int n = 0, checked = 0, err;

	ASSERT_EQ(procfs_open(&pf, NULL), 0);
	err = syms_load_kernel(pf, &k);
	procfs_close(pf);
	if (err == -EACCES) {
		printf(
		    "note: kallsyms addresses are hidden here (not root?); kernel check skipped\n");
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_TRUE(k.len > 1000);
	f = fopen("/proc/kallsyms", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		uint64_t off;
		const char *got;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    !strchr("tTwW", type) || n++ % 997)
			continue;
		got = symtab_lookup(&k, addr, &off);
		checked++;
		if (!got || off != 0) {
			fprintf(stderr, "kallsyms %s at %llx -> %s+%" PRIu64 "\n", name, addr,
				got ? got : "(none)", off);
			fclose(f);
			symtab_release(&k);
			ASSERT_TRUE(0);
		}
	}
	fclose(f);
	ASSERT_TRUE(checked > 50);
	/* A well-known function resolves to itself. */
	{
		struct symtab *t = &k;
		size_t i;

		for (i = 0; i < t->len && strcmp(t->pool + t->syms[i].name, "schedule"); i++)
			;
		ASSERT_TRUE(i < t->len);
		ASSERT_STREQ(symtab_lookup(t, t->syms[i].addr + 3, NULL), "schedule");
	}
	symtab_release(&k);
}

/*
 * The sparse read against a kallsyms of known layout: modules before the
 * core (kallsyms is not sorted whole), aliases, a data symbol, a gap wider
 * than the span an unsized symbol may claim, a last symbol.
 */
static const char fixture_kallsyms[] =
    "ffffffffc0001000 t mod_func\t[mod]\n"
    "ffffffffc0001100 T mod_next\t[mod]\n"
    "ffffffff81000000 T _text\n"
    "ffffffff81001000 t local_first\n"
    "ffffffff81001000 T global_alias\n"
    "ffffffff81001000 T global_second\n"
    "ffffffff81002000 D some_data\n"
    "ffffffff81003000 W weak_func\n"
    "ffffffff82000000 T far_after_gap\n"
    "ffffffffc0002000 T last_in_file"; /* no newline at the end */

/* Writes fixture_kallsyms as <dir>/proc/kallsyms; the dir in root. */
static int write_fixture(char *root, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(root, len, "/tmp/triage-test-ksyms.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(path, sizeof(path), "%s/proc", root);
	if (mkdir(path, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(fixture_kallsyms, f);
	return fclose(f);
}

TEST(kallsyms_sparse_fixture)
{
	/* sorted, unique: the addresses a window's stacks would hold */
	uint64_t a[] = {
		0x400000,	    /* user space: below every symbol */
		0xffffffff81000010, /* _text+0x10 */
		0xffffffff81001004, /* the global alias, first read among equals */
		0xffffffff81002008, /* past some_data (not text): still global_alias */
		0xffffffff81003010, /* weak_func+0x10 */
		0xffffffff81200000, /* weak_func, 2 MB after: past the span it may claim */
		0xffffffffc0001008, /* mod_func+8 */
		0xffffffffc0001104, /* mod_next+4 */
		0xffffffffc0002002, /* last_in_file+2 */
		0xffffffffc0004000, /* past the last symbol's 4 KiB */
	};
	const char *want[] = { NULL, "_text",	 "global_alias", "global_alias", "weak_func",
			       NULL, "mod_func", "mod_next",	 "last_in_file", NULL };
	const uint64_t want_off[] = { 0, 0x10, 4, 0x1008, 0x10, 0, 8, 4, 2, 0 };
	char root[64], cmd[96];
	struct procfs *pf;
	struct symtab t;

	ASSERT_EQ(write_fixture(root, sizeof(root)), 0);
	ASSERT_EQ(procfs_open(&pf, root), 0);
	ASSERT_EQ(syms_load_kernel_for(pf, a, sizeof(a) / sizeof(a[0]), &t), 0);
	procfs_close(pf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	ASSERT_EQ(system(cmd), 0);
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		uint64_t off = 0;
		const char *got = symtab_lookup(&t, a[i], &off);

		if (!want[i]) {
			ASSERT_TRUE(got == NULL);
			continue;
		}
		ASSERT_TRUE(got != NULL);
		ASSERT_STREQ(got, want[i]);
		ASSERT_UEQ(off, want_off[i]);
	}
	/* only the symbols asked for are kept */
	ASSERT_EQ(t.len, 6);
	symtab_release(&t);
	/* unsorted input is refused; no address reads nothing (no root needed) */
	ASSERT_EQ(syms_load_kernel_for(NULL, (uint64_t[]){ 2, 1 }, 2, &t), -EINVAL);
	ASSERT_EQ(syms_load_kernel_for(NULL, NULL, 0, &t), 0);
	ASSERT_EQ(t.len, 0);
	symtab_release(&t);
}

/* Every address the sparse table is asked for names what the full table names. */
TEST(kallsyms_sparse_matches_full)
{
	struct procfs *pf;
	struct symtab full, sparse;
	uint64_t *a;
	size_t n = 0, m = 0;
	int err;

	ASSERT_EQ(procfs_open(&pf, NULL), 0);
	err = syms_load_kernel(pf, &full);
	if (err == -EACCES) {
		procfs_close(pf);
		printf(
		    "note: kallsyms addresses are hidden here (not root?); sparse check skipped\n");
		return;
	}
	ASSERT_EQ(err, 0);
	a = calloc(full.len / 97 * 3 + 3, sizeof(*a));
	ASSERT_TRUE(a != NULL);
	/* starts, insides and ends of every 97th symbol, ascending */
	for (size_t i = 0; i < full.len; i += 97) {
		const struct sym *s = &full.syms[i];

		a[n++] = s->addr;
		if (s->size > 2)
			a[n++] = s->addr + s->size / 2;
		if (s->size > 1 && s->addr + s->size - 1 > a[n - 1])
			a[n++] = s->addr + s->size - 1;
	}
	ASSERT_EQ(syms_load_kernel_for(pf, a, n, &sparse), 0);
	procfs_close(pf);
	for (size_t i = 0; i < n; i++) {
		uint64_t off_full = 0, off_sparse = 0;
		const char *f = symtab_lookup(&full, a[i], &off_full);
		const char *s = symtab_lookup(&sparse, a[i], &off_sparse);

		if (!f != !s || (f && (strcmp(f, s) || off_full != off_sparse))) {
			fprintf(stderr, "%" PRIx64 ": full %s+%" PRIu64 ", sparse %s+%" PRIu64 "\n",
				a[i], f ? f : "(none)", off_full, s ? s : "(none)", off_sparse);
			ASSERT_TRUE(0);
		}
		m += f != NULL;
	}
	ASSERT_TRUE(m > 1000);
	ASSERT_TRUE(sparse.len < full.len / 20);
	free(a);
	symtab_release(&sparse);
	symtab_release(&full);
}

int main(void)
{
	struct unit_state st = { 0 };
	int elves;

	RUN(&st, symtab_lookup_bounds_and_aliases);
	RUN(&st, symtab_caps_unsized_span);
	RUN(&st, kallsyms_lines);
	RUN(&st, maps_lines);
	RUN(&st, offset_to_vaddr);
	RUN(&st, folded_names_are_safe);
	elves = build_test_elves();
	if (elves == 0) {
		RUN(&st, elf_symbols_match_nm);
		RUN(&st, stripped_file_uses_build_id_debug_file);
	} else {
		printf("FAIL could not build the test ELF files with cc\n");
		st.failed++;
	}
	RUN(&st, live_process_resolves_exe_and_libc);
	if (elves == 0)
		RUN(&st, live_process_resolves_vdso);
	RUN(&st, kallsyms_lookup_matches_file);
	RUN(&st, kallsyms_sparse_fixture);
	RUN(&st, kallsyms_sparse_matches_full);
	if (workdir[0])
		sh("rm -rf %s", workdir);
	UNIT_MAIN_END(&st);
}
