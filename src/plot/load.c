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

#define MODES_SQL(where)                                                       \
	"SELECT ts, 0, 'usr', usr FROM v_cpu WHERE " where " UNION ALL "       \
	"SELECT ts, 1, 'nice', nice FROM v_cpu WHERE " where " UNION ALL "     \
	"SELECT ts, 2, 'sys', sys FROM v_cpu WHERE " where " UNION ALL "       \
	"SELECT ts, 3, 'iowait', iowait FROM v_cpu WHERE " where " UNION ALL " \
	"SELECT ts, 4, 'irq', irq FROM v_cpu WHERE " where " UNION ALL "       \
	"SELECT ts, 5, 'soft', soft FROM v_cpu WHERE " where " UNION ALL "     \
	"SELECT ts, 6, 'steal', steal FROM v_cpu WHERE " where " ORDER BY 1, 2"

/* The groups with the most of expr over the whole recording, ranked from 1. */
#define TOP_GROUPS(expr)                                                                      \
	"WITH top AS (SELECT grp, row_number() OVER (ORDER BY sum(" expr ") DESC, grp) AS r " \
	"FROM v_group GROUP BY grp ORDER BY r LIMIT 5) "

struct chart_spec {
	const char *id, *title, *unit, *sql;
};

static const struct chart_spec charts[] = {
	{ "cpu", "CPU, all CPUs, by mode", "%", MODES_SQL("cpu = -1") },
	/* per-CPU charts come here (load_cpu_charts) */
	{ "groups_cpu", "CPU of the top groups (% of one CPU), user and system", "%",
	  TOP_GROUPS("usr + sys") "SELECT g.ts, t.r * 2, g.grp || ' usr', g.usr FROM v_group g "
				  "JOIN top t USING (grp) UNION ALL "
				  "SELECT g.ts, t.r * 2 + 1, g.grp || ' sys', g.sys FROM v_group g "
				  "JOIN top t USING (grp) ORDER BY 1, 2" },
	{ "switches", "Context switches of the top groups: voluntary, involuntary", "/s",
	  TOP_GROUPS("cswch_s + nvcswch_s") "SELECT g.ts, t.r * 2, g.grp || ' cswch/s', g.cswch_s "
					    "FROM v_group g JOIN top t USING (grp) UNION ALL "
					    "SELECT g.ts, t.r * 2 + 1, g.grp || ' nvcswch/s', "
					    "g.nvcswch_s FROM v_group g JOIN top t USING (grp) "
					    "ORDER BY 1, 2" },
	{ "load", "Load: runnable and D-state tasks against the kernel's load1", "",
	  "SELECT ts, 0, 'load1', load1 FROM v_load UNION ALL "
	  "SELECT ts, 1, 'runnable', runnable FROM v_load UNION ALL "
	  "SELECT ts, 2, 'D (uninterruptible)', blocked FROM v_load UNION ALL "
	  "SELECT ts, 3, 'runnable + D', runnable + blocked FROM v_load ORDER BY 1, 2" },
	{ "psi", "Pressure stall (PSI avg10), some and full", "%",
	  "WITH r AS (SELECT resource, dense_rank() OVER (ORDER BY resource) AS k FROM "
	  "(SELECT DISTINCT resource FROM v_psi)) "
	  "SELECT p.ts, r.k * 2, p.resource || ' some', p.some_avg10 FROM v_psi p JOIN r "
	  "USING (resource) WHERE p.some_avg10 IS NOT NULL UNION ALL "
	  "SELECT p.ts, r.k * 2 + 1, p.resource || ' full', p.full_avg10 FROM v_psi p JOIN r "
	  "USING (resource) WHERE p.full_avg10 IS NOT NULL ORDER BY 1, 2" },
	{ "disk", "Disk throughput, read and write", "B/s",
	  "WITH r AS (SELECT device, dense_rank() OVER (ORDER BY device) AS k FROM "
	  "(SELECT DISTINCT device FROM v_disk)) "
	  "SELECT d.ts, r.k * 2, d.device || ' read', d.read_Bps FROM v_disk d JOIN r USING "
	  "(device) UNION ALL "
	  "SELECT d.ts, r.k * 2 + 1, d.device || ' write', d.write_Bps FROM v_disk d JOIN r "
	  "USING (device) ORDER BY 1, 2" },
	{ "disk_util", "Disk utilisation", "%",
	  "WITH r AS (SELECT device, dense_rank() OVER (ORDER BY device) AS k FROM "
	  "(SELECT DISTINCT device FROM v_disk)) "
	  "SELECT d.ts, r.k, d.device, d.util_pct FROM v_disk d JOIN r USING (device) "
	  "ORDER BY 1, 2" },
	{ "net", "Network, received and sent", "B/s",
	  "WITH r AS (SELECT iface, dense_rank() OVER (ORDER BY iface) AS k FROM "
	  "(SELECT DISTINCT iface FROM v_net)) "
	  "SELECT n.ts, r.k * 2, n.iface || ' rx', n.rx_Bps FROM v_net n JOIN r USING (iface) "
	  "UNION ALL SELECT n.ts, r.k * 2 + 1, n.iface || ' tx', n.tx_Bps FROM v_net n JOIN r "
	  "USING (iface) ORDER BY 1, 2" },
};

/* What a record must have; the first missing one names the file "not a triage record". */
static const char *const required[] = { "meta",	 "v_cpu",  "v_group", "v_load",
					"v_psi", "v_disk", "v_net",   "v_findings" };

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

static struct plot_chart *new_chart(struct plot_doc *d, size_t *cap, const char *id,
				    const char *title, const char *unit)
{
	if (util_grow(&d->charts, cap, d->ncharts + 1, sizeof(*d->charts)))
		return NULL;
	if (plot_chart_init(&d->charts[d->ncharts], id, title, unit))
		return NULL;
	return &d->charts[d->ncharts++];
}

