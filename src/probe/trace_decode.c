#define _GNU_SOURCE
#include "probe/trace_decode.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "probe/syscalls.h"
#include "util/inplace.h"

/*
 * Argument kinds per syscall, spelled as in the kernel's SYSCALL_DEFINE:
 * d=fd, p=path, o=open flags, m=mode, a=AT_* flags, i=int, l=long or
 * loff_t, u=unsigned, x=hex. An int is read from the register's low 32
 * bits, as strace prints it: the kernel may hand -1 zero-extended. Syscalls not listed are shown
 * with six hex arguments. The strings are held in place, not behind
 * pointers (util/inplace.h).
 */
STRINGS_IN_PLACE
static const struct {
	char name[16], args[TR_MAX_ARGS + 1];
	bool ret_hex;
} sigs[] = {
	{ "open", "pom" },
	{ "openat", "dpom" },
	{ "openat2", "dpxu" },
	{ "creat", "pm" },
	{ "execve", "pxx" },
	{ "execveat", "dpxxa" },
	{ "stat", "px" },
	{ "lstat", "px" },
	{ "newfstatat", "dpxa" },
	{ "statx", "dpaxx" },
	{ "access", "pi" },
	{ "faccessat", "dpi" },
	{ "faccessat2", "dpia" },
	{ "readlink", "pxu" },
	{ "readlinkat", "dpxu" },
	{ "unlink", "p" },
	{ "unlinkat", "dpa" },
	{ "mkdir", "pm" },
	{ "mkdirat", "dpm" },
	{ "rmdir", "p" },
	{ "rename", "pp" },
	{ "renameat", "dpdp" },
	{ "renameat2", "dpdpu" },
	{ "link", "pp" },
	{ "linkat", "dpdpa" },
	{ "symlink", "pp" },
	{ "symlinkat", "pdp" },
	{ "chdir", "p" },
	{ "chroot", "p" },
	{ "chmod", "pm" },
	{ "fchmodat", "dpm" },
	{ "chown", "pii" },
	{ "lchown", "pii" },
	{ "fchownat", "dpiia" },
	{ "truncate", "pi" },
	{ "utimensat", "dpxa" },
	{ "mknod", "pmu" },
	{ "mknodat", "dpmu" },
	{ "statfs", "px" },
	{ "getxattr", "ppxu" },
	{ "setxattr", "ppxui" },
	{ "listxattr", "pxu" },
	{ "swapon", "pi" },
	{ "acct", "p" },
	{ "read", "dxu" },
	{ "write", "dxu" },
	{ "pread64", "dxul" },
	{ "pwrite64", "dxul" },
	{ "readv", "dxu" },
	{ "writev", "dxu" },
	{ "close", "d" },
	{ "fstat", "dx" },
	{ "lseek", "dli" },
	{ "dup", "d" },
	{ "dup2", "dd" },
	{ "dup3", "ddo" },
	{ "fsync", "d" },
	{ "fdatasync", "d" },
	{ "ftruncate", "dl" },
	{ "fchmod", "dm" },
	{ "fchown", "dii" },
	{ "fchdir", "d" },
	{ "getdents64", "dxu" },
	{ "ioctl", "dxx" },
	{ "fcntl", "dix" },
	{ "flock", "di" },
	{ "sendfile", "ddxu" },
	{ "socket", "iii" },
	{ "connect", "dxu" },
	{ "accept", "dxx" },
	{ "accept4", "dxxx" },
	{ "bind", "dxu" },
	{ "listen", "di" },
	{ "sendto", "dxuxxu" },
	{ "recvfrom", "dxuxxx" },
	{ "sendmsg", "dxx" },
	{ "recvmsg", "dxx" },
	{ "shutdown", "di" },
	{ "pipe2", "xo" },
	{ "kill", "ii" },
	{ "tgkill", "iii" },
	{ "exit", "i" },
	{ "exit_group", "i" },
	{ "wait4", "ixxx" },
	{ "nanosleep", "xx" },
	{ "clock_nanosleep", "iixx" },
	{ "getpid", "" },
	{ "getppid", "" },
	{ "gettid", "" },
	{ "getuid", "" },
	{ "sched_yield", "" },
	{ "fork", "" },
	{ "vfork", "" },
	{ "clone", "xxxxx" },
	{ "munmap", "xu" },
	{ "mprotect", "xux" },
	{ "madvise", "xui" },
	{ "mmap", "xuxxdx", true },
	{ "mremap", "xuuxx", true },
	{ "brk", "x", true },
};
STRINGS_IN_PLACE_END

