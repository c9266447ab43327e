/*
 * triage report: one pass over a window, then what is wrong, with the
 * numbers, and what to run next. Three stages, each pure data in and out:
 *   collect  (collect.c, sources.c)  /proc, cgroups, /dev/kmsg -> struct report_data
 *   evaluate (rules*.c)             struct report_data -> struct report_findings
 *   render   (render_*.c)           findings -> plain text or JSON
 * Nothing here exits or prints outside the renderers; functions return 0 or
 * -errno.
 */
#ifndef TRIAGE_REPORT_H
#define TRIAGE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "procfs/hoststats.h"
#include "procfs/task_info.h"

#define RP_COMM_MAX 256
#define RP_CGROUP_MAX 256
#define RP_MAX_PIDS 16	  /* tasks named in one finding */
#define RP_MAX_HOGS 4	  /* processes a cpu-contention finding says were waited behind */
#define RP_MAX_DTASKS 32  /* D tasks kept for the load finding */
#define RP_MAX_NETNS 16	  /* network namespaces besides our own */
#define RP_MAX_CGROUPS 64 /* cgroups with a CPU quota or memory events kept */
#define RP_MAX_KEVENTS 64 /* kernel log events kept */
#define RP_MAX_SOFTNET 16 /* CPUs with backlog drops kept */
#define RP_MAX_SKIPPED 16
#define RP_MAX_CHECKED 16
#define RP_SOFTIRQ_NAME_MAX 16 /* SOFTIRQ_NAME_MAX */
#define RP_MAX_FS 32	       /* filesystems that store data */
#define RP_MOUNT_MAX 256       /* a mount point */
#define RP_FSTYPE_MAX 32

/* One process over the window; CPU figures are % of one CPU. */
struct rp_proc {
	pid_t pid;
	char comm[RP_COMM_MAX];
	unsigned nthreads;
	double usr_pct, sys_pct;
	double top_thread_pct; /* the busiest thread */
	pid_t top_tid;
	/* the thread that wanted a CPU most: on CPU + waiting for one, % of the window */
	double top_demand_pct;
	double cswch_s, nvcswch_s; /* summed over all threads */
	double wait_pct;	   /* run-queue delay summed over threads, % of the window */
	double majflt_s;
	struct cpuset ran;     /* CPUs its threads were seen running on */
	struct cpuset allowed; /* Cpus_allowed_list */
	bool has_allowed;
	bool exited; /* before the window's end: its figures cover the part it lived */
	char cgroup[RP_CGROUP_MAX]; /* the most specific path (what a recording keeps) */
	/* each controller's group (enum cg_controller; "" when not read): report_subject_proc's
	 * pick */
	char cgroups[CGC_COUNT][RP_CGROUP_MAX];
	int nice; /* its main thread's, at the window's end (with placement) */
	bool has_nice;
	/*
	 * Lock-contention candidates only (report_lock_contention_candidate), at the
	 * window's end: its threads, how many slept in a futex wait, the most
	 * of them on one futex word (one lock's queue), and how many waited
	 * on a word not known (wchan only)
	 */
	unsigned futex_threads, futex_waiting, futex_same_word, futex_no_word;
	bool has_futex;
	/*
	 * memory-growth: the memory judged (anonymous where mem_anon, else RSS) at
	 * its first and last sample, intervals it grew in, of all; RSS at the last
	 */
	uint64_t mem0_kb, mem_kb, rss_kb;
	unsigned mem_steps, mem_grew;
	bool mem_anon;
	double mem_span_s; /* seconds mem0_kb..mem_kb span, when not the window's (collect) */
	bool from_start;   /* sampled from the window's first sample */
	/* process-churn: its parent, and its reaped children's CPU (% of one CPU) */
	pid_t ppid;
	double child_pct;
	/*
	 * Exited in the window: its whole life's CPU at its last sample (own and
	 * reaped, % of one CPU over the window), which its parent's child_pct
	 * takes in when it reaps it, and the reaped part of it
	 */
	double life_pct, life_reaped_pct;
	/* bytes/s read and written, where the sampler reads I/O (record's does); 0: not read */
	double read_Bps, write_Bps;
};

