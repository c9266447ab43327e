/* The kinds table: one row per kind (see kinds.h). */
#include "report/kinds.h"

#include "report/rules.h"
#include "util/inplace.h"

/*
 * Every kind in enum order (findings of one severity sort by kind in this
 * order): ROW(kind, name, resource, rule, severity, figure, unit, next).
 * The list is expanded twice: into the table and into report_kind_rule's
 * switch (see kinds.h for why the rule is not a column).
 */
#define KIND_ROWS(ROW)                                                                             \
	/* first: a full filesystem fails writes, whatever else is wrong */                        \
	ROW(RK_FILESYSTEM_FULL, "filesystem-full", RES_FILESYSTEM, report_rule_filesystem_full,    \
	    SEV_WARNING, "used", "% used", "du -xh --max-depth=2 {subject} | sort -h | tail")      \
	ROW(RK_INODES_FULL, "inodes-full", RES_FILESYSTEM, report_rule_inodes_full, SEV_WARNING,   \
	    "inodes_used", "% of inodes used",                                                     \
	    "du -x --inodes --max-depth=2 {subject} | sort -n | tail")                             \
	ROW(RK_FD_EXHAUSTION, "fd-exhaustion", RES_PROCESSES, report_rule_fd_exhaustion,           \
	    SEV_WARNING, "used", "% of the descriptor limit",                                      \
	    "ls -l /proc/{pid}/fd | awk '{print $NF}' | sed 's/:\\[.*//' | sort | uniq -c | sort " \
	    "-n | tail")                                                                           \
	ROW(RK_PID_EXHAUSTION, "pid-exhaustion", RES_PROCESSES, report_rule_pid_exhaustion,        \
	    SEV_WARNING, "used", "% of the task limit",                                            \
	    "ps -eo pid,nlwp,comm --sort=-nlwp | head")                                            \
	ROW(RK_ZOMBIES, "zombies", RES_PROCESSES, report_rule_zombies, SEV_WARNING, "zombies",     \
	    " zombies", "ps -o pid,ppid,stat,cmd --ppid {pid}")                                    \
	ROW(RK_PROCESS_CHURN, "process-churn", RES_PROCESSES, report_rule_process_churn,           \
	    SEV_WARNING, "forks_per_s", " new processes/s", "triage probe syscalls -d 5")          \
	ROW(RK_LOCK_CONTENTION, "lock-contention", RES_PROCESSES, report_rule_lock_contention,     \
	    SEV_WARNING, "futex_waiting", " threads waiting on a futex",                           \
	    "triage probe offcpu -p {pid} -d 10")                                                  \
	ROW(RK_CPU_BOUND_USER, "cpu-bound-user", RES_PROCESSES, report_rule_cpu_bound_user,        \
	    SEV_WARNING, "cpu", "%", "triage probe profile -p {pid} -d 10")                        \
	ROW(RK_CPU_BOUND_KERNEL, "cpu-bound-kernel", RES_PROCESSES, report_rule_cpu_bound_kernel,  \
	    SEV_WARNING, "cpu", "%", "triage probe syscalls -p {pid} -d 10")                       \
	ROW(RK_CPU_SATURATED, "cpu-saturated", RES_CPU, report_rule_cpu_saturated, SEV_WARNING,    \
	    "cpu_busy", "% busy", "triage probe runq -d 10")                                       \
	ROW(RK_SINGLE_CPU_HOT, "single-cpu-hot", RES_CPU, report_rule_single_cpu_hot, SEV_WARNING, \
	    "cpu_busy", "% busy", "mpstat -P ALL 1 5")                                             \
	ROW(RK_CPU_CONTENTION, "cpu-contention", RES_PROCESSES, report_rule_cpu_contention,        \
	    SEV_WARNING, "runq_wait", "% waiting for a CPU", "triage probe runq -p {pid} -d 10")   \
	ROW(RK_CPU_THROTTLED, "cpu-throttled", RES_CGROUPS, report_rule_cpu_throttled,             \
	    SEV_WARNING, "throttled_periods", "% of periods throttled",                            \
	    "cat /sys/fs/cgroup{subject}/cpu.stat")                                                \
	/* before load-uninterruptible: a stall on throttled I/O explains its D tasks */           \
	ROW(RK_IO_STALL, "io-stall", RES_DISK, report_rule_io_stall, SEV_WARNING, "psi_io_some",   \
	    "% stalled on I/O", "triage pidstat -d -p ALL 1 5")                                    \
	ROW(RK_LOAD_UNINTERRUPTIBLE, "load-uninterruptible", RES_LOAD,                             \
	    report_rule_load_uninterruptible, SEV_WARNING, "d_tasks_whole_window", " tasks in D",  \
	    "triage probe offcpu -p {pid} -d 10")                                                  \
	/* before memory-pressure: the process that grows is the cause a pressure finding sees */  \
	ROW(RK_MEMORY_GROWTH, "memory-growth", RES_MEMORY, report_rule_memory_growth, SEV_WARNING, \
	    "anon_growth", " MiB/s of anonymous memory growth", "triage pidstat -r -p {pid} 1 5")  \
	ROW(RK_MEMORY_PRESSURE, "memory-pressure", RES_MEMORY, report_rule_memory_pressure,        \
	    SEV_WARNING, "psi_memory_some", "% stalled on memory", "triage pidstat -r -p ALL 1 5") \
	ROW(RK_SWAPPING, "swapping", RES_MEMORY, report_rule_swapping, SEV_WARNING, "swap_in",     \
	    " pages/s swapped in", "triage pidstat -r -p ALL 1 5")                                 \
	ROW(RK_OOM_KILL, "oom-kill", RES_MEMORY, report_rule_oom_kill, SEV_CRITICAL, "oom_kills",  \
	    " OOM kills", "dmesg -T | grep -B5 -A25 'invoked oom-killer'")                         \
	ROW(RK_DISK_SATURATED, "disk-saturated", RES_DISK, report_rule_disk_saturated,             \
	    SEV_WARNING, "util", "% busy", "triage pidstat -d -p ALL 1 5")                         \
	ROW(RK_DISK_ERRORS, "disk-errors", RES_DISK, report_rule_disk_errors, SEV_CRITICAL, "",    \
	    "", "dmesg -T | grep -w {subject}")                                                    \
	ROW(RK_NET_DROPS, "net-drops", RES_NETWORK, report_rule_net_drops, SEV_WARNING, "rx_drop", \
	    " packets dropped", "ip -s -s link show dev {subject}")                                \
	ROW(RK_TCP_RETRANSMITS, "tcp-retransmits", RES_NETWORK, report_rule_tcp_retransmits,       \
	    SEV_WARNING, "retrans", "% retransmitted", "ss -tin state established")                \
	ROW(RK_TCP_LISTEN_OVERFLOWS, "tcp-listen-overflows", RES_NETWORK,                          \
	    report_rule_tcp_listen_overflows, SEV_WARNING, "listen_overflows",                     \
	    " listen overflows", "ss -ltn")                                                        \
	ROW(RK_UDP_DROPS, "udp-drops", RES_NETWORK, report_rule_udp_drops, SEV_WARNING,            \
	    "rcvbuf_errors", " datagrams dropped", "ss -uanmp")                                    \
	ROW(RK_KERNEL_ERRORS, "kernel-errors", RES_KERNEL_LOG, report_rule_kernel_errors,          \
	    SEV_WARNING, "", "", "dmesg -T --level=emerg,alert,crit,err,warn")                     \
	ROW(RK_CONNTRACK_FULL, "conntrack-full", RES_NETWORK, report_rule_conntrack_full,          \
	    SEV_WARNING, "fill", "% full", "conntrack -S")                                         \
	ROW(RK_CPU_STEAL, "cpu-steal", RES_CPU, report_rule_cpu_steal, SEV_WARNING, "steal",       \
	    "% stolen", "mpstat -P ALL 1 5")                                                       \
	ROW(RK_IRQ_SATURATED, "irq-saturated", RES_CPU, report_rule_irq_saturated, SEV_WARNING,    \
	    "irq", "% in interrupts", "mpstat -I SCPU -P ALL 1 5")

