/* Internal to src/report: one rule per kind, named in the kinds table (kinds.c). */
#ifndef TRIAGE_REPORT_RULES_H
#define TRIAGE_REPORT_RULES_H

#include "report/report.h"

/* rules_fs.c */
int report_rule_filesystem_full(const struct report_data *d, struct report_findings *f);
int report_rule_inodes_full(const struct report_data *d, struct report_findings *f);
int report_rule_fd_exhaustion(const struct report_data *d, struct report_findings *f);
/* rules_procs.c: zombies, process churn */
int report_rule_zombies(const struct report_data *d, struct report_findings *f);
int report_rule_process_churn(const struct report_data *d, struct report_findings *f);
/* rules_lock.c */
int report_rule_lock_contention(const struct report_data *d, struct report_findings *f);
/* Whether p's switching and CPU make it worth a look at its threads' futex waits. */
bool report_lock_contention_candidate(const struct rp_proc *p);
/* rules_mem.c */
int report_rule_memory_growth(const struct report_data *d, struct report_findings *f);
/* rules_pids.c */
int report_rule_pid_exhaustion(const struct report_data *d, struct report_findings *f);
/* rules_cpu.c */
int report_rule_cpu_bound_user(const struct report_data *d, struct report_findings *f);
int report_rule_cpu_bound_kernel(const struct report_data *d, struct report_findings *f);
int report_rule_cpu_saturated(const struct report_data *d, struct report_findings *f);
int report_rule_single_cpu_hot(const struct report_data *d, struct report_findings *f);
int report_rule_cpu_contention(const struct report_data *d, struct report_findings *f);
int report_rule_cpu_throttled(const struct report_data *d, struct report_findings *f);
/* rules_sys.c */
int report_rule_load_uninterruptible(const struct report_data *d, struct report_findings *f);
int report_rule_memory_pressure(const struct report_data *d, struct report_findings *f);
int report_rule_swapping(const struct report_data *d, struct report_findings *f);
int report_rule_oom_kill(const struct report_data *d, struct report_findings *f);
/* rules_io.c */
/* Busy and queueing: saturated whether or not the device serves requests in parallel. */
bool report_disk_is_saturated(const struct rp_disk *k);
int report_rule_disk_saturated(const struct report_data *d, struct report_findings *f);
int report_rule_io_stall(const struct report_data *d, struct report_findings *f);
int report_rule_disk_errors(const struct report_data *d, struct report_findings *f);
int report_rule_net_drops(const struct report_data *d, struct report_findings *f);
int report_rule_tcp_retransmits(const struct report_data *d, struct report_findings *f);
int report_rule_tcp_listen_overflows(const struct report_data *d, struct report_findings *f);
int report_rule_udp_drops(const struct report_data *d, struct report_findings *f);
int report_rule_kernel_errors(const struct report_data *d, struct report_findings *f);
/* rules_host.c */
int report_rule_conntrack_full(const struct report_data *d, struct report_findings *f);
int report_rule_cpu_steal(const struct report_data *d, struct report_findings *f);
int report_rule_irq_saturated(const struct report_data *d, struct report_findings *f);
/* rules_kmsg.c: a hung task's finding; the first event of a kind in the kernel log */
int report_kmsg_hung_task(const struct rp_kevent *e, struct report_findings *f);
const struct rp_kevent *report_kmsg_event_of(const struct report_data *d, enum kmsg_event ev);
/* rules_host.c: softnet backlog drops per CPU (net-drops) */
int report_rule_softnet_drops(const struct report_data *d, struct report_findings *f);

#endif
