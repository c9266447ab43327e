/*
 * Pure parsers of /proc files: buffer in, struct out, no I/O, no globals.
 * Unit tests and fuzzers call these directly. Each returns 0 or -EINVAL.
 */
#ifndef TRIAGE_PROCFS_PARSERS_H
#define TRIAGE_PROCFS_PARSERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COMM_MAX 256 /* kernel comm is 16, but workqueue names run longer */

/* /proc/PID/stat and /proc/PID/task/TID/stat; numbers as in proc(5). */
struct pid_stat {
	int pid;	      /* (1) */
	char comm[COMM_MAX];  /* (2) between the first '(' and the last ')' */
	char state;	      /* (3) */
	int ppid;	      /* (4) */
	uint64_t minflt;      /* (10) */
	uint64_t cminflt;     /* (11) */
	uint64_t majflt;      /* (12) */
	uint64_t cmajflt;     /* (13) */
	uint64_t utime;	      /* (14) ticks */
	uint64_t stime;	      /* (15) */
	int64_t cutime;	      /* (16) */
	int64_t cstime;	      /* (17) */
	int64_t priority;     /* (18) */
	int64_t nice;	      /* (19) */
	int64_t num_threads;  /* (20) */
	uint64_t starttime;   /* (22) ticks after boot */
	uint64_t vsize;	      /* (23) bytes */
	int64_t rss;	      /* (24) pages */
	int processor;	      /* (39) */
	unsigned rt_priority; /* (40) */
	unsigned policy;      /* (41) */
	uint64_t blkio_ticks; /* (42) delayacct_blkio_ticks */
	uint64_t guest_time;  /* (43) */
	int64_t cguest_time;  /* (44) */
	int nfields;	      /* how many fields the line had */
};

/* Needs at least fields 1..42 (sysstat's rule); 43/44 default to 0. */
int procfs_pid_stat_parse(const char *buf, size_t len, struct pid_stat *out);

/* The fields of /proc/PID/status that triage uses. */
struct pid_status {
	char name[COMM_MAX];
	char state;
	int tgid;
	int pid;
	int ppid;
	unsigned uid_real, uid_eff;
	unsigned threads;
	uint64_t vol_ctxsw;
	uint64_t nonvol_ctxsw;
	uint64_t rss_anon_kb; /* RssAnon: anonymous resident memory (Linux 4.5+) */
	bool has_uid, has_threads, has_ctxsw, has_rss_anon;
};

int procfs_pid_status_parse(const char *buf, size_t len, struct pid_status *out);

/*
 * /proc/PID/statm, in pages. The kernel counts resident as file + shmem +
 * anonymous pages and shared as file + shmem (task_statm), so resident -
 * shared is status's RssAnon; a task with no address space (a kernel
 * thread, a zombie) has size 0 and no RssAnon.
 */
struct pid_statm {
	uint64_t size, resident, shared, text, lib, data, dt;
};

/* Needs size, resident and shared; the rest default to 0. */
int procfs_pid_statm_parse(const char *buf, size_t len, struct pid_statm *out);

/* RssAnon in pages from statm: false where the task has no address space. */
bool procfs_statm_anon_pages(const struct pid_statm *m, uint64_t *pages);

/* /proc/PID/io */
struct pid_io {
	uint64_t rchar, wchar, syscr, syscw;
	uint64_t read_bytes, write_bytes, cancelled_write_bytes;
};

int procfs_pid_io_parse(const char *buf, size_t len, struct pid_io *out);

/* /proc/PID/schedstat: on-CPU ns, run-queue wait ns, timeslices. */
struct pid_schedstat {
	uint64_t run_ns, wait_ns, slices;
};

int procfs_pid_schedstat_parse(const char *buf, size_t len, struct pid_schedstat *out);

/* /proc/uptime, in hundredths of a second as sysstat reads it ("%lu.%lu"). */
int procfs_uptime_parse(const char *buf, size_t len, uint64_t *uptime_cs);

/* The "cpu " line of /proc/stat, in ticks, plus the process counters. */
struct sys_stat {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
	uint64_t procs_running, procs_blocked;
	unsigned ncpu_lines; /* number of "cpuN" lines */
};

int procfs_sys_stat_parse(const char *buf, size_t len, struct sys_stat *out);
/* user+nice+system+idle+iowait+irq+softirq+steal (guest is inside user). */
uint64_t procfs_sys_stat_total(const struct sys_stat *s);

/* MemTotal from /proc/meminfo, kB. */
int procfs_meminfo_total_parse(const char *buf, size_t len, uint64_t *memtotal_kb);

/* /proc/loadavg */
struct loadavg {
	double load[3];
	unsigned runnable, total;
	int last_pid;
};

int procfs_loadavg_parse(const char *buf, size_t len, struct loadavg *out);

/* One /proc/pressure/<resource> file. */
struct psi_line {
	bool present;
	double avg10, avg60, avg300;
	uint64_t total_us;
};

struct psi {
	struct psi_line some, full;
};

int procfs_psi_parse(const char *buf, size_t len, struct psi *out);

/*
 * /proc/PID/smaps, fed one line at a time (NUL-terminated, no newline):
 * the Size and Referenced figures (kB) of the [stack] mapping.
 */
struct smaps_stack {
	int state; /* 0: before [stack], 1: Size next, 2: Referenced next, 3: done */
	uint64_t size_kb, ref_kb;
};

/* Feeds one line; returns true once both figures are in (feed no more). */
bool procfs_smaps_stack_line(struct smaps_stack *st, const char *line);

/*
 * /proc/PID/cmdline of len bytes: the NULs between arguments become
 * spaces, as ps shows them; the final NUL (and trailing empty ones) stay.
 */
void procfs_cmdline_join(char *buf, size_t len);

#endif
