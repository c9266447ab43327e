/*
 * The record file's schema, version RECORD_SCHEMA_VERSION (docs/record.md):
 * raw counters per interval in tables, the rates other programs want in
 * views (the v_* contract with triage plot). PRAGMA user_version and
 * meta.schema_version both carry the version. Schema 1 files (no
 * task.cmdline), schema 2 files (no tcp), schema 3 files (no proc_rate)
 * schema 4 files (no host_more and the rest of schema 5) and schema 5 files
 * (no sample.rss_anon_kb) are read as they are and upgraded when recorded into.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"
#include "record/internal.h"

/*
 * schema 3: TCP counters per network namespace (ns 0: the recorder's own;
 * the others named by the processes in them), as the report reads them;
 * the allowed CPUs and cgroup of each window's busiest processes at its end.
 */
#define SCHEMA3_TABLES_SQL                                                                        \
	"CREATE TABLE tcp(iv INTEGER NOT NULL, ns INTEGER NOT NULL, ns_id TEXT, pids TEXT,\n"     \
	" out_segs INTEGER, retrans_segs INTEGER, in_errs INTEGER, listen_overflows INTEGER,\n"   \
	" listen_drops INTEGER, has_snmp INTEGER, has_ext INTEGER,\n"                             \
	" PRIMARY KEY(iv, ns)) WITHOUT ROWID;\n"                                                  \
	"CREATE TABLE disk_rate(iv INTEGER NOT NULL, device TEXT NOT NULL, r_s REAL, w_s REAL,\n" \
	" rkb_s REAL, wkb_s REAL, await_ms REAL, aqu_sz REAL, util_pct REAL,\n"                   \
	" PRIMARY KEY(iv, device)) WITHOUT ROWID;\n"                                              \
	"CREATE TABLE placement(iv INTEGER NOT NULL, tgid INTEGER NOT NULL, allowed TEXT,\n"      \
	" cgroup TEXT, PRIMARY KEY(iv, tgid)) WITHOUT ROWID;\n"

/*
 * schema 4: each process's figures over each interval, as the report's
 * sampler computes them (report_task_sampler_results over the interval alone): the
 * rates v_group sums, stored so that plot draws what the report judged; and
 * the nice of the busiest processes at a window's end, with their placement.
 */
#define SCHEMA4_TABLES_SQL                                                                        \
	"CREATE TABLE proc_rate(iv INTEGER NOT NULL, tgid INTEGER NOT NULL, usr_pct REAL,\n"      \
	" sys_pct REAL, cswch_s REAL, nvcswch_s REAL, wait_pct REAL, read_Bps REAL,\n"            \
	" write_Bps REAL, PRIMARY KEY(iv, tgid)) WITHOUT ROWID;\n"                                \
	"ALTER TABLE placement ADD COLUMN nice INTEGER;\n"                                        \
	"CREATE TABLE cpu_rate(iv INTEGER NOT NULL, cpu INTEGER NOT NULL, usr REAL, nice REAL,\n" \
	" sys REAL, iowait REAL, irq REAL, softirq REAL, steal REAL, idle REAL,\n"                \
	" PRIMARY KEY(iv, cpu)) WITHOUT ROWID;\n"                                                 \
	"CREATE TABLE net_rate(iv INTEGER NOT NULL, iface TEXT NOT NULL, rx_kb_s REAL,\n"         \
	" tx_kb_s REAL, PRIMARY KEY(iv, iface)) WITHOUT ROWID;\n"

/*
 * schema 5: what the report's window source carries beside the counters
 * above, so that a replay judges every kind the live report judges: the
 * host's task, file-handle and conntrack figures and fork counter
 * (host_more), the softirq vectors per CPU, the softnet backlogs, the
 * filesystems that store data with their statvfs, UDP counters and the
 * fullest listener and most-dropping UDP socket per network namespace;
 * each process's parent (sample.ppid, process rows); and what the report
 * reads once at a window's end: descriptors against limits, futex waits,
 * a full filesystem's writers (window_end marks the intervals that have
 * them).
 */
