/* Stack symbolization glue and renderers; see stacks.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flame/flame.h"
#include "probe/stacks.h"
#include "util/text.h"

static bool is_bpf_machinery(const char *name)
{
	return name && (!strncmp(name, "bpf_prog_", 9) || !strncmp(name, "bpf_trace_run", 13) ||
			!strncmp(name, "__bpf_trace_", 12) || !strncmp(name, "__traceiter_", 12));
}

static size_t frames_in(const uint64_t *ips, size_t n)
{
	size_t i = 0;

	while (i < n && i < STACK_MAX_FRAMES && ips[i])
		i++;
	return i;
}

/*
 * A tracepoint program's stack starts in the program itself (a JIT address
 * kallsyms may not list yet) and the tracepoint glue: everything up to the
 * last bpf_trace_run / __bpf_trace_ / __traceiter_ frame among the first few goes.
 */
static size_t bpf_frames_to_skip(const struct stack_frame *f, size_t n)
{
	size_t skip = 0;

	for (size_t i = 0; i < n && i < 4; i++)
		if (is_bpf_machinery(f[i].name))
			skip = i + 1;
	return skip;
}

int stack_resolve_kernel(struct stack_entry *e, const uint64_t *ips, size_t n,
			 const struct symtab *ksyms)
{
	size_t len = frames_in(ips, n), skip;

	e->nk = 0;
	free(e->kframes);
	e->kframes = calloc(len + 1, sizeof(*e->kframes));
	if (!e->kframes)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		struct stack_frame *f = &e->kframes[i];

		f->addr = ips[i];
		if (ksyms)
			f->name = symtab_lookup(ksyms, ips[i], &f->offset);
		f->gap = f->name ? STACK_GAP_NONE : STACK_GAP_KERNEL;
	}
	skip = bpf_frames_to_skip(e->kframes, len);
	memmove(e->kframes, e->kframes + skip, (len - skip) * sizeof(*e->kframes));
	e->nk = len - skip;
	return 0;
}

/* Why a user address found no name (rc: syms_proc_resolve()'s). */
static uint8_t user_gap(const struct proc_syms *ps, int rc, const struct sym_loc *loc)
{
	if (!ps)
		return STACK_GAP_GONE;
	if (!rc)
		return STACK_GAP_NONE;
	if (loc->module)
		return loc->stripped ? STACK_GAP_STRIPPED : STACK_GAP_NO_SYMBOL;
	return loc->anon ? STACK_GAP_JIT : STACK_GAP_UNMAPPED;
}

int stack_resolve_user(struct stack_entry *e, const uint64_t *ips, size_t n, struct proc_syms *ps)
{
	e->nu = 0;
	free(e->uframes);
	e->uframes = calloc(frames_in(ips, n) + 1, sizeof(*e->uframes));
	if (!e->uframes)
		return -ENOMEM;
	for (size_t i = 0; i < n && ips[i] && e->nu < STACK_MAX_FRAMES; i++) {
		struct stack_frame f = { .addr = ips[i] };
		struct sym_loc loc = { 0 };
		int rc = ps ? syms_proc_resolve(ps, ips[i], &loc) : -ESRCH;

		if (!rc || loc.module) {
			f.name = loc.name;
			f.offset = loc.offset;
			f.module = loc.module;
		}
		f.gap = user_gap(ps, rc, &loc);
		e->uframes[e->nu++] = f;
	}
	return 0;
}

void stack_entries_release(struct stack_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].kframes);
		free(e[i].uframes);
		e[i].kframes = e[i].uframes = NULL;
		e[i].nk = e[i].nu = 0;
	}
}

static int entry_cmp(const void *a, const void *b)
{
	const struct stack_entry *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return strcmp(x->kind ? x->kind : "", y->kind ? y->kind : "");
}

