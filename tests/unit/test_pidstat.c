/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * pidstat core: option grammar and dis_hdr (spec 1 and 6), the rate
 * arithmetic (spec 7.4), field formatting with --dec/--human/colours
 * (spec 3.7-3.9) and the header cadence (spec 3.3). Expected values are
 * the ones sysstat 12.6.1 prints, as recorded in the spec's captures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pidstat/pidstat.h"
#include "unit.h"

static int parse(struct pidstat_opts *o, const char *line)
{
	char *copy = strdup(line), *argv[32], *tok, *save = NULL;
	int argc = 0, rc;

	argv[argc++] = (char *)"pidstat";
	for (tok = strtok_r(copy, " ", &save); tok && argc < 31; tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "''") ? tok : (char *)"";
	argv[argc] = NULL;
	rc = pidstat_opts_parse(o, argc, argv, 4242);
	if (rc == 0)
		rc = pidstat_opts_finish(o) ? -1 : 0;
	/* argv strings point into copy: keep what the tests read */
	o->comm_re = o->proc_re = o->user = NULL;
	o->exec_argv = NULL;
	free(copy);
	return rc;
}

TEST(usage_cases)
{
	static const char *const bad[] = {
		"-p abc",  "-p 0",     "-p",	"-x",	      "-up 1", "--help", "--",
		"-u 0 3",  "-u 1 0",   "-u -1", "-u 1.5",     "1 2 3", "-T foo", "-C ''",
		"--dec=3", "--dec=12", "--dec", "--human=1",  "-e",    "-p -1",	 "-G",
		"-T",	   "-o XML",   "-p 1x", "-U 123 1 1",
	};
	struct pidstat_opts o;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(&o, bad[i]);

		pidstat_opts_release(&o);
		if (rc != PIDSTAT_PARSE_USAGE) {
			fprintf(stderr, "case '%s' gave %d\n", bad[i], rc);
			ASSERT_EQ(rc, PIDSTAT_PARSE_USAGE);
		}
	}
}

/* A usage error records the word triage names after sysstat's usage. */
TEST(usage_names_the_word)
{
	static const char *const cases[][2] = {
		{ "-p abc", "abc" },
		{ "-p -5", "-5" },
		{ "-u abc", "abc" },
		{ "-ux", "-x" },
		{ "--bogus", "--bogus" },
		{ "-p", "-p" },
		{ "1 2 3", "3" },
		{ "-T foo", "foo" },
		{ "-o XML", "XML" },
		{ "--dec=3", "--dec=3" },
		{ "94608000000", "94608000000" },
		{ "0 3", "3" },
	};
	struct pidstat_opts o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *copy = strdup(cases[i][0]), *argv[8], *save = NULL;
		int argc = 0;

		argv[argc++] = (char *)"pidstat";
		for (char *t = strtok_r(copy, " ", &save); t && argc < 7;
		     t = strtok_r(NULL, " ", &save))
			argv[argc++] = t;
		argv[argc] = NULL;
		ASSERT_EQ(pidstat_opts_parse(&o, argc, argv, 4242), PIDSTAT_PARSE_USAGE);
		ASSERT_TRUE(o.why != NULL && o.bad != NULL);
		if (strcmp(o.bad, cases[i][1])) {
			fprintf(stderr, "case '%s' named '%s'\n", cases[i][0], o.bad);
			ASSERT_TRUE(false);
		}
		pidstat_opts_release(&o);
		free(copy);
	}
}

TEST(version_when_reached)
{
	struct pidstat_opts o;

	ASSERT_EQ(parse(&o, "-u -V -x"), PIDSTAT_PARSE_VERSION);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "-x -V"), PIDSTAT_PARSE_USAGE);
	pidstat_opts_release(&o);
}

