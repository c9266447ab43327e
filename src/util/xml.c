#include "util/xml.h"

#include <string.h>

size_t xml_utf8_len(const unsigned char *s, size_t len)
{
	unsigned c = s[0], need, min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	if (len < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

void xml_put_escaped(FILE *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n = xml_utf8_len(s + i, len - i);

		if (n == 0) {
			fprintf(out, "\\x%02x", c);
			i++;
			continue;
		}
		if (n == 3 && c == 0xef && s[i + 1] == 0xbf &&
		    (s[i + 2] == 0xbe || s[i + 2] == 0xbf)) {
			/* U+FFFE, U+FFFF: not XML characters */
			fprintf(out, "\\x%02x\\x%02x\\x%02x", s[i], s[i + 1], s[i + 2]);
			i += 3;
			continue;
		}
		if (n > 1) {
			fwrite(s + i, 1, n, out);
			i += n;
			continue;
		}
		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(out, "\\x%02x", c);
			else
				fputc(c, out);
		}
		i++;
	}
}

void xml_puts_escaped(FILE *out, const char *s)
{
	if (s)
		xml_put_escaped(out, s, strlen(s));
}
