#include "util/xml.h"

#include <string.h>

#include "util/text.h"

/*
 * One piece of XML text or attribute value: markup characters as entity
 * references; what XML 1.0 cannot carry (C0 controls, DEL, bytes that are not
 * UTF-8, U+FFFE, U+FFFF) as "\xNN" for each of its bytes.
 */
static bool xml_escape_piece(FILE *out, const unsigned char *p, size_t n, int32_t cp)
{
	/* in place, not pointers: no relocation to write at start (issue 24) */
	static const char named[0x40][7] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};

	if (cp >= 0 && cp < 0x40 && named[cp][0]) {
		fputs(named[cp], out);
		return true;
	}
	if (cp >= 0x20 && cp != 0x7f && cp != 0xfffe && cp != 0xffff)
		return false;
	for (size_t i = 0; i < n; i++)
		fprintf(out, "\\x%02x", p[i]);
	return true;
}

void xml_put_escaped(FILE *out, const char *s, size_t len)
{
	text_put_escaped(out, s, len, xml_escape_piece);
}

void xml_puts_escaped(FILE *out, const char *s)
{
	if (s)
		xml_put_escaped(out, s, strlen(s));
}
