/*
 * Where a report window's readings come from, through one interface (as
 * pidstat_source serves tasks): the running system or a fixture through
 * /proc (collect.c), or a recording (src/record/history.c). The window asks
 * every source for the same things at the same moments: the host's counters
 * at its two ends, the run queue and the tasks at every step, the D threads
 * at the end. What a source cannot supply is its `lacks` mask, rendered
 * once ("not recorded: cgroups, kernel log").
 *
 * record stores what report_host_read() returns, so a replay reads back
 * exactly what the live report reads.
 */
#ifndef TRIAGE_REPORT_SOURCE_H
#define TRIAGE_REPORT_SOURCE_H

#include "procfs/fsusage.h"
#include "procfs/host.h"
#include "procfs/limits.h"
#include "procfs/hoststats.h"
#include "procfs/limits.h"
#include "procfs/netq.h"
#include "procfs/parsers.h"
#include "procfs/softirqs.h"
#include "procfs/taskwait.h"
#include "report/report.h"

#define RP_NETNS_ID_MAX 64

/* The host's counters at one instant: one end of a window. */
struct report_host_snap {
	struct cpu_stat cpu;
	uint64_t jiffies; /* pidstat's total of the cpu line, from the same bytes */
	struct psi psi[RP_PSI_COUNT];
	struct meminfo mem;
	struct vmstat vm;
	struct disk_stats disks; /* whole devices only, as iostat shows them */
	struct iface_stats ifaces;
	/* TCP per network namespace: [0] is ours; the others named by their processes */
	size_t nns;
	struct rp_netns ns[RP_MAX_NETNS + 1]; /* which namespace: ours, pids (no counts) */
	char ns_id[RP_MAX_NETNS + 1][RP_NETNS_ID_MAX];
	struct tcp_counters tcp[RP_MAX_NETNS + 1];
	struct udp_counters udp[RP_MAX_NETNS + 1]; /* at the window's ends only */
	bool have_udp[RP_MAX_NETNS + 1];
	uint64_t uptime_cs;
	struct softirqs softirqs; /* which vector runs on which CPU (irq-saturated) */
	struct conntrack_fill ct; /* nf_conntrack_count and _max (conntrack-full) */
	bool have_softirqs, have_ct;
	struct softnet softnet; /* per-CPU backlog drops and squeezes (net-drops) */
	bool have_softnet;
	struct fs_usages fs; /* filesystems that store data, with their statvfs */
	bool have_fs;
	struct file_handles files; /* /proc/sys/fs/file-nr */
	bool have_files;
	struct task_caps caps; /* kernel.pid_max, kernel.threads-max (pid-exhaustion) */
	bool have_caps;
	bool have_cpu, have_psi[RP_PSI_COUNT], have_mem, have_vm, have_disks, have_ifaces,
	    have_uptime, have_tcp[RP_MAX_NETNS + 1];
};

/* ---- the live reader: /proc under a root (or a fixture's step) ---- */

struct procfs;

struct report_host_reader {
	const struct procfs *pf;
	bool have_sys_block; /* else every diskstats line is a whole device (a fixture) */
	/* the filesystems' statvfs (a fixture's table or the kernel); NULL: not read */
	fs_statvfs_fn statfs;
	/* whole_device()'s answers, in diskstats' order: a name seldom changes kind */
	struct {
		char name[DISK_NAME_MAX];
		bool whole;
	} kind[HOST_MAX_DISKS];
	/* the namespaces whose TCP counters are read (report_host_find_netns) */
	size_t nns;
	struct rp_netns ns[RP_MAX_NETNS + 1];
	char ns_id[RP_MAX_NETNS + 1][RP_NETNS_ID_MAX];
};

void report_host_reader_init(struct report_host_reader *r, const struct procfs *pf);
/* Finds the network namespaces to read: ours, then one process of each other one. */
void report_host_find_netns(struct report_host_reader *r);
/* Reads every host counter now; what cannot be read has its have_* false. */
void report_host_read(struct report_host_reader *r, struct report_host_snap *h);
/* Only the TCP counters (of the namespaces found last), into h. */
void report_host_read_tcp(const struct report_host_reader *r, struct report_host_snap *h);