/* A task in D (uninterruptible) seen by the load core. */
struct rp_dtask {
	pid_t pid, tid;
	char comm[RP_COMM_MAX];
	char reason[64]; /* the load core's words: "vfork parent waiting for its child" */
	char reason_key[24];
	bool whole_window;	       /* in D at the start and at the end */
	char frame[KSYM_MAX];	       /* the wchan or stack frame that decided the reason */
	char io_cgroup[RP_CGROUP_MAX]; /* its blkio (v1) or io (v2) group; "" when not read */
};

/* iostat -x figures of one device over the window. */
struct rp_disk {
	char name[DISK_NAME_MAX];
	double r_s, w_s, rkb_s, wkb_s, await_ms, aqu_sz, util_pct;
};

/*
 * iostat -x figures of one device between two readings s seconds apart:
 * the one computation of them (the report's, and what triage record stores
 * for each interval, so that plot shows the same number).
 */
void report_disk_rates(const struct disk_stat *a, const struct disk_stat *b, double s,
		       struct rp_disk *o);

struct rp_iface {
	char name[IFACE_NAME_MAX];
	double rx_kb_s, tx_kb_s;
	uint64_t rx_drop, tx_drop, rx_errs, tx_errs;
};

/*
 * An interface's figures between two readings s seconds apart: the one
 * computation of them (the report's, and what triage record stores for each
 * interval, so that plot shows the same number).
 */
void report_iface_rates(const struct iface_stat *a, const struct iface_stat *b, double s,
			struct rp_iface *o);

#define RP_ADDR_MAX 48 /* an IPv6 address in text */

/* A TCP listener whose accept queue was full, and the process that owns it. */
struct rp_listener {
	char addr[RP_ADDR_MAX];
	unsigned port;
	uint64_t queue, backlog; /* backlog: 0 when not known (no sock_diag) */
	bool has_backlog;
	pid_t pid; /* 0: no owner found */
};

/* A UDP socket that dropped datagrams, and the process that owns it. */
struct rp_udp_sock {
	char addr[RP_ADDR_MAX];
	unsigned port;
	uint64_t inode, drops;
	pid_t pid; /* 0: no owner found */
};

/* TCP counters of one network namespace over the window. */
struct rp_netns {
	pid_t pids[RP_MAX_PIDS]; /* processes in it (empty: our own namespace) */
	size_t npids;
	bool ours;
	uint64_t out_segs, retrans_segs, listen_overflows, listen_drops;
	uint64_t syn_retrans;	 /* of retrans_segs, SYNs sent again */
	struct rp_listener full; /* its fullest listener at the window's end (or start) */
	bool has_full;
	/* UDP (v4 + v6) over the window, and the socket that dropped most */
	uint64_t udp_rcvbuf_errors, udp_in_errors;
	bool has_udp;
	struct rp_udp_sock udp_top; /* drops: cumulative; the snapshot's, a delta in results */
	bool has_udp_top;
	bool has_ext;
};

/* A cgroup's I/O limit on one device; 0: no limit of that kind. */
struct rp_io_limit {
	char device[DISK_NAME_MAX]; /* "loop0", or "7:0" when the name is not known */
	unsigned major, minor;
	uint64_t rbps, wbps, riops, wiops;
};

struct rp_cgroup {
	char path[RP_CGROUP_MAX];
	int version; /* 1 or 2 */
	/* CPU bandwidth */
	bool has_cpu;
	double quota_cpus; /* quota / period; 0 when none */
	uint64_t periods, throttled, throttled_us;
	/* memory: v2 memory.events deltas; v1 failcnt and oom_kill deltas */
	bool has_mem;
	uint64_t mem_high, mem_max, mem_oom, mem_oom_kill, failcnt;
	/* I/O limits: v1 blkio.throttle.*_device, v2 io.max (the first limited device) */
	bool has_io;
	struct rp_io_limit io_limit;
	uint64_t io_rbytes, io_wbytes, io_rios, io_wios; /* over the window, on that device */
	pid_t pids[RP_MAX_PIDS];
	size_t npids;
};

