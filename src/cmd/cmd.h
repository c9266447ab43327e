/* The command layer: one entry point per subcommand, src/cmd/<name>.c. Only
 * main.c and src/cmd/ include this; cores never call cmd_* (the build checks). */
#ifndef TRIAGE_CMD_H
#define TRIAGE_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "procfs/tasksrc.h"

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
int cmd_record(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_u32(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_plot(int argc, char **argv);
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

struct option;
/*
 * The getopt_long loop of every command: resets getopt (opterr = 0;
 * optstring starts with ':' after any '+'), hands each option to
 * opt(ch, ctx), which returns -1 to go on, -2 for getopt's '?' and ':'
 * (reported here: "unknown option", "option needs a value" or "option
 * takes no value", naming the word as typed), or the exit status to stop
 * with. Returns -1 when the options are done (optind at the first
 * operand), else that exit status.
 */
int cmd_getopt_loop(const char *cmd, int argc, char **argv, const char *optstring,
		    const struct option *longopts, int (*opt)(int ch, void *ctx), void *ctx);

/* -1 when argv has no operand left after the options, else the usage error naming it. */
int cmd_no_operands(const char *cmd, int argc, char **argv);

/*
 * Flushes stdout and reports a write failure (full disk, EIO) instead of
 * exiting 0 with truncated output. Returns the status to exit with. main()
 * calls it after every command; a failure is reported once (the unwritten
 * rest is dropped), so an earlier call by a shell is harmless.
 */
int cmd_finish_stdout(int status);

/*
 * The task door tests ask for with TRIAGE_TASK_SOURCE=auto|proc|bpf (unset:
 * auto). Returns 0, or EXIT_USAGE after saying what is wrong.
 */
int cmd_task_door(const char *cmd, enum task_door *door);
/* --verbose: "triage <cmd>: task source: bpf (why)" on stderr. */
void cmd_say_door(const char *cmd, const struct task_source *ts);

/* Raises RLIMIT_NOFILE as far as allowed; returns how many fds a run may keep open. */
long cmd_fd_budget(void);

#endif