#define SCHEMA5_TABLES_SQL                                                                        \
	"CREATE TABLE host_more(iv INTEGER PRIMARY KEY, forks INTEGER, files_alloc INTEGER,\n"    \
	" files_max INTEGER, pid_max INTEGER, threads_max INTEGER, ct_count INTEGER,\n"           \
	" ct_max INTEGER, fs_read INTEGER, softirqs_read INTEGER, softnet_read INTEGER);\n"       \
	"CREATE TABLE softirq(iv INTEGER NOT NULL, k INTEGER NOT NULL, vector TEXT, counts "      \
	"TEXT,\n"                                                                                 \
	" PRIMARY KEY(iv, k)) WITHOUT ROWID;\n"                                                   \
	"CREATE TABLE softnet(iv INTEGER NOT NULL, k INTEGER NOT NULL, cpu INTEGER,\n"            \
	" processed INTEGER, dropped INTEGER, time_squeeze INTEGER,\n"                            \
	" PRIMARY KEY(iv, k)) WITHOUT ROWID;\n"                                                   \
	"CREATE TABLE fs(iv INTEGER NOT NULL, k INTEGER NOT NULL, mnt_id INTEGER, major "         \
	"INTEGER,\n"                                                                              \
	" minor INTEGER, mnt TEXT, fstype TEXT, source TEXT, readonly INTEGER, frsize INTEGER,\n" \
	" blocks INTEGER, bfree INTEGER, bavail INTEGER, files INTEGER, ffree INTEGER,\n"         \
	" PRIMARY KEY(iv, k)) WITHOUT ROWID;\n"                                                   \
	"CREATE TABLE udp(iv INTEGER NOT NULL, ns INTEGER NOT NULL, in_datagrams INTEGER,\n"      \
	" in_errors INTEGER, rcvbuf_errors INTEGER, in_datagrams6 INTEGER, in_errors6 INTEGER,\n" \
	" rcvbuf_errors6 INTEGER, has_v4 INTEGER, has_v6 INTEGER,\n"                              \
	" PRIMARY KEY(iv, ns)) WITHOUT ROWID;\n"                                                  \
	"CREATE TABLE sock(iv INTEGER NOT NULL, ns INTEGER NOT NULL, kind TEXT NOT NULL,\n"       \
	" addr TEXT, port INTEGER, inode INTEGER, queue INTEGER, backlog INTEGER,\n"              \
	" has_backlog INTEGER, drops INTEGER, pid INTEGER,\n"                                     \
	" PRIMARY KEY(iv, ns, kind)) WITHOUT ROWID;\n"                                            \
	"ALTER TABLE sample ADD COLUMN ppid INTEGER;\n"                                           \
	"CREATE TABLE window_end(iv INTEGER PRIMARY KEY);\n"                                      \
	"CREATE TABLE fd_usage(iv INTEGER NOT NULL, tgid INTEGER NOT NULL, open INTEGER,\n"       \
	" soft INTEGER, hard INTEGER, PRIMARY KEY(iv, tgid)) WITHOUT ROWID;\n"                    \
	"CREATE TABLE futex(iv INTEGER NOT NULL, tgid INTEGER NOT NULL, threads INTEGER,\n"       \
	" waiting INTEGER, same_word INTEGER, no_word INTEGER,\n"                                 \
	" PRIMARY KEY(iv, tgid)) WITHOUT ROWID;\n"                                                \
	"CREATE TABLE fs_writer(iv INTEGER NOT NULL, mnt_id INTEGER NOT NULL, pids TEXT,\n"       \
	" PRIMARY KEY(iv, mnt_id)) WITHOUT ROWID;\n"

/*
 * schema 6: a process row's anonymous resident memory (status RssAnon, kB),
 * which memory-growth judges (a mapped file's pages are RSS too, not a
 * leak); NULL in thread rows and in the rows of older files.
 */