/* A filesystem that stores data: how full at the window's end, how fast it filled. */
struct rp_fs {
	char mount[RP_MOUNT_MAX];
	char device[RP_MOUNT_MAX]; /* the mount's source: "/dev/vda1", "tmpfs" */
	char fstype[RP_FSTYPE_MAX];
	double used_pct;		    /* of the space non-root can use (df's Use%) */
	double inodes_pct;		    /* of the inodes; 0 when it has no inode count */
	uint64_t size_bytes, avail_bytes;   /* avail: what non-root can still write */
	uint64_t files, files_free;	    /* inodes */
	double fill_bytes_s, fill_inodes_s; /* over the window; > 0 filling, < 0 freed */
	pid_t writers[RP_MAX_PIDS];	    /* processes with a file open for writing on it */
	size_t nwriters;
};

/* A process with open descriptors near its soft RLIMIT_NOFILE, at the window's end. */
struct rp_fdproc {
	pid_t pid;
	char comm[RP_COMM_MAX];
	unsigned open;
	uint64_t soft; /* the soft limit */
};

#define RP_MAX_FDPROCS 16

/* A parent with zombie children (not reaped) in the window's last sample. */
struct rp_zparent {
	pid_t ppid;
	char comm[RP_COMM_MAX]; /* the parent's, "" when it was not sampled */
	unsigned zombies;
};

#define RP_MAX_ZPARENTS 8

/* memory-growth: what a growing process will run into. */
enum rp_mem_limit {
	RP_LIMIT_NONE,	    /* not known (MemAvailable unread) */
	RP_LIMIT_CGROUP,    /* its memory cgroup's (or an ancestor's) limit */
	RP_LIMIT_AVAILABLE, /* the host's MemAvailable */
};

/*
 * A process whose anonymous memory (RSS where not known) grew during the
 * window, and the tightest limit ahead of it.
 */
struct rp_grower {
	pid_t pid;
	char comm[RP_COMM_MAX];
	uint64_t mem0_kb, mem_kb;   /* the memory judged at its first and last sample */
	uint64_t rss_kb;	    /* RSS at its last sample */
	bool anon;		    /* mem is anonymous memory (RssAnon), not RSS */
	unsigned grew, steps;	    /* sample intervals it grew in, of all */
	double seconds;		    /* between its first and last sample */
	double rate_kb_s;	    /* over those seconds */
	enum rp_mem_limit limit;    /* the one with the least room left */
	uint64_t limit_bytes;	    /* the cgroup's limit, or MemAvailable */
	uint64_t room_bytes;	    /* left before it: limit - usage, or MemAvailable */
	char cgroup[RP_CGROUP_MAX]; /* RP_LIMIT_CGROUP: the cgroup that sets it */
};

#define RP_MAX_GROWERS 8

/* pid-exhaustion: a pids cgroup (v1 pids controller or v2) with a limit, at the window's end. */
struct rp_pidcg {
	char path[RP_CGROUP_MAX];
	int version;
	uint64_t current, max;
	uint64_t refused; /* pids.events "max": forks refused since it was made */
	bool has_refused;
	pid_t pids[RP_MAX_PIDS];
	size_t npids;
};

#define RP_MAX_PIDCGS 8

/* process-churn: a parent of short-lived children. */
struct rp_spawner {
	pid_t pid;
	char comm[RP_COMM_MAX];
	unsigned seen;	  /* its children the samples saw born during the window */
	double child_pct; /* CPU of the children it reaped (cutime + cstime), % of one CPU */
	double forks_s;	  /* eBPF: forks a second it made; 0 without */
};

#define RP_MAX_SPAWNERS 6

struct rp_kevent {
	enum kmsg_event event;
	int pid;
	char comm[RP_COMM_MAX];
	char device[DISK_NAME_MAX];
	char cgroup[RP_CGROUP_MAX];
	char text[KMSG_TEXT_MAX];
	double age_s;	    /* seconds before the window's end (the latest report) */
	bool in_window;	    /* logged during the window (else the recent past) */
	unsigned reports;   /* how many times the kernel logged it (hung tasks re-reported) */
	unsigned blocked_s; /* hung task: the longest "blocked for more than N seconds" */
	/* hung task: the lock it waits for and the task the kernel says holds it */
	char lock[16];
	int owner_pid; /* 0: none named */
	char owner_comm[RP_COMM_MAX];
};

struct rp_cpu_pct {
	double usr, sys, iowait, irq, steal, busy; /* % of the CPU's time */
	double softirq;				   /* the softirq part of irq */
	double nice;				   /* the part of usr at a positive nice */
	double idle;
};