TEST(numbers_and_user)
{
	struct pidstat_opts o;

	ASSERT_EQ(parse(&o, "-U 123 1"), PIDSTAT_PARSE_OK);
	ASSERT_EQ(o.interval, 123);
	ASSERT_EQ(o.count, 1);
	ASSERT_TRUE(o.username);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "1 -u 3"), PIDSTAT_PARSE_OK);
	ASSERT_EQ(o.interval, 1);
	ASSERT_EQ(o.count, 3);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "''"), PIDSTAT_PARSE_OK); /* "" is interval 0 */
	ASSERT_EQ(o.interval, 0);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "--dec=A -p 1"), PIDSTAT_PARSE_OK); /* 12.6.1's atoi quirk */
	ASSERT_EQ(o.dec, 0);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "-"), PIDSTAT_PARSE_OK); /* a lone dash is an empty cluster */
	pidstat_opts_release(&o);
}

TEST(pid_lists)
{
	struct pidstat_opts o;

	ASSERT_EQ(parse(&o, "-p 1,,2 -p SELF"), PIDSTAT_PARSE_OK);
	ASSERT_EQ(o.npids, 3);
	ASSERT_EQ(o.pids[2], 4242);
	ASSERT_EQ(o.pid_nr, 3);
	ASSERT_TRUE(!o.active_only && !o.all_pids);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "-p ALL"), PIDSTAT_PARSE_OK);
	ASSERT_TRUE(o.all_pids && !o.active_only);
	ASSERT_EQ(o.pid_nr, 2);
	pidstat_opts_release(&o);
}

/* dis_hdr after parsing and flag checks (spec 1, worked cases of 3.3). */
TEST(dis_hdr_rules)
{
	static const struct {
		const char *args;
		int dis_hdr;
	} cases[] = {
		{ "-p 123 1 5", 0 },
		{ "1 5", 1 },
		{ "-urdw -p 123", 3 },
		{ "-T ALL -p 123 1 2", 0 },
		{ "-p 1,2 1 5", 1 },
		{ "-p ALL", 1 },
		{ "-p 1,1", 1 },
		{ "-u -u -p 1", 1 },
		{ "-u -p 1", 0 },
		{ "-p SELF", 0 },
		{ "-T TASK -T CHILD -p 1", 0 },
		{ "-T CHILD -u -r -p 1", 1 },
		{ "-T ALL -T ALL -p 1", 2 },
		{ "-h -u -r -p 1", 1 },
		{ "-T CHILD -u -d -p 1", 1 },
	};
	struct pidstat_opts o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(&o, cases[i].args);

		pidstat_opts_release(&o);
		if (rc || o.dis_hdr != cases[i].dis_hdr) {
			fprintf(stderr, "case '%s': rc %d dis_hdr %d\n", cases[i].args, rc,
				o.dis_hdr);
			ASSERT_EQ(o.dis_hdr, cases[i].dis_hdr);
		}
	}
}

TEST(activities_checked)
{
	struct pidstat_opts o;

	ASSERT_EQ(parse(&o, "-T CHILD -d"), -1); /* Requested activities not available */
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, "-T CHILD -u -d"), 0);
	ASSERT_EQ(o.act, ACT_CPU);
	pidstat_opts_release(&o);
	ASSERT_EQ(parse(&o, ""), 0);
	ASSERT_EQ(o.act, ACT_CPU);
	ASSERT_EQ(o.tsk, TSK_TASK);
	ASSERT_TRUE(o.active_only && o.all_pids);
	pidstat_opts_release(&o);
}

TEST(extensions)
{
	struct pidstat_opts o;

	ASSERT_EQ(parse(&o, "-o JSON --whole --root /tmp -p 1"), 0);
	ASSERT_TRUE(o.json && o.whole);
	pidstat_opts_release(&o);
}

/* Spec 7.4: divide first, then multiply by 100; a zero interval counts as 1. */
TEST(rates)
{
	ASSERT_NEAR(pidstat_sp_value(10, 37, 100), 27.0, 1e-12);
	ASSERT_NEAR(pidstat_sp_value(0, 27, 198), 13.636363636363637, 1e-12);
	ASSERT_NEAR(pidstat_s_value(0, 105, 106214), 0.098857, 1e-6);
	ASSERT_EQ(pidstat_interval(500, 500), 1);
	ASSERT_EQ(pidstat_interval(500, 601), 101);
}

