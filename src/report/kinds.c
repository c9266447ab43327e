/* The kinds table: one row per kind (see kinds.h). */
#include "report/kinds.h"

#include "report/rules.h"

#define ROW(k, n, res, fn, s)                         \
	{                                             \
		k, n, res, fn, s, "report.md#kind-" n \
	}

/* In enum order: findings of one severity sort by kind in this order. */
static const struct report_kind_row kinds[] = {
	/* first: a full filesystem fails writes, whatever else is wrong */
	ROW(RK_FILESYSTEM_FULL, "filesystem-full", RES_FILESYSTEM, rule_filesystem_full,
	    SEV_WARNING),
	ROW(RK_INODES_FULL, "inodes-full", RES_FILESYSTEM, rule_inodes_full, SEV_WARNING),
	ROW(RK_FD_EXHAUSTION, "fd-exhaustion", RES_PROCESSES, rule_fd_exhaustion, SEV_WARNING),
	ROW(RK_PID_EXHAUSTION, "pid-exhaustion", RES_PROCESSES, rule_pid_exhaustion, SEV_WARNING),
	ROW(RK_ZOMBIES, "zombies", RES_PROCESSES, rule_zombies, SEV_WARNING),
	ROW(RK_PROCESS_CHURN, "process-churn", RES_PROCESSES, rule_process_churn, SEV_WARNING),
	ROW(RK_LOCK_CONTENTION, "lock-contention", RES_PROCESSES, rule_lock_contention,
	    SEV_WARNING),
	ROW(RK_CPU_BOUND_USER, "cpu-bound-user", RES_PROCESSES, rule_cpu_bound_user, SEV_WARNING),
	ROW(RK_CPU_BOUND_KERNEL, "cpu-bound-kernel", RES_PROCESSES, rule_cpu_bound_kernel,
	    SEV_WARNING),
	ROW(RK_CPU_SATURATED, "cpu-saturated", RES_CPU, rule_cpu_saturated, SEV_WARNING),
	ROW(RK_SINGLE_CPU_HOT, "single-cpu-hot", RES_CPU, rule_single_cpu_hot, SEV_WARNING),
	ROW(RK_CPU_CONTENTION, "cpu-contention", RES_PROCESSES, rule_cpu_contention, SEV_WARNING),
	ROW(RK_CPU_THROTTLED, "cpu-throttled", RES_CGROUPS, rule_cpu_throttled, SEV_WARNING),
	/* before load-uninterruptible: a stall on throttled I/O explains its D tasks */
	ROW(RK_IO_STALL, "io-stall", RES_DISK, rule_io_stall, SEV_WARNING),
	ROW(RK_LOAD_UNINTERRUPTIBLE, "load-uninterruptible", RES_LOAD, rule_load_uninterruptible,
	    SEV_WARNING),
	/* before memory-pressure: the process that grows is the cause a pressure finding sees */
	ROW(RK_MEMORY_GROWTH, "memory-growth", RES_MEMORY, rule_memory_growth, SEV_WARNING),
	ROW(RK_MEMORY_PRESSURE, "memory-pressure", RES_MEMORY, rule_memory_pressure, SEV_WARNING),
	ROW(RK_SWAPPING, "swapping", RES_MEMORY, rule_swapping, SEV_WARNING),
	ROW(RK_OOM_KILL, "oom-kill", RES_MEMORY, rule_oom_kill, SEV_CRITICAL),
	ROW(RK_DISK_SATURATED, "disk-saturated", RES_DISK, rule_disk_saturated, SEV_WARNING),
	ROW(RK_DISK_ERRORS, "disk-errors", RES_DISK, rule_disk_errors, SEV_CRITICAL),
	ROW(RK_NET_DROPS, "net-drops", RES_NETWORK, rule_net_drops, SEV_WARNING),
	ROW(RK_TCP_RETRANSMITS, "tcp-retransmits", RES_NETWORK, rule_tcp_retransmits, SEV_WARNING),
	ROW(RK_TCP_LISTEN_OVERFLOWS, "tcp-listen-overflows", RES_NETWORK, rule_tcp_listen_overflows,
	    SEV_WARNING),
	ROW(RK_UDP_DROPS, "udp-drops", RES_NETWORK, rule_udp_drops, SEV_WARNING),
	ROW(RK_KERNEL_ERRORS, "kernel-errors", RES_KERNEL_LOG, rule_kernel_errors, SEV_WARNING),
	ROW(RK_CONNTRACK_FULL, "conntrack-full", RES_NETWORK, rule_conntrack_full, SEV_WARNING),
	ROW(RK_CPU_STEAL, "cpu-steal", RES_CPU, rule_cpu_steal, SEV_WARNING),
	ROW(RK_IRQ_SATURATED, "irq-saturated", RES_CPU, rule_irq_saturated, SEV_WARNING),
};

_Static_assert(sizeof(kinds) / sizeof(kinds[0]) == RK_COUNT,
	       "the kinds table needs exactly one row per enum report_kind");

const struct report_kind_row *report_kind_row(enum report_kind k)
{
	/* rows are in enum order; tests/unit/test_report.c checks kinds[k].kind == k */
	return (unsigned)k < RK_COUNT ? &kinds[k] : NULL;
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
	static const char *const names[RES_COUNT] = {
		[RES_CPU] = "cpu",	     [RES_PROCESSES] = "processes",
		[RES_LOAD] = "load",	     [RES_MEMORY] = "memory",
		[RES_DISK] = "disk",	     [RES_NETWORK] = "network",
		[RES_CGROUPS] = "cgroups",   [RES_KERNEL_LOG] = "kernel-log",
		[RES_CPU_RUNQ] = "cpu-runq", [RES_FILESYSTEM] = "filesystem",
	};

	return (unsigned)r < RES_COUNT && names[r] ? names[r] : "?";
}

const char *report_sev_name(enum report_sev s)
{
	static const char *const names[] = { "critical", "warning", "info" };

	return (unsigned)s <= SEV_INFO ? names[s] : "?";
}
