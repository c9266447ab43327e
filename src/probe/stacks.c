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
	}
	skip = bpf_frames_to_skip(e->kframes, len);
	memmove(e->kframes, e->kframes + skip, (len - skip) * sizeof(*e->kframes));
	e->nk = len - skip;
	return 0;
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

		if (ps && (!syms_proc_resolve(ps, ips[i], &loc) || loc.module)) {
			f.name = loc.name;
			f.offset = loc.offset;
			f.module = loc.module;
		}
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

static void print_frame_list(FILE *out, const struct stack_frame *f, size_t n, int err)
{
	char buf[512];

	if (!n) {
		fprintf(out, "    (no stack: %s)\n", err ? strerror(-err) : "empty");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		stack_frame_format(&f[i], buf, sizeof(buf));
		fprintf(out, "    %s\n", buf);
	}
}

void stack_print_frames(FILE *out, const struct stack_entry *e)
{
	if (e->nk || e->kstack_err != -EFAULT)
		print_frame_list(out, e->kframes, e->nk, e->kstack_err);
	fprintf(out, "    --\n");
	print_frame_list(out, e->uframes, e->nu, e->ustack_err);
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
	for (size_t i = e->nu; i-- > 0;)
		folded_frame(f, &e->uframes[i], false);
	for (size_t i = e->nk; i-- > 0;)
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
			size_t n)
{
	char addr[24];

	json_key(w, key);
	json_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		json_object_begin(w);
		snprintf(addr, sizeof(addr), "0x%" PRIx64, f[i].addr);
		json_kv_string(w, "addr", addr);
		if (f[i].name) {
			json_kv_string(w, "symbol", f[i].name);
			json_kv_uint(w, "offset", f[i].offset);
		} else {
			json_key(w, "symbol");
			json_null(w);
		}
		if (f[i].module)
			json_kv_string(w, "module", f[i].module);
		json_end(w);
	}
	json_end(w);
}

void stack_json_frames(struct json_writer *w, const struct stack_entry *e)
{
	json_frames(w, "kernel", e->kframes, e->nk);
	json_frames(w, "user", e->uframes, e->nu);
}