void stacks_sort(struct stack_entry *e, size_t n)
{
	if (n)
		qsort(e, n, sizeof(*e), entry_cmp);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static bool unknown_continues(const struct stack_frame *prev, const struct stack_frame *f)
{
	return !prev->name && !f->name && prev->gap == f->gap && same_str(prev->module, f->module);
}

/* Frames by function, in place: no addresses or offsets, a run of unknown frames as one. */
static void frames_by_function(struct stack_frame *f, size_t *n)
{
	size_t out = 0;

	for (size_t i = 0; i < *n; i++) {
		struct stack_frame fr = f[i];

		fr.addr = fr.offset = 0;
		fr.run = fr.run ? fr.run : 1;
		if (out && unknown_continues(&f[out - 1], &fr)) {
			f[out - 1].run += fr.run;
			continue;
		}
		f[out++] = fr;
	}
	*n = out;
}

static int frame_cmp(const struct stack_frame *a, const struct stack_frame *b)
{
	int c = str_cmp(a->name, b->name);

	if (!c)
		c = str_cmp(a->module, b->module);
	return c ? c : (int)a->gap - (int)b->gap;
}

static int frames_cmp(const struct stack_frame *a, size_t na, const struct stack_frame *b,
		      size_t nb)
{
	if (na != nb)
		return na < nb ? -1 : 1;
	for (size_t i = 0; i < na; i++) {
		int c = frame_cmp(&a[i], &b[i]);

		if (c)
			return c;
	}
	return 0;
}

/* Orders entries so that those of one thread, kind and path by function are neighbours. */
static int path_cmp(const void *pa, const void *pb)
{
	const struct stack_entry *a = pa, *b = pb;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	c = str_cmp(a->kind, b->kind);
	if (!c && a->kstack_err != b->kstack_err)
		c = a->kstack_err < b->kstack_err ? -1 : 1;
	if (!c && a->ustack_err != b->ustack_err)
		c = a->ustack_err < b->ustack_err ? -1 : 1;
	if (!c)
		c = frames_cmp(a->kframes, a->nk, b->kframes, b->nk);
	return c ? c : frames_cmp(a->uframes, a->nu, b->uframes, b->nu);
}

/* Adds b into a; runs of unknown frames keep the longest seen. */
static void entry_absorb(struct stack_entry *a, struct stack_entry *b)
{
	a->value += b->value;
	a->count += b->count;
	for (size_t i = 0; i < a->nk; i++)
		if (b->kframes[i].run > a->kframes[i].run)
			a->kframes[i].run = b->kframes[i].run;
	for (size_t i = 0; i < a->nu; i++)
		if (b->uframes[i].run > a->uframes[i].run)
			a->uframes[i].run = b->uframes[i].run;
	stack_entries_release(b, 1);
}

void stacks_merge_by_function(struct stack_entry *e, size_t *n)
{
	size_t out = 0;

	for (size_t i = 0; i < *n; i++) {
		frames_by_function(e[i].kframes, &e[i].nk);
		frames_by_function(e[i].uframes, &e[i].nu);
		e[i].by_function = true;
	}
	if (*n)
		qsort(e, *n, sizeof(*e), path_cmp);
	for (size_t i = 0; i < *n; i++) {
		if (out && !path_cmp(&e[out - 1], &e[i])) {
			entry_absorb(&e[out - 1], &e[i]);
			continue;
		}
		if (out != i) {
			e[out] = e[i];
			e[i].kframes = e[i].uframes = NULL;
			e[i].nk = e[i].nu = 0;
		}
		out++;
	}
	*n = out;
}

void stack_frame_format(const struct stack_frame *f, char *buf, size_t len)
{
	char name[256];

	if (!f->name) {
		if (f->module) {
			text_sanitize(name, sizeof(name), f->module);
			snprintf(buf, len, "0x%" PRIx64 " [%s]", f->addr, name);
		} else {
			snprintf(buf, len, "0x%" PRIx64, f->addr);
		}
		return;
	}
	text_sanitize(name, sizeof(name), f->name);
	if (f->module) {
		char mod[128];

		text_sanitize(mod, sizeof(mod), f->module);
		snprintf(buf, len, "%s+0x%" PRIx64 " [%s]", name, f->offset, mod);
	} else {
		snprintf(buf, len, "%s+0x%" PRIx64, name, f->offset);
	}
}

static const char *const gap_names[STACK_GAP_KINDS] = {
	[STACK_GAP_GONE] = "exited",	       [STACK_GAP_STRIPPED] = "stripped",
	[STACK_GAP_NO_SYMBOL] = "no-symbol",   [STACK_GAP_JIT] = "jit",
	[STACK_GAP_UNMAPPED] = "broken-chain", [STACK_GAP_KERNEL] = "no-kallsyms",
};

const char *stack_gap_name(enum stack_gap k)
{
	return k < STACK_GAP_KINDS && gap_names[k] ? gap_names[k] : "unknown";
}

void stack_frame_format_function(const struct stack_frame *f, char *buf, size_t len)
{
	char name[256], mod[136] = "", run[32] = "";

	if (f->module) {
		char m[128];

		text_sanitize(m, sizeof(m), f->module);
		snprintf(mod, sizeof(mod), " [%s]", m);
	}
	if (f->name) {
		text_sanitize(name, sizeof(name), f->name);
		snprintf(buf, len, "%s%s", name, mod);
		return;
	}
	if (f->run > 1)
		snprintf(run, sizeof(run), " x%u", f->run);
	snprintf(buf, len, "[unknown]%s%s (%s)", run, mod, stack_gap_name(f->gap));
}

static void print_frame_list(FILE *out, const struct stack_frame *f, size_t n, int err,
			     bool by_function)
{
	char buf[512];

	if (!n) {
		fprintf(out, "    (no stack: %s)\n", err ? strerror(-err) : "empty");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (by_function)
			stack_frame_format_function(&f[i], buf, sizeof(buf));
		else
			stack_frame_format(&f[i], buf, sizeof(buf));
		fprintf(out, "    %s\n", buf);
	}
}

void stack_print_frames(FILE *out, const struct stack_entry *e)
{
	if (e->nk || e->kstack_err != -EFAULT)
		print_frame_list(out, e->kframes, e->nk, e->kstack_err, e->by_function);
	fprintf(out, "    --\n");
	print_frame_list(out, e->uframes, e->nu, e->ustack_err, e->by_function);
}

void stacks_folded_sanitize(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	/* Control bytes (C0, DEL, C1) become visible escapes first. */
	text_sanitize(dst, len, src ? src : "");
	for (char *p = dst; *p; p++)
		if (*p == ';' || *p == ' ')
			*p = '_';
}

/* Appends one frame name to a folded line under construction. */
static void folded_frame(FILE *f, const struct stack_frame *fr, bool kernel)
{
	char name[256];

	stacks_folded_sanitize(name, sizeof(name), fr->name ? fr->name : "[unknown]");
	fprintf(f, ";%s%s", name, kernel ? "_[k]" : "");
}

/* The frames part of a folded line (no value), malloc'ed. */
static char *folded_key(const struct stack_entry *e)
{
	char comm[4 * STACK_COMM_LEN], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	stacks_folded_sanitize(comm, sizeof(comm), e->comm[0] ? e->comm : "[unknown]");
	fputs(comm, f);
	/* a run of unknown frames (a broken chain walks garbage) is one "[unknown]" */
	for (size_t i = e->nu; i-- > 0;)
		if (i + 1 == e->nu || e->uframes[i].name || e->uframes[i + 1].name)
			folded_frame(f, &e->uframes[i], false);
	for (size_t i = e->nk; i-- > 0;)
		if (i + 1 == e->nk || e->kframes[i].name || e->kframes[i + 1].name)
			folded_frame(f, &e->kframes[i], true);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct folded_row {
	char *key;
	uint64_t value;
};

static int folded_cmp(const void *a, const void *b)
{
	return strcmp(((const struct folded_row *)a)->key, ((const struct folded_row *)b)->key);
}

int stacks_write_folded(FILE *out, const struct stack_entry *e, size_t n, uint64_t divisor)
{
	struct folded_row *rows = calloc(n ? n : 1, sizeof(*rows));
	int err = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++) {
		rows[i].key = folded_key(&e[i]);
		rows[i].value = e[i].value;
		if (!rows[i].key)
			err = -ENOMEM;
	}
	if (!err && n)
		qsort(rows, n, sizeof(*rows), folded_cmp);
	for (size_t i = 0; i < n && !err;) {
		uint64_t sum = 0;
		size_t j = i;

		for (; j < n && !strcmp(rows[j].key, rows[i].key); j++)
			sum += rows[j].value;
		if (sum / divisor)
			fprintf(out, "%s %" PRIu64 "\n", rows[i].key, sum / divisor);
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		free(rows[i].key);
	free(rows);
	return err;
}

int stacks_write_svg(FILE *out, const struct stack_entry *e, size_t n, uint64_t divisor,
		     const struct flame_style *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct flame f;
	int err;

	if (!mem)
		return -ENOMEM;
	err = stacks_write_folded(mem, e, n, divisor);
	if (fclose(mem) && !err)
		err = -ENOMEM;
	flame_init(&f);
	if (!err)
		err = flame_add_folded(&f, buf, len);
	if (!err)
		err = flame_write_svg(out, &f, st);
	flame_release(&f);
	free(buf);
	return err;
}

static void json_frames(struct json_writer *w, const char *key, const struct stack_frame *f,
			size_t n, bool by_function)
{
	char addr[24];

	json_key(w, key);
	json_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w);
		if (!by_function) {
			snprintf(addr, sizeof(addr), "0x%" PRIx64, f[i].addr);
			json_kv_string(w, "addr", addr);
		}
		if (f[i].name) {
			json_kv_string(w, "symbol", f[i].name);
			if (!by_function)
				json_kv_uint(w, "offset", f[i].offset);
		} else {
			json_key(w, "symbol");
			json_null(w);
			json_kv_string(w, "why", stack_gap_name(f[i].gap));
			if (f[i].run > 1)
				json_kv_uint(w, "frames", f[i].run);
		}
		if (f[i].module)
			json_kv_string(w, "module", f[i].module);
		json_end(w);
	}
	json_end(w);
}

