/*
 * Untrusted text (process names, command lines, packet bytes) on its way to
 * a terminal or an export. Names are attacker-controlled: a name must never
 * emit a terminal escape or forge an extra line.
 */
#ifndef TRIAGE_TEXT_H
#define TRIAGE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * Copies src into dst (size dstlen, always NUL-terminated), replacing C0
 * control bytes, DEL and the UTF-8 encodings of C1 controls (U+0080..U+009F)
 * by "\xNN" (C1: "\u0080".."\u009f"). Printable text, including backslashes and
 * other UTF-8, is unchanged. Returns the length the full result needs.
 */
size_t text_sanitize(char *dst, size_t dstlen, const char *src);

/* Writes src to out as text_sanitize() would. */
void text_put_safe(FILE *out, const char *src);

/*
 * Writes one CSV field (RFC 4180): quoted when it holds a comma, quote,
 * CR or LF or leading/trailing space; control bytes are sanitized first so
 * a field can never start a new record.
 */
void csv_put_field(FILE *out, const char *src);

#endif