#define SCHEMA6_SQL "ALTER TABLE sample ADD COLUMN rss_anon_kb INTEGER;\n"

/*
 * schema 4: each CPU's modes from the rates the recorder stored
 * (report_cpu_pct, whose usr has nice in it and irq softirq), not a second
 * formula.
 */
#define V_CPU_SQL                                                                                 \
	"CREATE VIEW v_cpu AS SELECT i.ts AS ts, r.cpu AS cpu, r.usr - r.nice AS usr, r.nice AS " \
	"nice,\n"                                                                                 \
	" r.sys AS sys, r.iowait AS iowait, r.irq - r.softirq AS irq, r.softirq AS soft,\n"       \
	" r.steal AS steal, r.idle AS idle FROM interval i JOIN cpu_rate r ON r.iv = i.id;\n"

/* schema 4: the groups (processes by comm) from the stored rates, not a second formula */
#define V_GROUP_SQL                                                                               \
	"CREATE VIEW v_group AS SELECT i.ts AS ts, t.comm AS grp, coalesce(sum(p.usr_pct), 0.0) " \
	"AS\n"                                                                                    \
	" usr, coalesce(sum(p.sys_pct), 0.0) AS sys, coalesce(sum(p.cswch_s), 0.0) AS cswch_s,\n" \
	" coalesce(sum(p.nvcswch_s), 0.0) AS nvcswch_s, 10.0 * coalesce(sum(p.wait_pct), 0.0) "   \
	"AS\n"                                                                                    \
	" runq_ms_s, sum(s.rss_kb) AS rss_kb, coalesce(sum(p.read_Bps), 0.0) AS read_Bps,\n"      \
	" coalesce(sum(p.write_Bps), 0.0) AS write_Bps, sum(s.nthreads) AS threads\n"             \
	" FROM interval i JOIN sample s ON s.iv = i.id JOIN task t ON t.id = s.task AND\n"        \
	" t.thread = 0 LEFT JOIN proc_rate p ON p.iv = i.id AND p.tgid = t.tgid\n"                \
	" WHERE i.prev IS NOT NULL AND i.dur > 0 GROUP BY i.id, t.comm;\n"

/*
 * An older file's intervals get their processes' rates once, when it is
 * upgraded: the figures its schema 3 view computed (each process present at
 * both ends of the interval; threads' switches and run-queue wait from
 * their last earlier row); from then on the recorder stores them.
 */
#define PROC_RATE_BACKFILL_SQL                                                                  \
	"INSERT INTO proc_rate WITH\n"                                                          \
	" hz AS (SELECT CAST(value AS REAL) AS hz FROM meta WHERE key = 'hz'),\n"               \
	" pr AS (SELECT i.id AS iv, i.dur AS dur, t.tgid AS tgid,\n"                            \
	"  s.utime - q.utime AS du, s.stime - q.stime AS ds,\n"                                 \
	"  CASE WHEN s.no_io OR q.no_io THEN 0 ELSE s.read_bytes - q.read_bytes END AS dr,\n"   \
	"  CASE WHEN s.no_io OR q.no_io THEN 0 ELSE s.write_bytes - q.write_bytes END AS dw\n"  \
	"  FROM interval i JOIN sample s ON s.iv = i.id JOIN task t ON t.id = s.task AND\n"     \
	"  t.thread = 0 JOIN sample q ON q.iv = i.prev AND q.task = s.task WHERE i.dur > 0),\n" \
	" th AS (SELECT s.iv AS iv, t.tgid AS tgid, sum(s.nvcsw - q.nvcsw) AS nv,\n"            \
	"  sum(s.nivcsw - q.nivcsw) AS niv, sum(s.wtime - q.wtime) AS w\n"                      \
	"  FROM interval i JOIN sample s ON s.iv = i.id JOIN task t ON t.id = s.task AND\n"     \
	"  t.thread = 1 JOIN sample q ON q.task = s.task AND q.iv = (SELECT max(q2.iv) FROM\n"  \
	"  sample q2 WHERE q2.task = s.task AND q2.iv < s.iv) AND q.iv >= i.run\n"              \
	"  GROUP BY s.iv, t.tgid)\n"                                                            \
	" SELECT pr.iv, pr.tgid, 100.0 * du / hz.hz / pr.dur,\n"                                \
	"  100.0 * ds / hz.hz / pr.dur, coalesce(th.nv, 0) / pr.dur, coalesce(th.niv, 0) / "    \
	"pr.dur,\n"                                                                             \
	"  100.0 * coalesce(th.w, 0) / hz.hz / pr.dur, dr / pr.dur, dw / pr.dur\n"              \
	" FROM pr CROSS JOIN hz LEFT JOIN th ON th.iv = pr.iv AND th.tgid = pr.tgid;\n"         \
	"DROP VIEW v_group;\n" V_GROUP_SQL CPU_RATE_BACKFILL_SQL NET_RATE_BACKFILL_SQL

