#include "util/text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp)
{
	size_t n;
	uint32_t v;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, v = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, v = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, v = s[0] & 0x07;
	else
		return 0;
	if (avail < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff))) ||
	    (n == 4 && (v < 0x10000 || v > 0x10ffff)))
		return 0;
	*cp = v;
	return n;
}

size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	uint32_t cp;

	return utf8_decode(s, avail, &cp);
}

void text_put_escaped(FILE *out, const char *str, size_t len, text_escape_fn *esc)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);
		size_t step = n ? n : 1;

		if (!esc(out, s + i, step, n ? (int32_t)cp : -1))
			fwrite(s + i, 1, step, out);
		i += step;
	}
}

/*
 * The next piece of s: its length in bytes; esc holds the escape text to
 * write instead of those bytes, or "" when they are printable text (one
 * ASCII byte or one whole valid UTF-8 sequence).
 */
static size_t next_piece(const unsigned char *s, char esc[8])
{
	size_t n = utf8_seq_len(s, SIZE_MAX);

	esc[0] = '\0';
	if (n == 0 || s[0] < 0x20 || s[0] == 0x7f) {
		/* a C0 control, DEL, or a byte that starts no valid UTF-8 (raw 8-bit C1) */
		snprintf(esc, 8, "\\x%02x", s[0]);
		return 1;
	}
	if (n == 2 && s[0] == 0xc2 && s[1] <= 0x9f)
		snprintf(esc, 8, "\\u%04x", s[1]); /* C1 control, UTF-8 encoded */
	return n;
}

bool text_needs_escape(const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	char esc[8];

	while (*s) {
		s += next_piece(s, esc);
		if (esc[0])
			return true;
	}
	return false;
}

void text_copy(char *dst, size_t dstlen, const char *src)
{
	size_t n = strnlen(src, dstlen - 1);

	memmove(dst, src, n);
	dst[n] = '\0';
}

size_t text_sanitize(char *dst, size_t dstlen, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t need = 0;

	while (*s) {
		char esc[8];
		size_t used = next_piece(s, esc);
		const char *piece = esc[0] ? esc : (const char *)s;
		size_t plen = esc[0] ? strlen(esc) : used;

		for (size_t i = 0; i < plen; i++, need++)
			if (dstlen && need < dstlen - 1)
				dst[need] = piece[i];
		s += used;
	}
	if (dstlen)
		dst[need < dstlen ? need : dstlen - 1] = '\0';
	return need;
}

void text_put_safe(FILE *out, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;

	while (*s) {
		char esc[8];
		size_t used = next_piece(s, esc);

		if (esc[0])
			fputs(esc, out);
		else
			fwrite(s, 1, used, out);
		s += used;
	}
}

static bool csv_needs_quotes(const char *s)
{
	size_t len = strlen(s);

	if (len && (s[0] == ' ' || s[len - 1] == ' '))
		return true;
	return strpbrk(s, ",\"\r\n") != NULL;
}

void csv_put_field(FILE *out, const char *src)
{
	char buf[512];
	char *big = NULL;
	const char *s = src;
	size_t need = text_sanitize(buf, sizeof(buf), src);

	s = buf;
	if (need >= sizeof(buf)) {
		big = malloc(need + 1);
		if (big) {
			text_sanitize(big, need + 1, src);
			s = big;
		}
	}
	if (!csv_needs_quotes(s)) {
		fputs(s, out);
	} else {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	}
	free(big);
}

/*
 * Optimal string alignment distance (Levenshtein plus swapping two
 * neighbours, the typo "reprot" is): how far a mistyped command is.
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[3][32]; /* rows i-2, i-1, i of a (lb + 1) x (la + 1) table */

	if (la > 30 || lb > 30)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], best = prev[j - 1] + cost;

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return d[la % 3][lb];
}

void text_did_you_mean(FILE *out, const char *word, const char *const *names, size_t n)
{
	size_t best = (size_t)-1, len = strlen(word);
	bool any = false;

	for (size_t i = 0; i < n; i++)
		if (edit_distance(word, names[i]) < best)
			best = edit_distance(word, names[i]);
	if (len < 2 || best > (len >= 5 ? 2u : 1u))
		return;
	for (size_t i = 0; i < n; i++) {
		if (edit_distance(word, names[i]) != best)
			continue;
		fprintf(out, "%s %s", any ? "," : "did you mean", names[i]);
		any = true;
	}
	if (any)
		fputs("?\n", out);
}
