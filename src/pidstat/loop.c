/*
 * The sampling loop, with sysstat's exact sequence of reports, headers and
 * Average (spec 5), driven by a clock that never skips a tick.
 */
#include "pidstat/report.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "procfs/parsers.h"
#include "util/json.h"

/*
 * /proc/uptime on a live host stays open: pread at offset 0 regenerates
 * it, one system call a sample instead of open, read, read (EOF) and close.
 * A --root tree reads it afresh (each fixture step is another file).
 */
static ssize_t read_uptime(struct pidstat_run *r, char *buf, size_t size)
{
	if (r->uptime_fd < 0 && !r->host->fixture)
		r->uptime_fd = procfs_openat(r->pf, "uptime", O_RDONLY | O_CLOEXEC);
	if (r->uptime_fd >= 0)
		return procfs_reread_fd(r->uptime_fd, buf, size);
	return procfs_read(r->pf, "uptime", buf, size);
}

static int read_system(struct pidstat_run *r, int curr)
{
	char buf[8192];
	struct sys_stat st;
	ssize_t n;

	if (r->src)
		return r->src->read_system(r->src->ctx, &r->uptime_cs[curr], &r->tot_jiffies[curr])
			   ? PIDSTAT_E_UPTIME
			   : 0;
	n = read_uptime(r, buf, sizeof(buf));

	if (n < 0 || procfs_uptime_parse(buf, (size_t)n, &r->uptime_cs[curr]))
		return PIDSTAT_E_UPTIME;
	/*
	 * The total jiffies serve only -I's %CPU. sysstat reads /proc/stat
	 * every sample; we read it at the first (its error, if it cannot be
	 * read, is sysstat's) and then only for -I: the kernel formats the
	 * whole file, every CPU's and IRQ's counters, for each read.
	 */
	if (r->stat_read && !r->opts->irix_off)
		return 0;
	r->stat_read = true;
	n = procfs_read(r->pf, "stat", buf, sizeof(buf));
	if (n < 0) {
		r->err_errno = (int)-n;
		return PIDSTAT_E_STAT;
	}
	if (!procfs_sys_stat_parse(buf, (size_t)n, &st))
		r->tot_jiffies[curr] = procfs_sys_stat_total(&st);
	return 0;
}

static int read_sample(struct pidstat_run *r, int curr)
{
	int rc = read_system(r, curr);

	if (rc)
		return rc;
	rc = pidstat_read_tasks(r, curr);
	if (rc == -ENOMEM)
		return PIDSTAT_E_NOMEM;
	if (rc) { /* /proc itself could not be listed */
		r->err_errno = -rc;
		return PIDSTAT_E_OPENDIR;
	}
	return 0;
}

static void read_memtotal(struct pidstat_run *r)
{
	char buf[4096];
	ssize_t n;

	if (r->src) {
		if (r->src->read_memtotal(r->src->ctx, &r->memtotal_kb))
			r->memtotal_kb = 0;
		return;
	}
	n = procfs_read(r->pf, "meminfo", buf, sizeof(buf));
	if (n < 0 || procfs_meminfo_total_parse(buf, (size_t)n, &r->memtotal_kb))
		r->memtotal_kb = 0;
}

/* A timestamp as sysstat prints it (spec 3.2). */
static void format_time(const struct pidstat_run *r, int slot, char *buf, size_t size)
{
	struct tm tm = r->tstamp[slot];

	if (r->opts->epoch)
		snprintf(buf, size, "%-11ld", (long)mktime(&tm));
	else if (r->iso_time)
		strftime(buf, size, "%H:%M:%S", &tm);
	else
		strftime(buf, size, "%X", &tm);
}

/* sysstat checks stdout with an empty write before every report. */
static int check_stdout(struct pidstat_run *r)
{
	if (write(STDOUT_FILENO, "", 0) < 0) {
		r->err_errno = errno;
		return PIDSTAT_E_STDOUT;
	}
	return 0;
}

