/*
 * Reading a triage record: the meta table and the v_* views of
 * docs/record.md, nothing else (the raw tables are record's business).
 * Each chart is one query returning (ts, key, label, value) rows in ts
 * order; key orders the series and tells them apart (labels may repeat:
 * names are untrusted).
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plot/plot.h"
#include "util/grow.h"
#include "util/inplace.h"

/*
 * Each chart is one query, one scan of its view: rows of (ts, key, label,
 * value...), ordered by ts. Value i of a row belongs to the series
 * key * PLOT_VALUES + i, labelled "label name[i]" (just one of the two
 * when the other is NULL or empty).
 */
#define PLOT_VALUES 8
#define MODES_SQL(where)                                                                       \
	"SELECT ts, 0, NULL, usr, nice, sys, iowait, irq, soft, steal FROM v_cpu WHERE " where \
	" ORDER BY ts"
#define MODES                                                          \
	{                                                              \
		"usr", "nice", "sys", "iowait", "irq", "soft", "steal" \
	}

/* The groups with the most of expr over the whole recording, ranked from 1. */
#define TOP_GROUPS(expr)                                                                      \
	"WITH top AS (SELECT grp, row_number() OVER (ORDER BY sum(" expr ") DESC, grp) AS r " \
	"FROM v_group GROUP BY grp ORDER BY r LIMIT 5) "
/* Names ranked in order, as keys: a device's series stay together and in name order. */
#define RANKED(col, view)                                                            \
	"WITH r AS (SELECT " col ", dense_rank() OVER (ORDER BY " col ") AS k FROM " \
	"(SELECT DISTINCT " col " FROM " view ")) "

struct chart_spec {
	const char *id, *title, *unit, *sql;
	const char *names[PLOT_VALUES]; /* of the value columns; NULL ends */
	const char *idle_sql;		/* names of what the chart leaves out, or NULL */
};

/*
 * Devices that did nothing over the whole recording (loop0-7 and zram0 on
 * most machines) are left out, as iostat -z leaves them out of a report.
 */
#define DISK_ACTIVE "read_Bps > 0 OR write_Bps > 0 OR util_pct > 0"
#define DISK_RANKED                                                                \
	"WITH r AS (SELECT device, dense_rank() OVER (ORDER BY device) AS k FROM " \
	"(SELECT DISTINCT device FROM v_disk WHERE " DISK_ACTIVE ")) "
#define DISK_IDLE                                                                     \
	"SELECT DISTINCT device FROM v_disk WHERE device NOT IN (SELECT device FROM " \
	"v_disk WHERE " DISK_ACTIVE ") ORDER BY device"

