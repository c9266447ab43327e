/* test: shared -- pure code and its own process; see docs/testing.md */
/* src/util helpers that have no better home: util_grow(). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"
#include "util/grow.h"
#include "util/parse.h"

/* Appending one at a time keeps every element and grows geometrically. */
TEST(grow_appends)
{
	long *a = NULL;
	size_t cap = 0, len = 0, reallocs = 0;

	for (long i = 0; i < 10000; i++) {
		size_t before = cap;

		ASSERT_EQ(util_grow(&a, &cap, len + 1, sizeof(*a)), 0);
		ASSERT_TRUE(cap >= len + 1);
		reallocs += cap != before;
		a[len++] = i;
	}
	for (long i = 0; i < 10000; i++)
		ASSERT_EQ(a[i], i);
	ASSERT_TRUE(reallocs <= 12); /* 16 doubled to 16384 is 11 steps */
	free(a);
}

/* Enough room already: nothing moves; a jump asks for at least the need. */
TEST(grow_no_op_and_jump)
{
	int *a = NULL, *before;
	size_t cap = 0;

	ASSERT_EQ(util_grow(&a, &cap, 3, sizeof(*a)), 0);
	before = a;
	ASSERT_EQ(util_grow(&a, &cap, cap, sizeof(*a)), 0);
	ASSERT_TRUE(a == before);
	ASSERT_EQ(util_grow(&a, &cap, 1000, sizeof(*a)), 0);
	ASSERT_TRUE(cap >= 1000);
	a[999] = 7;
	free(a);
}

/* A size that cannot be represented fails cleanly and leaves the array. */
TEST(grow_overflow)
{
	char *a = NULL;
	size_t cap = 0;

	ASSERT_EQ(util_grow(&a, &cap, 10, 1), 0);
	ASSERT_EQ(util_grow(&a, &cap, SIZE_MAX / 2 + 2, 1), -ENOMEM);
	ASSERT_EQ(util_grow(&a, &cap, SIZE_MAX / 8, 16), -ENOMEM);
	ASSERT_TRUE(a != NULL && cap >= 10);
	free(a);
}

TEST(pid_lists)
{
	pid_t p[3];
	size_t n = 0;

	ASSERT_EQ(parse_pid_list("1,22,333", p, 3, &n), 0);
	ASSERT_EQ(n, 3);
	ASSERT_EQ(p[2], 333);
	n = 0;
	ASSERT_TRUE(parse_pid_list("1,2,3,4", p, 3, &n) < 0); /* too many */
	n = 0;
	ASSERT_TRUE(parse_pid_list("", p, 3, &n) < 0);
	ASSERT_TRUE(parse_pid_list("1,,2", p, 3, &n) < 0);
	n = 0;
	ASSERT_TRUE(parse_pid_list("0", p, 3, &n) < 0);
	ASSERT_TRUE(parse_pid_list("-1", p, 3, &n) < 0);
	ASSERT_TRUE(parse_pid_list("12345678901234567", p, 3, &n) < 0);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, grow_appends);
	RUN(&st, pid_lists);
	RUN(&st, grow_no_op_and_jump);
	RUN(&st, grow_overflow);
	UNIT_MAIN_END(&st);
}
