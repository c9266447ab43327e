/*
 * Host-level counters for `triage report`: per-CPU times, memory, VM
 * events, block devices, network interfaces, the TCP MIB, cgroup CPU and
 * memory events, and kernel log records. Pure parsers (buffer in, struct
 * out, no I/O) that unit tests and fuzzers call directly; each returns 0
 * or -EINVAL (-E2BIG where a fixed table is full and entries were cut).
 * The readers that feed them through the procfs root are in hostread.h.
 */
#ifndef TRIAGE_PROCFS_HOSTSTATS_H
#define TRIAGE_PROCFS_HOSTSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPUs tracked individually; the "cpu" total line covers any beyond. */
#define HOST_MAX_CPUS 256

/* One cpu line of /proc/stat, in ticks. */
struct cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

/* /proc/stat: the total line, every cpuN line, the task counters. */
struct cpu_stat {
	struct cpu_times all;
	struct cpu_times cpu[HOST_MAX_CPUS];
	bool online[HOST_MAX_CPUS]; /* a cpuN line was present */
	int ncpu;		    /* highest N seen + 1 (capped at HOST_MAX_CPUS) */
	uint64_t ctxt, procs_running, procs_blocked;
	uint64_t forks; /* "processes": forks and clones since boot */
};

int procfs_cpu_stat_parse(const char *buf, size_t len, struct cpu_stat *out);
uint64_t procfs_cpu_times_total(const struct cpu_times *t);
/* Ticks not idle and not iowait. */
uint64_t procfs_cpu_times_busy(const struct cpu_times *t);

/*
 * The value of key in a "key value" or "key: value [kB]" file (meminfo,
 * vmstat, cgroup cpu.stat and memory.events, memory.oom_control). Only a
 * whole key at the start of a line matches. Returns 0, -ENOENT if absent,
 * -EINVAL if its value is not a number.
 */
int procfs_keyed_u64(const char *buf, size_t len, const char *key, uint64_t *out);

/* The /proc/meminfo lines the report uses, in kB. */
struct meminfo {
	uint64_t total, available, swap_total, swap_free;
	bool has_available;
};

int procfs_meminfo_parse(const char *buf, size_t len, struct meminfo *out);

/* The /proc/vmstat counters the report uses. */
struct vmstat {
	uint64_t pswpin, pswpout, pgmajfault, oom_kill;
	bool has_oom_kill;
};

int procfs_vmstat_parse(const char *buf, size_t len, struct vmstat *out);

#define DISK_NAME_MAX 32
#define HOST_MAX_DISKS 128

/* One /proc/diskstats line (the first 11 counters after the name). */
struct disk_stat {
	unsigned major, minor;
	char name[DISK_NAME_MAX];
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks;
	uint64_t in_flight, io_ticks, time_in_queue; /* ticks are ms */
};

struct disk_stats {
	struct disk_stat d[HOST_MAX_DISKS];
	size_t n;
};

int procfs_diskstats_parse(const char *buf, size_t len, struct disk_stats *out);

#define IFACE_NAME_MAX 32
#define HOST_MAX_IFACES 64

/* One /proc/net/dev interface. */
struct iface_stat {
	char name[IFACE_NAME_MAX];
	uint64_t rx_bytes, rx_packets, rx_errs, rx_drop;
	uint64_t tx_bytes, tx_packets, tx_errs, tx_drop;
};

struct iface_stats {
	struct iface_stat i[HOST_MAX_IFACES];
	size_t n;
};

int procfs_netdev_parse(const char *buf, size_t len, struct iface_stats *out);

/*
 * A counter of /proc/net/snmp or /proc/net/netstat: a header line
 * "Proto: Name1 Name2 ..." followed by "Proto: v1 v2 ...". Returns 0,
 * -ENOENT if the protocol or name is absent, -EINVAL on a malformed pair.
 */
int procfs_snmp_counter(const char *buf, size_t len, const char *proto, const char *name,
			uint64_t *out);

/* The TCP counters the report uses (snmp Tcp:, netstat TcpExt:). */
struct tcp_counters {
	uint64_t out_segs, retrans_segs, in_errs;
	uint64_t listen_overflows, listen_drops;
	uint64_t syn_retrans; /* TcpExt TCPSynRetrans: SYNs sent again (part of RetransSegs) */
	bool has_snmp, has_ext;
};

int procfs_tcp_snmp_parse(const char *buf, size_t len, struct tcp_counters *out);
int procfs_tcp_netstat_parse(const char *buf, size_t len, struct tcp_counters *out);

/* cgroup CPU bandwidth counters, v1 (ns) and v2 (us) normalised to us. */
struct cg_cpu_stat {
	uint64_t nr_periods, nr_throttled, throttled_us;
};

/* v2 cpu.stat ("throttled_usec") or v1 cpu.stat ("throttled_time", ns). */
int procfs_cg_cpu_stat_parse(const char *buf, size_t len, struct cg_cpu_stat *out);

/* v2 cpu.max "QUOTA PERIOD" ("max" = no quota): quota_us < 0 for none. */
int procfs_cg_cpu_max_parse(const char *buf, size_t len, int64_t *quota_us, uint64_t *period_us);

/* v2 memory.events (v1: memory.oom_control's oom_kill; failcnt separately). */
struct cg_mem_events {
	uint64_t low, high, max, oom, oom_kill;
};

int procfs_cg_mem_events_parse(const char *buf, size_t len, struct cg_mem_events *out);

/* A cgroup's I/O limits on one device; 0: no limit of that kind. */
struct cg_io_limit {
	unsigned major, minor;
	uint64_t rbps, wbps, riops, wiops;
};