static char *render(void (*fn)(struct pidstat_out *, void *), void *arg, int dec, bool human)
{
	static char buf[256];
	struct pidstat_out o = { 0 };

	o.f = fmemopen(buf, sizeof(buf), "w");
	o.dec = dec;
	o.human = human;
	fn(&o, arg);
	pidstat_out_flush(&o);
	fclose(o.f);
	return buf;
}

static void pc_fn(struct pidstat_out *o, void *v)
{
	pidstat_put_pc(o, 7, 2, *(double *)v);
}

static void mem_pc_fn(struct pidstat_out *o, void *v)
{
	pidstat_put_pc(o, 6, 2, *(double *)v);
}

static void kb_fn(struct pidstat_out *o, void *v)
{
	pidstat_put_u64(o, o->human ? UNIT_KILOBYTE : UNIT_NONE, 7, *(uint64_t *)v);
}

static void bytes_fn(struct pidstat_out *o, void *v)
{
	pidstat_put_f(o, o->human ? UNIT_BYTE : UNIT_NONE, 9, 2, *(double *)v);
}

/* The --human / --dec samples of spec 13.10. */
TEST(formatting)
{
	double pc = 19.0, zero = 0.0, wr = 5120.0 * 1024;
	uint64_t vsz = 35260, rss = 1220, stk = 132;

	ASSERT_STREQ(render(pc_fn, &pc, -1, false), "   19.00");
	ASSERT_STREQ(render(pc_fn, &pc, -1, true), "   19.0%");
	ASSERT_STREQ(render(pc_fn, &pc, 0, false), "      19");
	ASSERT_STREQ(render(pc_fn, &pc, 0, true), "     19%");
	ASSERT_STREQ(render(mem_pc_fn, &zero, -1, true), "   0.0%");
	ASSERT_STREQ(render(kb_fn, &vsz, -1, true), "   34.4M");
	ASSERT_STREQ(render(kb_fn, &rss, -1, true), "    1.2M");
	ASSERT_STREQ(render(kb_fn, &stk, -1, true), "  132.0k");
	ASSERT_STREQ(render(kb_fn, &vsz, 0, true), "     34M");
	ASSERT_STREQ(render(kb_fn, &vsz, -1, false), "   35260");
	ASSERT_STREQ(render(bytes_fn, &zero, -1, true), "      0.0B");
	ASSERT_STREQ(render(bytes_fn, &wr, -1, true), "      5.0M");
	ASSERT_STREQ(render(bytes_fn, &wr, 0, true), "        5M");
}

static void fixed_fn(struct pidstat_out *o, void *v)
{
	pidstat_put_f(o, UNIT_NONE, 9, o->dec, *(double *)v);
}

/* The fast number path must print exactly what printf prints. */
TEST(fast_numbers_match_printf)
{
	unsigned seed = 12345;

	for (int i = 0; i < 200000; i++) {
		double v;
		int dec = i % 3;
		char want[64], got[64];
		struct pidstat_out o = { 0 };

		seed = seed * 1103515245u + 12345u;
		switch (i % 4) {
		case 0:
			v = (double)(seed % 100000) / 8.0;
			break; /* exact ties */
		case 1:
			v = (double)(seed % 1000000) / 1000.0;
			break; /* x.xx5 */
		case 2:
			v = (double)seed / 4294967296.0 * 1e6;
			break;
		default:
			v = -(double)(seed % 1000) / 16.0;
			break;
		}
		snprintf(want, sizeof(want), " %*.*f", 9, dec, v);
		o.f = fmemopen(got, sizeof(got), "w");
		o.dec = dec;
		o.fast = true;
		pidstat_put_f(&o, UNIT_NONE, 9, 2, v);
		pidstat_out_flush(&o);
		fclose(o.f);
		if (strcmp(want, got)) {
			fprintf(stderr, "v=%.17g dec=%d: printf '%s' fast '%s'\n", v, dec, want,
				got);
			ASSERT_STREQ(got, want);
		}
	}
	(void)fixed_fn;
}

