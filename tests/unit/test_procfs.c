/* test: shared -- pure code and its own process; see docs/testing.md */
/* The pure /proc parsers, on lines written as the kernel writes them. */
#define _GNU_SOURCE /* program_invocation_name */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procfs/host.h"
#include "procfs/kept.h"
#include "procfs/parsers.h"
#include "procfs/procfs.h"
#include "unit.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A 52-field stat line whose comm holds spaces and parentheses. */
static const char stat_line[] =
    "6901 (a) b (c)) S 1 6901 6901 0 -1 4194560 9216 77 3 4 1234 567 -8 -9 20 0 5 0 "
    "123456 35260416 305 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 7 2 "
    "42 33 -44 0 0 0 0 0 0 0 0 0\n";

TEST(stat_comm_with_parens)
{
	struct pid_stat s;

	ASSERT_EQ(procfs_pid_stat_parse(stat_line, sizeof(stat_line) - 1, &s), 0);
	ASSERT_EQ(s.pid, 6901);
	ASSERT_STREQ(s.comm, "a) b (c)");
	ASSERT_EQ(s.state, 'S');
	ASSERT_EQ(s.ppid, 1);
	ASSERT_UEQ(s.minflt, 9216);
	ASSERT_UEQ(s.cminflt, 77);
	ASSERT_UEQ(s.majflt, 3);
	ASSERT_UEQ(s.utime, 1234);
	ASSERT_UEQ(s.stime, 567);
	ASSERT_EQ(s.cutime, -8);
	ASSERT_EQ(s.cstime, -9);
	ASSERT_EQ(s.num_threads, 5);
	ASSERT_UEQ(s.starttime, 123456);
	ASSERT_UEQ(s.vsize, 35260416);
	ASSERT_EQ(s.rss, 305);
	ASSERT_EQ(s.processor, 1);
	ASSERT_EQ(s.rt_priority, 7);
	ASSERT_EQ(s.policy, 2);
	ASSERT_UEQ(s.blkio_ticks, 42);
	ASSERT_UEQ(s.guest_time, 33);
	ASSERT_EQ(s.cguest_time, -44);
}

TEST(stat_short_line_rejected)
{
	static const char line[] = "1 (x) S 1 2 3 4 5 6 7 8 9 10\n";
	struct pid_stat s;

	ASSERT_EQ(procfs_pid_stat_parse(line, sizeof(line) - 1, &s), -EINVAL);
	ASSERT_EQ(procfs_pid_stat_parse("", 0, &s), -EINVAL);
	ASSERT_EQ(procfs_pid_stat_parse("12 (no close", 12, &s), -EINVAL);
}

TEST(stat_without_guest_fields)
{
	/* an old kernel: 42 fields, so guest times default to 0 */
	static const char line[] = "7 (k) R 0 0 0 0 0 0 1 0 2 0 3 4 0 0 20 0 1 0 9 10 11 0 0 0 "
				   "0 0 0 0 0 0 0 0 0 0 0 0 0 0 5\n";
	struct pid_stat s;

	ASSERT_EQ(procfs_pid_stat_parse(line, sizeof(line) - 1, &s), 0);
	ASSERT_EQ(s.nfields, 42);
	ASSERT_UEQ(s.blkio_ticks, 5);
	ASSERT_UEQ(s.guest_time, 0);
}

TEST(status_fields)
{
	static const char st[] =
	    "Name:\twl\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t6901\n"
	    "Pid:\t6902\nPPid:\t1\nUid:\t1000\t0\t0\t0\nVmRSS:\t   93712 kB\n"
	    "RssAnon:\t   91920 kB\nRssFile:\t    1792 kB\nThreads:\t5\n"
	    "voluntary_ctxt_switches:\t150\nnonvoluntary_ctxt_switches:\t545\n";
	static const char old[] = "Uid:\t0\t0\t0\t0\n";
	struct pid_status s;

	ASSERT_EQ(procfs_pid_status_parse(st, sizeof(st) - 1, &s), 0);
	ASSERT_STREQ(s.name, "wl");
	ASSERT_EQ(s.state, 'S');
	ASSERT_EQ(s.tgid, 6901);
	ASSERT_EQ(s.pid, 6902);
	ASSERT_EQ(s.uid_real, 1000);
	ASSERT_EQ(s.uid_eff, 0);
	ASSERT_EQ(s.threads, 5);
	ASSERT_UEQ(s.vol_ctxsw, 150);
	ASSERT_UEQ(s.nonvol_ctxsw, 545);
	ASSERT_TRUE(s.has_rss_anon);
	ASSERT_UEQ(s.rss_anon_kb, 91920);
	/* before Linux 4.5 status had no RssAnon: not known, not 0 */
	ASSERT_EQ(procfs_pid_status_parse(old, sizeof(old) - 1, &s), 0);
	ASSERT_TRUE(!s.has_rss_anon);
}