void stack_json_frames(struct json_writer *w, const struct stack_entry *e)
{
	json_frames(w, "kernel", e->kframes, e->nk, e->by_function);
	json_frames(w, "user", e->uframes, e->nu, e->by_function);
}

/*
 * What each kind of gap means and what helps, in the words perf users
 * know: the probes walk frame pointers as perf record -g (--call-graph fp)
 * and bpftrace's ustack do.
 */
static const char *const gap_causes[STACK_GAP_KINDS] = {
	[STACK_GAP_GONE] =
	    "the process exited before its symbols were read (a short-lived command)",
	[STACK_GAP_STRIPPED] = "a stripped binary: no symbol table and no debug file",
	[STACK_GAP_NO_SYMBOL] = "no symbol covers the address",
	[STACK_GAP_JIT] = "JIT-compiled code, in executable memory with no file behind it",
	[STACK_GAP_UNMAPPED] = "the frame-pointer chain broke: code built without frame pointers "
			       "(GCC omits them from -O1 up)",
	[STACK_GAP_KERNEL] = "kernel addresses without /proc/kallsyms",
};

static const char *const gap_remedies[STACK_GAP_KINDS] = {
	[STACK_GAP_GONE] = "profile a long-lived process with -p, or use perf record, which reads "
			   "mappings as they appear",
	[STACK_GAP_STRIPPED] = "install its debug symbols (Debian: the -dbgsym package, read from "
			       "/usr/lib/debug/.build-id) or build without stripping",
	[STACK_GAP_NO_SYMBOL] = "debug symbols may name it (/usr/lib/debug/.build-id)",
	[STACK_GAP_JIT] = "the runtime can write /tmp/perf-PID.map (node --perf-basic-prof, "
			  "java's perf-map-agent), which perf report reads; triage does not yet",
	[STACK_GAP_UNMAPPED] = "rebuild with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer; "
			       "this probe follows frame pointers like perf record -g and "
			       "bpftrace's ustack; perf record --call-graph dwarf unwinds "
			       "without them",
	[STACK_GAP_KERNEL] = "run as root, or set kernel.kptr_restrict=0",
};

