/* Helpers shared by the command shells. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cmd.h"
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

int cmd_finish_stdout(int status)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno == EPIPE)
		return status;
	fprintf(stderr, "triage: write error on stdout: %s\n", strerror(errno));
	return status ? status : EXIT_RUNTIME;
}

/*
 * Keeping per-task files open needs fds (pidstat: 4 per task): raise the
 * limit, the hard one too when privileged, up to CMD_MAX_FDS.
 */
#define CMD_MAX_FDS (1 << 18)
long cmd_fd_budget(void)
{
	struct rlimit rl, want = { CMD_MAX_FDS, CMD_MAX_FDS };

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_max < CMD_MAX_FDS && !setrlimit(RLIMIT_NOFILE, &want))
		getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > CMD_MAX_FDS)
		rl.rlim_cur = CMD_MAX_FDS;
	return (long)rl.rlim_cur - 64; /* room for stdio, directories, -e */
}