/* proc(5) statm: size resident shared text lib data dt, in pages. */
TEST(statm_fields)
{
	static const char wl[] = "586 327 304 1 0 23 0\n";
	static const char kthread[] = "0 0 0 0 0 0 0\n";
	static const char odd[] = "586 300 304 1 0 23 0\n";
	struct pid_statm m;
	uint64_t pages = 7;

	ASSERT_EQ(procfs_pid_statm_parse(wl, sizeof(wl) - 1, &m), 0);
	ASSERT_UEQ(m.size, 586);
	ASSERT_UEQ(m.resident, 327);
	ASSERT_UEQ(m.shared, 304);
	ASSERT_UEQ(m.data, 23);
	ASSERT_TRUE(procfs_statm_anon_pages(&m, &pages));
	ASSERT_UEQ(pages, 23);
	/* no address space: no RssAnon, as status has none for it */
	ASSERT_EQ(procfs_pid_statm_parse(kthread, sizeof(kthread) - 1, &m), 0);
	ASSERT_TRUE(!procfs_statm_anon_pages(&m, &pages));
	/* shared above resident is no kernel's: not known, not a wrapped figure */
	ASSERT_EQ(procfs_pid_statm_parse(odd, sizeof(odd) - 1, &m), 0);
	ASSERT_TRUE(!procfs_statm_anon_pages(&m, &pages));
	ASSERT_EQ(procfs_pid_statm_parse("586 327", 7, &m), -EINVAL);
}

/* One process's statm (RssAnon in kB, or -1 without) and status RssAnon (-1 without). */
static int statm_anon_kb(struct procfs *pf, const char *pid, long long *kb)
{
	char path[64], buf[256];
	struct pid_statm m;
	uint64_t pages;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/statm", pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n <= 0 || procfs_pid_statm_parse(buf, (size_t)n, &m))
		return -1;
	*kb = procfs_statm_anon_pages(&m, &pages)
		  ? (long long)(pages * (uint64_t)(getpagesize() / 1024))
		  : -1;
	return 0;
}

static int status_anon_kb(struct procfs *pf, const char *pid, long long *kb)
{
	char path[64], buf[4096];
	struct pid_status st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/status", pid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n <= 0 || procfs_pid_status_parse(buf, (size_t)n, &st))
		return -1;
	*kb = st.has_rss_anon ? (long long)st.rss_anon_kb : -1;
	return 0;
}

/*
 * The kernel's oracle for reading RssAnon from statm: every process of the
 * machine whose statm did not change around a read of its status (so its
 * memory stood still meanwhile) has resident - shared = status's RssAnon,
 * and neither has one where the other has none (kernel threads).
 */
TEST(statm_anon_is_status_rssanon_live)
{
	struct procfs *pf;
	struct dirent *e;
	DIR *d = opendir("/proc");
	unsigned compared = 0, self_seen = 0;
	char self[16];

	ASSERT_TRUE(d != NULL);
	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	snprintf(self, sizeof(self), "%d", (int)getpid());
	while ((e = readdir(d))) {
		long long a, b, st;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (statm_anon_kb(pf, e->d_name, &a) || status_anon_kb(pf, e->d_name, &st) ||
		    statm_anon_kb(pf, e->d_name, &b) || a != b)
			continue; /* gone, or its memory moved meanwhile */
		if (st != a)
			fprintf(stderr, "PID %s: statm's RssAnon %lld kB, status's %lld\n",
				e->d_name, a, st);
		ASSERT_EQ(st, a);
		compared++;
		self_seen += !strcmp(e->d_name, self);
	}
	closedir(d);
	procfs_close(pf);
	ASSERT_EQ(self_seen, 1);
	ASSERT_TRUE(compared > 1);
}

TEST(io_schedstat_uptime)
{
	static const char io[] = "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\n"
				 "write_bytes: 8192\ncancelled_write_bytes: 512\n";
	struct pid_io i;
	struct pid_schedstat ss;
	uint64_t up;

	ASSERT_EQ(procfs_pid_io_parse(io, sizeof(io) - 1, &i), 0);
	ASSERT_UEQ(i.read_bytes, 4096);
	ASSERT_UEQ(i.write_bytes, 8192);
	ASSERT_UEQ(i.cancelled_write_bytes, 512);
	ASSERT_UEQ(i.syscw, 4);
	ASSERT_EQ(procfs_pid_schedstat_parse("1000 2000 3\n", 12, &ss), 0);
	ASSERT_UEQ(ss.wait_ns, 2000);
	ASSERT_EQ(procfs_uptime_parse("1062.14 2000.01\n", 16, &up), 0);
	ASSERT_UEQ(up, 106214);
}