/*
 * A CPU's (or the total line's) time between two /proc/stat readings, % by
 * mode: the one computation of them (the report's, and what triage record
 * stores for each interval, so that plot shows the same number). False when
 * no time passed between them.
 */
bool report_cpu_pct(const struct cpu_times *a, const struct cpu_times *b, struct rp_cpu_pct *o);

enum rp_psi { RP_PSI_CPU, RP_PSI_MEM, RP_PSI_IO, RP_PSI_COUNT };

struct rp_skipped {
	char what[32];
	char why[320];
};

/* Everything the rules read: deltas and rates over the window. */
struct report_data {
	double seconds;
	int ncpu;
	time_t start, end;
	char hostname[65], release[65], version[65];
	pid_t self;
	/* CPU */
	struct rp_cpu_pct all, cpu[HOST_MAX_CPUS];
	bool cpu_online[HOST_MAX_CPUS];
	int ncpu_lines;
	double runnable_avg; /* procs_running less ourselves, averaged over the samples */
	/* the softirq vector that ran most on each CPU over the window, and its runs/s */
	bool have_softirqs;
	char softirq_top[HOST_MAX_CPUS][RP_SOFTIRQ_NAME_MAX];
	double softirq_top_s[HOST_MAX_CPUS];
	/* the conntrack table at the window's end (where conntrack is loaded) */
	bool have_conntrack;
	uint64_t conntrack_count, conntrack_max;
	/* CPUs whose backlog dropped packets over the window (softnet_stat; net-drops) */
	bool have_softnet;
	struct rp_softnet {
		int cpu;
		uint64_t dropped, squeezed, processed; /* over the window */
	} softnet[RP_MAX_SOFTNET];
	size_t nsoftnet;
	bool have_psi[RP_PSI_COUNT];
	double psi_some[RP_PSI_COUNT], psi_full[RP_PSI_COUNT]; /* % of the window */
	/* load */
	bool have_load;
	double load[3];
	struct rp_dtask dtasks[RP_MAX_DTASKS];
	size_t ndtasks;
	unsigned nd_counted; /* counted D tasks at the end (may exceed ndtasks) */
	/* processes, busiest first */
	struct rp_proc *procs;
	size_t nprocs;
	unsigned threads_seen;
	unsigned task_samples;
	/* memory */
	bool have_mem, have_vmstat;
	struct meminfo mem;
	double swapin_s, swapout_s, majflt_s; /* pages/s, faults/s */
	uint64_t oom_kills;		      /* vmstat oom_kill delta */
	bool have_oom_counter;
	/* disk and network */
	struct rp_disk disks[HOST_MAX_DISKS];
	size_t ndisks;
	bool have_disks;
	struct rp_iface ifaces[HOST_MAX_IFACES];
	size_t nifaces;
	bool have_ifaces;
	struct rp_netns netns[RP_MAX_NETNS + 1];
	size_t nnetns;
	/* file descriptors: processes near their limit, the system's file handles */
	struct rp_fdproc fdprocs[RP_MAX_FDPROCS];
	size_t nfdprocs;
	bool have_files;
	uint64_t files_alloc, files_max; /* /proc/sys/fs/file-nr */
	/* new processes a second over the window (/proc/stat "processes") */
	bool have_forks;
	double forks_per_s;
	/* parents of short-lived processes, most first, and the busy CPU no sampled process used */
	struct rp_spawner spawners[RP_MAX_SPAWNERS];
	size_t nspawners;
	double unsampled_pct; /* % of one CPU: host busy less the sampled processes' */
	double reaped_pct;    /* % of one CPU: the sampled processes' reaped children's */
	/* processes whose RSS grew during the window, fastest first */
	struct rp_grower growers[RP_MAX_GROWERS];
	size_t ngrowers;
	/* tasks against kernel.pid_max and kernel.threads-max; pids cgroups near pids.max */
	bool have_task_caps;
	uint64_t tasks, pid_max, threads_max;
	struct rp_pidcg pidcgs[RP_MAX_PIDCGS];
	size_t npidcgs;
	/* zombies by parent, most first, at the window's last sample */
	struct rp_zparent zparents[RP_MAX_ZPARENTS];
	size_t nzparents;
	/* filesystems */
	struct rp_fs fs[RP_MAX_FS];
	size_t nfs;
	bool have_fs;
	/* cgroups */
	bool have_cgroups; /* a hierarchy was read (else nothing is said about cgroups) */
	struct rp_cgroup cgroups[RP_MAX_CGROUPS];
	size_t ncgroups;
	/* kernel log */
	bool have_kmsg;
	struct rp_kevent kevents[RP_MAX_KEVENTS];
	size_t nkevents;
	/* what the collection could not do */
	struct rp_skipped skipped[RP_MAX_SKIPPED];
	size_t nskipped;
	/* eBPF enrichment while it runs and until it is rendered (enrich.c), or NULL */
	struct probe_enrich *bpf;
};

