/*
 * pidstat core: a drop-in reimplementation of sysstat 12.6.1 pidstat
 * (see docs/pidstat.md). The command shell (src/cmd/pidstat.c) parses argv
 * into struct pidstat_opts, sets a run up with pidstat_run_init(), writes
 * the banner and runs pidstat_loop() with a clock. Nothing here exits;
 * functions return 0 or -errno, the loop a PIDSTAT_E_* code that
 * pidstat_write_failure() turns into sysstat's message and exit status.
 */
#ifndef TRIAGE_PIDSTAT_H
#define TRIAGE_PIDSTAT_H

#include <regex.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "procfs/host.h"
#include "procfs/procfs.h"
#include "procfs/taskstats.h"

struct json_writer;

/* A cached uid -> user name entry. */
struct pidstat_user {
	unsigned uid;
	char *name; /* NULL: no passwd entry */
};

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
};

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

/* One snapshot of a task's counters (sysstat's struct pid_stats). */
struct pidstat_snap {
	uint64_t utime, stime, gtime, wtime; /* ticks */
	int64_t cutime, cstime, cgtime;
	uint64_t minflt, cminflt, majflt, cmajflt;
	uint64_t vsz, rss; /* kB */
	uint64_t blkio;	   /* delayacct_blkio_ticks */
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
	uint64_t nvcsw, nivcsw;
	uint64_t threads, fd_nr;
	uint64_t stack_size, stack_ref;
	unsigned processor, priority, policy;
};

/* Task flags. */
enum {
	TASK_NO_IO = 1u << 0,	  /* io unreadable: print -1.00 */
	TASK_NO_FD = 1u << 1,	  /* fd/ unreadable: print -1 */
	TASK_DISPLAYED = 1u << 2, /* process row shown in this block */
	TASK_SEEN = 1u << 3,	  /* read successfully in this sample */
	TASK_KNOWN = 1u << 4,	  /* start time recorded */
	TASK_LISTED = 1u << 5,	  /* its threads were read last sample */
};

#define PIDSTAT_NFILES 4 /* stat, schedstat, status, io: kept open */

struct pidstat_task {
	pid_t pid;
	struct pidstat_task *leader; /* NULL for a process (TGID) entry */
	unsigned uid;
	unsigned flags;
	uint64_t start;	     /* stat field 22: tells a reused PID from the old task */
	unsigned nthreads;   /* stat field 20 */
	char state;	     /* stat field 3 at the last read (triage report's D tasks) */
	unsigned ntids_seen; /* thread entries queued after it last sample */
	size_t order_idx;    /* its index in the display order */
	char comm[128];
	char *cmdline;		     /* -l: cached command line, NULL until read non-empty */
	struct pidstat_snap snap[3]; /* [0]/[1] alternate, [2] first (Average) */
	/* Average accumulators, as sysstat keeps them. */
	uint64_t total_vsz, total_rss, total_stack_size, total_stack_ref;
	uint64_t total_threads, total_fd_nr;
	unsigned rt_asum, uc_asum, rc_asum, sk_asum, delay_asum, tf_asum;
	/* --whole: per-thread running sums (monotonic by construction). */
	uint64_t whole_nvcsw, whole_nivcsw, whole_wtime, whole_blkio;
	int fds[PIDSTAT_NFILES];    /* kept-open stat, schedstat, status, io; -1 if not */
	int taskdir;		    /* a process's task/ directory (O_PATH), or -1 */
	struct pidstat_task *hnext; /* hash chain */
};

/* The task table: display order array plus an O(1) hash index. */
struct pidstat_table {
	struct pidstat_task **order; /* processes ascending, each followed by its threads */
	size_t len, cap;
	struct pidstat_task **next; /* the order being built for the current sample */
	size_t next_len, next_cap;
	struct pidstat_task **buckets;
	size_t nbuckets, count;
	long fd_budget; /* how many more fds may be kept open */
};

/* Colours (spec 3.9). Empty strings when colours are off. */
struct pidstat_colors {
	char high[16], low[16], zero[16], nz[16], item[16], normal[16];
};

void pidstat_colors_init(struct pidstat_colors *c, const char *s_colors, const char *sgr,
			 bool stdout_tty);

