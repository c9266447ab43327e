/* The command layer: one entry point per subcommand, src/cmd/<name>.c. Only
 * main.c and src/cmd/ include this; cores never call cmd_* (the build checks). */
#ifndef TRIAGE_CMD_H
#define TRIAGE_CMD_H

#include <stdbool.h>
#include <stdio.h>

struct cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	bool own_stdout; /* the command decides about write errors (pidstat mode) */
};

int cmd_pidstat(int argc, char **argv);
int cmd_pidstat_link(int argc, char **argv); /* invoked as "pidstat": no --help of ours */
int cmd_load(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_u32(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* Reports an error as "triage <cmd>: <message>" on stderr. */
void cmd_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A usage error: "triage <cmd>: <message>" (which names the bad word as
 * '<word>'), then "see 'triage <cmd> --help'", on stderr; no usage dump.
 * Returns EXIT_USAGE. cmd may be two words ("probe runq").
 */
int cmd_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Just the "see 'triage <cmd> --help'" line (pidstat mode adds it after sysstat's usage). */
void cmd_see_help(const char *cmd);

/*
 * getopt_long (opterr = 0, optstring starting with ':' after any '+')
 * returned '?' or ':' for argv: reports the option it stopped at with
 * cmd_usage_error. before is optind before that call. Returns EXIT_USAGE.
 */
int cmd_getopt_error(const char *cmd, int c, char **argv, int before);

/*
 * Flushes stdout and reports a write failure (full disk, EIO) instead of
 * exiting 0 with truncated output. Returns the status to exit with. main()
 * calls it after every command; a failure is reported once (the unwritten
 * rest is dropped), so an earlier call by a shell is harmless.
 */
int cmd_finish_stdout(int status);

/* Raises RLIMIT_NOFILE as far as allowed; returns how many fds a run may keep open. */
long cmd_fd_budget(void);

#endif
