/* test: shared -- pure code and its own process; see docs/testing.md */
/* The probe helpers: log2 histogram, option parsing, error mapping. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "unit.h"
#include "probe/session.h"
#include "probe/elf_fp.h"
#include "probe/hist.h"
#include "probe/syscall_names.h"
#include "probe/syscalls.h"
#include "util/caps.h"

/* Slots follow floor(log2(v)), computed here with libm as the oracle. */
TEST(hist_slot_is_floor_log2)
{
	static const uint64_t vals[] = { 2, 3, 4, 7, 8, 1000, 1023, 1024, 123456789, 1ull << 40 };

	ASSERT_EQ(hist_slot(0), 0);
	ASSERT_EQ(hist_slot(1), 0);
	for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
		ASSERT_EQ(hist_slot(vals[i]), (unsigned)floor(log2((double)vals[i])));
	ASSERT_EQ(hist_slot(UINT64_MAX), 63);
}

TEST(hist_ranges_tile_the_line)
{
	uint64_t lo, hi, prev_hi;

	hist_slot_range(0, &lo, &prev_hi);
	ASSERT_UEQ(lo, 0);
	for (unsigned i = 1; i < HIST_MAX_SLOTS; i++) {
		hist_slot_range(i, &lo, &hi);
		ASSERT_UEQ(lo, prev_hi + 1);
		ASSERT_EQ(hist_slot(lo), i);
		ASSERT_EQ(hist_slot(hi), i);
		prev_hi = hi;
	}
	ASSERT_UEQ(prev_hi, UINT64_MAX);
}

static char *print_hist(const uint64_t *slots, unsigned n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_print(f, slots, n, "usecs");
	fclose(f);
	return buf;
}

static unsigned count_char(const char *s, char c)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Empty edges are trimmed; the largest slot gets the full 40-star bar. */
TEST(hist_print_trims_and_scales)
{
	uint64_t slots[HIST_MAX_SLOTS] = { 0 };
	char *out, *line;

	slots[3] = 10;
	slots[5] = 5;
	out = print_hist(slots, HIST_MAX_SLOTS);
	ASSERT_EQ(count_char(out, '\n'), 1 + 3); /* header, slots 3..5 */
	line = strstr(out, "8 -> 15");
	ASSERT_TRUE(line != NULL);
	ASSERT_EQ(strspn(strchr(line, '|') + 1, "*"), 40);
	line = strstr(out, "32 -> 63");
	ASSERT_TRUE(line != NULL);
	ASSERT_EQ(strspn(strchr(line, '|') + 1, "*"), 20);
	line = strstr(out, "16 -> 31");
	ASSERT_TRUE(line != NULL && strchr(line, '|')[1] == ' ');
	free(out);
	memset(slots, 0, sizeof(slots));
	out = print_hist(slots, HIST_MAX_SLOTS);
	ASSERT_STREQ(out, "");
	free(out);
}