/* Everything the renderers need besides the task. */
struct pidstat_out {
	FILE *f;
	struct pidstat_colors col;
	int dec; /* -1 default */
	bool human;
	bool fast; /* the locale writes '.': numbers may skip printf */
};

/* Whether the current LC_NUMERIC lets pidstat format numbers itself. */
bool pidstat_fast_numbers(void);
/* " %*llu" */
void pidstat_put_uint(FILE *f, int width, unsigned long long v);

/* Low-level field printers: sysstat's cprintf_* (the shared formatting rules). */
void pidstat_put_pc(const struct pidstat_out *o, int wi, int wd, double val);
void pidstat_put_f(const struct pidstat_out *o, int unit, int wi, int wd, double val);
void pidstat_put_u64(const struct pidstat_out *o, int unit, int wi, uint64_t val);
enum { UNIT_NONE = -1, UNIT_BYTE = 1, UNIT_KILOBYTE = 2 };

/* Rate arithmetic (spec 7.4): pure. */
double pidstat_sp_value(uint64_t prev, uint64_t curr, uint64_t itv);
double pidstat_s_value(uint64_t prev, uint64_t curr, uint64_t itv);
uint64_t pidstat_interval(uint64_t prev, uint64_t curr);

/* Sampling clock: real time, or the steps of a fixture root. */
struct pidstat_clock {
	/* Wall-clock time of the sample being taken. */
	time_t (*now)(struct pidstat_clock *c);
	/*
	 * Waits for the next sample. Returns 0 when it is due, 1 when the run
	 * is to stop as after SIGINT (signal, or no fixture step left).
	 */
	int (*wait)(struct pidstat_clock *c);
	/* Called once after the first snapshot (sysstat arms its alarm there). */
	void (*arm)(struct pidstat_clock *c);
	void *ctx;
};

/* pidstat_loop() results besides 0; the shell prints sysstat's message. */
enum pidstat_err {
	PIDSTAT_E_UPTIME = 1001, /* "Cannot read /proc/uptime", exit 2 */
	PIDSTAT_E_STAT,		 /* "Cannot open /proc/stat: ...", exit 2 */
	PIDSTAT_E_OPENDIR,	 /* "opendir: ...", exit 4 */
	PIDSTAT_E_NOMEM,	 /* "malloc: ...", exit 4 */
	PIDSTAT_E_STDOUT,	 /* "stdout: ...", exit 6 */
	PIDSTAT_DONE_NO_AVG,	 /* internal: no task left, no Average */
};

/* The run's whole state. */
struct pidstat_run {
	const struct pidstat_opts *opts;
	struct procfs *pf;
	const struct host_facts *host;
	struct pidstat_out out;
	struct pidstat_table table;
	regex_t comm_re, proc_re;
	bool comm_re_ok, proc_re_ok;
	int kb_shift;
	uint64_t memtotal_kb;
	uint64_t uptime_cs[3];
	uint64_t tot_jiffies[3];
	struct tm tstamp[3];
	int rows;      /* terminal rows for dis_hdr == 0 */
	bool iso_time; /* S_TIME_FORMAT=ISO */
	int last;      /* slot of the last displayed sample */
	int err_errno; /* errno behind a PIDSTAT_E_* result */
	/* live runs with privilege: status fields through taskstats */
	struct taskstats_conn ts;
	bool use_taskstats;
	const char *average_label;
	struct json_writer *json;
	volatile int *stop_flag; /* set by the shell's signal handlers */
	/* uid -> user name cache */
	struct pidstat_user *users;
	size_t nusers, users_cap;
};

/* What a run takes from the process around it (the shell gathers it). */
struct pidstat_env {
	FILE *out;		   /* the report stream (stdout) */
	bool out_tty;		   /* whether out is a terminal (S_COLORS=auto) */
	const char *s_time_format; /* $S_TIME_FORMAT */
	const char *s_colors;	   /* $S_COLORS */
	const char *s_colors_sgr;  /* $S_COLORS_SGR */
	long fd_budget;		   /* fds the run may keep open across samples */
	bool taskstats;		   /* may try the taskstats netlink interface */
	struct json_writer *json;  /* the writer -o JSON initialises and uses */
	volatile int *stop_flag;   /* set by the shell's signal handlers */
};

