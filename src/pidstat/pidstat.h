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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "procfs/host.h"
#include "procfs/procfs.h"
#include "procfs/taskstats.h"
#include "procfs/tasksrc.h"
#include "runloop/clock.h"
#include "pidstat/fmt.h"
#include "pidstat/messages.h"
#include "pidstat/opts.h"
#include "pidstat/table.h"

struct json_writer;

/* A cached uid -> user name entry. */
struct pidstat_user {
	unsigned uid;
	char *name; /* NULL: no passwd entry */
};

/*
 * What a task's /proc files said at one sample, as the readers below take
 * it in: a recorded sample (src/record/) hands it back in this form.
 */
struct pidstat_task_raw {
	uint64_t start; /* stat field 22 */
	unsigned uid, nthreads;
	char state;
	pid_t ppid; /* 0: not known (a recording keeps no parents) */
	bool no_io; /* io unreadable */
	char comm[128];
	struct pidstat_snap snap;
};

/*
 * A source of samples other than /proc (triage replay): the listings and
 * per-task reads the core would make, answered from somewhere else. The
 * table, the order, --whole and every renderer stay the core's. Each
 * returns 0 or -errno (read_task: -ESRCH when the task is not there).
 */
struct pidstat_source {
	void *ctx;
	int (*list_pids)(void *ctx, struct id_list *out);
	int (*list_tids)(void *ctx, pid_t pid, struct id_list *out);
	/* thread: a thread row of tgid (-t), else the process row (tid == tgid) */
	int (*read_task)(void *ctx, pid_t tgid, pid_t tid, bool thread,
			 struct pidstat_task_raw *out);
	int (*read_system)(void *ctx, uint64_t *uptime_cs, uint64_t *tot_jiffies);
	int (*read_memtotal)(void *ctx, uint64_t *memtotal_kb);
	/*
	 * Optional (NULL: none kept). -l: process tgid's command line as
	 * /proc/PID/cmdline gives it joined (procfs_cmdline_fd), "" when
	 * empty; -ENOENT when not known. Asked of process rows only: the
	 * only rows -l shows it on.
	 */
	int (*read_cmdline)(void *ctx, pid_t tgid, char *buf, size_t size);
};

/* The run's whole state. */
struct pidstat_run {
	const struct pidstat_opts *opts;
	struct procfs *pf;
	const struct pidstat_source *src; /* NULL: /proc through pf */
	/*
	 * A thread not put on a CPU since the last sample (schedstat's count
	 * of timeslices and its CPU time unchanged) cannot have done I/O: keep
	 * its io counters instead of reading them again (triage record).
	 */
	bool lazy_thread_io;
	const struct host_facts *host;
	struct pidstat_out out;
	struct pidstat_table table;
	regex_t comm_re, proc_re;
	bool comm_re_ok, proc_re_ok;
	int kb_shift;
	uint64_t memtotal_kb;
	uint64_t uptime_cs[3];
	int uptime_fd; /* /proc/uptime kept open on a live host (pread each sample), or -1 */
	uint64_t tot_jiffies[3];
	bool stat_read; /* /proc/stat read once: later only -I needs it */
	struct tm tstamp[3];
	int rows;      /* terminal rows for dis_hdr == 0 */
	bool iso_time; /* S_TIME_FORMAT=ISO */
	int last;      /* slot of the last displayed sample */
	int err_errno; /* errno behind a PIDSTAT_E_* result */
	/* live runs with privilege: status fields through taskstats */
	struct taskstats_conn ts;
	bool use_taskstats;
	bool want_anon; /* pidstat_env.anon */
	/*
	 * The task door (procfs/tasksrc.h); NULL on fixture roots. With the
	 * bpf door every sample starts with one iterator scan into set, and
	 * stat, schedstat, status and io come from there (set_ready); the
	 * proc door leaves the file-by-file reading below as it is.
	 */
	struct task_source *tasks;
	struct task_set set;
	bool set_ready;
	const char *average_label;
	struct json_writer *json;
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
	bool anon;		   /* process rows read RssAnon (the report's memory-growth) */
	enum task_door door;	   /* the task door: AUTO but in tests */
	unsigned scans;		   /* samples ahead (pidstat_opts_scans()); 0: open-ended */
	struct json_writer *json;  /* the writer -o JSON initialises and uses */
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
int pidstat_loop(struct pidstat_run *r, struct runloop_clock *clk);

#endif