TEST(sys_stat_and_meminfo)
{
	static const char st[] =
	    "cpu  10 1 20 300 4 5 6 7 8 9\ncpu0 5 0 10 150 2 2 3 3 4 4\n"
	    "cpu1 5 1 10 150 2 3 3 4 4 5\nintr 1\nprocs_running 3\nprocs_blocked 2\n";
	static const char mi[] = "MemFree: 10 kB\nMemTotal:       24683620 kB\n";
	struct sys_stat s;
	uint64_t total;

	ASSERT_EQ(procfs_sys_stat_parse(st, sizeof(st) - 1, &s), 0);
	ASSERT_UEQ(s.user, 10);
	ASSERT_UEQ(s.steal, 7);
	ASSERT_UEQ(s.guest, 8);
	ASSERT_EQ(s.ncpu_lines, 2);
	ASSERT_UEQ(s.procs_running, 3);
	ASSERT_UEQ(s.procs_blocked, 2);
	ASSERT_UEQ(procfs_sys_stat_total(&s), 10 + 1 + 20 + 300 + 4 + 5 + 6 + 7);
	ASSERT_EQ(procfs_meminfo_total_parse(mi, sizeof(mi) - 1, &total), 0);
	ASSERT_UEQ(total, 24683620);
}

TEST(loadavg_and_psi)
{
	static const char la[] = "5.20 3.01 1.99 4/2231 70123\n";
	static const char psi[] = "some avg10=1.50 avg60=0.25 avg300=0.00 total=123456\n"
				  "full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n";
	struct loadavg l;
	struct psi p;

	ASSERT_EQ(procfs_loadavg_parse(la, sizeof(la) - 1, &l), 0);
	ASSERT_NEAR(l.load[0], 5.20, 1e-9);
	ASSERT_NEAR(l.load[2], 1.99, 1e-9);
	ASSERT_EQ(l.runnable, 4);
	ASSERT_EQ(l.total, 2231);
	ASSERT_EQ(l.last_pid, 70123);
	ASSERT_EQ(procfs_psi_parse(psi, sizeof(psi) - 1, &p), 0);
	ASSERT_NEAR(p.some.avg10, 1.5, 1e-9);
	ASSERT_UEQ(p.some.total_us, 123456);
	ASSERT_TRUE(p.full.present);
	ASSERT_UEQ(p.full.total_us, 7);
}

TEST(meta_parse)
{
	static const char meta[] =
	    "# fixture\nhz=100\npagesize=4096\nsysname=Linux\n"
	    "release=1.2.3-TEST\nnodename=fixture\nmachine=x86_64\nepoch=1796004933\n";
	struct host_facts h = { 0 };

	ASSERT_EQ(procfs_host_meta_parse(meta, sizeof(meta) - 1, &h), 0);
	ASSERT_EQ(h.hz, 100);
	ASSERT_EQ(h.pagesize, 4096);
	ASSERT_STREQ(h.release, "1.2.3-TEST");
	ASSERT_STREQ(h.nodename, "fixture");
	ASSERT_EQ((long long)h.start_time, 1796004933LL);
}

/* The live reader against this very process. */
TEST(live_self)
{
	struct procfs *pf;
	struct id_list tids = { 0 };
	char buf[1024], path[64];
	struct pid_stat s;
	ssize_t n;

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	snprintf(path, sizeof(path), "%d/stat", (int)getpid());
	n = procfs_read(pf, path, buf, sizeof(buf));
	ASSERT_TRUE(n > 0);
	ASSERT_EQ(procfs_pid_stat_parse(buf, (size_t)n, &s), 0);
	ASSERT_EQ(s.pid, getpid());
	ASSERT_EQ(procfs_list_tids(pf, getpid(), &tids), 0);
	ASSERT_EQ(tids.len, 1);
	ASSERT_EQ(tids.ids[0], getpid());
	ASSERT_EQ(procfs_read(pf, "no-such-file", buf, sizeof(buf)), -ENOENT);
	procfs_id_list_release(&tids);
	procfs_close(pf);
}

