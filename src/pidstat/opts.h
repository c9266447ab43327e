/*
 * pidstat's command line (sysstat 12.6.1 syntax) as data: what to sample,
 * how often, and how to show it. Parsed in src/pidstat/opts.c.
 */
#ifndef TRIAGE_PIDSTAT_OPTS_H
#define TRIAGE_PIDSTAT_OPTS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Activities (sysstat's P_A_*), in the order their blocks are printed. */
enum pidstat_act {
	ACT_CPU = 1u << 0,
	ACT_MEM = 1u << 1,
	ACT_STACK = 1u << 2,
	ACT_IO = 1u << 3,
	ACT_CTXSW = 1u << 4,
	ACT_KTAB = 1u << 5,
	ACT_RT = 1u << 6,
};

/* -T TASK|CHILD|ALL */
enum pidstat_tsk { TSK_TASK = 1, TSK_CHILD = 2 };

enum pidstat_parse_rc {
	PIDSTAT_PARSE_OK = 0,
	PIDSTAT_PARSE_USAGE,   /* print usage on stderr, exit 1 */
	PIDSTAT_PARSE_VERSION, /* print the version, exit 0 */
};

struct pidstat_opts {
	unsigned act;	     /* enum pidstat_act */
	unsigned tsk;	     /* enum pidstat_tsk */
	bool pid_given;	     /* -p or -e: sysstat's P_D_PID */
	bool all_pids;	     /* every task in /proc: P_D_ALL_PID */
	bool active_only;    /* no -p/-e: only tasks active in the interval */
	bool threads;	     /* -t */
	bool oneline;	     /* -h */
	bool epoch;	     /* -H */
	bool irix_off;	     /* -I */
	bool cmdline;	     /* -l */
	bool username;	     /* -U */
	bool human;	     /* --human */
	int dec;	     /* --dec=N, -1 when not given */
	const char *comm_re; /* -C */
	const char *proc_re; /* -G */
	const char *user;    /* -U name */
	long interval;	     /* 0: since boot */
	long count;	     /* 0 or -1: run until interrupted (see pidstat_opts_finish) */
	int dis_hdr;	     /* sysstat's header-repetition counter (spec 1) */
	int pid_nr;	     /* number of -p items as sysstat counts them */
	pid_t *pids;	     /* -p PIDs in the order given (duplicates kept) */
	size_t npids, pids_cap;
	char **exec_argv; /* -e program and its arguments */
	int exec_argc;
	/* Our extensions. */
	bool json;	  /* -o JSON (sysstat 12.7 schema, always valid) */
	bool whole;	  /* --whole: process ctx switches/%wait/iodelay over all threads */
	const char *root; /* --root DIR */
	/* After PIDSTAT_PARSE_USAGE: what is wrong, and the word (triage's line). */
	const char *why;
	const char *bad;
	char bad_opt[3]; /* "-x" of a cluster such as -ux */
};

/* Longest interval taken (a year): more is a mistake, not a plan. */
#define PIDSTAT_MAX_INTERVAL (366L * 86400)

/*
 * Parses argv (argv[0] is the program name) as sysstat 12.6.1 does; SELF
 * stands for self_pid. On success the caller owns opts->pids (free with
 * pidstat_opts_release). Pure: no I/O.
 */
int pidstat_opts_parse(struct pidstat_opts *opts, int argc, char **argv, pid_t self_pid);

/*
 * sysstat's check_flags(): defaults, then drops activities the -T mode
 * cannot show. Returns -EINVAL when none is left ("Requested activities
 * not available"), else 0. Also applies the dis_hdr rules that do not
 * depend on the terminal (spec 1, steps 4-6): afterwards dis_hdr is 0
 * only when the terminal height decides.
 */
int pidstat_opts_finish(struct pidstat_opts *opts);

void pidstat_opts_release(struct pidstat_opts *opts);
/* Appends pid to the -p list (-e adds its child so); 0 or -ENOMEM. */
int pidstat_opts_add_pid(struct pidstat_opts *opts, pid_t pid);

/* The samples a run of o takes: count + 1, one for "since boot"; 0 until interrupted. */
unsigned pidstat_opts_scans(const struct pidstat_opts *o);

#endif
