/*
 * Fuzzes the record file reader (src/record/): the bytes become a file
 * that triage replay opens, and every reader runs over it: the window, the
 * pidstat source (every listing and task of every interval, the command
 * lines of schema 2 files), the report's data and rules, the load
 * snapshot; and the bytes as a --from time.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/snapshot.h"
#include "pidstat/pidstat.h"
#include "record/record.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_pidstat(struct sqlite3 *db, const struct record_window *w)
{
	struct pidstat_replay *rp;
	const struct pidstat_source *src;
	struct id_list pids = { 0 }, tids = { 0 };
	struct pidstat_task_raw raw;
	char cmd[64]; /* short: a longer command line is cut */
	uint64_t up, jf, mt;
	int step = 1;

	if (record_replay_open(&rp, db, w, &step, &src))
		return;
	for (step = 1; (size_t)step <= w->n && step <= 64; step++) {
		src->read_system(src->ctx, &up, &jf);
		src->read_memtotal(src->ctx, &mt);
		if (src->list_pids(src->ctx, &pids))
			continue;
		for (size_t i = 0; i < pids.len && i < 256; i++) {
			src->read_task(src->ctx, pids.ids[i], pids.ids[i], false, &raw);
			if (src->read_cmdline) /* schema 2 files */
				src->read_cmdline(src->ctx, pids.ids[i], cmd, sizeof(cmd));
			if (src->list_tids(src->ctx, pids.ids[i], &tids))
				continue;
			for (size_t k = 0; k < tids.len && k < 256; k++)
				src->read_task(src->ctx, pids.ids[i], tids.ids[k], true, &raw);
		}
	}
	procfs_id_list_release(&pids);
	procfs_id_list_release(&tids);
	record_replay_close(rp);
}

static void time_forms(const uint8_t *data, size_t size)
{
	char buf[128];
	double t;
	size_t n = size < sizeof(buf) - 1 ? size : sizeof(buf) - 1;

	memcpy(buf, data, n);
	buf[n] = '\0';
	record_parse_time(buf, 1.7e9, &t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz_record.XXXXXX";
	int fd = mkstemp(path);
	struct sqlite3 *db;
	struct record_window w;

	time_forms(data, size);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	if (!record_db_open(&db, path, false)) {
		if (!record_window_select(db, NAN, NAN, &w)) {
			struct report_data d;
			struct report_findings f;

			memset(&d, 0, sizeof(d));
			struct load_snapshot s;

			walk_pidstat(db, &w);
			if (w.n >= 2 && w.n <= 64 && !record_report_data(db, &w, 0, w.n - 1, &d)) {
				if (!report_evaluate(&d, &f))
					report_findings_release(&f);
			}
			report_data_release(&d);
			if (!record_load_snapshot(db, &w, w.n - 1, &s))
				load_snapshot_release(&s);
			record_window_release(&w);
		}
		record_db_close(db);
	}
	unlink(path);
	for (int i = 0; i < 2; i++) { /* what SQLite may leave beside a WAL file */
		char side[sizeof(path) + 8];

		snprintf(side, sizeof(side), "%s%s", path, i ? "-shm" : "-wal");
		unlink(side);
	}
	return 0;
}
