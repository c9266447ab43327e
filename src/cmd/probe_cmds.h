/*
 * Entry points of the probe subcommands: src/cmd/probe_syscalls.c,
 * probe_trace.c, and probe_stack.c for offcpu, runq and profile.
 */
#ifndef TRIAGE_PROBE_CMDS_H
#define TRIAGE_PROBE_CMDS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

int probe_syscalls_main(int argc, char **argv);
int probe_trace_main(int argc, char **argv);
int probe_offcpu_main(int argc, char **argv);
int probe_runq_main(int argc, char **argv);
int probe_profile_main(int argc, char **argv);

/*
 * Option handling shared by the probe shells (src/cmd/probe.c), so every
 * probe spells -p/-C/-d/-j/--pretty/-v the same way and reports bad values
 * alike. The long options below go into each probe's getopt_long table.
 */
struct probe_opts;
struct probe_target;
#define PROBE_COMMON_SHORTOPTS "p:C:d:jvh"
#define PROBE_OPT_PRETTY 0x100
/* Longest -d or interval taken (a week): more is a typo, not a plan. */
#define PROBE_MAX_SECONDS (7 * 86400.0)
#define PROBE_COMMON_LONGOPTS                                                                 \
	{ "pid", required_argument, NULL, 'p' }, { "comm", required_argument, NULL, 'C' },    \
	    { "duration", required_argument, NULL, 'd' }, { "json", no_argument, NULL, 'j' }, \
	    { "pretty", no_argument, NULL, PROBE_OPT_PRETTY },                                \
	    { "verbose", no_argument, NULL, 'v' },                                            \
	{                                                                                     \
		"help", no_argument, NULL, 'h'                                                \
	}

/*
 * Applies one common option. Returns 0 if handled, 1 if opt is not a
 * common one, EXIT_USAGE (after a message) for a bad value.
 */
int probe_cmd_option(const char *probe, int opt, const char *arg, struct probe_opts *o);

/* How a probe shell reads its command line with probe_cmd_getopt(). */
struct probe_cmd_spec {
	const char *name;
	const struct option *longopts; /* PROBE_COMMON_LONGOPTS plus the probe's own */
	const char *shortopts;	       /* the probe's own short options, or NULL */
	bool in_order;		       /* stop at the first operand ("+" to getopt) */
	/* The probe's own options: 0 if handled, 1 if unknown; may be NULL. */
	int (*own_option)(int opt, void *ctx);
	void *ctx;
};

/*
 * Reads the options of argv (common ones and the spec's own) with
 * cmd_getopt_loop(). Returns -1 with optind at the first operand, else the
 * exit status: EXIT_OK after --help, EXIT_USAGE after a message.
 */
int probe_cmd_getopt(const struct probe_cmd_spec *spec, int argc, char **argv,
		     struct probe_opts *o);
/*
 * A usage error of one probe: "triage probe PROBE: <message>" and
 * "see 'triage probe PROBE --help'" on stderr. Returns EXIT_USAGE.
 */
int probe_cmd_usage_error(const char *probe, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "Tracing syscalls of pid 123... Ctrl-C to stop." on stderr. */
void probe_cmd_announce(const char *what, const struct probe_target *t);
/*
 * Checks the target: at most one of -p/-C; neither only when allow_all
 * (then every task is traced); -p a process, not a thread. Returns 0 or
 * EXIT_USAGE after a message.
 */
int probe_cmd_check_target(const char *probe, const struct probe_target *t, bool allow_all);
enum probe_cmd_finish_flags {
	PROBE_CMD_INTERVAL = 1, /* trailing "interval [count]" allowed */
	PROBE_CMD_ALL = 2,	/* no -p/-C: every task */
};
/*
 * Checks the target (probe_cmd_check_target) and parses trailing
 * "interval [count]" (only with PROBE_CMD_INTERVAL). Returns 0 or
 * EXIT_USAGE after a message.
 */
int probe_cmd_finish(const char *probe, int argc, char **argv, int first, struct probe_opts *o,
		     unsigned flags);
/* Reports a failed run (stage and errno, plus what to do); returns the exit status. */
int probe_cmd_failed(const char *probe, const struct probe_target *t, const char *stage, int err);

#endif