TEST(hist_json_lists_the_used_range)
{
	uint64_t slots[8] = { 0, 2, 0, 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w;

	json_init(&w, f, false);
	hist_json(&w, slots, 8);
	json_finish(&w);
	fclose(f);
	ASSERT_STREQ(buf, "[{\"lo\":2,\"hi\":3,\"count\":2},{\"lo\":4,\"hi\":7,\"count\":0},"
			  "{\"lo\":8,\"hi\":15,\"count\":1}]\n");
	ASSERT_UEQ(hist_total(slots, 8), 3);
	free(buf);
}

TEST(probe_option_parsing)
{
	char comm[PROBE_COMM_LEN];
	char a0[] = "x", a1[] = "2", a2[] = "5", a3[] = "9";
	char *args[] = { a0, a1, a2, a3 };
	struct probe_target t = { 0 };
	double d, iv;
	unsigned cnt;
	int pid;

	ASSERT_EQ(probe_parse_pid("123", &pid), 0);
	ASSERT_EQ(pid, 123);
	ASSERT_EQ(probe_parse_pid("0", &pid), -ERANGE);
	ASSERT_EQ(probe_parse_pid("-4", &pid), -EINVAL);
	ASSERT_EQ(probe_parse_pid("12x", &pid), -EINVAL);
	ASSERT_EQ(probe_parse_comm("bash", comm), 0);
	ASSERT_STREQ(comm, "bash");
	ASSERT_EQ(probe_parse_comm("0123456789abcdef", comm), -ENAMETOOLONG);
	ASSERT_EQ(probe_parse_comm("", comm), -EINVAL);
	ASSERT_EQ(probe_parse_duration("0.5", &d), 0);
	ASSERT_NEAR(d, 0.5, 1e-12);
	ASSERT_EQ(probe_parse_duration("0", &d), -EINVAL);
	ASSERT_EQ(probe_parse_interval(4, args, 4, &iv, &cnt), 0);
	ASSERT_NEAR(iv, 0, 0);
	ASSERT_EQ(probe_parse_interval(3, args, 1, &iv, &cnt), 0);
	ASSERT_NEAR(iv, 2, 0);
	ASSERT_EQ(cnt, 5);
	ASSERT_EQ(probe_parse_interval(4, args, 1, &iv, &cnt), -E2BIG);
	ASSERT_EQ(probe_parse_interval(2, args, 0, &iv, &cnt), -EINVAL);
	ASSERT_EQ(probe_target_check(&t), 0); /* neither: every task */
	ASSERT_TRUE(probe_target_all(&t));
	t.pid = 5;
	ASSERT_EQ(probe_target_check(&t), 0);
	ASSERT_TRUE(!probe_target_all(&t));
	strcpy(t.comm, "x");
	ASSERT_EQ(probe_target_check(&t), -EINVAL);
}

TEST(probe_errors_map_to_exit_status)
{
	ASSERT_EQ(probe_err_status(-EPERM), EXIT_NOSUPPORT);
	ASSERT_EQ(probe_err_status(-ENOENT), EXIT_NOSUPPORT);
	ASSERT_EQ(probe_err_status(-ENOSYS), EXIT_NOSUPPORT);
	ASSERT_EQ(probe_err_status(-ENOMEM), EXIT_RUNTIME);
	ASSERT_TRUE(strstr(probe_err_hint(-EPERM), "CAP_BPF") != NULL);
	ASSERT_TRUE(probe_err_hint(-ENOMEM) == NULL);
}

/* Interval reports are deltas of cumulative counters; max stays cumulative. */
TEST(syscalls_report_is_a_delta)
{
	static struct sc_snapshot prev, cur;
	struct sc_errno_count pe[] = { { 2, ENOENT, 3 } };
	struct sc_errno_count ce[] = { { 2, ENOENT, 5 }, { 2, EACCES, 9 }, { 39, EPERM, 1 } };
	struct sc_report r = { 0 };
	char buf[32];

	prev.c[2] = (struct sc_counts){ 10, 10, 3, 1000, 500 };
	cur.c[2] = (struct sc_counts){ 25, 24, 14, 4000, 900 };
	cur.c[39] = (struct sc_counts){ 40, 40, 1, 800, 50 };
	cur.c[1] = prev.c[1] = (struct sc_counts){ 7, 7, 0, 70, 10 }; /* no new calls */
	prev.errs = pe;
	prev.nerrs = 1;
	cur.errs = ce;
	cur.nerrs = 3;
	ASSERT_EQ(sc_report_delta(&cur, &prev, &r), 0);
	ASSERT_EQ(r.nrows, 2);
	ASSERT_EQ(r.rows[0].nr, 39); /* 40 calls before 15 */
	ASSERT_EQ(r.rows[1].nr, 2);
	ASSERT_UEQ(r.rows[1].c.count, 15);
	ASSERT_UEQ(r.rows[1].c.errors, 11);
	ASSERT_UEQ(r.rows[1].c.total_ns, 3000);
	ASSERT_UEQ(r.rows[1].c.max_ns, 900);
	ASSERT_UEQ(r.calls, 55);
	ASSERT_UEQ(r.errors, 12);
	ASSERT_EQ(r.rows[1].nerrs, 2);
	ASSERT_EQ(r.rows[1].errs[0].err, EACCES); /* 9 before 2 */
	ASSERT_UEQ(r.rows[1].errs[1].count, 2);
	ASSERT_EQ(r.rows[0].nerrs, 1);
	ASSERT_STREQ(sc_errno_name(r.rows[0].errs[0].err, buf, sizeof(buf)), "EPERM");
	sc_report_release(&r);
}

TEST(syscall_and_errno_names)
{
	char buf[32];

	ASSERT_STREQ(sc_errno_name(ENOENT, buf, sizeof(buf)), "ENOENT");
	ASSERT_STREQ(sc_errno_name(512, buf, sizeof(buf)), "ERESTARTSYS");
	ASSERT_STREQ(sc_errno_name(4000, buf, sizeof(buf)), "E4000");
	ASSERT_STREQ(sc_row_name(SC_MAX_NR - 1, buf, sizeof(buf)), "syscall_511+");
	ASSERT_STREQ(sc_row_name((unsigned)syscall_nr("openat"), buf, sizeof(buf)), "openat");
}

static int survey_file(const char *path, struct elf_fp_survey *s)
{
	static uint8_t buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return elf_fp_survey(buf, n, s);
}

/*
 * Two builds of the same two functions (tests/fuzz/corpus/fuzz_elf_fp):
 * gcc -O1 -fno-omit-frame-pointer and gcc -O2 -fomit-frame-pointer; the
 * compiler flags are the oracle.
 */
TEST(frame_pointer_survey_tells_builds_apart)
{
	struct elf_fp_survey s;

	ASSERT_EQ(survey_file("tests/fuzz/corpus/fuzz_elf_fp/fp.so", &s), 0);
	ASSERT_EQ(s.functions, 2);
	ASSERT_EQ(s.with_fp, 2);
	ASSERT_EQ(s.has_eh_frame, 1);
	ASSERT_EQ(survey_file("tests/fuzz/corpus/fuzz_elf_fp/nofp.so", &s), 0);
	ASSERT_EQ(s.functions, 2);
	ASSERT_EQ(s.with_fp, 0);
	ASSERT_EQ(survey_file("tests/fuzz/corpus/fuzz_elf_fp/trunc", &s), -EINVAL);
}

TEST(caps_by_name)
{
	struct caps c = { 1ull << CAPS_BPF };
	unsigned long long kernel = 0;
	char line[256];
	FILE *f;

	ASSERT_TRUE(caps_has(&c, CAPS_BPF) && !caps_has(&c, CAPS_PERFMON));
	ASSERT_TRUE(!caps_can_trace(&c));
	c.effective |= 1ull << CAPS_PERFMON;
	ASSERT_TRUE(caps_can_trace(&c));
	c.effective = 1ull << CAPS_SYS_ADMIN;
	ASSERT_TRUE(caps_can_trace(&c));
	/* Our effective set is the kernel's CapEff line. */
	ASSERT_EQ(caps_read(&c), 0);
	f = fopen("/proc/self/status", "r");
	ASSERT_TRUE(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &kernel) == 1)
			break;
	fclose(f);
	ASSERT_UEQ(c.effective, kernel);
}