/* schema 4: the interfaces' throughput from the rates the recorder stored (report_iface_rates) */
#define V_NET_SQL                                                                          \
	"CREATE VIEW v_net AS SELECT i.ts AS ts, r.iface AS iface, 1024.0 * r.rx_kb_s AS " \
	"rx_Bps,\n"                                                                        \
	" 1024.0 * r.tx_kb_s AS tx_Bps FROM interval i JOIN net_rate r ON r.iv = i.id;\n"

/* An older file's interfaces, once, with the formulas of report_iface_rates. */
#define NET_RATE_BACKFILL_SQL                                                                      \
	"INSERT INTO net_rate SELECT i.id, n.iface, max(n.rx_bytes - p.rx_bytes, 0) / 1024.0 /\n"  \
	" i.dur, max(n.tx_bytes - p.tx_bytes, 0) / 1024.0 / i.dur FROM interval i JOIN net n ON\n" \
	" n.iv = i.id JOIN net p ON p.iv = i.prev AND p.iface = n.iface WHERE i.dur > 0;\n"        \
	"DROP VIEW v_net;\n" V_NET_SQL

/* An older file's CPU modes, once, with the formulas of report_cpu_pct. */
#define CPU_RATE_BACKFILL_SQL                                                                  \
	"INSERT INTO cpu_rate WITH d AS (SELECT c.iv AS iv, c.cpu AS cpu,\n"                   \
	"  max(c.user - p.user, 0) AS us, max(c.nice - p.nice, 0) AS ni,\n"                    \
	"  max(c.system - p.system, 0) AS sy, max(c.idle - p.idle, 0) AS id,\n"                \
	"  max(c.iowait - p.iowait, 0) AS io, max(c.irq - p.irq, 0) AS hi,\n"                  \
	"  max(c.softirq - p.softirq, 0) AS si, max(c.steal - p.steal, 0) AS st\n"             \
	"  FROM interval i JOIN cpu c ON c.iv = i.id JOIN cpu p ON p.iv = i.prev AND p.cpu = " \
	"c.cpu),\n"                                                                            \
	" t AS (SELECT *, us + ni + sy + id + io + hi + si + st AS tot FROM d)\n"              \
	" SELECT iv, cpu, 100.0 * (us + ni) / tot, 100.0 * ni / tot, 100.0 * sy / tot,\n"      \
	"  100.0 * io / tot, 100.0 * (hi + si) / tot, 100.0 * si / tot, 100.0 * st / tot,\n"   \
	"  100.0 * id / tot FROM t WHERE tot > 0;\n"                                           \
	"DROP VIEW v_cpu;\n" V_CPU_SQL

/* schema 3: the rates the recorder stored (report_disk_rates), not a second formula */
#define V_DISK_SQL                                                                          \
	"CREATE VIEW v_disk AS SELECT i.ts AS ts, r.device AS device, 1024.0 * r.rkb_s AS " \
	"read_Bps,\n"                                                                       \
	" 1024.0 * r.wkb_s AS write_Bps, r.util_pct AS util_pct\n"                          \
	" FROM interval i JOIN disk_rate r ON r.iv = i.id;\n"

