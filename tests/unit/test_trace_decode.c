/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * Argument decoding of `triage probe trace`. Expected flag bits come from
 * <fcntl.h> (the oracle), not from our own tables; syscall numbers from
 * <sys/syscall.h>.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

#include "unit.h"
#include "probe/syscall_names.h"
#include "probe/syscalls.h"
#include "probe/trace.h"
#include "probe/trace_decode.h"

TEST(syscall_table_matches_libc_headers)
{
	ASSERT_EQ(syscall_nr("openat"), SYS_openat);
	ASSERT_EQ(syscall_nr("getppid"), SYS_getppid);
	ASSERT_EQ(syscall_nr("execve"), SYS_execve);
	ASSERT_EQ(syscall_nr("exit_group"), SYS_exit_group);
	ASSERT_EQ(syscall_nr("no_such_call"), -ENOENT);
	ASSERT_STREQ(syscall_name(SYS_close), "close");
	ASSERT_TRUE(syscall_name(SC_MAX_NR + 100) == NULL);
}

TEST(open_flags_are_symbolic)
{
	char buf[256];

	tr_format_oflags(buf, sizeof(buf), O_RDONLY);
	ASSERT_STREQ(buf, "O_RDONLY");
	tr_format_oflags(buf, sizeof(buf), O_WRONLY | O_CREAT | O_TRUNC);
	ASSERT_STREQ(buf, "O_WRONLY|O_CREAT|O_TRUNC");
	tr_format_oflags(buf, sizeof(buf), O_RDWR | O_CLOEXEC | O_DIRECTORY);
	ASSERT_STREQ(buf, "O_RDWR|O_DIRECTORY|O_CLOEXEC");
	tr_format_oflags(buf, sizeof(buf), O_RDWR | O_TMPFILE);
	ASSERT_STREQ(buf, "O_RDWR|O_TMPFILE");
	tr_format_oflags(buf, sizeof(buf), O_WRONLY | O_SYNC);
	ASSERT_STREQ(buf, "O_WRONLY|O_SYNC");
	tr_format_oflags(buf, sizeof(buf), O_RDONLY | 0x80000000u);
	ASSERT_STREQ(buf, "O_RDONLY|0x80000000");
	tr_format_atflags(buf, sizeof(buf), AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH);
	ASSERT_STREQ(buf, "AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH");
	tr_format_atflags(buf, sizeof(buf), 0);
	ASSERT_STREQ(buf, "0");
}

TEST(strings_are_escaped_and_truncation_shown)
{
	char buf[128], full[8];

	tr_format_string(buf, sizeof(buf), "a\"b\\c\n\x1b[31m", 64);
	ASSERT_STREQ(buf, "\"a\\\"b\\\\c\\n\\x1b[31m\"");
	memcpy(full, "abcdefg", 8); /* 7 bytes + NUL fill the 8-byte copy: cut */
	tr_format_string(buf, sizeof(buf), full, sizeof(full));
	ASSERT_STREQ(buf, "\"abcdefg\"...");
	tr_format_string(buf, 6, "abcdefgh", 64); /* a short buffer stays terminated */
	ASSERT_EQ(strlen(buf), 5);
}

static void make_event(struct tr_event *e, const char *name, int64_t ret)
{
	memset(e, 0, sizeof(*e));
	e->nr = syscall_nr(name);
	e->ret = ret;
}