/* The header and the process table agree with their counts: 1 call, 2 calls. */
TEST(syscalls_report_counts_agree)
{
	for (unsigned n = 1; n <= 2; n++) {
		struct sc_row rows[2] = { { .nr = 39, .c = { n, n, n, 100, 50 } },
					  { .nr = 2, .c = { 1, 1, 1, 100, 50 } } };
		struct sc_proc procs[2] = { { .pid = 7, .comm = "a", .calls = n },
					    { .pid = 8, .comm = "b", .calls = 1 } };
		struct sc_report r = { .procs = procs,
				       .nprocs = n,
				       .calls = n,
				       .errors = n,
				       .rows = rows,
				       .nrows = n,
				       .procs_lost = n,
				       .final = true };
		char *text = NULL, want[200];
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		ASSERT_TRUE(out != NULL);
		r.target.pid = 7;
		sc_report_print(out, &r, false);
		fclose(out);
		snprintf(want, sizeof(want), "pid 7: %u %s, %u %s, %u %s in", n,
			 n == 1 ? "call" : "calls", n, n == 1 ? "error" : "errors", n,
			 n == 1 ? "syscall" : "syscalls");
		ASSERT_TRUE(strstr(text, want) == text);
		snprintf(want, sizeof(want), "\nTop %u of %u %s by calls:\n", n, n,
			 n == 1 ? "process" : "processes");
		ASSERT_TRUE(strstr(text, want) != NULL);
		snprintf(want, sizeof(want), "\nlost: %u %s not counted", n,
			 n == 1 ? "call" : "calls");
		ASSERT_TRUE(strstr(text, want) != NULL);
		free(text);
	}
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, hist_slot_is_floor_log2);
	RUN(&st, hist_ranges_tile_the_line);
	RUN(&st, hist_print_trims_and_scales);
	RUN(&st, hist_json_lists_the_used_range);
	RUN(&st, probe_option_parsing);
	RUN(&st, probe_errors_map_to_exit_status);
	RUN(&st, syscalls_report_is_a_delta);
	RUN(&st, syscalls_report_counts_agree);
	RUN(&st, syscall_and_errno_names);
	RUN(&st, frame_pointer_survey_tells_builds_apart);
	RUN(&st, caps_by_name);
	UNIT_MAIN_END(&st);
}