/*
 * An older file's intervals get their disk rates once, when it is upgraded
 * (the same figures as report_disk_rates: sectors of 512 bytes, io_ticks in
 * ms, util at most 100%); from then on the recorder stores them.
 */
#define DISK_RATE_BACKFILL_SQL                                                                   \
	"INSERT INTO disk_rate(iv, device, rkb_s, wkb_s, util_pct) SELECT i.id, d.device,\n"     \
	" max(d.rd_sectors - p.rd_sectors, 0) / 2.0 / i.dur, max(d.wr_sectors - p.wr_sectors, "  \
	"0)\n"                                                                                   \
	" / 2.0 / i.dur, min(100.0, 100.0 * max(d.io_ticks - p.io_ticks, 0) / (i.dur * 1000))\n" \
	" FROM interval i JOIN disk d ON d.iv = i.id JOIN disk p ON p.iv = i.prev AND\n"         \
	" p.device = d.device WHERE i.dur > 0;\n"                                                \
	"DROP VIEW v_disk;\n" V_DISK_SQL

static const char schema_sql[] =
    /* key/value facts about the recording */
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);\n"
    /* one row per sample; prev links a run's samples; dur from /proc/uptime */
    "CREATE TABLE interval(id INTEGER PRIMARY KEY, run INTEGER NOT NULL, prev INTEGER,\n"
    " ts REAL NOT NULL, dur REAL, uptime_cs INTEGER NOT NULL, jiffies INTEGER,\n"
    " memtotal_kb INTEGER, mem_available_kb INTEGER, swap_total_kb INTEGER,\n"
    " swap_free_kb INTEGER, pswpin INTEGER, pswpout INTEGER, pgmajfault INTEGER,\n"
    " oom_kill INTEGER, load1 REAL, load5 REAL, load15 REAL, procs_running INTEGER,\n"
    " procs_blocked INTEGER, kernel_runnable INTEGER, kernel_tasks INTEGER, runnable INTEGER, "
    "d_counted INTEGER, "
    "d_frozen INTEGER,\n"
    " ntasks INTEGER, ncarried INTEGER, carried BLOB);\n"
    "CREATE INDEX interval_ts ON interval(ts);\n"
    /* /proc/stat per CPU (cpu -1: the total line), ticks */
    "CREATE TABLE cpu(iv INTEGER NOT NULL, cpu INTEGER NOT NULL, user INTEGER, nice INTEGER,\n"
    " system INTEGER, idle INTEGER, iowait INTEGER, irq INTEGER, softirq INTEGER,\n"
    " steal INTEGER, PRIMARY KEY(iv, cpu)) WITHOUT ROWID;\n"
    "CREATE TABLE psi(iv INTEGER NOT NULL, resource TEXT NOT NULL, some_total_us INTEGER,\n"
    " full_total_us INTEGER, some_avg10 REAL, full_avg10 REAL,\n"
    " PRIMARY KEY(iv, resource)) WITHOUT ROWID;\n"
    "CREATE TABLE disk(iv INTEGER NOT NULL, device TEXT NOT NULL, rd_ios INTEGER,\n"
    " rd_sectors INTEGER, rd_ticks INTEGER, wr_ios INTEGER, wr_sectors INTEGER,\n"
    " wr_ticks INTEGER, in_flight INTEGER, io_ticks INTEGER, time_in_queue INTEGER,\n"
    " PRIMARY KEY(iv, device)) WITHOUT ROWID;\n"
    "CREATE TABLE net(iv INTEGER NOT NULL, iface TEXT NOT NULL, rx_bytes INTEGER,\n"
    " rx_packets INTEGER, rx_errs INTEGER, rx_drop INTEGER, tx_bytes INTEGER,\n"
    " tx_packets INTEGER, tx_errs INTEGER, tx_drop INTEGER,\n"
    " PRIMARY KEY(iv, iface)) WITHOUT ROWID;\n" SCHEMA3_TABLES_SQL SCHEMA4_TABLES_SQL
    /*
     * a task: thread 0 is a process row (tid = tgid), 1 a thread of tgid;
     * cmdline (schema 2) is read once, for process rows
     */
    "CREATE TABLE task(id INTEGER PRIMARY KEY, tgid INTEGER NOT NULL, tid INTEGER NOT NULL,\n"
    " thread INTEGER NOT NULL, start INTEGER NOT NULL, comm TEXT NOT NULL, uid INTEGER,\n"
    " cmdline TEXT);\n"
    "CREATE INDEX task_key ON task(tgid, tid, thread, start);\n"
    /* a task's counters at a sample, as the pidstat core read them */
    "CREATE TABLE sample(iv INTEGER NOT NULL, task INTEGER NOT NULL, utime INTEGER,\n"
    " stime INTEGER, gtime INTEGER, wtime INTEGER, cutime INTEGER, cstime INTEGER,\n"
    " cgtime INTEGER, minflt INTEGER, majflt INTEGER, cminflt INTEGER, cmajflt INTEGER,\n"
    " vsz_kb INTEGER, rss_kb INTEGER, blkio INTEGER, read_bytes INTEGER,\n"
    " write_bytes INTEGER, cancelled_write_bytes INTEGER, no_io INTEGER, nvcsw INTEGER,\n"
    " nivcsw INTEGER, nthreads INTEGER, processor INTEGER, rt_priority INTEGER,\n"
    " policy INTEGER, state TEXT, PRIMARY KEY(iv, task)) WITHOUT ROWID;\n"
    "CREATE INDEX sample_task ON sample(task, iv);\n" SCHEMA5_TABLES_SQL SCHEMA6_SQL
    /* threads in D at a sample and the load core's judgement of them */
    "CREATE TABLE dtask(iv INTEGER NOT NULL, tgid INTEGER NOT NULL, tid INTEGER NOT NULL,\n"
    " comm TEXT, reason TEXT, wchan TEXT, cgroup TEXT, counts INTEGER, frozen INTEGER,\n"
    " PRIMARY KEY(iv, tid)) WITHOUT ROWID;\n"
    /* the report core's findings over each window */
    "CREATE TABLE finding(id INTEGER PRIMARY KEY, iv_from INTEGER, iv_to INTEGER,\n"
    " ts_start REAL, ts_end REAL, severity TEXT, rule TEXT, subject TEXT,\n"
    " sentence TEXT);\n"
    "CREATE INDEX finding_ts ON finding(ts_end);\n"
    /* ---- views: rates per second over each interval, at its end ---- */
    V_CPU_SQL V_GROUP_SQL
    "CREATE VIEW v_load AS SELECT ts, load1, load5, load15, runnable, d_counted AS blocked\n"
    " FROM interval;\n"
    "CREATE VIEW v_psi AS SELECT i.ts AS ts, p.resource AS resource, p.some_avg10 AS some_avg10,\n"
    " p.full_avg10 AS full_avg10 FROM interval i JOIN psi p ON p.iv = i.id;\n" V_DISK_SQL V_NET_SQL
    "";