TEST(events_read_like_strace)
{
	struct tr_event e;
	char buf[2048];

	make_event(&e, "openat", 3);
	e.args[0] = (__u64)(int64_t)AT_FDCWD;
	e.args[2] = O_RDONLY | O_CLOEXEC;
	e.args[3] = 0777; /* ignored without O_CREAT */
	strcpy(e.str[0], "/etc/hostname");
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "openat(AT_FDCWD, \"/etc/hostname\", O_RDONLY|O_CLOEXEC) = 3");

	make_event(&e, "openat", -ENOENT);
	e.args[0] = 5;
	e.args[2] = O_WRONLY | O_CREAT;
	e.args[3] = 0644;
	strcpy(e.str[0], "x");
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "openat(5, \"x\", O_WRONLY|O_CREAT, 0644) = -1 ENOENT "
			  "(No such file or directory)");

	make_event(&e, "renameat2", 0);
	e.args[0] = e.args[2] = (__u64)(int64_t)AT_FDCWD;
	e.args[1] = 0x1000;
	strcpy(e.str[1], "b");
	e.flags = TR_F_STR0_FAULT; /* the first path could not be read */
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "renameat2(AT_FDCWD, 0x1000, AT_FDCWD, \"b\", 0) = 0");

	make_event(&e, "exit_group", 0);
	e.flags = TR_F_NORETURN;
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "exit_group(0) = ?");
}

/* Signed arguments as strace prints them (issue 25: wait4(4294967295, ...)). */
TEST(signed_arguments_read_like_strace)
{
	struct tr_event e;
	char buf[512];

	make_event(&e, "wait4", 4321);
	e.args[0] = 0xffffffffu; /* an int -1, zero-extended in the register */
	e.args[1] = 0x7ffc1000;
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "wait4(-1, 0x7ffc1000, 0x0, 0x0) = 4321");

	make_event(&e, "kill", 0);
	e.args[0] = (__u64)(int64_t)-4321; /* a process group, sign-extended */
	e.args[1] = 15;
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "kill(-4321, 15) = 0");

	make_event(&e, "lseek", 0);
	e.args[0] = 3;
	e.args[1] = (__u64)(int64_t)-8589934592LL; /* a 64-bit offset: not cut to 32 bits */
	e.args[2] = 2;
	tr_event_format(buf, sizeof(buf), &e);
	ASSERT_STREQ(buf, "lseek(3, -8589934592, 2) = 0");
}

TEST(string_spec_names_path_arguments)
{
	struct tr_sig s;

	tr_sig_lookup("openat", &s);
	ASSERT_EQ(tr_sig_str_spec(&s), 2);
	tr_sig_lookup("renameat", &s);
	ASSERT_EQ(tr_sig_str_spec(&s), 2 | 4 << 4);
	tr_sig_lookup("getppid", &s);
	ASSERT_EQ(s.nargs, 0);
	tr_sig_lookup("some_unknown_call", &s);
	ASSERT_TRUE(!s.known && s.nargs == 6 && tr_sig_str_spec(&s) == 0);
}

TEST(syscall_lists_parse)
{
	int nrs[4];
	char bad[64];

	ASSERT_EQ(tr_parse_syscalls("openat,close", nrs, 4, bad, sizeof(bad)), 2);
	ASSERT_EQ(nrs[0], SYS_openat);
	ASSERT_EQ(nrs[1], SYS_close);
	ASSERT_EQ(tr_parse_syscalls("openat,bogus", nrs, 4, bad, sizeof(bad)), -ENOENT);
	ASSERT_STREQ(bad, "bogus");
	ASSERT_EQ(tr_parse_syscalls("openat,", nrs, 4, bad, sizeof(bad)), -ENOENT);
	ASSERT_EQ(tr_parse_syscalls("", nrs, 4, bad, sizeof(bad)), -ENOENT);
	ASSERT_EQ(tr_parse_syscalls("read,read,read,read,read", nrs, 4, bad, sizeof(bad)), -E2BIG);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, syscall_table_matches_libc_headers);
	RUN(&st, open_flags_are_symbolic);
	RUN(&st, strings_are_escaped_and_truncation_shown);
	RUN(&st, events_read_like_strace);
	RUN(&st, signed_arguments_read_like_strace);
	RUN(&st, string_spec_names_path_arguments);
	RUN(&st, syscall_lists_parse);
	UNIT_MAIN_END(&st);
}
