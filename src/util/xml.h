/*
 * Untrusted text (function and process names) on its way into XML, SVG or
 * HTML. The result is always well-formed: markup characters become entity
 * references, and what XML 1.0 cannot carry at all (C0 controls, DEL,
 * invalid UTF-8, U+FFFE/U+FFFF) becomes visible "\xNN" text.
 */
#ifndef TRIAGE_XML_H
#define TRIAGE_XML_H

#include <stddef.h>
#include <stdio.h>

/* Writes the first len bytes of s, escaped for XML text and attribute values. */
void xml_put_escaped(FILE *out, const char *s, size_t len);
/* Same for a NUL-terminated string (NULL writes nothing). */
void xml_puts_escaped(FILE *out, const char *s);

#endif