struct probe_enrich;

/* Adds a skipped item (cut silently when the table is full). */
void report_skip(struct report_data *d, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void report_data_release(struct report_data *d);

/* ---- findings ---- */

/* Stable kinds; each has one row in kinds.c (name, resource, rule), which docs/report.md lists. */
enum report_kind {
	RK_FILESYSTEM_FULL,
	RK_INODES_FULL,
	RK_FD_EXHAUSTION,
	RK_PID_EXHAUSTION,
	RK_ZOMBIES,
	RK_PROCESS_CHURN,
	RK_LOCK_CONTENTION,
	RK_CPU_BOUND_USER,
	RK_CPU_BOUND_KERNEL,
	RK_CPU_SATURATED,
	RK_SINGLE_CPU_HOT,
	RK_CPU_CONTENTION,
	RK_CPU_THROTTLED,
	RK_IO_STALL,
	RK_LOAD_UNINTERRUPTIBLE,
	RK_MEMORY_GROWTH,
	RK_MEMORY_PRESSURE,
	RK_SWAPPING,
	RK_OOM_KILL,
	RK_DISK_SATURATED,
	RK_DISK_ERRORS,
	RK_NET_DROPS,
	RK_TCP_RETRANSMITS,
	RK_TCP_LISTEN_OVERFLOWS,
	RK_UDP_DROPS,
	RK_KERNEL_ERRORS,
	RK_CONNTRACK_FULL,
	RK_CPU_STEAL,
	RK_IRQ_SATURATED,
	RK_COUNT
};

/* SEV_DEFAULT: a rule's "the kind's usual severity"; report_evaluate replaces it with the row's. */
enum report_sev { SEV_CRITICAL, SEV_WARNING, SEV_INFO, SEV_DEFAULT };

/* What a finding or a "checked" line is about; a resource with a problem is not checked fine. */
enum report_resource {
	RES_CPU,
	RES_PROCESSES,
	RES_LOAD,
	RES_MEMORY,
	RES_DISK,
	RES_NETWORK,
	RES_CGROUPS,
	RES_KERNEL_LOG,
	RES_CPU_RUNQ,
	RES_FILESYSTEM,
	RES_COUNT
};

struct rp_subject {
	pid_t pid, tid; /* 0: none */
	char comm[RP_COMM_MAX];
	char cgroup[RP_CGROUP_MAX];
	char device[DISK_NAME_MAX];
	char iface[IFACE_NAME_MAX];
	char mount[RP_MOUNT_MAX];   /* a filesystem's mount point */
	char fstype[RP_FSTYPE_MAX]; /* its type */
	int cpu;		    /* -1: none */
	pid_t pids[RP_MAX_PIDS];
	size_t npids;
	/* cpu-contention: the processes that used the CPU while pids waited */
	pid_t hogs[RP_MAX_HOGS];
	size_t nhogs;
	bool exited; /* pid: the process exited before the window's end */
};

#define RP_MAX_EVIDENCE 10
#define RP_MAX_DETAILS 8

struct rp_evidence {
	const char *metric; /* a static name */
	double value;
	const char *unit;
};

struct rp_finding {
	enum report_kind kind;
	enum report_sev sev;
	struct rp_subject subject;
	char summary[1024];
	char brief[400]; /* the short form, one clause (the headline's); "" : the summary */
	struct rp_evidence ev[RP_MAX_EVIDENCE];
	int nev;
	char next[256];			   /* "" when there is no next command */
	char lead[64];			   /* words before the next command: "Profile it" */
	char details[RP_MAX_DETAILS][200]; /* BPF enrichment lines */
	int ndetails;
	double weight; /* orders findings of one severity and kind */
};

#define RP_MAX_FIGURES 10

/* What was checked and found fine: the sentence, and its figures as data. */
struct rp_checked {
	char resource[16];
	char summary[240];
	struct rp_evidence fig[RP_MAX_FIGURES];
	int nfig;
};

/* Adds a figure to a checked entry (dropped when full). */
void report_checked_figure(struct rp_checked *c, const char *metric, double value,
			   const char *unit);

struct report_findings {
	struct rp_finding *f;
	size_t n, cap;
	struct rp_checked checked[RP_MAX_CHECKED];
	size_t nchecked;
	char headline[1200]; /* never cut: holds the longest summary */
};

const char *report_kind_name(enum report_kind k);

enum report_label { REPORT_LABEL_WORDS, REPORT_LABEL_METRIC };
/* The subject as text (subject.c): for people, or as a metric's label. Never empty. */
void report_subject_label(const struct rp_subject *s, enum report_label form, char *buf,
			  size_t size);
const char *report_sev_name(enum report_sev s);
const char *report_resource_name(enum report_resource r);
enum report_resource report_kind_resource(enum report_kind k);

/* Evaluates every rule over d, sorts the findings, writes the checked list and headline. */
int report_evaluate(const struct report_data *d, struct report_findings *out);
/* Adds the eBPF results (when they ran) to the findings they explain. */
void report_enrich_findings(struct report_data *d, struct report_findings *f);
/*
 * How the eBPF parts that ran were loaded and the CPU time each took to
 * start, as one line ("runq: light skeleton, 9.1 ms CPU; ..."; "" when none
 * ran): what report --verbose says.
 */
void report_enrich_loaders(const struct report_data *d, char *buf, size_t len);
void report_findings_release(struct report_findings *f);

/* ---- collection ---- */

struct runloop_stop;

struct report_opts {
	double seconds;
	const char *root;  /* NULL or "/": the running system */
	const pid_t *pids; /* -p: only these processes (NULL: all) */
	size_t npids;
	bool bpf;
	bool verbose; /* let libbpf's own messages through (report --verbose) */
	bool task_io; /* also read each process's I/O bytes (report_window callers) */
	long fd_budget;
	/* required: a stop signal ends the window early (armed here if not yet) */
	struct runloop_stop *stop;
	/* progress: called about once a second while the window runs */
	void (*progress)(void *ctx, double done_s, double total_s);
	void *progress_ctx;
};

/* Runs the window and fills d. Returns 0 or -errno (no /proc under the root). */
int report_collect(const struct report_opts *o, struct report_data *d);

/*
 * A rolling window for a caller that keeps its own pace (triage collect):
 * the same readings as report_collect, taken once per call, with each
 * call's sample ending one window and beginning the next. o->seconds,
 * o->bpf, o->progress and o->stop are not used; o must outlive the window.
 */
struct report_window;
struct pidstat_table;

int report_window_open(struct report_window **out, const struct report_opts *o);
/*
 * One sample of everything. The first call begins the first window (*have
 * false); each later one fills d with the window since the previous call
 * (*have true; release d with report_data_release) and begins the next.
 */
int report_window_sample(struct report_window *rw, struct report_data *d, bool *have);
/* The pidstat table the last sample read, and its snapshot index (NULL before one). */
const struct pidstat_table *report_window_tasks(const struct report_window *rw, int *curr);
/* The host files the last sample read; NULL where one could not be read. */
struct report_host_view {
	const struct cpu_stat *cpu;
	const struct psi *psi[RP_PSI_COUNT]; /* RP_PSI_CPU, _MEM, _IO */
	const struct meminfo *mem;
	const struct disk_stats *disks;
	const struct iface_stats *ifaces;
	const struct loadavg *load;
};
void report_window_host(const struct report_window *rw, struct report_host_view *v);
void report_window_close(struct report_window *rw);

/* ---- rendering ---- */

struct json_writer;

struct report_style {
	bool color;
};

void report_render_plain(FILE *out, const struct report_data *d, const struct report_findings *f,
			 const struct report_style *st);
void report_render_json(struct json_writer *w, const struct report_data *d,
			const struct report_findings *f);
/* The JSON Schema of report_render_json's document (schema.c; --json-schema). */
void report_json_schema(struct json_writer *w);

#endif
