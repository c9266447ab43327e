/* test: shared -- pure code and its own process; see docs/testing.md */
/* src/flame: folded stacks to an SVG flame graph; src/util/xml.c: the escaper. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "flame/flame.h"
#include "unit.h"
#include "util/xml.h"

/* Renders folded text into a malloc'ed SVG string. */
static char *render(const char *folded, struct flame *f, const char *unit)
{
	struct flame_style st = { "t", NULL, unit, FLAME_HOT, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	flame_init(f);
	if (flame_add_folded(f, folded, strlen(folded)) || flame_write_svg(out, f, &st)) {
		fclose(out);
		free(buf);
		return NULL;
	}
	fclose(out);
	return buf;
}

/* The value of attribute attr of the first <rect> after the frame titled "title (". */
static double frame_attr(const char *svg, const char *title, const char *attr)
{
	char key[256], a[32];
	const char *p;

	snprintf(key, sizeof(key), "<title>%s (", title);
	p = strstr(svg, key);
	if (!p || !(p = strstr(p, "<rect ")))
		return -1;
	snprintf(a, sizeof(a), " %s=\"", attr);
	p = strstr(p, a);
	return p ? strtod(p + strlen(a), NULL) : -1;
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * Widths are proportional to the counts: the expected pixels are worked
 * out here from the counts (total 10 over 1200 - 2 x 10 px), not by the
 * renderer's code. Siblings sit in name order, each after the last.
 */
TEST(widths_follow_counts)
{
	struct flame f;
	char *svg = render("a;b;c 3\na;d 4\na;b 1\nx 2\n", &f, "samples");
	const double px = (1200.0 - 20.0) / 10; /* per sample */

	ASSERT_TRUE(svg != NULL);
	ASSERT_UEQ(f.root.value, 10);
	ASSERT_EQ(f.max_depth, 3);
	ASSERT_NEAR(frame_attr(svg, "all", "width"), 10 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "a", "width"), 8 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "b", "width"), 4 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "c", "width"), 3 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "d", "width"), 4 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "x", "width"), 2 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "a", "x"), 10, 0.006);
	ASSERT_NEAR(frame_attr(svg, "b", "x"), 10, 0.006);
	ASSERT_NEAR(frame_attr(svg, "d", "x"), 10 + 4 * px, 0.006);
	ASSERT_NEAR(frame_attr(svg, "x", "x"), 10 + 8 * px, 0.006);
	/* depth: the root at the bottom, one frame height per level */
	ASSERT_NEAR(frame_attr(svg, "all", "y") - frame_attr(svg, "c", "y"), 3 * FLAME_FRAME_H, 0);
	ASSERT_NEAR(frame_attr(svg, "b", "y"), frame_attr(svg, "d", "y"), 0);
	/* the tooltip carries count and share */
	ASSERT_TRUE(strstr(svg, "<title>c (3 samples, 30.00%)</title>") != NULL);
	ASSERT_EQ(count(svg, "<g class=\"f\">"), 6);
	flame_release(&f);
	free(svg);
}

/* Equal stacks merge; a name that is a prefix of another stays distinct. */
TEST(merges_and_prefixes)
{
	struct flame f;
	char *svg = render("m;ab 2\nm;a 1\nm;ab 3\nm;abc 1\n", &f, "us");

	ASSERT_TRUE(svg != NULL);
	ASSERT_EQ(f.root.nkids, 1);
	ASSERT_EQ(f.root.kids[0].nkids, 3);
	ASSERT_STREQ(f.root.kids[0].kids[0].name, "a");
	ASSERT_STREQ(f.root.kids[0].kids[1].name, "ab");
	ASSERT_STREQ(f.root.kids[0].kids[2].name, "abc");
	ASSERT_UEQ(f.root.kids[0].kids[1].value, 5);
	ASSERT_TRUE(strstr(svg, "<title>ab (5 us, 71.43%)</title>") != NULL);
	flame_release(&f);
	free(svg);
}

/* Malformed lines are skipped and counted; blank lines are not lines. */
TEST(bad_lines)
{
	struct flame f;
	const char *in = "a;b 1\n\nno_count\na;;b 2\n;a 1\na 1x\na -1\nb 2\r\n a 1\n";
	char *svg = render(in, &f, "samples");

	ASSERT_TRUE(svg != NULL);
	ASSERT_UEQ(f.bad_lines, 5);
	ASSERT_UEQ(f.root.value, 4); /* "a;b 1", "b 2", " a 1" (frame " a") */
	flame_release(&f);
	free(svg);
}

/* An empty profile is still a valid document, with no frames. */
TEST(empty)
{
	struct flame f;
	char *svg = render("", &f, "samples");

	ASSERT_TRUE(svg != NULL);
	ASSERT_EQ(count(svg, "<g class=\"f\">"), 0);
	ASSERT_TRUE(strstr(svg, "</svg>\n") != NULL);
	flame_release(&f);
	free(svg);
}

/* Hostile names: markup escaped, controls and invalid UTF-8 made visible. */
TEST(escaping)
{
	struct flame f;
	char *svg =
	    render("p;<script>&\"'x</script>\x01\xff\xc3\xa9\xef\xbf\xbe 1\n", &f, "samples");

	ASSERT_TRUE(svg != NULL);
	ASSERT_TRUE(strstr(svg, "<title>&lt;script&gt;&amp;&quot;&#39;x&lt;/script&gt;"
				"\\x01\\xff\xc3\xa9\\xef\\xbf\\xbe (1 samples") != NULL);
	ASSERT_EQ(count(svg, "<script"), 1); /* ours */
	flame_release(&f);
	free(svg);
}

/* Labels fit their frame: cut with ".." and never split a UTF-8 character. */
TEST(labels)
{
	struct flame f;
	char *svg =
	    render("r;\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 1\nr;z 199\n", &f,
		   "samples");
	const char *t;

	ASSERT_TRUE(svg != NULL);
	/* 1/200 of 1180 px = 5.9 px: no room for a label */
	t = strstr(svg, "<title>\xc3\xa9");
	ASSERT_TRUE(t != NULL);
	t = strstr(t, "<text");
	ASSERT_TRUE(t != NULL && strstr(t, ">") && strstr(t, ">")[1] == '<');
	flame_release(&f);
	free(svg);
	svg = render("r;\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 1\nr;z 39\n", &f,
		     "samples");
	/* 1180 / 40 = 29.5 px: (29.5 - 6) / 7 = 3 characters: one and ".." */
	ASSERT_TRUE(svg != NULL);
	ASSERT_TRUE(strstr(svg, ">\xc3\xa9..</text>") != NULL);
	flame_release(&f);
	free(svg);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, widths_follow_counts);
	RUN(&st, merges_and_prefixes);
	RUN(&st, bad_lines);
	RUN(&st, empty);
	RUN(&st, escaping);
	RUN(&st, labels);
	UNIT_MAIN_END(&st);
}