/* Runs one chart query (cpu bound to ?1 when >= -1); drops the chart if it has no rows. */
static int load_chart(sqlite3 *db, struct plot_doc *d, size_t *cap, const struct chart_spec *sp,
		      int cpu, size_t max_points)
{
	struct plot_chart *c = new_chart(d, cap, sp->id, sp->title, sp->unit);
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	if (!c)
		return -ENOMEM;
	if (sqlite3_prepare_v2(db, sp->sql, -1, &st, NULL) != SQLITE_OK)
		return sql_err(db);
	if (cpu >= 0)
		sqlite3_bind_int(st, 1, cpu);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		double v =
		    sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);

		err = plot_chart_add(c, sqlite3_column_double(st, 0), sqlite3_column_int64(st, 1),
				     (const char *)sqlite3_column_text(st, 2), v);
	}
	if (!err && rc != SQLITE_DONE)
		err = sql_err(db);
	sqlite3_finalize(st);
	if (!err && c->n == 0) {
		plot_chart_release(c);
		d->ncharts--;
		return 0;
	}
	plot_chart_sort(c);
	return err ? err : plot_chart_downsample(c, max_points);
}

/* A chart per CPU by mode when there are few CPUs, else one of busy % per CPU. */
static int load_cpu_charts(sqlite3 *db, struct plot_doc *d, size_t *cap, size_t max_points)
{
	static const char modes_one[] = MODES_SQL("cpu = ?1");
	static const struct chart_spec busy = {
		"cpus", "CPU busy per CPU (100 - idle)", "%",
		"SELECT ts, cpu, 'cpu' || cpu, 100 - idle FROM v_cpu WHERE cpu >= 0 ORDER BY 1, 2"
	};
	int cpus[PLOT_CPU_CHARTS + 1], n = 0, err = 0;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT cpu FROM v_cpu WHERE cpu >= 0 ORDER BY 1", -1,
			       &st, NULL) != SQLITE_OK)
		return sql_err(db);
	while (n <= PLOT_CPU_CHARTS && sqlite3_step(st) == SQLITE_ROW)
		cpus[n++] = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (n > PLOT_CPU_CHARTS)
		return load_chart(db, d, cap, &busy, -2, max_points);
	for (int i = 0; i < n && !err; i++) {
		char id[32], title[64];
		struct chart_spec sp = { id, title, "%", modes_one };

		snprintf(id, sizeof(id), "cpu%d", cpus[i]);
		snprintf(title, sizeof(title), "CPU %d by mode", cpus[i]);
		err = load_chart(db, d, cap, &sp, cpus[i], max_points);
	}
	return err;
}

static int load_meta(sqlite3 *db, struct plot_doc *d)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, err = 0;

	if (sqlite3_prepare_v2(db, "SELECT key, value FROM meta ORDER BY key", -1, &st, NULL))
		return sql_err(db);
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
		err = sql_err(db);
	sqlite3_finalize(st);
	return err;
}

static int load_findings(sqlite3 *db, struct plot_doc *d)
{
	sqlite3_stmt *st;
	int rc, err = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT ts_start, ts_end, severity, rule, subject, sentence "
			       "FROM v_findings ORDER BY ts_start, ts_end",
			       -1, &st, NULL))
		return sql_err(db);
	while (!err && (rc = sqlite3_step(st)) == SQLITE_ROW)
		err = plot_doc_add_finding(d, sqlite3_column_double(st, 0),
					   sqlite3_column_double(st, 1),
					   (const char *)sqlite3_column_text(st, 2),
					   (const char *)sqlite3_column_text(st, 3),
					   (const char *)sqlite3_column_text(st, 4),
					   (const char *)sqlite3_column_text(st, 5));
	if (!err && rc != SQLITE_DONE)
		err = sql_err(db);
	sqlite3_finalize(st);
	return err;
}

/* 0 when every required table or view exists; -EINVAL with *why naming the first missing. */
static int check_record(sqlite3 *db, const char **why)
{
	sqlite3_stmt *st;
	int err = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name = ?1", -1, &st, NULL))
		return sql_err(db) == -ENOMEM ? -ENOMEM : -EINVAL;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]) && !err; i++) {
		sqlite3_bind_text(st, 1, required[i], -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_ROW) {
			*why = required[i];
			err = -EINVAL;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return err;
}

static int load_all(sqlite3 *db, size_t max_points, struct plot_doc *d, const char **why)
{
	size_t cap = 0;
	int err = check_record(db, why);

	if (!err)
		err = load_meta(db, d);
	if (!err)
		err = load_chart(db, d, &cap, &charts[0], -2, max_points);
	if (!err)
		err = load_cpu_charts(db, d, &cap, max_points);
	for (size_t i = 1; i < sizeof(charts) / sizeof(charts[0]) && !err; i++)
		err = load_chart(db, d, &cap, &charts[i], -2, max_points);
	if (!err)
		err = load_findings(db, d);
	return err;
}

int plot_load(const char *path, size_t max_points, struct plot_doc *d, const char **why)
{
	sqlite3 *db = NULL;
	struct stat sb;
	int err;

	memset(d, 0, sizeof(*d));
	*why = NULL;
	if (stat(path, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		err = db ? sql_err(db) : -ENOMEM;
		sqlite3_close(db);
		return err;
	}
	sqlite3_busy_timeout(db, 5000);
	err = load_all(db, max_points ? max_points : PLOT_MAX_POINTS, d, why);
	if (err == -EINVAL && !*why)
		*why = "not an SQLite database";
	sqlite3_close(db);
	if (err)
		plot_doc_release(d);
	return err;
}