/* Zeros, signed zeros, tiny and huge values, and every width sysstat uses: as printf. */
TEST(fast_numbers_edges_match_printf)
{
	static const double vals[] = {
		0.0,	-0.0,  1e-300, -1e-300, 0.004999,   0.005,
		0.015,	0.025, 0.125,  0.375,	2.675,	    1.005,
		99.995, 100.0, 1e15,   -1e15,	999999.995, 4503599627370495.5
	};
	static const int widths[] = { 3, 4, 6, 7, 9 };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
			for (int dec = 0; dec <= 2; dec++) {
				char want[512], got[512];
				struct pidstat_out o = { 0 };

				snprintf(want, sizeof(want), " %*.*f", widths[w], dec, vals[i]);
				o.f = fmemopen(got, sizeof(got), "w");
				o.dec = dec;
				o.fast = true;
				pidstat_put_f(&o, UNIT_NONE, widths[w], 2, vals[i]);
				pidstat_out_flush(&o);
				fclose(o.f);
				if (strcmp(want, got))
					fprintf(stderr, "v=%.17g w=%d dec=%d: '%s' '%s'\n", vals[i],
						widths[w], dec, want, got);
				ASSERT_STREQ(got, want);
			}
}

/* " %*llu" for the widths used, and pieces past the row's room keep their order. */
TEST(uint_and_long_rows_match_printf)
{
	static const unsigned long long vals[] = {
		0, 9, 10, 99999, 100000, 4294967295ull, 18446744073709551615ull
	};
	char want[4096], got[4096], piece[700];
	size_t off = 0;
	struct pidstat_out o = { 0 };

	o.f = fmemopen(got, sizeof(got), "w");
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (int w = 3; w <= 9; w += 2) {
			off +=
			    (size_t)snprintf(want + off, sizeof(want) - off, " %*llu", w, vals[i]);
			pidstat_put_uint(&o, w, vals[i]);
		}
	memset(piece, 'x', sizeof(piece) - 1);
	piece[sizeof(piece) - 1] = '\0';
	for (int i = 0; i < 3; i++) {
		piece[0] = (char)('a' + i);
		off += (size_t)snprintf(want + off, sizeof(want) - off, "%s|%d", piece, i);
		pidstat_puts(&o, piece);
		pidstat_printf(&o, "|%d", i);
	}
	pidstat_out_flush(&o);
	fclose(o.f);
	ASSERT_STREQ(got, want);
}

TEST(colours)
{
	struct pidstat_colors c;

	pidstat_colors_init(&c, NULL, NULL, false);
	ASSERT_STREQ(c.normal, "");
	pidstat_colors_init(&c, "never", NULL, true);
	ASSERT_STREQ(c.high, "");
	pidstat_colors_init(&c, "auto", NULL, false);
	ASSERT_STREQ(c.high, "");
	pidstat_colors_init(&c, "always", "H=1;2:M=12345678:Z=4x:I=7", false);
	ASSERT_STREQ(c.high, "\x1b[1;2m");
	ASSERT_STREQ(c.low, "\x1b[35;1m");   /* too long: ignored */
	ASSERT_STREQ(c.zero, "\x1b[34;22m"); /* not digits: ignored */
	ASSERT_STREQ(c.item, "\x1b[7m");
	ASSERT_STREQ(c.normal, "\x1b[0m");
}

/* dis_hdr 0: a header on sample 1, then every rows samples (5-row tty: rows 3). */
TEST(header_cadence)
{
	unsigned long lines = 3;
	char got[16] = "";

	for (int i = 0; i < 8; i++)
		strcat(got, pidstat_header_due(&lines, 3) ? "H" : ".");
	ASSERT_STREQ(got, "H..H..H.");
	lines = 86400;
	ASSERT_TRUE(pidstat_header_due(&lines, 86400));
	ASSERT_TRUE(!pidstat_header_due(&lines, 86400));
}