static int write_stats(struct pidstat_run *r, int curr, int prev, bool dis, int *again)
{
	char ps[64], cs[64];
	int rc = check_stdout(r);

	if (rc)
		return rc;
	if (r->opts->oneline && !r->json)
		snprintf(ps, sizeof(ps), "# Time     ");
	else
		format_time(r, prev, ps, sizeof(ps));
	format_time(r, curr, cs, sizeof(cs));
	if (r->json) {
		/* JSON carries the bare value */
		char *sp = cs + strlen(cs);

		while (sp > cs && sp[-1] == ' ')
			*--sp = '\0';
	}
	*again = pidstat_write_report(r, prev, curr, dis, false, ps, cs);
	return 0;
}

static int write_average(struct pidstat_run *r, int curr)
{
	char label[16];
	int rc = check_stdout(r);

	if (rc)
		return rc;
	snprintf(label, sizeof(label), "%s", r->average_label);
	pidstat_write_report(r, 2, curr, r->opts->dis_hdr > 0, true, label, label);
	return 0;
}

static void flush(struct pidstat_run *r)
{
	fflush(r->out.f);
}

static void keep_first(struct pidstat_run *r)
{
	r->tstamp[2] = r->tstamp[0];
	r->tot_jiffies[2] = r->tot_jiffies[0];
	r->uptime_cs[2] = r->uptime_cs[0];
	for (size_t i = 0; i < r->table.len; i++)
		r->table.order[i]->snap[2] = r->table.order[i]->snap[0];
}

/* Since boot (interval 0): one report against all-zero counters. */
static int since_boot(struct pidstat_run *r)
{
	int again, rc;

	r->tstamp[1] = r->tstamp[0];
	rc = write_stats(r, 0, 1, true, &again);
	flush(r);
	return rc;
}

bool pidstat_header_due(unsigned long *lines, int rows)
{
	bool due = *lines / (unsigned long)rows != 0;

	if (due)
		*lines %= (unsigned long)rows;
	(*lines)++;
	return due;
}

static int sample_loop(struct pidstat_run *r, struct runloop_clock *clk)
{
	const struct pidstat_opts *o = r->opts;
	long count = o->count;
	unsigned long lines = (unsigned long)r->rows;
	int curr = 1, again, rc;
	bool dis = true;

	do {
		time_t now = runloop_clock_now(clk);

		localtime_r(&now, &r->tstamp[curr]);
		if ((rc = read_sample(r, curr)))
			return rc;
		if (!o->dis_hdr)
			dis = pidstat_header_due(&lines, r->rows);
		rc = write_stats(r, curr, curr ^ 1, dis, &again);
		flush(r);
		if (rc)
			return rc;
		if (!again)
			return PIDSTAT_DONE_NO_AVG;
		if (count > 0)
			count--;
		if (count) {
			if (runloop_clock_wait(clk)) {
				count = 0;
				if (!r->json)
					fputc('\n', r->out.f);
			} else {
				curr ^= 1;
			}
		}
	} while (count);
	r->last = curr;
	return 0;
}

int pidstat_loop(struct pidstat_run *r, struct runloop_clock *clk)
{
	const struct pidstat_opts *o = r->opts;
	int rc;

	if ((rc = read_sample(r, 0)))
		return rc;
	if (o->act & ACT_MEM)
		read_memtotal(r);
	if (!o->interval && !o->exec_argv)
		return since_boot(r);
	keep_first(r);
	runloop_clock_arm(clk); /* sysstat arms its alarm here */
	if (runloop_clock_wait(clk) && o->interval)
		return 0; /* stopped during the first interval: banner only */
	rc = sample_loop(r, clk);
	if (rc == PIDSTAT_DONE_NO_AVG)
		return 0;
	if (rc)
		return rc;
	if (!o->oneline && !r->json)
		rc = write_average(r, r->last);
	flush(r);
	return rc;
}