const char *record_db_errmsg(struct sqlite3 *db)
{
	return db ? sqlite3_errmsg(db) : "out of memory";
}

int record_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

/* An integer from a one-row, one-column query; -ENOENT when no row. */
int record_query_i64(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? -ENOENT : -EIO;
}

int record_meta_set(sqlite3 *db, const char *key, const char *value)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	return rc;
}

int record_meta_get(sqlite3 *db, const char *key, char *buf, size_t size)
{
	sqlite3_stmt *st;
	int rc = -ENOENT;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 0);

		snprintf(buf, size, "%s", v ? (const char *)v : "");
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Both places that carry the version; inside the caller's transaction. */
static int stamp_version(sqlite3 *db)
{
	char v[16], sql[48];
	int rc;

	snprintf(v, sizeof(v), "%d", RECORD_SCHEMA_VERSION);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", RECORD_SCHEMA_VERSION);
	rc = record_meta_set(db, "schema_version", v);
	return rc ? rc : record_exec(db, sql);
}

/* sql and the new version stamp in one transaction: all of it, or none. */
static int migrate(sqlite3 *db, const char *sql)
{
	int rc = record_exec(db, "BEGIN IMMEDIATE");

	rc = rc ? rc : record_exec(db, sql);
	rc = rc ? rc : stamp_version(db);
	if (rc) {
		record_exec(db, "ROLLBACK");
		return rc;
	}
	return record_exec(db, "COMMIT");
}

