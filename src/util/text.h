/*
 * Untrusted text (process names, command lines, packet bytes) on its way to
 * a terminal or an export. Names are attacker-controlled: a name must never
 * emit a terminal escape or forge an extra line.
 */
#ifndef TRIAGE_TEXT_H
#define TRIAGE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Copies src into dst (size dstlen, always NUL-terminated), replacing C0
 * control bytes, DEL, bytes that are not valid UTF-8 (a raw 8-bit C1 among them)
 * and the UTF-8 encodings of C1 controls (U+0080..U+009F) by "\xNN" (C1:
 * "\u0080".."\u009f"), so the result is valid UTF-8 with no control in it.
 * Printable text, including backslashes and other UTF-8, is unchanged. Returns the length the full
 * result needs.
 */
size_t text_sanitize(char *dst, size_t dstlen, const char *src);

/*
 * Copies src into dst (size dstlen > 0), cut to fit and NUL-terminated, as
 * snprintf(dst, dstlen, "%s", src) would, without a format's cost: the
 * samplers copy every task's name every interval.
 */
void text_copy(char *dst, size_t dstlen, const char *src);

/*
 * Length of the valid UTF-8 sequence (1..4 bytes) at s, or 0 if the bytes
 * there are not one (overlong, surrogate, cut short); reads at most avail
 * bytes and stops at a NUL, so SIZE_MAX is fine for a C string.
 */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

/* utf8_seq_len(), also giving the sequence's scalar value in *cp when it is one. */
size_t utf8_decode(const unsigned char *s, size_t avail, uint32_t *cp);

/*
 * One output format's escape for a piece of text: p is one whole valid UTF-8
 * sequence of n bytes and scalar value cp, or (n 1, cp -1) one byte that
 * starts none. Writes the piece's escape to out and returns true, or writes
 * nothing and returns false to let the piece through as it is.
 */
typedef bool text_escape_fn(FILE *out, const unsigned char *p, size_t n, int32_t cp);

/* Writes the first len bytes of s to out piece by piece, each as esc has it. */
void text_put_escaped(FILE *out, const char *s, size_t len, text_escape_fn *esc);

/* Whether text_sanitize() would change src. */
bool text_needs_escape(const char *src);

/* Writes src to out as text_sanitize() would. */
void text_put_safe(FILE *out, const char *src);

/*
 * Writes one CSV field (RFC 4180): quoted when it holds a comma, quote,
 * CR or LF or leading/trailing space; control bytes are sanitized first so
 * a field can never start a new record.
 */
void csv_put_field(FILE *out, const char *src);

/*
 * As git does for a mistyped command: writes "did you mean A, B?" and a
 * newline to out, naming the names nearest word when they are one edit
 * away, or two for a word of five letters or more (a swap of neighbours is
 * one edit: "reprot"); writes nothing otherwise.
 */
void text_did_you_mean(FILE *out, const char *word, const char *const *names, size_t n);

#endif