static enum tr_kind kind_of(char c)
{
	switch (c) {
	case 'd':
		return TK_FD;
	case 'p':
		return TK_PATH;
	case 'o':
		return TK_OFLAGS;
	case 'm':
		return TK_MODE;
	case 'a':
		return TK_ATFLAGS;
	case 'u':
		return TK_UINT;
	case 'x':
		return TK_HEX;
	case 'l':
		return TK_LONG;
	default:
		return TK_INT;
	}
}

void tr_sig_lookup(const char *name, struct tr_sig *out)
{
	*out = (struct tr_sig){ .name = name, .nargs = TR_MAX_ARGS };
	for (unsigned i = 0; i < TR_MAX_ARGS; i++)
		out->kind[i] = TK_HEX;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (strcmp(sigs[i].name, name))
			continue;
		out->known = true;
		out->ret_hex = sigs[i].ret_hex;
		out->nargs = (unsigned)strlen(sigs[i].args);
		for (unsigned a = 0; a < out->nargs; a++)
			out->kind[a] = kind_of(sigs[i].args[a]);
		return;
	}
}

uint8_t tr_sig_str_spec(const struct tr_sig *s)
{
	unsigned n = 0;
	uint8_t spec = 0;

	for (unsigned a = 0; a < s->nargs && n < 2; a++)
		if (s->kind[a] == TK_PATH)
			spec |= (uint8_t)((a + 1) << (4 * n++));
	return spec;
}

unsigned tr_sig_shown_args(const struct tr_sig *s, const __u64 *args)
{
	unsigned last = s->nargs;

	uint64_t f;

	if (last < 2 || s->kind[last - 1] != TK_MODE || s->kind[last - 2] != TK_OFLAGS)
		return last;
	f = args[last - 2];
	if (!(f & O_CREAT) && (f & O_TMPFILE) != O_TMPFILE)
		return last - 1;
	return last;
}

/* Names in place, as in sigs[]. */
struct flag_name {
	uint64_t bit;
	char name[24];
};

/* Appends to buf at *pos without overflowing; the result stays NUL-terminated. */
static void put(char *buf, size_t len, size_t *pos, const char *s)
{
	int n = snprintf(buf + *pos, len - *pos, "%s", s);

	if (n > 0)
		*pos = *pos + (size_t)n < len ? *pos + (size_t)n : len - 1;
}

static void put_flags(char *buf, size_t len, size_t *pos, uint64_t flags,
		      const struct flag_name *names, size_t n)
{
	char rest[24];

	for (size_t i = 0; i < n; i++) {
		if ((flags & names[i].bit) != names[i].bit)
			continue;
		if (*pos)
			put(buf, len, pos, "|");
		put(buf, len, pos, names[i].name);
		flags &= ~names[i].bit;
	}
	if (flags || !*pos) {
		snprintf(rest, sizeof(rest), "%s0x%llx", *pos ? "|" : "",
			 (unsigned long long)flags);
		put(buf, len, pos, rest);
	}
}

void tr_format_oflags(char *buf, size_t len, uint64_t flags)
{
	/* O_SYNC includes O_DSYNC and O_TMPFILE includes O_DIRECTORY: whole first. */
	STRINGS_IN_PLACE
	static const struct flag_name names[] = {
		{ O_CREAT, "O_CREAT" },		{ O_EXCL, "O_EXCL" },
		{ O_NOCTTY, "O_NOCTTY" },	{ O_TRUNC, "O_TRUNC" },
		{ O_APPEND, "O_APPEND" },	{ O_NONBLOCK, "O_NONBLOCK" },
		{ O_SYNC, "O_SYNC" },		{ O_DSYNC, "O_DSYNC" },
		{ O_ASYNC, "O_ASYNC" },		{ O_DIRECT, "O_DIRECT" },
		{ 0100000, "O_LARGEFILE" },	{ O_TMPFILE, "O_TMPFILE" },
		{ O_DIRECTORY, "O_DIRECTORY" }, { O_NOFOLLOW, "O_NOFOLLOW" },
		{ O_NOATIME, "O_NOATIME" },	{ O_CLOEXEC, "O_CLOEXEC" },
		{ O_PATH, "O_PATH" },
	};
	static const char acc[][10] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	STRINGS_IN_PLACE_END
	size_t pos = 0;

	buf[0] = 0;
	put(buf, len, &pos, acc[flags & O_ACCMODE]);
	flags &= ~(uint64_t)O_ACCMODE;
	if (flags)
		put_flags(buf, len, &pos, flags, names, sizeof(names) / sizeof(names[0]));
}

