/* Helpers shared by the command shells. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "runloop/fdlimit.h"
#include "common.h"

void cmd_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "triage %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cmd_see_help(const char *cmd)
{
	fprintf(stderr, "see 'triage %s --help'\n", cmd);
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "triage %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cmd_see_help(cmd);
	return EXIT_USAGE;
}

int cmd_getopt_error(const char *cmd, int c, char **argv, int before)
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

int cmd_finish_stdout(int status)
{
	int err;

	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	err = errno;
	__fpurge(stdout); /* what could not be written is gone: do not report it twice */
	clearerr(stdout);
	if (err == EPIPE)
		return status;
	fprintf(stderr, "triage: write error on stdout: %s\n", strerror(err));
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