static const struct chart_spec charts[] = {
	{ "cpu", "CPU, all CPUs, by mode", "%", MODES_SQL("cpu = -1"), MODES },
	/* per-CPU charts come here (load_cpu_charts) */
	{ "groups_cpu",
	  "CPU of the top groups (% of one CPU), user and system",
	  "%",
	  TOP_GROUPS("usr + sys") "SELECT g.ts, t.r, g.grp, g.usr, g.sys FROM v_group g "
				  "JOIN top t USING (grp) ORDER BY g.ts, t.r",
	  { "usr", "sys" } },
	{ "switches",
	  "Context switches of the top groups: voluntary, involuntary",
	  "/s",
	  TOP_GROUPS("cswch_s + nvcswch_s") "SELECT g.ts, t.r, g.grp, g.cswch_s, g.nvcswch_s "
					    "FROM v_group g JOIN top t USING (grp) "
					    "ORDER BY g.ts, t.r",
	  { "cswch/s", "nvcswch/s" } },
	{ "load",
	  "Load: runnable and D-state tasks against the kernel's load1",
	  "",
	  "SELECT ts, 0, NULL, load1, runnable, blocked, runnable + blocked FROM v_load ORDER BY "
	  "ts",
	  { "load1", "runnable", "D (uninterruptible)", "runnable + D" } },
	{ "psi",
	  "Pressure stall (PSI avg10), some and full",
	  "%",
	  RANKED("resource", "v_psi") "SELECT p.ts, r.k, p.resource, p.some_avg10, p.full_avg10 "
				      "FROM v_psi p JOIN r USING (resource) ORDER BY p.ts, r.k",
	  { "some", "full" } },
	{ "disk",
	  "Disk throughput, read and write",
	  "B/s",
	  DISK_RANKED "SELECT d.ts, r.k, d.device, d.read_Bps, d.write_Bps "
		      "FROM v_disk d JOIN r USING (device) ORDER BY d.ts, r.k",
	  { "read", "write" },
	  DISK_IDLE },
	{ "disk_util",
	  "Disk utilisation",
	  "%",
	  DISK_RANKED "SELECT d.ts, r.k, d.device, d.util_pct FROM v_disk d "
		      "JOIN r USING (device) ORDER BY d.ts, r.k",
	  { "" },
	  DISK_IDLE },
	{ "net",
	  "Network, received and sent",
	  "B/s",
	  RANKED("iface", "v_net") "SELECT n.ts, r.k, n.iface, n.rx_Bps, n.tx_Bps FROM v_net n "
				   "JOIN r USING (iface) ORDER BY n.ts, r.k",
	  { "rx", "tx" } },
};

/* What a record must have; the first missing one names the file "not a triage record". */
STRINGS_IN_PLACE
static const char required[][12] = { "meta",  "v_cpu",	"v_group", "v_load",
				     "v_psi", "v_disk", "v_net",   "v_findings" };
STRINGS_IN_PLACE_END

struct loader {
	sqlite3 *db;
	size_t max_points;
	char *why; /* what makes the file not a record */
	size_t whylen;
	size_t cap; /* of doc->charts */
};

static int sql_err(sqlite3 *db)
{
	switch (sqlite3_errcode(db)) {
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EINVAL;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
		return -EACCES;
	default:
		return -EIO;
	}
}

/*
 * A query that does not prepare: the file lacks a table or column the
 * contract names (SQLITE_ERROR), so it is not a record plot can read.
 */
