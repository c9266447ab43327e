/*
 * triage collect's metric model: metrics are data (a family table and a
 * list of samples), rendered late as Graphite plaintext or Prometheus
 * text. Pure: no I/O besides the FILE the renderers write to.
 */
#ifndef TRIAGE_COLLECT_MODEL_H
#define TRIAGE_COLLECT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define COLLECT_MAX_LABELS 4
#define COLLECT_LABEL_MAX 160

enum metric_type { METRIC_COUNTER, METRIC_GAUGE };

/*
 * One metric family. name: the Prometheus name (counters end in _total).
 * graphite: the path below the prefix, "{0}" and "{1}" standing for the
 * sanitised label values ("process.{0}.cpu_seconds.{1}"); "" for a
 * family Graphite cannot carry (text as label values: Prometheus only).
 * The strings are held in place, not pointed to: a pointer in the
 * position-independent binary is a relocation the loader writes, copying
 * the page, at every start of every command (issue 24).
 */
struct metric_family {
	char name[48];
	char help[200];
	enum metric_type type;
	char graphite[40];
	char labels[COLLECT_MAX_LABELS][12]; /* "": unused */
};

/* The families triage collect exports, indexed by enum metric_id. */
enum metric_id {
	M_CPU_SECONDS,
	M_LOAD1,
	M_LOAD5,
	M_LOAD15,
	M_TASKS_RUNNABLE,
	M_TASKS_BLOCKED,
	M_PSI_STALL,
	M_PSI_AVG10,
	M_MEM_TOTAL,
	M_MEM_AVAILABLE,
	M_SWAP_TOTAL,
	M_SWAP_FREE,
	M_DISK_READ_BYTES,
	M_DISK_WRITTEN_BYTES,
	M_DISK_READS,
	M_DISK_WRITES,
	M_DISK_IO_TIME,
	M_NET_RX_BYTES,
	M_NET_TX_BYTES,
	M_NET_RX_PACKETS,
	M_NET_TX_PACKETS,
	M_NET_RX_ERRORS,
	M_NET_TX_ERRORS,
	M_NET_RX_DROPS,
	M_NET_TX_DROPS,
	M_PROC_CPU,
	M_PROC_CTXSW,
	M_PROC_RUNQ,
	M_PROC_RSS,
	M_PROC_READ_BYTES,
	M_PROC_WRITTEN_BYTES,
	M_PROC_THREADS,
	M_PROC_PROCS,
	M_REPORT_FINDINGS,
	M_REPORT_FINDING,
	M_REPORT_FINDING_VALUE,
	M_REPORT_FINDING_INFO,
	M_GRAPHITE_DROPPED,
	M_GRAPHITE_BUFFERED,
	M_SAMPLE_SECONDS,
	M_COUNT
};

extern const struct metric_family metric_families[M_COUNT];

struct metric_sample {
	enum metric_id id;
	char lv[COLLECT_MAX_LABELS][COLLECT_LABEL_MAX];
	double value;
};

struct metric_set {
	struct metric_sample *s;
	size_t n, cap;
	int64_t timestamp; /* seconds since the epoch, aligned to the interval */
};

/* Appends a sample (label values l0, l1 or NULL); 0 or -ENOMEM. */
int metric_add(struct metric_set *m, enum metric_id id, const char *l0, const char *l1,
	       double value);
/* The same with up to COLLECT_MAX_LABELS values (lv[i] NULL or missing: ""). */
int metric_add_labels(struct metric_set *m, enum metric_id id, const char *const *lv, int nlv,
		      double value);
void metric_set_clear(struct metric_set *m);
void metric_set_release(struct metric_set *m);

/*
 * Graphite: one path component from any bytes. Only [A-Za-z0-9_-] pass;
 * every other byte (dots, spaces, newlines, control bytes, UTF-8) becomes
 * '_', so a value can add no component and end no line. Never empty.
 */
void graphite_component(const char *in, char *out, size_t size);
/*
 * A label value as a path component, one that no other value shares: a
 * value graphite_component() changes (or that ends as a suffix does) gets
 * "_" and 16 hex digits of a stable hash of its bytes, so "a.b c" is
 * a_b_c_<hash> beside a process really named a_b_c, and two names can
 * merge their series only by a 64-bit hash collision.
 */
void graphite_label(const char *in, char *out, size_t size);
/* A prefix ("triage.host"): each dot-separated part sanitised; "" -> "triage". */
void graphite_prefix(const char *in, char *out, size_t size);
/*
 * One "path value timestamp\n" line per sample of a family with a Graphite
 * path; returns the line count or -errno.
 */
long collect_render_graphite(const struct metric_set *m, const char *prefix, FILE *f);

/*
 * Prometheus: a label value escaped for the text format (\\, \", \n), with
 * bytes that are not valid UTF-8 and other control bytes (C1 too) replaced
 * by '?'.
 */
void collect_prom_label_escape(const char *in, char *out, size_t size);
/*
 * A label value for /metrics: collect_prom_label_escape(), plus the suffix of
 * graphite_label() when that escape loses bytes (a '?' for a control
 * byte, or a '?' of the name's own), so "x\001y" and "x?y" stay apart.
 */
void collect_prom_label_value(const char *in, char *out, size_t size);
/*
 * The text exposition format 0.0.4, or OpenMetrics 1.0.0 (counters' TYPE
 * and HELP without _total, a final "# EOF"). 0 or -errno.
 */
int collect_render_prom(const struct metric_set *m, bool openmetrics, FILE *f);

/*
 * One JSON document: the timestamp, the Graphite prefix, and every sample
 * with its Prometheus name, type, labels, Graphite path and value. 0 or -EIO.
 */
int collect_render_json(const struct metric_set *m, const char *prefix, FILE *f);

#endif