/* The hash-indexed task table: lookups, per-sample order, exits freed. */
TEST(task_table)
{
	struct pidstat_table tb = { 0 };
	struct pidstat_task *p, *t1, *t2, *q;

	tb.fd_budget.left = 0;
	p = pidstat_table_add(&tb, NULL, 100);
	t1 = pidstat_table_add(&tb, p, 100); /* the main thread: same pid, other key */
	t2 = pidstat_table_add(&tb, p, 101);
	for (int i = 0; i < 5000; i++) /* enough to grow the hash several times */
		ASSERT_TRUE(pidstat_table_add(&tb, NULL, 1000 + i) != NULL);
	ASSERT_TRUE(pidstat_table_find(&tb, NULL, 100) == p);
	ASSERT_TRUE(pidstat_table_find(&tb, p, 100) == t1);
	ASSERT_TRUE(pidstat_table_find(&tb, p, 101) == t2);
	ASSERT_TRUE(pidstat_table_find(&tb, p, 102) == NULL);
	q = pidstat_table_find(&tb, NULL, 5999);
	ASSERT_TRUE(q && q->pid == 5999);
	/* a sample that sees the process and one thread only */
	pidstat_table_push(&tb, p);
	pidstat_table_push(&tb, t2);
	pidstat_table_commit(&tb);
	ASSERT_EQ(tb.len, 2);
	ASSERT_EQ(tb.count, 2);
	ASSERT_TRUE(tb.order[0] == p && tb.order[1] == t2);
	ASSERT_EQ(t2->order_idx, 1);
	ASSERT_TRUE(pidstat_table_find(&tb, p, 100) == NULL);
	ASSERT_TRUE(pidstat_table_find(&tb, NULL, 1000) == NULL);
	/* a reused PID keeps its place but loses its history */
	t2->snap[0].utime = 77;
	t2->total_rss = 5;
	t2->flags |= TASK_KNOWN;
	pidstat_task_reset(&tb, t2);
	ASSERT_EQ(t2->snap[0].utime, 0);
	ASSERT_EQ(t2->total_rss, 0);
	ASSERT_EQ(t2->flags, 0);
	ASSERT_TRUE(t2->leader == p && t2->pid == 101);
	ASSERT_TRUE(pidstat_table_find(&tb, p, 101) == t2);
	pidstat_table_release(&tb);
}

/* --whole's sums: each thread adds now - prev of each counter to what w holds. */
TEST(whole_sums)
{
	struct pidstat_whole w = { 10, 20, 30, 40 };
	struct pidstat_snap prev = { 0 }, now = { 0 }, fresh = { 0 };

	prev.nvcsw = 100, prev.nivcsw = 5, prev.wtime = 400, prev.blkio = 3;
	now.nvcsw = 105, now.nivcsw = 7, now.wtime = 1000, now.blkio = 3;
	pidstat_whole_add(&w, &now, &prev);
	ASSERT_UEQ(w.nvcsw, 15);  /* 10 + (105 - 100) */
	ASSERT_UEQ(w.nivcsw, 22); /* 20 + (7 - 5) */
	ASSERT_UEQ(w.wtime, 630); /* 30 + (1000 - 400) */
	ASSERT_UEQ(w.blkio, 40);  /* 40 + (3 - 3) */
	/* a thread new to the table (zeroed previous snapshot) brings all it has */
	fresh.nvcsw = 1, fresh.nivcsw = 2, fresh.wtime = 3, fresh.blkio = 4;
	pidstat_whole_add(&w, &fresh, &(struct pidstat_snap){ 0 });
	ASSERT_UEQ(w.nvcsw, 16);
	ASSERT_UEQ(w.nivcsw, 24);
	ASSERT_UEQ(w.wtime, 633);
	ASSERT_UEQ(w.blkio, 44);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, usage_cases);
	RUN(&st, usage_names_the_word);
	RUN(&st, version_when_reached);
	RUN(&st, numbers_and_user);
	RUN(&st, pid_lists);
	RUN(&st, dis_hdr_rules);
	RUN(&st, activities_checked);
	RUN(&st, extensions);
	RUN(&st, rates);
	RUN(&st, formatting);
	RUN(&st, fast_numbers_match_printf);
	RUN(&st, fast_numbers_edges_match_printf);
	RUN(&st, uint_and_long_rows_match_printf);
	RUN(&st, colours);
	RUN(&st, header_cadence);
	RUN(&st, task_table);
	RUN(&st, whole_sums);
	UNIT_MAIN_END(&st);
}