void tr_format_atflags(char *buf, size_t len, uint64_t flags)
{
	STRINGS_IN_PLACE
	static const struct flag_name names[] = {
		{ AT_SYMLINK_NOFOLLOW, "AT_SYMLINK_NOFOLLOW" },
		{ AT_REMOVEDIR, "AT_REMOVEDIR" },
		{ AT_SYMLINK_FOLLOW, "AT_SYMLINK_FOLLOW" },
		{ AT_NO_AUTOMOUNT, "AT_NO_AUTOMOUNT" },
		{ AT_EMPTY_PATH, "AT_EMPTY_PATH" },
	};
	STRINGS_IN_PLACE_END
	size_t pos = 0;

	buf[0] = 0;
	if (!flags) {
		put(buf, len, &pos, "0");
		return;
	}
	put_flags(buf, len, &pos, flags, names, sizeof(names) / sizeof(names[0]));
}

static void put_escaped(char *buf, size_t len, size_t *pos, unsigned char c)
{
	char e[8];

	switch (c) {
	case '"':
		put(buf, len, pos, "\\\"");
		return;
	case '\\':
		put(buf, len, pos, "\\\\");
		return;
	case '\n':
		put(buf, len, pos, "\\n");
		return;
	case '\t':
		put(buf, len, pos, "\\t");
		return;
	}
	if (c < 0x20 || c >= 0x7f)
		snprintf(e, sizeof(e), "\\x%02x", c);
	else
		snprintf(e, sizeof(e), "%c", c);
	put(buf, len, pos, e);
}

void tr_format_string(char *buf, size_t len, const char *s, size_t cap)
{
	size_t pos = 0, n = strnlen(s, cap);

	buf[0] = 0;
	put(buf, len, &pos, "\"");
	for (size_t i = 0; i < n; i++)
		put_escaped(buf, len, &pos, (unsigned char)s[i]);
	put(buf, len, &pos, "\"");
	/* The BPF copy keeps cap - 1 bytes and a NUL: a full one was cut. */
	if (n + 1 >= cap)
		put(buf, len, &pos, "...");
}

void tr_format_arg(char *buf, size_t len, enum tr_kind k, uint64_t v, const char *str, size_t cap)
{
	switch (k) {
	case TK_FD:
		if ((int)v == AT_FDCWD)
			snprintf(buf, len, "AT_FDCWD");
		else
			snprintf(buf, len, "%d", (int)v);
		return;
	case TK_PATH:
		if (str)
			tr_format_string(buf, len, str, cap);
		else
			snprintf(buf, len, "0x%llx", (unsigned long long)v);
		return;
	case TK_OFLAGS:
		tr_format_oflags(buf, len, v & 0xffffffffu);
		return;
	case TK_ATFLAGS:
		tr_format_atflags(buf, len, v & 0xffffffffu);
		return;
	case TK_MODE:
		snprintf(buf, len, "0%llo", (unsigned long long)(v & 07777));
		return;
	case TK_UINT:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return;
	case TK_HEX:
		snprintf(buf, len, "0x%llx", (unsigned long long)v);
		return;
	case TK_LONG:
		snprintf(buf, len, "%lld", (long long)(int64_t)v);
		return;
	case TK_INT:
	default:
		snprintf(buf, len, "%d", (int)(int32_t)(uint32_t)v);
		return;
	}
}

void tr_format_ret(char *buf, size_t len, int64_t ret, bool hex)
{
	char name[24];

	if (ret < 0 && ret >= -4095) {
		uint32_t err = (uint32_t)-ret;

		snprintf(buf, len, "-1 %s (%s)", sc_errno_name(err, name, sizeof(name)),
			 err < 512 ? strerror((int)err) : "kernel-internal");
		return;
	}
	if (hex)
		snprintf(buf, len, "0x%llx", (unsigned long long)ret);
	else
		snprintf(buf, len, "%lld", (long long)ret);
}
