/*
 * Argument decoding for `triage probe trace`: which arguments of a syscall
 * are paths, fds or flags, and how to render them (open flags and AT_*
 * flags symbolically, modes in octal, paths C-escaped). Pure functions.
 */
#ifndef TRIAGE_PROBE_TRACE_DECODE_H
#define TRIAGE_PROBE_TRACE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

enum tr_kind {
	TK_INT,	    /* a C int, signed decimal from the low 32 bits (wait4(-1, ...)) */
	TK_LONG,    /* a long or loff_t, signed decimal from all 64 bits */
	TK_UINT,    /* unsigned decimal (sizes, counts) */
	TK_HEX,	    /* pointers and masks */
	TK_FD,	    /* an fd: AT_FDCWD by name */
	TK_PATH,    /* a user string the BPF side copied */
	TK_OFLAGS,  /* O_* open flags */
	TK_MODE,    /* permission bits, octal */
	TK_ATFLAGS, /* AT_* flags */
};

#define TR_MAX_ARGS 6

struct tr_sig {
	const char *name;
	unsigned nargs; /* known argument count; 6 for syscalls without a signature */
	enum tr_kind kind[TR_MAX_ARGS];
	bool ret_hex; /* returns an address (mmap, brk...) */
	bool known;   /* false: the generic fallback */
};

/* The signature of a syscall; unknown ones get 6 hex arguments. */
void tr_sig_lookup(const char *name, struct tr_sig *out);
/* The BPF side's str_args byte: index + 1 of the first two TK_PATH arguments. */
uint8_t tr_sig_str_spec(const struct tr_sig *s);

/*
 * How many arguments to show: as strace does, an open mode only counts
 * when the flags create a file (O_CREAT or O_TMPFILE).
 */
unsigned tr_sig_shown_args(const struct tr_sig *s, const __u64 *args);

/* "O_WRONLY|O_CREAT|O_TRUNC", unknown bits as "|0x...". */
void tr_format_oflags(char *buf, size_t len, uint64_t flags);
/* "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH", or "0". */
void tr_format_atflags(char *buf, size_t len, uint64_t flags);
/* A quoted C string with \n, \t, \", \\ and \xNN escapes; "..." after it if truncated. */
void tr_format_string(char *buf, size_t len, const char *s, size_t cap);
/*
 * One argument as text. str is the copied string for TK_PATH (cap bytes,
 * maybe without NUL when truncated), or NULL when it could not be read
 * (the raw pointer is shown then).
 */
void tr_format_arg(char *buf, size_t len, enum tr_kind k, uint64_t v, const char *str, size_t cap);
/* "3", "0x7f12...", or "-1 ENOENT (No such file or directory)". */
void tr_format_ret(char *buf, size_t len, int64_t ret, bool hex);

#endif