static int prepare(struct loader *l, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(l->db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	if (sqlite3_errcode(l->db) != SQLITE_ERROR)
		return sql_err(l->db);
	snprintf(l->why, l->whylen, "%s", sqlite3_errmsg(l->db));
	return -EINVAL;
}

static struct plot_chart *new_chart(struct loader *l, struct plot_doc *d, const char *id,
				    const char *title, const char *unit)
{
	if (util_grow(&d->charts, &l->cap, d->ncharts + 1, sizeof(*d->charts)))
		return NULL;
	if (plot_chart_init(&d->charts[d->ncharts], id, title, unit))
		return NULL;
	return &d->charts[d->ncharts++];
}

/* The values of one row: series key * PLOT_VALUES + i, labelled as the spec says. */
static int add_row(struct plot_chart *c, const struct chart_spec *sp, sqlite3_stmt *st)
{
	double ts = sqlite3_column_double(st, 0);
	int64_t key = sqlite3_column_int64(st, 1);
	const char *base = (const char *)sqlite3_column_text(st, 2);
	int err = 0;

	for (int i = 0; i < PLOT_VALUES && sp->names[i] && !err; i++) {
		const char *name = sp->names[i];
		char label[512];
		double v = sqlite3_column_type(st, 3 + i) == SQLITE_NULL
			       ? NAN
			       : sqlite3_column_double(st, 3 + i);

		if (base && *base && *name)
			snprintf(label, sizeof(label), "%s %s", base, name);
		else
			snprintf(label, sizeof(label), "%s", base && *base ? base : name);
		err = plot_chart_add(c, ts, key * PLOT_VALUES + i, label, v);
		if (!err)
			err = plot_chart_tag(c, key * PLOT_VALUES + i, base, (unsigned)i);
	}
	return err;
}

/* The chart's note: what idle_sql names, "N idle devices hidden (iostat -z): a, b". */
static int load_idle_note(struct loader *l, struct plot_chart *c, const char *sql)
{
	char *buf = NULL;
	size_t len = 0, n = 0;
	sqlite3_stmt *st = NULL;
	FILE *f;
	int err = prepare(l, sql, &st), rc = SQLITE_DONE;

	if (err)
		return err;
	f = open_memstream(&buf, &len);
	if (!f) {
		sqlite3_finalize(st);
		return -ENOMEM;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		fprintf(f, "%s%s", n++ ? ", " : "", name ? name : "");
	}
	err = rc == SQLITE_DONE ? 0 : sql_err(l->db);
	sqlite3_finalize(st);
	if (fclose(f))
		err = err ? err : -ENOMEM;
	if (!err && n) {
		size_t size = len + 96;

		c->note = malloc(size);
		if (c->note)
			snprintf(c->note, size,
				 "Not drawn: %zu device%s idle throughout (as iostat -z leaves "
				 "them out): %s.",
				 n, n == 1 ? "" : "s", buf);
		else
			err = -ENOMEM;
	}
	free(buf);
	return err;
}

/* Runs one chart query (cpu bound to ?1 when >= 0); drops the chart if it has no rows. */
static int load_chart(struct loader *l, struct plot_doc *d, const struct chart_spec *sp, int cpu)
{
	struct plot_chart *c = new_chart(l, d, sp->id, sp->title, sp->unit);
	sqlite3_stmt *st = NULL;
	int err, rc = SQLITE_DONE;

	if (!c)
		return -ENOMEM;
	err = prepare(l, sp->sql, &st);
	if (err)
		return err;
	if (cpu >= 0)
		sqlite3_bind_int(st, 1, cpu);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) == SQLITE_NULL)
			continue; /* no time: nowhere to draw it */
		err = add_row(c, sp, st);
	}
	if (!err && rc != SQLITE_DONE)
		err = sql_err(l->db);
	sqlite3_finalize(st);
	if (!err && c->n == 0) {
		plot_chart_release(c);
		d->ncharts--;
		return 0;
	}
	plot_chart_sort(c);
	if (!err && sp->idle_sql)
		err = load_idle_note(l, c, sp->idle_sql);
	return err ? err : plot_chart_downsample(c, l->max_points);
}

/* A chart per CPU by mode when there are few CPUs, else one of busy % per CPU. */
static int load_cpu_charts(struct loader *l, struct plot_doc *d)
{
	static const char modes_one[] = MODES_SQL("cpu = ?1");
	static const struct chart_spec busy = { "cpus",
						"CPU busy per CPU (100 - idle)",
						"%",
						"SELECT ts, cpu, 'cpu' || cpu, 100 - idle FROM "
						"v_cpu WHERE cpu >= 0 ORDER BY ts, cpu",
						{ "" } };
	int cpus[PLOT_CPU_CHARTS + 1], n = 0, err;
	sqlite3_stmt *st;

	err = prepare(l, "SELECT DISTINCT cpu FROM v_cpu WHERE cpu >= 0 ORDER BY 1", &st);
	if (err)
		return err;
	while (n <= PLOT_CPU_CHARTS && sqlite3_step(st) == SQLITE_ROW)
		cpus[n++] = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (n > PLOT_CPU_CHARTS)
		return load_chart(l, d, &busy, -1);
	for (int i = 0; i < n && !err; i++) {
		char id[32], title[64];
		struct chart_spec sp = { id, title, "%", modes_one, MODES };

		snprintf(id, sizeof(id), "cpu%d", cpus[i]);
		snprintf(title, sizeof(title), "CPU %d by mode", cpus[i]);
		err = load_chart(l, d, &sp, cpus[i]);
	}
	return err;
}

