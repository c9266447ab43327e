#include "util/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/text.h"

void json_init(struct json_writer *w, FILE *out, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->pretty = pretty;
}

static void newline_indent(struct json_writer *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Writes the separator that must precede a value or a key. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (!w->first[w->depth])
		fputc(',', w->out);
	w->first[w->depth] = false;
	newline_indent(w);
}

static void open_container(struct json_writer *w, char open, char close)
{
	before_value(w);
	fputc(open, w->out);
	if (w->depth + 1 >= JSON_MAX_DEPTH)
		return; /* deeper nesting is a programming error; stay parseable */
	w->depth++;
	w->first[w->depth] = true;
	w->closer[w->depth] = close;
}

void json_object_begin(struct json_writer *w)
{
	open_container(w, '{', '}');
}

void json_array_begin(struct json_writer *w)
{
	open_container(w, '[', ']');
}

void json_end(struct json_writer *w)
{
	bool empty;

	if (w->depth == 0)
		return;
	if (w->after_key) { /* a key without a value: keep the document valid */
		w->after_key = false;
		fputs("null", w->out);
	}
	empty = w->first[w->depth];
	w->depth--;
	if (!empty)
		newline_indent(w);
	fputc(w->closer[w->depth + 1], w->out);
	if (w->depth == 0)
		fputc('\n', w->out);
}

void json_finish(struct json_writer *w)
{
	while (w->depth > 0)
		json_end(w);
}

/*
 * One piece of a JSON string (RFC 8259). Controls, C0 and C1 (JSON may reach
 * a terminal), DEL and bytes that are not UTF-8 become \u00XX.
 */
static bool json_escape_piece(FILE *out, const unsigned char *p, size_t n, int32_t cp)
{
	/* in place, not pointers: no relocation to write at start (issue 24) */
	static const char named[0x60][3] = {
		['"'] = "\\\"", ['\\'] = "\\\\", ['\b'] = "\\b", ['\f'] = "\\f",
		['\n'] = "\\n", ['\r'] = "\\r",	 ['\t'] = "\\t",
	};

	(void)n;
	if (cp >= 0 && cp < 0x60 && named[cp][0]) {
		fputs(named[cp], out);
		return true;
	}
	if (cp >= 0x20 && (cp < 0x7f || cp > 0x9f))
		return false;
	fprintf(out, "\\u%04x", cp < 0 ? p[0] : (unsigned)cp);
	return true;
}

void json_escape_to(FILE *out, const char *str, size_t len)
{
	text_put_escaped(out, str, len, json_escape_piece);
}

void json_key(struct json_writer *w, const char *key)
{
	before_value(w);
	fputc('"', w->out);
	json_escape_to(w->out, key, strlen(key));
	fputs(w->pretty ? "\": " : "\":", w->out);
	w->after_key = true;
}

void json_string_len(struct json_writer *w, const char *s, size_t len)
{
	before_value(w);
	fputc('"', w->out);
	json_escape_to(w->out, s, len);
	fputc('"', w->out);
}

void json_string(struct json_writer *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	json_string_len(w, s, strlen(s));
}

void json_int(struct json_writer *w, int64_t v)
{
	before_value(w);
	fprintf(w->out, "%" PRId64, v);
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_value(w);
	fprintf(w->out, "%" PRIu64, v);
}

void json_double(struct json_writer *w, double v, int decimals)
{
	char buf[64];

	if (!isfinite(v)) {
		json_null(w);
		return;
	}
	before_value(w);
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	/* A comma decimal separator (LC_NUMERIC) is not JSON. */
	for (char *p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	fputs(buf, w->out);
}

void json_bool(struct json_writer *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->out);
}

void json_null(struct json_writer *w)
{
	before_value(w);
	fputs("null", w->out);
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}

void json_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_double(struct json_writer *w, const char *key, double v, int decimals)
{
	json_key(w, key);
	json_double(w, v, decimals);
}

void json_kv_bool(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	json_bool(w, v);
}
