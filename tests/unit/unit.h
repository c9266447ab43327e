/*
 * A tiny unit-test harness: each tests/unit/test_<area>.c is one program.
 * TEST(name) defines a case; RUN(name) runs it from main(); ASSERT_* record
 * a failure with file and line and return from the case.
 */
#ifndef TRIAGE_UNIT_H
#define TRIAGE_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

struct unit_state {
	int run, failed;
};

#define TEST(name) static void test_##name(struct unit_state *unit_s_)

#define RUN(st, name)                                                               \
	do {                                                                        \
		int before_ = (st)->failed;                                         \
		(st)->run++;                                                        \
		test_##name(st);                                                    \
		printf("%s %s\n", (st)->failed > before_ ? "FAIL" : "ok  ", #name); \
	} while (0)

#define UNIT_FAIL_(fmt, ...)                                                          \
	do {                                                                          \
		fprintf(stderr, "%s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__); \
		unit_s_->failed++;                                                    \
		return;                                                               \
	} while (0)

#define ASSERT_TRUE(c)                                       \
	do {                                                 \
		if (!(c))                                    \
			UNIT_FAIL_("expected true: %s", #c); \
	} while (0)

#define ASSERT_EQ(a, b)                                                                \
	do {                                                                           \
		long long a_ = (long long)(a), b_ = (long long)(b);                    \
		if (a_ != b_)                                                          \
			UNIT_FAIL_("%s == %lld, expected %s == %lld", #a, a_, #b, b_); \
	} while (0)

#define ASSERT_UEQ(a, b)                                                                       \
	do {                                                                                   \
		unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
		if (a_ != b_)                                                                  \
			UNIT_FAIL_("%s == %llu, expected %llu", #a, a_, b_);                   \
	} while (0)

#define ASSERT_STREQ(a, b)                                                       \
	do {                                                                     \
		const char *a_ = (a), *b_ = (b);                                 \
		if (strcmp(a_, b_) != 0)                                         \
			UNIT_FAIL_("%s == \"%s\", expected \"%s\"", #a, a_, b_); \
	} while (0)

#define ASSERT_NEAR(a, b, eps)                                                                    \
	do {                                                                                      \
		double a_ = (a), b_ = (b);                                                        \
		if (!(fabs(a_ - b_) <= (eps)))                                                    \
			UNIT_FAIL_("%s == %.9g, expected %.9g (±%g)", #a, a_, b_, (double)(eps)); \
	} while (0)

#define UNIT_MAIN_END(st)                                                 \
	do {                                                              \
		printf("%d tests, %d failed\n", (st)->run, (st)->failed); \
		return (st)->failed ? 1 : 0;                              \
	} while (0)

#endif
