#include "util/text.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Escape text for control character at s, or 0 bytes consumed if none. */
static size_t control_escape(const unsigned char *s, char esc[8])
{
	if (s[0] < 0x20 || s[0] == 0x7f) {
		snprintf(esc, 8, "\\x%02x", s[0]);
		return 1;
	}
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
		snprintf(esc, 8, "\\u%04x", s[1]);
		return 2;
	}
	return 0;
}

size_t text_sanitize(char *dst, size_t dstlen, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t need = 0;

	while (*s) {
		char esc[8];
		size_t used = control_escape(s, esc);
		const char *piece = used ? esc : (const char *)s;
		size_t plen = used ? strlen(esc) : 1;

		for (size_t i = 0; i < plen; i++, need++)
			if (dstlen && need < dstlen - 1)
				dst[need] = piece[i];
		s += used ? used : 1;
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
		size_t used = control_escape(s, esc);

		if (used) {
			fputs(esc, out);
			s += used;
		} else {
			fputc(*s++, out);
		}
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
