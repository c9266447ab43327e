/*
 * Symbolized stacks and their renderers, shared by the offcpu and profile
 * probes: the top-N listing, folded lines for flame graphs
 * (https://github.com/brendangregg/FlameGraph: "frame;frame;frame VALUE",
 * root first), and JSON. Pure except stack_resolve(), which asks the
 * symbolizer.
 */
#ifndef TRIAGE_PROBE_STACKS_H
#define TRIAGE_PROBE_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/syms.h"
#include "util/json.h"

#define STACK_COMM_LEN 16
#define STACK_MAX_FRAMES 127

struct stack_frame {
	uint64_t addr;
	const char *name; /* NULL when unknown */
	uint64_t offset;
	const char *module; /* NULL for the kernel or when unmapped */
};

/* One aggregated row: a thread, an optional kind, a pair of stacks and a value. */
struct stack_entry {
	uint32_t pid; /* tgid */
	uint32_t tid;
	char comm[STACK_COMM_LEN];
	const char *kind; /* "voluntary", "involuntary", or NULL (profile) */
	uint64_t value;	  /* ns off-CPU, or samples */
	uint64_t count;	  /* switches, or samples */
	int kstack_err;	  /* 0, or why there is no kernel stack (-errno) */
	int ustack_err;
	size_t nk, nu;
	struct stack_frame *kframes; /* innermost first; malloc'ed by stack_resolve_*() */
	struct stack_frame *uframes;
};

/* Frees the frames of n entries (not the entries). */
void stack_entries_release(struct stack_entry *e, size_t n);

/*
 * Fills frames from raw addresses (innermost first, stopping at a zero):
 * kernel ones through ksyms (may be NULL), user ones through ps (may be
 * NULL). Leading kernel frames of the BPF machinery itself (bpf_prog_*,
 * bpf_trace_run*, __bpf_trace_*) are dropped. Return 0 or -ENOMEM.
 */
int stack_resolve_kernel(struct stack_entry *e, const uint64_t *ips, size_t n,
			 const struct symtab *ksyms);
int stack_resolve_user(struct stack_entry *e, const uint64_t *ips, size_t n, struct proc_syms *ps);

/* Sorts entries by value, largest first (ties by tid, then kind). */
void stacks_sort(struct stack_entry *e, size_t n);

/* "name+0x1f [module]", "name+0x1f" (kernel) or "0x7f..." into buf. */
void stack_frame_format(const struct stack_frame *f, char *buf, size_t len);
/* The frames of one entry, indented: kernel frames, "--", user frames. */
void stack_print_frames(FILE *out, const struct stack_entry *e);
/*
 * Folded lines, one per distinct (comm, frames) with values summed and
 * divided by divisor (1 for samples, 1000 for ns -> us), rows that round
 * to 0 dropped. Kernel frames get the "_[k]" suffix flamegraph.pl colours.
 * Returns 0 or -ENOMEM.
 */
int stacks_write_folded(FILE *out, const struct stack_entry *e, size_t n, uint64_t divisor);
/*
 * An interactive SVG flame graph (src/flame/) of the folded lines
 * stacks_write_folded() would write. Returns 0, -ENOMEM or -EIO.
 */
struct flame_style;
int stacks_write_svg(FILE *out, const struct stack_entry *e, size_t n, uint64_t divisor,
		     const struct flame_style *st);
/* A name for a folded frame: control bytes escaped as by text_sanitize(), ';' and ' ' as '_'. */
void stacks_folded_sanitize(char *dst, size_t len, const char *src);
/* {"kernel":[...],"user":[...]} members of the entry, inside an open object. */
void stack_json_frames(struct json_writer *w, const struct stack_entry *e);

#endif
