/* test: shared -- pure code and its own process; see docs/testing.md */
/* src/probe/stacks.c: merging by function, runs of unknown frames, the note on gaps. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "flame/flame.h"
#include "probe/stacks.h"
#include "unit.h"

static struct stack_frame named(const char *name, uint64_t off)
{
	return (struct stack_frame){ 0x1000 + off, name, off, "app", STACK_GAP_NONE, 0 };
}

static struct stack_frame unknown(uint64_t addr, uint8_t gap)
{
	return (struct stack_frame){ addr, NULL, 0, NULL, gap, 0 };
}

/* An entry of thread tid with user frames f[0..n) (innermost first), copied. */
static struct stack_entry entry(uint32_t tid, uint64_t value, const struct stack_frame *f, size_t n)
{
	struct stack_entry e = { .pid = 1, .tid = tid, .value = value, .count = value };

	strcpy(e.comm, "app");
	e.uframes = malloc(n * sizeof(*f));
	memcpy(e.uframes, f, n * sizeof(*f));
	e.nu = n;
	e.kstack_err = -EFAULT;
	return e;
}

TEST(merges_offsets_of_one_path)
{
	const struct stack_frame a1[] = { named("hash", 0x1c), named("alpha", 5),
					  named("main", 9) };
	const struct stack_frame a2[] = { named("hash", 0x26), named("alpha", 5),
					  named("main", 9) };
	const struct stack_frame b[] = { named("hash", 0x1c), named("beta", 5), named("main", 9) };
	struct stack_entry e[4] = { entry(7, 10, a1, 3), entry(7, 5, b, 3), entry(7, 20, a2, 3),
				    entry(8, 1, a1, 3) };
	size_t n = 4;
	char buf[128];

	stacks_merge_by_function(e, &n);
	stacks_sort(e, n);
	ASSERT_EQ(n, 3);
	ASSERT_EQ(e[0].value, 30); /* both offsets of hash through alpha */
	ASSERT_EQ(e[0].count, 30);
	ASSERT_STREQ(e[0].uframes[1].name, "alpha");
	ASSERT_EQ(e[1].value, 5);
	ASSERT_STREQ(e[1].uframes[1].name, "beta");
	ASSERT_EQ(e[2].tid, 8); /* another thread stays apart */
	ASSERT_TRUE(e[0].by_function);
	stack_frame_format_function(&e[0].uframes[0], buf, sizeof(buf));
	ASSERT_STREQ(buf, "hash [app]");
	stack_entries_release(e, 4);
}

TEST(runs_of_unknown_frames)
{
	struct stack_frame f[7] = { named("leaf", 1) };
	struct stack_entry e[2];
	char buf[128], *folded = NULL;
	size_t n = 1, len = 0;
	FILE *out;

	for (int i = 1; i < 6; i++)
		f[i] = unknown(0x10 * (uint64_t)i, STACK_GAP_UNMAPPED);
	f[6] = unknown(0x7f00, STACK_GAP_JIT);
	e[0] = entry(7, 3, f, 7);
	e[1] = entry(7, 2, f, 7);
	e[1].uframes[2].addr = 0x999; /* another bogus address: the same path by function */
	/* folded lines (and so flame graphs) collapse runs even unmerged */
	out = open_memstream(&folded, &len);
	ASSERT_EQ(stacks_write_folded(out, e, 1, 1), 0);
	fclose(out);
	ASSERT_STREQ(folded, "app;[unknown];leaf 3\n");
	free(folded);
	n = 2;
	stacks_merge_by_function(e, &n);
	ASSERT_EQ(n, 1);
	ASSERT_EQ(e[0].value, 5);
	ASSERT_EQ(e[0].nu, 3); /* leaf, 5 unmapped as one, the JIT frame apart */
	ASSERT_EQ(e[0].uframes[1].run, 5);
	stack_frame_format_function(&e[0].uframes[1], buf, sizeof(buf));
	ASSERT_STREQ(buf, "[unknown] x5 (broken-chain)");
	stack_frame_format_function(&e[0].uframes[2], buf, sizeof(buf));
	ASSERT_STREQ(buf, "[unknown] (jit)");
	stack_entries_release(e, 2);
}