/* A process's allowed CPUs and cgroup now, from /proc/PID/status and cgroup. */
int report_read_placement(const struct procfs *pf, struct rp_proc *p);

/* ---- a source ---- */

struct pidstat_source;
struct task_sampler;
struct dtask_look;

/* What a source cannot supply (a mask). */
enum report_lack {
	REPORT_LACKS_CGROUPS = 1 << 0,
	REPORT_LACKS_KMSG = 1 << 1,
	REPORT_LACKS_TCP = 1 << 2,
	REPORT_LACKS_PLACEMENT = 1 << 3,  /* processes' allowed CPUs and cgroups */
	REPORT_LACKS_EBPF = 1 << 4,	  /* the eBPF enrichment */
	REPORT_LACKS_SOFTIRQS = 1 << 5,	  /* /proc/softirqs: irq-saturated names no vector */
	REPORT_LACKS_CONNTRACK = 1 << 6,  /* the conntrack table's fill: no conntrack-full */
	REPORT_LACKS_FS = 1 << 7,	  /* filesystems' space and inodes, and their writers */
	REPORT_LACKS_FD = 1 << 8,	  /* file handles, processes' descriptors and limits */
	REPORT_LACKS_PARENTS = 1 << 9,	  /* processes' parents: no zombies by parent */
	REPORT_LACKS_FORKS = 1 << 10,	  /* /proc/stat's fork counter: no process-churn */
	REPORT_LACKS_FUTEX = 1 << 11,	  /* threads' futex waits: no lock-contention */
	REPORT_LACKS_SOFTNET = 1 << 12,	  /* /proc/net/softnet_stat: no per-CPU backlog drops */
	REPORT_LACKS_PIDS = 1 << 13,	  /* kernel.pid_max, threads-max: no host pid-exhaustion */
	REPORT_LACKS_LISTENERS = 1 << 14, /* listeners' queues: tcp-listen-overflows names none */
	REPORT_LACKS_UDP_SOCKS = 1 << 15, /* UDP sockets' drops: udp-drops names no socket */
};

struct report_source {
	void *ctx;
	unsigned lacks;		/* enum report_lack */
	const char *lacks_why;	/* "not recorded", "not kept" ... */
	struct host_facts host; /* hz, page size, uname, CPUs */
	pid_t self;		/* the process that looked, left out (0: none) */
	time_t wall0;		/* the window's start */
	/* the host's counters at the current step; 0 or -errno */
	int (*read_host)(void *ctx, struct report_host_snap *h);
	/* /proc/loadavg at the current step; 0 or -errno */
	int (*read_load)(void *ctx, struct loadavg *la);
	/* the D threads at the current step, judged; ts: the window's task sampler */
	int (*read_dtasks)(void *ctx, struct task_sampler *ts, struct dtask_look *out);
	/*
	 * A process's allowed CPUs and cgroup at the window's end (p->allowed,
	 * has_allowed, cgroup), asked of its busiest live processes: 0, or
	 * -ENOENT when not known
	 */
	int (*read_placement)(void *ctx, struct rp_proc *p);
	/*
	 * The processes with a file open for writing on mount mnt_id, now (at
	 * the window's end), at most max into pids; NULL when not known
	 */
	int (*read_fs_writers)(void *ctx, int mnt_id, pid_t *pids, size_t max, size_t *n);
	/* A process's open descriptors and RLIMIT_NOFILE now; NULL when not known */
	int (*read_fd_usage)(void *ctx, pid_t pid, struct fd_usage *out);
	/*
	 * A process's threads now, how many sleep in a futex wait and on
	 * which words; NULL when not known (asked of lock-contention
	 * candidates only)
	 */
	int (*read_futex_waiters)(void *ctx, pid_t pid, struct futex_waiters *out);
	/* moves to the next step: 0, or -ENOENT when the last one was read */
	int (*next)(void *ctx);
	/* the tasks at the current step */
	const struct pidstat_source *tasks;
};

/*
 * The window over a source's steps, from the current one to its last: the
 * same readings and results as report_collect. fed: a task sampler the
 * caller already fed every step of the window (the recorder's), or NULL to
 * sample src->tasks here.
 */
int report_collect_source(const struct report_source *src, struct task_sampler *fed,
			  struct report_data *d);

#endif
