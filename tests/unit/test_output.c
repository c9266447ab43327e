/* test: shared -- pure code and its own process; see docs/testing.md */
/* The JSON writer, terminal sanitizer and CSV field writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "util/json.h"
#include "util/parse.h"
#include "util/text.h"

/* Runs fn into a memory stream and returns what it wrote (caller frees). */
static char *capture(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f);
	fclose(f);
	return buf;
}

static void write_doc(FILE *f)
{
	struct json_writer w;

	json_init(&w, f, false);
	json_object_begin(&w);
	json_kv_string(&w, "cmd", "a\"b\\c\n\x1b[31m\x01");
	json_kv_int(&w, "n", -3);
	json_key(&w, "list");
	json_array_begin(&w);
	json_uint(&w, 1);
	json_double(&w, 2.5, 2);
	json_bool(&w, true);
	json_null(&w);
	json_string(&w, "\xff\xc3\xa9\xc2\x9b"); /* invalid byte, a valid é, C1 CSI */
	json_end(&w);
	json_key(&w, "empty");
	json_object_begin(&w);
	json_finish(&w); /* closes "empty" and the top object */
}

TEST(json_escapes_and_nests)
{
	char *out = capture(write_doc);

	ASSERT_STREQ(out, "{\"cmd\":\"a\\\"b\\\\c\\n\\u001b[31m\\u0001\",\"n\":-3,"
			  "\"list\":[1,2.50,true,null,\"\\u00ff\xc3\xa9\\u009b\"],\"empty\":{}}\n");
	free(out);
}

static void write_nan(FILE *f)
{
	struct json_writer w;

	json_init(&w, f, false);
	json_array_begin(&w);
	json_double(&w, 0.0 / 0.0, 2);
	json_end(&w);
}

TEST(json_nan_is_null)
{
	char *out = capture(write_nan);

	ASSERT_STREQ(out, "[null]\n");
	free(out);
}

TEST(sanitize_controls)
{
	char buf[64];

	ASSERT_EQ(text_sanitize(buf, sizeof(buf), "ok name"), 7);
	ASSERT_STREQ(buf, "ok name");
	text_sanitize(buf, sizeof(buf), "a\x1b[2Jb\nc\x7f");
	ASSERT_STREQ(buf, "a\\x1b[2Jb\\x0ac\\x7f");
	text_sanitize(buf, sizeof(buf),
		      "c1\xc2\x9b"
		      "x");
	ASSERT_STREQ(buf, "c1\\u009bx");
	text_sanitize(buf, sizeof(buf), "\xc3\xa9t\xc3\xa9 (x)");
	ASSERT_STREQ(buf, "\xc3\xa9t\xc3\xa9 (x)");
	/* invalid UTF-8 (a raw 8-bit CSI, a cut sequence, an overlong '/') is escaped */
	text_sanitize(buf, sizeof(buf),
		      "\x9b"
		      "2J\xff\xc3(\xc0\xaf\xe2\x82");
	ASSERT_STREQ(buf, "\\x9b2J\\xff\\xc3(\\xc0\\xaf\\xe2\\x82");
	ASSERT_TRUE(!text_needs_escape("\xe2\x82\xac \xf0\x9f\x98\x80 plain"));
	ASSERT_TRUE(text_needs_escape("ok\xff"));
	/* truncation keeps the terminator and reports the full length */
	ASSERT_EQ(text_sanitize(buf, 4, "\n\n"), 8);
	ASSERT_STREQ(buf, "\\x0");
}

/* text_copy cuts where snprintf("%s") would, without reading past the cut */
TEST(copy_cuts_like_snprintf)
{
	static const char *const in[] = { "", "ab", "abc", "abcd", "abcdefgh" };
	char got[4], want[4], big[8] = "abcdefgh"; /* no NUL within the first 8 */

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		text_copy(got, sizeof(got), in[i]);
		snprintf(want, sizeof(want), "%s", in[i]);
		ASSERT_STREQ(got, want);
	}
	text_copy(got, sizeof(got), big);
	ASSERT_STREQ(got, "abc");
	text_copy(got, 1, "x");
	ASSERT_STREQ(got, "");
}

static void write_csv(FILE *f)
{
	csv_put_field(f, "plain");
	fputc(',', f);
	csv_put_field(f, "a,\"b\"");
	fputc(',', f);
	csv_put_field(f, "line\nforged,1");
}

/* One UTF-8 sequence: whole and valid, or 0 (the escapers write such bytes as escapes). */
TEST(utf8_len)
{
	uint32_t cp;

	ASSERT_EQ(utf8_seq_len((const unsigned char *)"a", 1), 1);
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xc3\xa9", 2), 2);
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xc3", 1), 0);	      /* truncated */
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xc0\x80", 2), 0);     /* overlong */
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xed\xa0\x80", 3), 0); /* surrogate */
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80", 4), 0);
	ASSERT_EQ(utf8_seq_len((const unsigned char *)"\xf0\x9f\x94\xa5", 4), 4);
	ASSERT_EQ(utf8_decode((const unsigned char *)"\xef\xbf\xbe", 3, &cp), 3);
	ASSERT_EQ(cp, 0xfffe);
	ASSERT_EQ(utf8_decode((const unsigned char *)"\xf0\x9f\x94\xa5", 4, &cp), 4);
	ASSERT_EQ(cp, 0x1f525);
}

TEST(csv_quotes_and_defuses)
{
	char *out = capture(write_csv);

	ASSERT_STREQ(out, "plain,\"a,\"\"b\"\"\",\"line\\x0aforged,1\"");
	free(out);
}

TEST(parse_numbers)
{
	uint64_t v;
	unsigned u;
	double d;

	ASSERT_EQ(parse_u64("123", UINT64_MAX, &v), 0);
	ASSERT_UEQ(v, 123);
	ASSERT_EQ(parse_u64("12abc", UINT64_MAX, &v), -EINVAL);
	ASSERT_EQ(parse_u64("", UINT64_MAX, &v), -EINVAL);
	ASSERT_EQ(parse_u64("-1", UINT64_MAX, &v), -EINVAL);
	ASSERT_EQ(parse_u64("18446744073709551616", UINT64_MAX, &v), -ERANGE);
	ASSERT_EQ(parse_uint("0", 1, 10, &u), -ERANGE);
	ASSERT_EQ(parse_uint("11", 1, 10, &u), -ERANGE);
	ASSERT_EQ(parse_seconds("0.5", &d), 0);
	ASSERT_NEAR(d, 0.5, 1e-12);
	ASSERT_EQ(parse_seconds("0", &d), -ERANGE);
	ASSERT_EQ(parse_seconds("1s", &d), -EINVAL);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, json_escapes_and_nests);
	RUN(&st, json_nan_is_null);
	RUN(&st, sanitize_controls);
	RUN(&st, copy_cuts_like_snprintf);
	RUN(&st, utf8_len);
	RUN(&st, csv_quotes_and_defuses);
	RUN(&st, parse_numbers);
	UNIT_MAIN_END(&st);
}