const char *stack_gap_cause(enum stack_gap k)
{
	return k < STACK_GAP_KINDS ? gap_causes[k] : NULL;
}

const char *stack_gap_remedy(enum stack_gap k)
{
	return k < STACK_GAP_KINDS ? gap_remedies[k] : NULL;
}

static void gap_add_module(struct stack_gap_share *s, const char *module)
{
	size_t max = sizeof(s->modules) / sizeof(s->modules[0]);

	if (!module)
		return;
	for (size_t i = 0; i < s->nmodules; i++)
		if (!strcmp(s->modules[i], module))
			return;
	if (s->nmodules < max)
		s->modules[s->nmodules++] = module;
}

/* The file of the nearest named frame inside frame i (innermost first): where a chain broke. */
static const char *module_before(const struct stack_frame *f, size_t i)
{
	while (i-- > 0)
		if (f[i].name || f[i].module)
			return f[i].module;
	return NULL;
}

static void gaps_of_frames(const struct stack_frame *f, size_t n, bool *seen, struct stack_gaps *g)
{
	for (size_t i = 0; i < n; i++) {
		struct stack_gap_share *s = &g->kind[f[i].gap < STACK_GAP_KINDS ? f[i].gap : 0];

		if (!f[i].gap || f[i].gap >= STACK_GAP_KINDS)
			continue;
		seen[f[i].gap] = true;
		if (f[i].gap == STACK_GAP_STRIPPED || f[i].gap == STACK_GAP_NO_SYMBOL)
			gap_add_module(s, f[i].module);
		else if (f[i].gap == STACK_GAP_UNMAPPED)
			gap_add_module(s, module_before(f, i));
	}
}

