/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * replay's --from/--to times (src/record/times.c) on a clock that is not at
 * midnight, in an explicit zone. The expected epochs come from GNU date
 * (date -u -d '2026-12-05 09:26:00Z' +%s and so on), not from our code.
 * Also the one duration syntax their relative forms share with every option.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "record/record.h"
#include "unit.h"
#include "util/parse.h"

#define NOW 1796468553.0      /* 2026-12-05 11:02:33 UTC, a Saturday morning */
#define T_0926 1796462760.0   /* 2026-12-05 09:26:00 UTC */
#define T_092610 1796462770.0 /* 2026-12-05 09:26:10 UTC */
#define T_0826 1796459160.0   /* 2026-12-05 08:26:00 UTC */
#define T_0356 1796442960.0   /* 2026-12-05 03:56:00 UTC (09:26 in Kolkata) */
#define T_DEC4 1796342400.0   /* 2026-12-04 00:00:00 UTC */

static void zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static double parsed(const char *s)
{
	double t = -1;

	return record_parse_time(s, NOW, &t) ? -1 : t;
}

TEST(time_of_day_is_today_with_and_without_seconds)
{
	zone("UTC");
	ASSERT_NEAR(parsed("09:26"), T_0926, 0);
	ASSERT_NEAR(parsed("09:26:00"), T_0926, 0);
	ASSERT_NEAR(parsed("09:26:10"), T_092610, 0);
	ASSERT_NEAR(parsed("09:26:10.5"), T_092610 + 0.5, 1e-6);
	ASSERT_NEAR(parsed("09:26Z"), T_0926, 0);
	ASSERT_NEAR(parsed("09:26:00+01:00"), T_0826, 0);
}

TEST(time_of_day_is_local_time)
{
	zone("Asia/Kolkata"); /* +05:30: a zone whose offset is not whole hours */
	ASSERT_NEAR(parsed("09:26"), T_0356, 0);
	ASSERT_NEAR(parsed("09:26:00"), T_0356, 0);
	ASSERT_NEAR(parsed("2026-12-05 09:26"), T_0356, 0);
	ASSERT_NEAR(parsed("2026-12-05T09:26:00Z"), T_0926, 0);
	zone("UTC");
}

TEST(full_dates_both_forms)
{
	zone("UTC");
	ASSERT_NEAR(parsed("2026-12-05T09:26"), T_0926, 0);
	ASSERT_NEAR(parsed("2026-12-05 09:26:00"), T_0926, 0);
	ASSERT_NEAR(parsed("2026-12-05T09:26:10Z"), T_092610, 0);
	ASSERT_NEAR(parsed("2026-12-05T10:26:00+0100"), T_0926, 0);
	ASSERT_NEAR(parsed("2026-12-04"), T_DEC4, 0);
}

TEST(relative_times)
{
	zone("UTC");
	ASSERT_NEAR(parsed("now"), NOW, 0);
	ASSERT_NEAR(parsed("10m ago"), NOW - 600, 0);
	ASSERT_NEAR(parsed("-1h30m"), NOW - 5400, 0);
	ASSERT_NEAR(parsed("@1796462760"), T_0926, 0);
}

TEST(bad_times_are_errors)
{
	static const char *const bad[] = {
		"9:26",
		"09:6",
		"25:00",
		"09:60",
		"09:26:",
		"09:26:0",
		"09:26x",
		"09-26",
		"2026-13-01",
		"2026-12-00",
		"2026-12-05X09:26",
		"",
		"yesterday",
		"10 parsecs ago",
		"-5x",
		"@",
		"09:26:00+25:00",
	};
	double t;

	zone("UTC");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (record_parse_time(bad[i], NOW, &t) != -EINVAL)
			UNIT_FAIL_("'%s' accepted as %.0f", bad[i], t);
	}
}

static double duration(const char *s)
{
	double d = -1;

	return parse_duration(s, &d) ? -1 : d;
}

/* The one duration syntax (src/util/parse.c) every option takes. */
TEST(durations)
{
	static const char *const bad[] = { "",	 "s",	 "10x",	 "-1",	 "+1",	"1e3",
					   " 1", "1 s",	 "1m30", "0x10", "inf", "nan",
					   ".",	 "1..2", "10S",	 "1ms5", "m" };
	double d;

	ASSERT_NEAR(duration("10"), 10, 0);
	ASSERT_NEAR(duration("0.5"), 0.5, 0);
	ASSERT_NEAR(duration(".5"), 0.5, 0);
	ASSERT_NEAR(duration("10s"), 10, 0);
	ASSERT_NEAR(duration("1m"), 60, 0);
	ASSERT_NEAR(duration("1h"), 3600, 0);
	ASSERT_NEAR(duration("2d"), 172800, 0);
	ASSERT_NEAR(duration("500ms"), 0.5, 1e-12);
	ASSERT_NEAR(duration("1h30m"), 5400, 0);
	ASSERT_NEAR(duration("1m30s"), 90, 0);
	ASSERT_NEAR(duration("1.5m"), 90, 0);
	ASSERT_EQ(parse_duration("0", &d), -ERANGE);
	ASSERT_EQ(parse_duration("0s", &d), -ERANGE);
	ASSERT_EQ(parse_duration_in("2", 3600, &d), 0);
	ASSERT_NEAR(d, 7200, 0);
	ASSERT_EQ(parse_duration_in("90m", 3600, &d), 0);
	ASSERT_NEAR(d, 5400, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse_duration(bad[i], &d) != -EINVAL)
			UNIT_FAIL_("'%s' accepted as %g", bad[i], d);
	}
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, time_of_day_is_today_with_and_without_seconds);
	RUN(&st, time_of_day_is_local_time);
	RUN(&st, full_dates_both_forms);
	RUN(&st, relative_times);
	RUN(&st, bad_times_are_errors);
	RUN(&st, durations);
	UNIT_MAIN_END(&st);
}
