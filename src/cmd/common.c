/* Helpers shared by the command shells. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "runloop/fdlimit.h"
#include "common.h"
#include "util/text.h"

/*
 * "triage CMD: message" on one line of stderr. The message often quotes
 * what the user typed or a name read from the system: it goes out through
 * text_put_safe, so no control byte or forged line reaches the terminal.
 */
static void error_line(const char *cmd, const char *fmt, va_list ap)
{
	char buf[1024], *big = NULL;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n >= (int)sizeof(buf) && (big = malloc((size_t)n + 1)))
		vsnprintf(big, (size_t)n + 1, fmt, again);
	va_end(again);
	fprintf(stderr, "triage %s: ", cmd);
	text_put_safe(stderr, big ? big : buf);
	fputc('\n', stderr);
	free(big);
}

void cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(cmd, fmt, ap);
	va_end(ap);
}

void cmd_see_help(const char *cmd)
{
	fprintf(stderr, "see 'triage %s --help'\n", cmd);
}

int cmd_unknown_word(const char *cmd, const char *what, const char *word, const char *const *names,
		     size_t n)
{
	cmd_error(cmd, "%s: '%s'", what, word);
	text_did_you_mean(stderr, word, names, n);
	cmd_see_help(cmd);
	return EXIT_USAGE;
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_line(cmd, fmt, ap);
	va_end(ap);
	cmd_see_help(cmd);
	return EXIT_USAGE;
}

/*
 * getopt_long (opterr = 0, optstring starting with ':' after any '+')
 * returned '?' or ':' for argv: reports the option it stopped at with
 * cmd_usage_error. before is optind before that call. Returns EXIT_USAGE.
 */
static int getopt_error(const char *cmd, int c, char **argv, int before)
{
	/* getopt stays on a word while inside a cluster such as -ax; a word it
	 * passed is the one it stopped at (a missing value ends argv) */
	const char *word = optind > before ? argv[optind - 1] : NULL;
	bool is_long = word && !strncmp(word, "--", 2);

	if (!is_long) {
		char opt[3] = { '-', (char)optopt, '\0' };

		return cmd_usage_error(
		    cmd, c == ':' ? "option needs a value: '%s'" : "unknown option: '%s'", opt);
	}
	if (c == ':')
		return cmd_usage_error(cmd, "option needs a value: '%s'", word);
	if (optopt) /* a known long option given a value it does not take */
		return cmd_usage_error(cmd, "option takes no value: '%s'", word);
	return cmd_usage_error(cmd, "unknown option: '%s'", word);
}

