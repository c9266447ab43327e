/*
 * triage plot: a triage record (SQLite, the views of docs/record.md) drawn
 * as ONE self-contained HTML page: uPlot (third_party/uplot, inlined),
 * the data as JSON inside the page, findings as marks on the time axis.
 * No network: the page's Content-Security-Policy forbids every fetch.
 *
 * plot_load() is the only part that talks to SQLite; the rest is pure
 * (charts as arrays, downsampling, findings merging, the HTML writer) so
 * the unit tests drive it without a database. Returns 0 or -errno.
 */
#ifndef TRIAGE_PLOT_H
#define TRIAGE_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PLOT_MAX_POINTS 2000 /* per series, after downsampling */
#define PLOT_TOP_GROUPS 5    /* groups drawn in the per-group charts */
#define PLOT_CPU_CHARTS 8    /* up to this many CPUs: a chart per CPU by mode */

struct plot_series {
	int64_t key; /* orders the series; from the query */
	char *label;
	char *entity;  /* what it measures (group, device; NULL: the label): its colour */
	unsigned part; /* which of the entity's values (0 usr, 1 sys...): 1 is drawn dashed */
	double *v;     /* one per ts; NAN: no value */
};

struct plot_chart {
	char *id, *title, *unit; /* unit: "%", "/s", "B/s", "" */
	double *ts;		 /* seconds since the epoch, ascending */
	size_t n, cap;
	struct plot_series *s;
	size_t ns, scap;
	size_t raw_points; /* n before downsampling */
	char *note;	   /* a line under the chart (idle devices hidden), or NULL */
};

struct plot_finding {
	double start, end;
	char *severity, *rule, *subject, *sentence; /* sentence: of the first window */
	unsigned windows;			    /* consecutive windows merged into this mark */
};

struct plot_doc {
	char **meta; /* key, value, key, value... */
	size_t nmeta;
	struct plot_chart *charts;
	size_t ncharts;
	struct plot_finding *findings;
	size_t nfindings, fcap;
	double interval; /* meta interval, seconds (0: unknown) */
};

/* Chart building. */
int plot_chart_init(struct plot_chart *c, const char *id, const char *title, const char *unit);
/*
 * Adds the value of series key (label) at ts. Rows come in ts order; a ts
 * equal to the last one adds to that row. A series is created by its first
 * value that is not NAN (a series without any value is not drawn); the row
 * is added either way. 0, -EINVAL (ts going back) or -ENOMEM.
 */
int plot_chart_add(struct plot_chart *c, double ts, int64_t key, const char *label, double v);
/*
 * Sets the part of series key, if it exists, and its entity if it has
 * none yet (entity NULL or "": the label stands for it). 0 or -ENOMEM.
 */
int plot_chart_tag(struct plot_chart *c, int64_t key, const char *entity, unsigned part);
/* Orders the series by key (once, after the last add). */
void plot_chart_sort(struct plot_chart *c);
/*
 * Keeps at most max_points timestamps: the rows fall into max_points / 2
 * buckets of consecutive samples; each bucket keeps its first and last
 * timestamp, and each series its minimum and maximum there, in the order
 * they occurred, so spikes survive. No-op when n <= max_points.
 */
int plot_chart_downsample(struct plot_chart *c, size_t max_points);
void plot_chart_release(struct plot_chart *c);

/*
 * Adds one finding window; a window that continues the last mark of the
 * same severity, rule and subject (starting at most 1.5 intervals after
 * its end) extends it instead. 0 or -ENOMEM.
 */
int plot_doc_add_finding(struct plot_doc *d, double start, double end, const char *severity,
			 const char *rule, const char *subject, const char *sentence);
void plot_doc_release(struct plot_doc *d);

/*
 * Reads record file path into d (charts downsampled to max_points; 0: the
 * default). Errors: -ENOENT (no such file), -EINVAL (not a triage record:
 * why[whylen] says what is wrong, e.g. "v_psi is missing", "no such column:
 * usr"), other -errno. d is released on failure.
 */
int plot_load(const char *path, size_t max_points, struct plot_doc *d, char *why, size_t whylen);

/* Writes the page. 0 or -EIO. */
int plot_write_html(FILE *out, const struct plot_doc *d);

/*
 * Copies JSON text to out so it can sit inside a <script> element: '<',
 * '>' and '&' as \u003c \u003e \u0026, U+2028/U+2029 as \u2028 \u2029
 * (JSON text has them only inside strings, where the escapes mean the same).
 */
void plot_json_for_script(FILE *out, const char *json, size_t len);

#endif