TEST(gaps_weighed_by_value)
{
	struct stack_frame lost[] = { named("spin", 1), unknown(0x10, STACK_GAP_UNMAPPED),
				      unknown(0x20, STACK_GAP_UNMAPPED) };
	struct stack_frame stripped[] = { { 0x5000, NULL, 0, "bash", STACK_GAP_STRIPPED, 0 },
					  named("main", 2) };
	struct stack_frame fine[] = { named("main", 2) };
	struct stack_entry e[3] = { entry(1, 60, lost, 3), entry(2, 30, stripped, 2),
				    entry(3, 10, fine, 1) };
	struct stack_gaps g;
	char *note;

	stack_gaps_count(e, 3, &g);
	ASSERT_EQ(g.total, 100);
	ASSERT_EQ(g.unknown, 90);
	ASSERT_EQ(g.kind[STACK_GAP_UNMAPPED].value, 60); /* once per entry, not per frame */
	ASSERT_EQ(g.kind[STACK_GAP_UNMAPPED].nmodules, 1);
	ASSERT_STREQ(g.kind[STACK_GAP_UNMAPPED].modules[0], "app"); /* the chain broke after it */
	ASSERT_EQ(g.kind[STACK_GAP_STRIPPED].value, 30);
	ASSERT_STREQ(g.kind[STACK_GAP_STRIPPED].modules[0], "bash");
	note = stack_gaps_note(&g, "samples");
	ASSERT_TRUE(note != NULL);
	ASSERT_TRUE(
	    !strncmp(note, "Frames without symbols ([unknown]) in 90.0% of the samples:\n", 60));
	ASSERT_TRUE(strstr(note, "60.0%  the frame-pointer chain broke") != NULL);
	ASSERT_TRUE(strstr(note, "-fno-omit-frame-pointer") != NULL);
	ASSERT_TRUE(
	    strstr(note, "30.0%  a stripped binary: no symbol table and no debug file; in bash.") !=
	    NULL);
	free(note);
	stack_gaps_count(e + 2, 1, &g);
	ASSERT_TRUE(stack_gaps_note(&g, "samples") == NULL);
	stack_entries_release(e, 3);
}

/* The note under a flame graph: wrapped to the width, escaped, the SVG taller by its lines. */
TEST(flame_note)
{
	struct flame f;
	struct flame_style st = { "t", NULL, "samples", FLAME_HOT, 400, NULL };
	char *a = NULL, *b = NULL, line[300];
	size_t la = 0, lb = 0;
	FILE *out;
	unsigned ha, hb;

	memset(line, 'x', sizeof(line));
	memcpy(line, "<why> ", 6);
	line[sizeof(line) - 1] = '\0';
	flame_init(&f);
	ASSERT_EQ(flame_add(&f, "r;s", 3, 2), 0);
	out = open_memstream(&a, &la);
	ASSERT_EQ(flame_write_svg(out, &f, &st), 0);
	fclose(out);
	st.note = line;
	out = open_memstream(&b, &lb);
	ASSERT_EQ(flame_write_svg(out, &f, &st), 0);
	fclose(out);
	ASSERT_EQ(sscanf(strstr(a, " height=\"") + 9, "%u", &ha), 1);
	ASSERT_EQ(sscanf(strstr(b, " height=\"") + 9, "%u", &hb), 1);
	/* 380 px hold 52 characters: "<why>" on its own line, then 293 x's in 6 lines */
	ASSERT_EQ(hb - ha, 7 * FLAME_NOTE_LINE + 8);
	ASSERT_TRUE(strstr(b, "xml:space=\"preserve\">&lt;why&gt;</text>") != NULL);
	ASSERT_TRUE(strstr(a, "class=\"note\"") == NULL);
	flame_release(&f);
	free(a);
	free(b);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, merges_offsets_of_one_path);
	RUN(&st, runs_of_unknown_frames);
	RUN(&st, gaps_weighed_by_value);
	RUN(&st, flame_note);
	UNIT_MAIN_END(&st);
}