int cmd_getopt_loop(const char *cmd, int argc, char **argv, const char *optstring,
		    const struct option *longopts, int (*opt)(int ch, void *ctx), void *ctx)
{
	int ch, status, before;

	optind = 1;
	opterr = 0;
	while (before = optind, (ch = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		status = opt(ch, ctx);
		if (status == -2)
			return getopt_error(cmd, ch, argv, before);
		if (status >= 0)
			return status;
	}
	return -1;
}

int cmd_no_operands(const char *cmd, int argc, char **argv)
{
	if (optind < argc)
		return cmd_usage_error(cmd, "unexpected argument: '%s'", argv[optind]);
	return -1;
}

/* Statuses by errno: input, output, system. Any errno not here is 1 everywhere. */
static const struct {
	int err;
	unsigned char on[3]; /* by enum cmd_fault_on */
} errno_statuses[] = {
	{ ENOENT, { EXIT_USAGE, EXIT_RUNTIME, EXIT_NOSUPPORT } },
	{ ENOTDIR, { EXIT_USAGE, EXIT_RUNTIME, EXIT_NOSUPPORT } },
	{ EISDIR, { EXIT_USAGE, EXIT_RUNTIME, EXIT_RUNTIME } },
	{ ELOOP, { EXIT_USAGE, EXIT_RUNTIME, EXIT_RUNTIME } },
	{ ENAMETOOLONG, { EXIT_USAGE, EXIT_USAGE, EXIT_RUNTIME } },
	{ EINVAL, { EXIT_USAGE, EXIT_RUNTIME, EXIT_RUNTIME } },	 /* not of its kind */
	{ EPROTO, { EXIT_USAGE, EXIT_RUNTIME, EXIT_RUNTIME } },	 /* a format we do not read */
	{ ENOEXEC, { EXIT_USAGE, EXIT_RUNTIME, EXIT_RUNTIME } }, /* not a capture, not a db */
	{ EACCES, { EXIT_NOSUPPORT, EXIT_NOSUPPORT, EXIT_NOSUPPORT } },
	{ EPERM, { EXIT_NOSUPPORT, EXIT_NOSUPPORT, EXIT_NOSUPPORT } },
	{ EOPNOTSUPP, { EXIT_RUNTIME, EXIT_RUNTIME, EXIT_NOSUPPORT } },
	{ ENOSYS, { EXIT_RUNTIME, EXIT_RUNTIME, EXIT_NOSUPPORT } },
};

int cmd_errno_status(enum cmd_fault_on what, int err)
{
	if (err < 0)
		err = -err;
	if (!err)
		return EXIT_OK;
	for (size_t i = 0; i < ARRAY_SIZE(errno_statuses); i++)
		if (errno_statuses[i].err == err)
			return errno_statuses[i].on[what];
	return EXIT_RUNTIME;
}

enum cmd_fault_on cmd_root_fault(const char *root)
{
	return root && *root ? CMD_ON_INPUT : CMD_ON_SYSTEM;
}

/*
 * Why stdout failed when the failure is older than this fflush (errno has
 * moved on since): a pipe nobody reads reports POLLERR; a device or file
 * says again on an empty write. 0 when nothing tells.
 */
static int stdout_fault(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };
	struct stat st;

	if (fstat(STDOUT_FILENO, &st))
		return errno;
	if (S_ISFIFO(st.st_mode))
		return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? EPIPE : 0;
	return write(STDOUT_FILENO, "", 0) < 0 ? errno : 0;
}

int cmd_finish_stdout(int status)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	return cmd_stdout_failed(status, errno ? errno : stdout_fault());
}

int cmd_stdout_failed(int status, int err)
{
	__fpurge(stdout); /* what could not be written is gone: do not report it twice */
	clearerr(stdout);
	if (err == EPIPE) /* as pidstat | head: the reader is done, nothing to say */
		return status;
	if (err)
		fprintf(stderr, "triage: write error on stdout: %s\n", strerror(err));
	else
		fprintf(stderr, "triage: write error on stdout\n");
	return status ? status : EXIT_RUNTIME;
}

/*
 * Keeping per-task files open needs fds (pidstat: 4 per task): up to
 * CMD_MAX_FDS, less room for stdio, directories and -e.
 */
#define CMD_MAX_FDS (1 << 18)
long cmd_fd_budget(void)
{
	rlim_t n = runloop_raise_nofile(CMD_MAX_FDS);

	return n > 64 ? (long)n - 64 : 0;
}

long cmd_fd_budget_for(long want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rlim_t cur = rl.rlim_cur > CMD_MAX_FDS ? CMD_MAX_FDS : rl.rlim_cur;

		if (cur > 64 && (long)cur - 64 >= want)
			return (long)cur - 64;
	}
	return cmd_fd_budget();
}

int cmd_task_door(const char *cmd, enum task_door *door)
{
	const char *v = getenv("TRIAGE_TASK_SOURCE");
	enum task_door d = TASK_DOOR_AUTO;

	if (v && *v && procfs_task_door_parse(v, &d)) {
		cmd_error(cmd, "TRIAGE_TASK_SOURCE wants auto, proc or bpf: '%s'", v);
		return EXIT_USAGE;
	}
	*door = d;
	return 0;
}

void cmd_say_door(const char *cmd, const struct task_source *ts)
{
	fprintf(stderr, "triage %s: task source: %s (%s)\n", cmd,
		procfs_task_door_name(procfs_task_source_door(ts)), procfs_task_source_why(ts));
}
