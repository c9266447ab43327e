/*
 * One streaming JSON writer for every command. It tracks nesting and
 * commas and escapes every string, so call sites never write JSON syntax
 * by hand. Strings that are not valid UTF-8 stay valid JSON: each invalid
 * byte is written as the Latin-1 code point \u00XX.
 */
#ifndef TRIAGE_JSON_H
#define TRIAGE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
	char closer[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json_writer *w, FILE *out, bool pretty);
void json_object_begin(struct json_writer *w);
void json_array_begin(struct json_writer *w);
/* Closes the innermost object or array. */
void json_end(struct json_writer *w);
/* Closes everything still open: every exit path calls this. */
void json_finish(struct json_writer *w);

void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_string_len(struct json_writer *w, const char *s, size_t len);
void json_int(struct json_writer *w, int64_t v);
void json_uint(struct json_writer *w, uint64_t v);
/* Fixed decimals, always with '.' whatever the locale; NaN/Inf become null. */
void json_double(struct json_writer *w, double v, int decimals);
void json_bool(struct json_writer *w, bool v);
void json_null(struct json_writer *w);

void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
void json_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void json_kv_double(struct json_writer *w, const char *key, double v, int decimals);
void json_kv_bool(struct json_writer *w, const char *key, bool v);

/* Writes s as the body of a JSON string (no quotes) to out. */
void json_escape_to(FILE *out, const char *s, size_t len);

#endif