/*
 * Fills r for a run of o over pf and h: output, filters, taskstats, the -p
 * seed. Returns 0 or -ENOMEM; pidstat_run_release() undoes it either way.
 */
int pidstat_run_init(struct pidstat_run *r, const struct pidstat_opts *o, struct procfs *pf,
		     const struct host_facts *h, const struct pidstat_env *env);
void pidstat_run_release(struct pidstat_run *r);

/* The banner's CPU count: the host's, else the cpuN lines of <root>/proc/stat. */
int pidstat_cpu_count(const struct procfs *pf, const struct host_facts *h);
/* The banner line, or with -o JSON the document's opening, for r->tstamp[0]. */
void pidstat_write_banner(struct pidstat_run *r, int ncpu);

/* sysstat's texts, from its message catalogue (src/pidstat/messages.c). */
void pidstat_bind_messages(void);
void pidstat_write_usage(FILE *f, const char *progname);
void pidstat_write_version(FILE *f);
void pidstat_write_no_activity(FILE *f);
const char *pidstat_average_label(void);
/* Prints sysstat's message for a pidstat_loop() result; returns the exit status. */
int pidstat_write_failure(FILE *f, int rc, int err);

/* Reads every task into slot curr (0 or 1; 2 is the first-sample copy). */
int pidstat_read_tasks(struct pidstat_run *r, int curr);
/* -p: the listed PIDs become the table's initial entries. */
int pidstat_table_seed(struct pidstat_run *r, const pid_t *pids, size_t n);
/* Returns the (cached) user name for uid, or NULL if it has none. */
const char *pidstat_user_name(struct pidstat_run *r, unsigned uid);

/*
 * Prints one report (all blocks) comparing slot prev with curr. avg selects
 * the Average rendering. Returns >0 if some task is left to display.
 */
int pidstat_write_report(struct pidstat_run *r, int prev, int curr, bool dis, bool avg,
			 const char *prev_str, const char *curr_str);

/*
 * With dis_hdr 0, whether this sample gets a header: the first one, then
 * every rows samples (sysstat counts samples, not lines). *lines starts at rows.
 */
bool pidstat_header_due(unsigned long *lines, int rows);

/*
 * The timing loop, after the banner: first snapshot, reports, Average.
 * Returns 0 or a PIDSTAT_E_* code.
 */
int pidstat_loop(struct pidstat_run *r, struct pidstat_clock *clk);

/*
 * Clocks. The real one sleeps to absolute deadlines (start + k * interval)
 * with the stop signals unblocked only while it sleeps, so no tick is
 * skipped and no signal is lost. The fixture one steps through stepN/.
 */
struct pidstat_realclock {
	long interval;
	struct timespec deadline;
	volatile int *stop;
	sigset_t sleep_mask; /* the mask to sleep with (stop signals unblocked) */
};
void pidstat_realclock_init(struct pidstat_clock *c, struct pidstat_realclock *rc);

struct pidstat_fixclock {
	struct procfs *pf;
	time_t epoch;
	int step;
	volatile int *stop;
};
void pidstat_fixclock_init(struct pidstat_clock *c, struct pidstat_fixclock *fc);
/* Points pf at the fixture's step n; returns 0 or -errno. */
int pidstat_fixture_step(struct procfs *pf, int n);

void pidstat_table_release(struct pidstat_table *t);
struct pidstat_task *pidstat_table_find(struct pidstat_table *tb, struct pidstat_task *leader,
					pid_t pid);
struct pidstat_task *pidstat_table_add(struct pidstat_table *tb, struct pidstat_task *leader,
				       pid_t pid);
void pidstat_task_reset(struct pidstat_table *tb, struct pidstat_task *t);
void pidstat_task_forget_files(struct pidstat_table *tb, struct pidstat_task *t);
bool pidstat_task_has_files(const struct pidstat_task *t);
/* Appends t to the order being built for this sample. */
int pidstat_table_push(struct pidstat_table *tb, struct pidstat_task *t);
/* Frees the tasks not seen in this sample and installs the new order. */
void pidstat_table_commit(struct pidstat_table *tb);

#endif
