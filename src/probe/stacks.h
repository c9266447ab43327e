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

/* Why a frame has no name. */
enum stack_gap {
	STACK_GAP_NONE,	     /* named */
	STACK_GAP_GONE,	     /* the process exited (or its maps were unreadable) first */
	STACK_GAP_STRIPPED,  /* in a file without .symtab and without a debug file */
	STACK_GAP_NO_SYMBOL, /* in a file with symbols, none covering the address */
	STACK_GAP_JIT,	     /* executable memory without a file: JIT code */
	STACK_GAP_UNMAPPED,  /* not executable memory: a broken frame-pointer chain */
	STACK_GAP_KERNEL,    /* a kernel address without kallsyms */
	STACK_GAP_KINDS
};

struct stack_frame {
	uint64_t addr;
	const char *name; /* NULL when unknown */
	uint64_t offset;
	const char *module; /* NULL for the kernel or when unmapped */
	uint8_t gap;	    /* enum stack_gap: why name is NULL */
	unsigned run;	    /* unknown frames this one stands for (merged runs); 0 or 1: itself */
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
	bool by_function; /* merged by stacks_merge_by_function(): no addresses or offsets */
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
/*
 * Merges the entries of one thread and kind whose stacks pass through the
 * same functions, as perf report (its default -g function) and bpftrace's
 * per-stack maps show them: offsets dropped, each run of unknown frames
 * of one kind and module made one frame, values and counts summed. The
 * merged entries are packed at the front; *n becomes their number; the
 * order is lost (stacks_sort() again).
 */
void stacks_merge_by_function(struct stack_entry *e, size_t *n);

/* Why frames are unknown, weighed by the entries' values: for the note under a report. */
struct stack_gap_share {
	uint64_t value; /* of entries with at least one such frame */
	const char
	    *modules[4]; /* the files named (stripped, no symbol) or after which a chain broke */
	size_t nmodules;
};
struct stack_gaps {
	uint64_t total;	  /* of every entry */
	uint64_t unknown; /* of entries with any unknown frame */
	struct stack_gap_share kind[STACK_GAP_KINDS];
};
void stack_gaps_count(const struct stack_entry *e, size_t n, struct stack_gaps *g);
/* What a kind of gap means and what helps, one sentence each; NULL for NONE. */
const char *stack_gap_cause(enum stack_gap k);
const char *stack_gap_remedy(enum stack_gap k);
/* The short name of a kind for JSON ("stripped", "jit", ...). */
const char *stack_gap_name(enum stack_gap k);
/*
 * The note as lines ("N% of VALUE_UNIT have frames without symbols...",
 * then one per kind: share, cause, files, remedy), nothing when no frame
 * is unknown. what: "samples", "off-CPU time".
 */
void stack_gaps_print(FILE *out, const struct stack_gaps *g, const char *what);
/* The same lines as one malloc'ed text for a flame graph's note; NULL when none is due. */
char *stack_gaps_note(const struct stack_gaps *g, const char *what);
/* Same, as JSON: "unknown_frames": {"share", "kinds": [{"why", "share", "modules"}]}. */
void stack_gaps_json(struct json_writer *w, const struct stack_gaps *g);

/* "name+0x1f [module]", "name+0x1f" (kernel) or "0x7f..." into buf. */
void stack_frame_format(const struct stack_frame *f, char *buf, size_t len);
/* "name [module]", "name" (kernel), "[unknown] [module]" or "[unknown] x12 (jit)" into buf. */
void stack_frame_format_function(const struct stack_frame *f, char *buf, size_t len);
/*
 * The frames of one entry, indented: kernel frames, "--", user frames;
 * by function when the entry was merged, else with offsets.
 */
void stack_print_frames(FILE *out, const struct stack_entry *e);
/*
 * Folded lines, one per distinct (comm, frames) with values summed and
 * divided by divisor (1 for samples, 1000 for ns -> us), rows that round
 * to 0 dropped. Kernel frames get the "_[k]" suffix flamegraph.pl colours;
 * a run of unknown frames is one "[unknown]" frame.
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