void stack_gaps_count(const struct stack_entry *e, size_t n, struct stack_gaps *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		bool seen[STACK_GAP_KINDS] = { false }, any = false;

		g->total += e[i].value;
		gaps_of_frames(e[i].kframes, e[i].nk, seen, g);
		gaps_of_frames(e[i].uframes, e[i].nu, seen, g);
		for (int k = 1; k < STACK_GAP_KINDS; k++) {
			if (seen[k])
				g->kind[k].value += e[i].value;
			any |= seen[k];
		}
		if (any)
			g->unknown += e[i].value;
	}
}

static double share_pct(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

void stack_gaps_print(FILE *out, const struct stack_gaps *g, const char *what)
{
	char mod[128];

	if (!g->unknown)
		return;
	fprintf(out, "\nFrames without symbols ([unknown]) in %.1f%% of the %s:\n",
		share_pct(g->unknown, g->total), what);
	for (int k = 1; k < STACK_GAP_KINDS; k++) {
		const struct stack_gap_share *s = &g->kind[k];

		if (!s->value)
			continue;
		fprintf(out, "  %5.1f%%  %s", share_pct(s->value, g->total), gap_causes[k]);
		for (size_t i = 0; i < s->nmodules; i++) {
			text_sanitize(mod, sizeof(mod), s->modules[i]);
			fprintf(out, "%s%s",
				i ? ", " : (k == STACK_GAP_UNMAPPED ? "; after " : "; in "), mod);
		}
		fprintf(out, ".\n          What helps: %s.\n", gap_remedies[k]);
	}
}

char *stack_gaps_note(const struct stack_gaps *g, const char *what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!g->unknown)
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	stack_gaps_print(f, g, what);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	memmove(buf, buf + 1, len); /* the blank line that separates it in a report */
	return buf;
}

void stack_gaps_json(struct json_writer *w, const struct stack_gaps *g)
{
	json_key(w, "unknown_frames");
	json_object_begin(w);
	json_kv_double(w, "share", g->total ? (double)g->unknown / (double)g->total : 0.0, 4);
	json_key(w, "kinds");
	json_array_begin(w);
	for (int k = 1; k < STACK_GAP_KINDS; k++) {
		const struct stack_gap_share *s = &g->kind[k];

		if (!s->value)
			continue;
		json_object_begin(w);
		json_kv_string(w, "why", gap_names[k]);
		json_kv_double(w, "share", (double)s->value / (double)g->total, 4);
		json_key(w, "modules");
		json_array_begin(w);
		for (size_t i = 0; i < s->nmodules; i++)
			json_string(w, s->modules[i]);
		json_end(w);
		json_kv_string(w, "cause", gap_causes[k]);
		json_kv_string(w, "remedy", gap_remedies[k]);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}