/* The characters text_sanitize() escapes that SQL can name: C0, DEL, C1. */
static int escaped_char(int i)
{
	return i < 0x1f ? i + 1 : i + 0x7f - 0x1f; /* 1..31, then 0x7f..0x9f */
}

#define ESCAPED_CHARS 64
#define REPLACES_PER_STEP 8 /* SQLite's parser takes only so many nested calls */

/* One step of the chain: col with escaped_char(from..from+7) replaced. */
static int replace_step(char *buf, size_t size, const char *col, int from)
{
	char tmp[2048];
	int n = snprintf(buf, size, "%s", col);

	for (int i = from; i < from + REPLACES_PER_STEP && n > 0 && (size_t)n < size; i++) {
		int c = escaped_char(i);

		snprintf(tmp, sizeof(tmp), "%s", buf);
		n = snprintf(buf, size,
			     c < 0x80 ? "replace(%s,char(%d),'\\x%02x')"
				      : "replace(%s,char(%d),'\\u%04x')",
			     tmp, c, c);
	}
	return n > 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

/*
 * The findings as people read them (docs/record.md's example): subject and
 * sentence carry process names, so they come out as the report's plain
 * text has them (util/text.h's text_sanitize): each C0 control and DEL as
 * \xNN, each C1 control as \u00NN; a name's escape byte never reaches a
 * terminal from the view. (Bytes that are not UTF-8 pass: SQL cannot name
 * them.) A chain of CTEs, 8 replacements a step. Made again whenever a
 * file is opened for writing, so older files get it too.
 */
static int create_views(sqlite3 *db)
{
	char sql[16384], subj[2048], sent[2048];
	int n =
	    snprintf(sql, sizeof(sql),
		     "DROP VIEW IF EXISTS v_findings;\n"
		     "CREATE VIEW v_findings AS WITH s0 AS (SELECT id, ts_start, ts_end, severity,"
		     " rule, subject, sentence FROM finding)");

	for (int k = 0; k < ESCAPED_CHARS / REPLACES_PER_STEP; k++) {
		if (replace_step(subj, sizeof(subj), "subject", k * REPLACES_PER_STEP) ||
		    replace_step(sent, sizeof(sent), "sentence", k * REPLACES_PER_STEP))
			return -ENAMETOOLONG;
		n +=
		    snprintf(sql + n, sizeof(sql) - (size_t)n,
			     ", s%d AS (SELECT id, ts_start, ts_end, severity, rule, %s AS subject,"
			     " %s AS sentence FROM s%d)",
			     k + 1, subj, sent, k);
		if ((size_t)n >= sizeof(sql))
			return -ENAMETOOLONG;
	}
	n += snprintf(sql + n, sizeof(sql) - (size_t)n,
		      " SELECT ts_start, ts_end, severity, rule, subject, sentence FROM s%d"
		      " ORDER BY id;",
		      ESCAPED_CHARS / REPLACES_PER_STEP);
	return (size_t)n >= sizeof(sql) ? -ENAMETOOLONG : record_exec(db, sql);
}

static int create_schema(sqlite3 *db)
{
	/* incremental vacuum must be chosen before the first table */
	int rc = record_exec(db, "PRAGMA auto_vacuum = INCREMENTAL");

	rc = rc ? rc : migrate(db, schema_sql);
	return rc ? rc : create_views(db);
}

/* An existing file: its version (1 to 6, both stamps agreeing), -EPROTO if not ours. */
int record_db_version(sqlite3 *db)
{
	int64_t uv;
	char v[16], want[24];

	if (record_query_i64(db, "PRAGMA user_version", &uv))
		return -EINVAL; /* not a database */
	if (uv < 1 || uv > RECORD_SCHEMA_VERSION)
		return -EPROTO;
	snprintf(want, sizeof(want), "%lld", (long long)uv);
	if (record_meta_get(db, "schema_version", v, sizeof(v)) || strcmp(v, want))
		return -EPROTO;
	return (int)uv;
}

/*
 * A file to record into: a schema 1 file gains task.cmdline (NULL in its old
 * rows), a schema 1 or 2 file the tcp table (empty for its old intervals),
 * a schema 1 to 3 file proc_rate (its old intervals' rates filled once),
 * a schema 1 to 4 file the schema 5 tables (empty for its old intervals),
 * a schema 1 to 5 file sample.rss_anon_kb (NULL in its old rows).
 */
static int writable_schema(sqlite3 *db)
{
	int v = record_db_version(db);

	if (v == 1)
		v = migrate(db, "ALTER TABLE task ADD COLUMN cmdline TEXT;\n" SCHEMA3_TABLES_SQL
				    DISK_RATE_BACKFILL_SQL SCHEMA4_TABLES_SQL PROC_RATE_BACKFILL_SQL
					SCHEMA5_TABLES_SQL SCHEMA6_SQL);
	else if (v == 2)
		v = migrate(db, SCHEMA3_TABLES_SQL DISK_RATE_BACKFILL_SQL SCHEMA4_TABLES_SQL
				    PROC_RATE_BACKFILL_SQL SCHEMA5_TABLES_SQL SCHEMA6_SQL);
	else if (v == 3)
		v = migrate(
		    db, SCHEMA4_TABLES_SQL PROC_RATE_BACKFILL_SQL SCHEMA5_TABLES_SQL SCHEMA6_SQL);
	else if (v == 4)
		v = migrate(db, SCHEMA5_TABLES_SQL SCHEMA6_SQL);
	else if (v == 5)
		v = migrate(db, SCHEMA6_SQL);
	return v < 0 ? v : create_views(db);
}

int record_db_open(sqlite3 **out, const char *path, bool create)
{
	sqlite3 *db = NULL;
	/* one thread uses a connection: SQLite's own locking would be wasted */
	int flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) |
		    SQLITE_OPEN_NOMUTEX;
	int64_t ntables = 0;
	int rc;

	*out = NULL;
	if (!create && access(path, F_OK))
		return -errno;
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		/* the system's reason (no such directory, read-only), not a guess */
		int err = db ? sqlite3_system_errno(db) : 0;

		sqlite3_close(db);
		return err > 0 ? -err : -EACCES;
	}
	sqlite3_busy_timeout(db, 5000);
	/* a file that is not SQLite fails its first read */
	if (record_query_i64(db, "SELECT count(*) FROM sqlite_master", &ntables)) {
		sqlite3_close(db);
		return -EINVAL;
	}
	if (create && ntables == 0)
		rc = create_schema(db);
	else if (create)
		rc = writable_schema(db);
	else
		rc = record_db_version(db);
	rc = rc < 0 ? rc : 0;
	if (!rc && create)
		rc = record_exec(db, "PRAGMA journal_mode = WAL");
	if (!rc && create)
		rc = record_exec(db, "PRAGMA synchronous = NORMAL");
	/* a 2,000-thread interval fits in the page cache: no re-reads of hot pages */
	if (!rc)
		rc = record_exec(db, "PRAGMA cache_size = -16384");
	if (rc) {
		sqlite3_close(db);
		return rc;
	}
	*out = db;
	return 0;
}

void record_db_close(sqlite3 *db)
{
	sqlite3_close(db);
}
