/*
 * Flame graphs from folded stacks ("root;caller;callee COUNT", one stack a
 * line, the format of probe profile/offcpu --folded), drawn natively as one
 * interactive SVG: frames as wide as their share of the total, the root at
 * the bottom, siblings in name order; an inline script (no network) zooms
 * into a frame on click, shows a frame's name and count on hover, and
 * highlights the frames matching a regular expression (Search, Ctrl-F).
 * Pure: text in, SVG out. Names are untrusted (they come from the symbols
 * of the profiled binaries) and are XML-escaped (util/xml.h).
 */
#ifndef TRIAGE_FLAME_H
#define TRIAGE_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct flame_node {
	char *name;
	uint64_t value;		 /* this frame and everything above it */
	struct flame_node *kids; /* sorted by name */
	size_t nkids, cap;
};

struct flame {
	struct flame_node root; /* name "all" */
	unsigned max_depth;	/* of the deepest frame (root: 0) */
	size_t bad_lines;	/* folded lines skipped as malformed */
};

enum flame_palette {
	FLAME_HOT,  /* on-CPU: reds and yellows; kernel frames ("_[k]") orange */
	FLAME_COLD, /* off-CPU: blues; kernel frames teal */
};

struct flame_style {
	const char *title;    /* first line; NULL: "Flame graph" */
	const char *subtitle; /* second line, or NULL */
	const char *unit;     /* "samples", "us" */
	enum flame_palette palette;
	unsigned width;	  /* pixels; 0: 1200 */
	const char *note; /* lines under the graph (why frames are unknown), or NULL */
};

/* Geometry, for the renderer and the tests. */
#define FLAME_WIDTH_DEFAULT 1200
#define FLAME_PAD 10	    /* left and right margins */
#define FLAME_FRAME_H 16    /* height of one frame */
#define FLAME_TOP 56	    /* title area above the deepest frame */
#define FLAME_BOTTOM 32	    /* details line below the root */
#define FLAME_MIN_WIDTH 0.1 /* frames narrower than this (px) are left out */
#define FLAME_NOTE_LINE 15  /* height of a line of the note */
#define FLAME_CHAR_W 7.3    /* width of a 12 px monospace character, for wrapping the note */

void flame_init(struct flame *f);
void flame_release(struct flame *f);

/*
 * Adds count to the stack whose frames are the ';'-separated names in
 * stack[0..len) (root first). 0, -EINVAL for an empty frame name, or -ENOMEM.
 */
int flame_add(struct flame *f, const char *stack, size_t len, uint64_t count);
/*
 * Adds every line of folded text ("frames COUNT\n"); malformed lines are
 * skipped and counted in f->bad_lines. 0 or -ENOMEM.
 */
int flame_add_folded(struct flame *f, const char *text, size_t len);

/* Writes the SVG document. 0, or -EIO when out reports a write error. */
int flame_write_svg(FILE *out, const struct flame *f, const struct flame_style *st);

#endif