/* proc(5): smaps lists each mapping's header line, then "Key: value kB" lines. */
TEST(smaps_stack_figures)
{
	static const char *const lines[] = {
		"7f0000000000-7f0000001000 r-xp 00000000 08:01 12 /usr/lib/libc.so.6",
		"Size:                  4 kB",
		"Referenced:            4 kB",
		"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]",
		"Size:                132 kB",
		"KernelPageSize:        4 kB",
		"Rss:                  12 kB",
		"Referenced:           12 kB",
	};
	struct smaps_stack st = { 0 };
	size_t i = 0;

	while (i < ARRAY_LEN(lines) && !procfs_smaps_stack_line(&st, lines[i]))
		i++;
	ASSERT_EQ(i, 7); /* done at the stack's Referenced line */
	ASSERT_UEQ(st.size_kb, 132);
	ASSERT_UEQ(st.ref_kb, 12);
}

TEST(cmdline_arguments_joined)
{
	char a[] = "sleep\0"
		   "100\0"; /* argv {"sleep", "100"} as the kernel writes it */
	char b[] = "x\0\0";

	procfs_cmdline_join(a, sizeof(a) - 1);
	ASSERT_STREQ(a, "sleep 100");
	procfs_cmdline_join(b, sizeof(b) - 1);
	ASSERT_STREQ(b, "x");
}

/* A command line read through the /proc layer, as pidstat -l and triage record keep it. */
TEST(cmdline_read)
{
	struct procfs *pf;
	char buf[PROCFS_CMDLINE_SIZE];

	/* this program, run without arguments (tests/run.sh): argv[0] alone */
	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	ASSERT_EQ(procfs_read_cmdline(pf, getpid(), buf, sizeof(buf)),
		  (ssize_t)strlen(program_invocation_name));
	ASSERT_STREQ(buf, program_invocation_name);
	ASSERT_EQ(procfs_read_cmdline(pf, getpid(), buf, 4), 3); /* cut at size - 1 */
	ASSERT_EQ(strncmp(buf, program_invocation_name, 3), 0);
	ASSERT_EQ(procfs_read_cmdline(pf, 0, buf, sizeof(buf)), -ENOENT);
	procfs_close(pf);
	/* edge-misc: "odd\0\0arg two\0\0" and a kernel thread's empty file */
	ASSERT_EQ(procfs_open(&pf, "tests/fixtures/pidstat/edge-misc"), 0);
	ASSERT_EQ(procfs_step(pf, 1), 0);
	ASSERT_EQ(procfs_read_cmdline(pf, 100, buf, sizeof(buf)), 12);
	ASSERT_STREQ(buf, "odd  arg two");
	ASSERT_EQ(procfs_read_cmdline(pf, 50, buf, sizeof(buf)), 0);
	ASSERT_STREQ(buf, "");
	procfs_close(pf);
}

/* Kept-open files stay within their budget and give fds back when closed. */
TEST(kept_files_respect_the_budget)
{
	struct procfs_fd_budget b = { 1 };
	int kept = -1, other = -1, fd;
	char buf[1024];

	ASSERT_EQ(procfs_kept_reread(&kept, &b, buf, sizeof(buf)), -EBADF); /* nothing kept */
	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	procfs_kept_keep(&kept, fd, &b);
	ASSERT_EQ(kept, fd);
	ASSERT_EQ(b.left, 0);
	fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	procfs_kept_keep(&other, fd, &b); /* no budget left: closed, not kept */
	ASSERT_EQ(other, -1);
	ASSERT_TRUE(fcntl(fd, F_GETFD) < 0);
	ASSERT_TRUE(procfs_kept_reread(&kept, &b, buf, sizeof(buf)) > 0);
	ASSERT_EQ(atoi(buf), getpid()); /* proc(5): stat starts with the pid */
	procfs_kept_close(&kept, &b);
	ASSERT_EQ(kept, -1);
	ASSERT_EQ(b.left, 1);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, stat_comm_with_parens);
	RUN(&st, stat_short_line_rejected);
	RUN(&st, stat_without_guest_fields);
	RUN(&st, status_fields);
	RUN(&st, statm_fields);
	RUN(&st, statm_anon_is_status_rssanon_live);
	RUN(&st, io_schedstat_uptime);
	RUN(&st, sys_stat_and_meminfo);
	RUN(&st, loadavg_and_psi);
	RUN(&st, meta_parse);
	RUN(&st, live_self);
	RUN(&st, smaps_stack_figures);
	RUN(&st, cmdline_arguments_joined);
	RUN(&st, cmdline_read);
	RUN(&st, kept_files_respect_the_budget);
	UNIT_MAIN_END(&st);
}
