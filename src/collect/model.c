/* The metric families of triage collect (docs/collect.md lists them). */
#include "collect/model.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/inplace.h"

#define C METRIC_COUNTER
#define G METRIC_GAUGE

/* A string that would lose its NUL in its field is an error. */
STRINGS_IN_PLACE
const struct metric_family metric_families[M_COUNT] = {
	[M_CPU_SECONDS] = { "triage_cpu_seconds_total",
			    "Seconds each CPU spent in each mode.",
			    C,
			    "cpu.{0}.{1}",
			    { "cpu", "mode" } },
	[M_LOAD1] = { "triage_load1", "1-minute load average.", G, "load.load1", {} },
	[M_LOAD5] = { "triage_load5", "5-minute load average.", G, "load.load5", {} },
	[M_LOAD15] = { "triage_load15", "15-minute load average.", G, "load.load15", {} },
	[M_TASKS_RUNNABLE] = { "triage_tasks_runnable",
			       "Tasks running or runnable now.",
			       G,
			       "load.runnable",
			       {} },
	[M_TASKS_BLOCKED] = { "triage_tasks_uninterruptible",
			      "Tasks in uninterruptible sleep (D) now.",
			      G,
			      "load.uninterruptible",
			      {} },
	[M_PSI_STALL] = { "triage_pressure_stall_seconds_total",
			  "Pressure stall time (PSI) per resource, some or full.",
			  C,
			  "pressure.{0}.{1}.stall_seconds",
			  { "resource", "kind" } },
	[M_PSI_AVG10] = { "triage_pressure_avg10_ratio",
			  "Share of the last 10 s stalled (PSI avg10 / 100).",
			  G,
			  "pressure.{0}.{1}.avg10",
			  { "resource", "kind" } },
	[M_MEM_TOTAL] = { "triage_memory_total_bytes", "MemTotal.", G, "memory.total_bytes", {} },
	[M_MEM_AVAILABLE] = { "triage_memory_available_bytes",
			      "MemAvailable.",
			      G,
			      "memory.available_bytes",
			      {} },
	[M_SWAP_TOTAL] = { "triage_swap_total_bytes",
			   "SwapTotal.",
			   G,
			   "memory.swap_total_bytes",
			   {} },
	[M_SWAP_FREE] = { "triage_swap_free_bytes", "SwapFree.", G, "memory.swap_free_bytes", {} },
	[M_DISK_READ_BYTES] = { "triage_disk_read_bytes_total",
				"Bytes read from the device.",
				C,
				"disk.{0}.read_bytes",
				{ "device" } },
	[M_DISK_WRITTEN_BYTES] = { "triage_disk_written_bytes_total",
				   "Bytes written to the device.",
				   C,
				   "disk.{0}.written_bytes",
				   { "device" } },
	[M_DISK_READS] = { "triage_disk_reads_completed_total",
			   "Reads completed.",
			   C,
			   "disk.{0}.reads",
			   { "device" } },
	[M_DISK_WRITES] = { "triage_disk_writes_completed_total",
			    "Writes completed.",
			    C,
			    "disk.{0}.writes",
			    { "device" } },
	[M_DISK_IO_TIME] = { "triage_disk_io_time_seconds_total",
			     "Seconds the device had I/O in flight.",
			     C,
			     "disk.{0}.io_time_seconds",
			     { "device" } },
	[M_NET_RX_BYTES] = { "triage_network_receive_bytes_total",
			     "Bytes received.",
			     C,
			     "net.{0}.rx_bytes",
			     { "interface" } },
	[M_NET_TX_BYTES] = { "triage_network_transmit_bytes_total",
			     "Bytes sent.",
			     C,
			     "net.{0}.tx_bytes",
			     { "interface" } },
	[M_NET_RX_PACKETS] = { "triage_network_receive_packets_total",
			       "Packets received.",
			       C,
			       "net.{0}.rx_packets",
			       { "interface" } },
	[M_NET_TX_PACKETS] = { "triage_network_transmit_packets_total",
			       "Packets sent.",
			       C,
			       "net.{0}.tx_packets",
			       { "interface" } },
	[M_NET_RX_ERRORS] = { "triage_network_receive_errors_total",
			      "Receive errors.",
			      C,
			      "net.{0}.rx_errors",
			      { "interface" } },
	[M_NET_TX_ERRORS] = { "triage_network_transmit_errors_total",
			      "Transmit errors.",
			      C,
			      "net.{0}.tx_errors",
			      { "interface" } },
	[M_NET_RX_DROPS] = { "triage_network_receive_drops_total",
			     "Received packets dropped.",
			     C,
			     "net.{0}.rx_drops",
			     { "interface" } },
	[M_NET_TX_DROPS] = { "triage_network_transmit_drops_total",
			     "Packets dropped on sending.",
			     C,
			     "net.{0}.tx_drops",
			     { "interface" } },
	[M_PROC_CPU] = { "triage_process_cpu_seconds_total",
			 "CPU seconds of the group's processes (all threads), user or system.",
			 C,
			 "process.{0}.cpu_seconds.{1}",
			 { "group", "mode" } },
	[M_PROC_CTXSW] = { "triage_process_context_switches_total",
			   "Context switches of the group's threads, voluntary or involuntary.",
			   C,
			   "process.{0}.context_switches.{1}",
			   { "group", "kind" } },
	[M_PROC_RUNQ] = { "triage_process_runqueue_delay_seconds_total",
			  "Seconds the group's threads waited on a run queue.",
			  C,
			  "process.{0}.runqueue_delay_seconds",
			  { "group" } },
	[M_PROC_RSS] = { "triage_process_resident_memory_bytes",
			 "Resident memory of the group's processes.",
			 G,
			 "process.{0}.rss_bytes",
			 { "group" } },
	[M_PROC_READ_BYTES] = { "triage_process_read_bytes_total",
				"Bytes the group's processes read from storage.",
				C,
				"process.{0}.read_bytes",
				{ "group" } },
	[M_PROC_WRITTEN_BYTES] = { "triage_process_written_bytes_total",
				   "Bytes the group's processes wrote to storage.",
				   C,
				   "process.{0}.written_bytes",
				   { "group" } },
	[M_PROC_THREADS] = { "triage_process_threads",
			     "Threads in the group now.",
			     G,
			     "process.{0}.threads",
			     { "group" } },
	[M_PROC_PROCS] = { "triage_process_procs",
			   "Processes in the group now.",
			   G,
			   "process.{0}.procs",
			   { "group" } },
	[M_REPORT_FINDINGS] = { "triage_report_findings",
				"Findings of the last report window, by severity.",
				G,
				"report.findings.{0}",
				{ "severity" } },
	[M_REPORT_FINDING] = { "triage_report_finding_severity",
			       "A finding of the last report window (3 critical, 2 warning, 1 "
			       "info), "
			       "by rule and subject; the first 16.",
			       G,
			       "report.finding.{0}.{1}",
			       { "rule", "subject" } },
	[M_REPORT_FINDING_VALUE] = { "triage_report_finding_value",
				     "The headline figure of a finding of the last report window "
				     "(docs/fleet.md: a process's % of one CPU, a filesystem's % "
				     "used), by rule and subject; the same series as "
				     "triage_report_finding_severity.",
				     G,
				     "report.finding_value.{0}.{1}",
				     { "rule", "subject" } },
	[M_REPORT_FINDING_INFO] = { "triage_report_finding_info",
				    "The sentence and next command of each finding in "
				    "triage_report_finding_severity (value 1; Prometheus only).",
				    G,
				    "",
				    { "rule", "subject", "sentence", "next" } },
	[M_GRAPHITE_DROPPED] = { "triage_collect_graphite_dropped_points_total",
				 "Graphite points dropped because the buffer was full.",
				 C,
				 "collect.graphite.dropped_points",
				 {} },
	[M_GRAPHITE_BUFFERED] = { "triage_collect_graphite_buffered_points",
				  "Graphite points waiting to be sent.",
				  G,
				  "collect.graphite.buffered_points",
				  {} },
	[M_SAMPLE_SECONDS] = { "triage_collect_sample_cpu_seconds",
			       "CPU seconds the collector spent on its last sample.",
			       G,
			       "collect.sample_cpu_seconds",
			       {} },
};
STRINGS_IN_PLACE_END

int metric_add_labels(struct metric_set *m, enum metric_id id, const char *const *lv, int nlv,
		      double value)
{
	struct metric_sample *s;

	if (util_grow(&m->s, &m->cap, m->n + 1, sizeof(*m->s)))
		return -ENOMEM;
	s = &m->s[m->n++];
	s->id = id;
	for (int l = 0; l < COLLECT_MAX_LABELS; l++)
		snprintf(s->lv[l], sizeof(s->lv[l]), "%s", l < nlv && lv[l] ? lv[l] : "");
	s->value = value;
	return 0;
}

int metric_add(struct metric_set *m, enum metric_id id, const char *l0, const char *l1,
	       double value)
{
	const char *lv[] = { l0, l1 };

	return metric_add_labels(m, id, lv, 2, value);
}

void metric_set_clear(struct metric_set *m)
{
	m->n = 0;
}

void metric_set_release(struct metric_set *m)
{
	free(m->s);
	memset(m, 0, sizeof(*m));
}
