/* test: shared -- pure code and its own process; see docs/testing.md */
/* src/plot without a database: charts, downsampling, findings, the page. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "plot/plot.h"
#include "unit.h"

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Rows in ts order; a series missing at a ts holds NAN there; keys order the series. */
TEST(chart_rows)
{
	struct plot_chart c;

	ASSERT_EQ(plot_chart_init(&c, "id", "t", "%"), 0);
	ASSERT_EQ(plot_chart_add(&c, 10, 5, "b", 1), 0);
	ASSERT_EQ(plot_chart_add(&c, 10, 2, "a", 2), 0);
	ASSERT_EQ(plot_chart_add(&c, 11, 2, "a", 3), 0);
	ASSERT_EQ(plot_chart_add(&c, 12, 5, "b", 4), 0);
	ASSERT_EQ(plot_chart_add(&c, 11.5, 5, "b", 4), -EINVAL);
	for (int i = 0; i < 100; i++) /* growth keeps earlier rows */
		ASSERT_EQ(plot_chart_add(&c, 13 + i, 7, "same label", i), 0);
	plot_chart_sort(&c);
	ASSERT_UEQ(c.n, 103);
	ASSERT_UEQ(c.ns, 3);
	ASSERT_STREQ(c.s[0].label, "a");
	ASSERT_STREQ(c.s[1].label, "b");
	ASSERT_NEAR(c.s[0].v[0], 2, 0);
	ASSERT_NEAR(c.s[0].v[1], 3, 0);
	ASSERT_TRUE(isnan(c.s[0].v[2]));
	ASSERT_TRUE(isnan(c.s[1].v[1]));
	ASSERT_NEAR(c.s[1].v[2], 4, 0);
	ASSERT_TRUE(isnan(c.s[2].v[0]));
	ASSERT_NEAR(c.s[2].v[102], 99, 0);
	plot_chart_release(&c);
}

/*
 * 10,000 samples to 2,000 points: every spike and dip survives (the
 * maximum and minimum of the whole series, and of each bucket), times stay
 * ascending, and gaps (NAN) stay gaps.
 */
TEST(downsample)
{
	struct plot_chart c;
	const size_t n = 10000;
	double max = -1, min = 1e9;

	ASSERT_EQ(plot_chart_init(&c, "id", "t", ""), 0);
	for (size_t i = 0; i < n; i++) {
		double v = 50 + 10 * sin(i / 100.0);

		if (i == 1234)
			v = 1000; /* one-sample spike */
		if (i == 8765)
			v = -5;
		ASSERT_EQ(plot_chart_add(&c, 1000 + i, 0, "v", v), 0);
		ASSERT_EQ(plot_chart_add(&c, 1000 + i, 1, "gappy", i >= 5000 && i < 6000 ? NAN : 1),
			  0);
	}
	ASSERT_EQ(plot_chart_downsample(&c, 2000), 0);
	ASSERT_UEQ(c.n, 2000);
	ASSERT_UEQ(c.raw_points, n);
	for (size_t i = 0; i < c.n; i++) {
		if (i)
			ASSERT_TRUE(c.ts[i] > c.ts[i - 1]);
		max = fmax(max, c.s[0].v[i]);
		min = fmin(min, c.s[0].v[i]);
	}
	ASSERT_NEAR(max, 1000, 0);
	ASSERT_NEAR(min, -5, 0);
	ASSERT_NEAR(c.ts[0], 1000, 0);
	ASSERT_NEAR(c.ts[c.n - 1], 1000 + n - 1, 0);
	/* 1,000 buckets of 10 samples, 2 points each: the gap is buckets 500..599 */
	for (size_t i = 2 * 500; i < 2 * 600; i++)
		ASSERT_TRUE(isnan(c.s[1].v[i]));
	ASSERT_NEAR(c.s[1].v[2 * 499 + 1], 1, 0);
	ASSERT_NEAR(c.s[1].v[2 * 600], 1, 0);
	ASSERT_NEAR(c.ts[2 * 600], 1000 + 6000, 0);
	plot_chart_release(&c);

	/* already small: untouched */
	ASSERT_EQ(plot_chart_init(&c, "id", "t", ""), 0);
	for (size_t i = 0; i < 30; i++)
		ASSERT_EQ(plot_chart_add(&c, i, 0, "v", i), 0);
	ASSERT_EQ(plot_chart_downsample(&c, 2000), 0);
	ASSERT_UEQ(c.n, 30);
	plot_chart_release(&c);
}