#define TABLE_ROW(k, n, res, fn, s, fig, unit, next) \
	{ k, n, res, s, "report.md#kind-" n, fig, unit, next },

/* A string that would lose its NUL in its field is an error. */
STRINGS_IN_PLACE
static const struct report_kind_row kinds[] = { KIND_ROWS(TABLE_ROW) };
STRINGS_IN_PLACE_END

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == RK_COUNT,
	       "the kinds table needs exactly one row per enum report_kind");

const struct report_kind_row *report_kind_row(enum report_kind k)
{
	/* rows are in enum order; tests/unit/test_report.c checks kinds[k].kind == k */
	return (unsigned)k < RK_COUNT ? &kinds[k] : NULL;
}

#define RULE_CASE(k, n, res, fn, s, fig, unit, next) \
	case k:                                      \
		return fn;

report_rule_fn report_kind_rule(enum report_kind k)
{
	/* a switch, not a column of pointers: see kinds.h */
	switch (k) {
		KIND_ROWS(RULE_CASE)
	case RK_COUNT:
		break;
	}
	return NULL;
}

const char *report_kind_name(enum report_kind k)
{
	const struct report_kind_row *r = report_kind_row(k);

	return r ? r->name : "?";
}

enum report_resource report_kind_resource(enum report_kind k)
{
	const struct report_kind_row *r = report_kind_row(k);

	return r ? r->resource : RES_COUNT;
}

const char *report_resource_name(enum report_resource r)
{
	static const char names[RES_COUNT][12] = {
		[RES_CPU] = "cpu",	     [RES_PROCESSES] = "processes",
		[RES_LOAD] = "load",	     [RES_MEMORY] = "memory",
		[RES_DISK] = "disk",	     [RES_NETWORK] = "network",
		[RES_CGROUPS] = "cgroups",   [RES_KERNEL_LOG] = "kernel-log",
		[RES_CPU_RUNQ] = "cpu-runq", [RES_FILESYSTEM] = "filesystem",
	};

	return (unsigned)r < RES_COUNT && names[r][0] ? names[r] : "?";
}

const char *report_sev_name(enum report_sev s)
{
	static const char names[][9] = { "critical", "warning", "info" };

	return (unsigned)s <= SEV_INFO ? names[s] : "?";
}