/*
 * v2 io.max ("MAJ:MIN rbps=N wbps=max riops=max wiops=max" a line): the
 * first device with a limit. -ENOENT when no device has one.
 */
int procfs_cg_io_max_parse(const char *buf, size_t len, struct cg_io_limit *out);

/*
 * One v1 blkio.throttle.{read,write}_{bps,iops}_device file ("MAJ:MIN N" a
 * line): the value for device *major:*minor, or, when *major is
 * CG_ANY_DEVICE, the first line's (setting *major and *minor). -ENOENT
 * when there is none.
 */
#define CG_ANY_DEVICE 0xffffffffu
int procfs_cg_blkio_limit_parse(const char *buf, size_t len, unsigned *major, unsigned *minor,
				uint64_t *value);

/* I/O a cgroup did, summed over its devices. */
struct cg_io_stat {
	uint64_t rbytes, wbytes, rios, wios;
};

/*
 * v2 io.stat ("MAJ:MIN rbytes=N wbytes=N rios=N wios=N ..." a line): of
 * device major:minor, or summed over all when major is CG_ANY_DEVICE.
 */
int procfs_cg_io_stat_parse(const char *buf, size_t len, unsigned major, unsigned minor,
			    struct cg_io_stat *out);

/*
 * v1 blkio.throttle.io_service_bytes or io_serviced ("MAJ:MIN Read N"
 * lines, then "Total N"): the reads and writes of device major:minor, or
 * summed over all when major is CG_ANY_DEVICE.
 */
int procfs_cg_blkio_stat_parse(const char *buf, size_t len, unsigned major, unsigned minor,
			       uint64_t *reads, uint64_t *writes);

/* One /dev/kmsg record: "PRIO,SEQ,TS_US,FLAGS[,...];MESSAGE". */
#define KMSG_TEXT_MAX 512

struct kmsg_record {
	unsigned level;	   /* syslog level, 0 emerg .. 7 debug */
	unsigned facility; /* 0 kernel */
	uint64_t seq;
	uint64_t ts_us; /* monotonic microseconds since boot */
	char text[KMSG_TEXT_MAX];
};

/* Parses one record line (continuation lines starting with ' ' are not records). */
int procfs_kmsg_record_parse(const char *line, size_t len, struct kmsg_record *out);

/* What a kernel log message is about, for the report's rules. */
enum kmsg_event {
	KMSG_NONE = 0,
	KMSG_OOM_KILL,	  /* "Killed process PID (comm)" / "oom-kill:" */
	KMSG_HUNG_TASK,	  /* "task comm:PID blocked for more than N seconds" */
	KMSG_SOFT_LOCKUP, /* "soft lockup", "hard LOCKUP", "rcu_sched self-detected stall" */
	KMSG_IO_ERROR,	  /* block "I/O error, dev X", "Buffer I/O error on dev X" */
	KMSG_SEGFAULT,	  /* "comm[PID]: segfault at" */
	KMSG_OTHER_ERROR, /* anything else at level err or worse */
	/* "INFO: task comm:PID [<reader>] [is] blocked on a LOCK likely owned by task comm:PID" */
	KMSG_HUNG_BLOCKER,
	KMSG_FILE_MAX, /* "VFS: file-max limit N reached" (info: ENFILE for everyone) */
	/* "nf_conntrack: table full, dropping packet"; 6.x: "... table full in netns N, ..." */
	KMSG_CONNTRACK_FULL,
};

struct kmsg_class {
	enum kmsg_event event;
	int pid;		    /* 0 when the message names none */
	char comm[64];		    /* "" when none */
	char device[DISK_NAME_MAX]; /* I/O errors */
	char cgroup[256];	    /* OOM: the task's memcg, when the message has it */
	unsigned blocked_s;	    /* hung task: "blocked for more than N seconds" */
	/* hung-task blocker: the lock ("mutex", "semaphore", "rw-semaphore") and its owner */
	char lock[16];
	int owner_pid; /* 0: the kernel did not find one */
	char owner_comm[64];
	uint64_t netns; /* conntrack: the namespace's inode ("in netns N"), 0 when not said */
};

/*
 * Classifies a record's text and level. Pure. The lines of a dump that
 * follow a report (a hung task's "Not tainted ..." and "echo 0 > ...
 * disables this message", call traces, registers) are KMSG_NONE whatever
 * their level: the report's first line says what happened.
 */
void procfs_kmsg_classify(const struct kmsg_record *r, struct kmsg_class *out);

/*
 * A CPU list ("0-3,8,10-11") into a bitmap of HOST_MAX_CPUS bits. CPUs
 * beyond the bitmap are ignored. Returns 0 or -EINVAL.
 */
#define CPUSET_WORDS (HOST_MAX_CPUS / 64)
struct cpuset {
	uint64_t w[CPUSET_WORDS];
};

int procfs_cpulist_parse(const char *buf, size_t len, struct cpuset *out);
/* The Cpus_allowed_list line of /proc/PID/status. */
int procfs_status_cpus_allowed_parse(const char *buf, size_t len, struct cpuset *out);
/* Writes the set as a list ("0-1,3") into buf; "" for an empty set. */
void procfs_cpulist_format(const struct cpuset *s, char *buf, size_t size);
void procfs_cpuset_add(struct cpuset *s, unsigned cpu);
bool procfs_cpuset_has(const struct cpuset *s, unsigned cpu);
unsigned procfs_cpuset_count(const struct cpuset *s);
/* Lowest CPU in the set, or -1. */
int procfs_cpuset_first(const struct cpuset *s);

#endif