/* Consecutive windows of one finding become one mark; others stay apart. */
TEST(findings_merge)
{
	struct plot_doc d = { 0 };

	d.interval = 1;
	for (int i = 0; i < 10; i++)
		ASSERT_EQ(plot_doc_add_finding(&d, 100 + i, 101 + i, "critical", "cpu", "pid 1",
					       i ? "later" : "first"),
			  0);
	ASSERT_EQ(plot_doc_add_finding(&d, 105, 106, "warning", "io", "sda", "io"), 0);
	ASSERT_EQ(plot_doc_add_finding(&d, 150, 151, "critical", "cpu", "pid 1", "again"), 0);
	ASSERT_UEQ(d.nfindings, 3);
	ASSERT_NEAR(d.findings[0].start, 100, 0);
	ASSERT_NEAR(d.findings[0].end, 110, 0);
	ASSERT_UEQ(d.findings[0].windows, 10);
	ASSERT_STREQ(d.findings[0].sentence, "first");
	ASSERT_STREQ(d.findings[2].sentence, "again");
	plot_doc_release(&d);
}

/* JSON inside <script>: nothing can close the element or break the line. */
TEST(json_for_script)
{
	const char in[] = "{\"a\":\"</script><!--&\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xa6\"}";
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	plot_json_for_script(out, in, sizeof(in) - 1);
	fclose(out);
	ASSERT_STREQ(
	    buf, "{\"a\":\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\xe2\x80\xa6\"}");
	free(buf);
}

/* The whole page: hostile names only as escaped data, assets inline, no fetches. */
TEST(page)
{
	struct plot_doc d = { 0 };
	char *meta[] = { strdup("hostname"), strdup("h</title><script>x()</script>"),
			 strdup("interval"), strdup("1") };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	d.meta = malloc(sizeof(meta));
	memcpy(d.meta, meta, sizeof(meta));
	d.nmeta = 4;
	d.charts = calloc(1, sizeof(*d.charts));
	d.ncharts = 1;
	ASSERT_EQ(plot_chart_init(&d.charts[0], "groups_cpu", "t", "%"), 0);
	ASSERT_EQ(plot_chart_add(&d.charts[0], 1, 0, "</script><script>alert(1)</script>", 5), 0);
	ASSERT_EQ(plot_doc_add_finding(&d, 1, 2, "critical", "r", "s", "</SCRIPT>"), 0);
	ASSERT_EQ(plot_write_html(out, &d), 0);
	fclose(out);
	/* our three script elements: the data, uPlot, the page's code */
	ASSERT_EQ(count(buf, "<script"), 3);
	ASSERT_EQ(count(buf, "</script>"), 3);
	ASSERT_EQ(count(buf, "</SCRIPT>"), 0);
	ASSERT_TRUE(strstr(buf, "<title>triage record of h&lt;/title&gt;&lt;script&gt;") != NULL);
	ASSERT_TRUE(strstr(buf, "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)") != NULL);
	ASSERT_TRUE(strstr(buf, "default-src 'none'") != NULL);
	ASSERT_TRUE(strstr(buf, "Copyright (c) 2022 Leon Sorokin") != NULL);
	ASSERT_TRUE(strstr(buf, "uPlot") != NULL);
	ASSERT_EQ(count(buf, " src="), 0);
	ASSERT_EQ(count(buf, "<link"), 0);
	free(buf);
	plot_doc_release(&d);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, chart_rows);
	RUN(&st, downsample);
	RUN(&st, findings_merge);
	RUN(&st, json_for_script);
	RUN(&st, page);
	UNIT_MAIN_END(&st);
}