static int load_meta(struct loader *l, struct plot_doc *d)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc = SQLITE_DONE, err = prepare(l, "SELECT key, value FROM meta ORDER BY key", &st);

	if (err)
		return err;
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);

		if (util_grow(&d->meta, &cap, d->nmeta + 2, sizeof(*d->meta))) {
			err = -ENOMEM;
			break;
		}
		d->meta[d->nmeta] = strdup(k ? k : "");
		d->meta[d->nmeta + 1] = strdup(v ? v : "");
		d->nmeta += 2;
		if (!d->meta[d->nmeta - 2] || !d->meta[d->nmeta - 1])
			err = -ENOMEM;
		if (k && v && !strcmp(k, "interval"))
			d->interval = strtod(v, NULL);
	}
	if (!err && rc != SQLITE_DONE)
		err = sql_err(l->db);
	sqlite3_finalize(st);
	return err;
}

static int load_findings(struct loader *l, struct plot_doc *d)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE, err = prepare(l,
					    "SELECT ts_start, ts_end, severity, rule, subject, "
					    "sentence FROM v_findings WHERE ts_start IS NOT NULL "
					    "ORDER BY ts_start, ts_end",
					    &st);

	if (err)
		return err;
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		double start = sqlite3_column_double(st, 0);
		double end = sqlite3_column_type(st, 1) == SQLITE_NULL
				 ? start
				 : sqlite3_column_double(st, 1);

		err = plot_doc_add_finding(d, start, end, (const char *)sqlite3_column_text(st, 2),
					   (const char *)sqlite3_column_text(st, 3),
					   (const char *)sqlite3_column_text(st, 4),
					   (const char *)sqlite3_column_text(st, 5));
	}
	if (!err && rc != SQLITE_DONE)
		err = sql_err(l->db);
	sqlite3_finalize(st);
	return err;
}

/* 0 when every required table or view exists; -EINVAL naming the first missing one. */
static int check_record(struct loader *l)
{
	sqlite3_stmt *st;
	int err;

	if (sqlite3_prepare_v2(l->db, "SELECT 1 FROM sqlite_master WHERE name = ?1", -1, &st,
			       NULL) != SQLITE_OK) {
		if (sqlite3_errcode(l->db) == SQLITE_NOMEM)
			return -ENOMEM;
		snprintf(l->why, l->whylen, "not an SQLite database");
		return -EINVAL;
	}
	err = 0;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]) && !err; i++) {
		sqlite3_bind_text(st, 1, required[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW) {
			snprintf(l->why, l->whylen, "%s is missing", required[i]);
			err = -EINVAL;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return err;
}

static int load_all(struct loader *l, struct plot_doc *d)
{
	int err = check_record(l);

	if (!err)
		err = load_meta(l, d);
	if (!err)
		err = load_chart(l, d, &charts[0], -1);
	if (!err)
		err = load_cpu_charts(l, d);
	for (size_t i = 1; i < sizeof(charts) / sizeof(charts[0]) && !err; i++)
		err = load_chart(l, d, &charts[i], -1);
	if (!err)
		err = load_findings(l, d);
	return err;
}

int plot_load(const char *path, size_t max_points, struct plot_doc *d, char *why, size_t whylen)
{
	struct loader l = { NULL, max_points ? max_points : PLOT_MAX_POINTS, why, whylen, 0 };
	struct stat sb;
	int err;

	memset(d, 0, sizeof(*d));
	snprintf(why, whylen, "unknown");
	if (stat(path, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode)) {
		snprintf(why, whylen, "not a regular file");
		return -EINVAL;
	}
	if (sqlite3_open_v2(path, &l.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err = l.db ? sql_err(l.db) : -ENOMEM;
		sqlite3_close(l.db);
		return err;
	}
	sqlite3_busy_timeout(l.db, 5000);
	err = load_all(&l, d);
	if (err == -EINVAL && sqlite3_errcode(l.db) == SQLITE_NOTADB)
		snprintf(why, whylen, "not an SQLite database");
	sqlite3_close(l.db);
	if (err)
		plot_doc_release(d);
	return err;
}
