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
int cmd_fleet(int argc, char **argv);
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
/*
 * A word that is none of names (a probe, a subcommand, a view): "triage
 * CMD: WHAT: 'word'", git's "did you mean" when one is near, the pointer
 * to --help. Returns EXIT_USAGE.
 */
int cmd_unknown_word(const char *cmd, const char *what, const char *word, const char *const *names,
		     size_t n);

struct option;
/*
 * The getopt_long loop of every command: resets getopt (opterr = 0;
 * optstring starts with ':' after any '+'), hands each option to
 * opt(ch, ctx), which returns -1 to go on, -2 for getopt's '?' and ':'
 * (reported here: "unknown option", "option needs a value" or "option
 * takes no value", naming the word as typed), or the exit status to stop
 * with. Returns -1 when the options are done (optind at the first
 * operand), else that exit status. Commands build longopts on the stack,
 * not static: a static table's name pointers are relocations the loader of
 * the position-independent binary writes, a copied page, at every start of
 * every command (issue 24).
 */
int cmd_getopt_loop(const char *cmd, int argc, char **argv, const char *optstring,
		    const struct option *longopts, int (*opt)(int ch, void *ctx), void *ctx);

/* -1 when argv has no operand left after the options, else the usage error naming it. */
int cmd_no_operands(const char *cmd, int argc, char **argv);

/*
 * What an error was met on, for cmd_errno_status: a file or directory the
 * user named (an input file, --root DIR), an output the command creates or
 * writes, or the system itself (/proc, /sys, BPF, the kernel).
 */
enum cmd_fault_on { CMD_ON_INPUT, CMD_ON_OUTPUT, CMD_ON_SYSTEM };

/*
 * The exit status for a library error (-errno or errno) met on what: one
 * table for every command (README's "Exit status"). A named file that is
 * missing or not of its kind is a usage error (2); no permission, or the
 * kernel lacking the thing, is 3; the rest, output failures included, 1.
 */
int cmd_errno_status(enum cmd_fault_on what, int err);

/* CMD_ON_INPUT when root names a directory (the user's --root), else CMD_ON_SYSTEM. */
enum cmd_fault_on cmd_root_fault(const char *root);

/*
 * Flushes stdout and reports a write failure (full disk, EIO) instead of
 * exiting 0 with truncated output. Returns the status to exit with. main()
 * calls it after every command; a failure is reported once (the unwritten
 * rest is dropped), so an earlier call by a shell is harmless.
 */
int cmd_finish_stdout(int status);
/* The same report for a failure the command saw itself (errno err; 0 unknown). */
int cmd_stdout_failed(int status, int err);

/*
 * The task door tests ask for with TRIAGE_TASK_SOURCE=auto|proc|bpf (unset:
 * auto). Returns 0, or EXIT_USAGE after saying what is wrong.
 */
int cmd_task_door(const char *cmd, enum task_door *door);
/* --verbose: "triage <cmd>: task source: bpf (why)" on stderr. */
void cmd_say_door(const char *cmd, const struct task_source *ts);

/* Raises RLIMIT_NOFILE as far as allowed; returns how many fds a run may keep open. */
long cmd_fd_budget(void);
/*
 * The same, raising the limit only when the soft one leaves fewer than want
 * fds (a few listed PIDs: one getrlimit, not the two or more of a raise).
 */
long cmd_fd_budget_for(long want);

#endif
