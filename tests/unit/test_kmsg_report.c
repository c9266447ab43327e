/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The report over kernel log records and softnet counters: a fixture root
 * whose dev/kmsg holds a hung task reported twice with its full dump (the
 * records Linux 6.x writes, values chosen here), the file-handle and
 * conntrack tables' lines; then the rules these feed (kernel-errors,
 * fd-exhaustion, conntrack-full, net-drops), at and just below each
 * threshold of src/report/thresholds.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/collect.h"
#include "report/findings.h"
#include "report/report.h"
#include "report/thresholds.h"
#include "unit.h"

#define P(s) (s), strlen(s)

/* A window from 1000 s to 1010 s of uptime: the log is read from 700 s on. */
#define START_CS 100000
#define END_CS 101000

static const char *const kmsg_text =
    /* before the look-back (700 s): not read */
    "3,10,650000000,-;INFO: task old:99 blocked for more than 122 seconds.\n"
    /* the first report, 122 s */
    "3,40,880000000,-;INFO: task dd:4242 blocked for more than 122 seconds.\n"
    "3,41,880000100,-;      Not tainted 6.18.4-test #1\n"
    "3,42,880000200,-;\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this "
    "message.\n"
    "6,43,880000300,-;task:dd              state:D stack:0     pid:4242  tgid:4242  "
    "ppid:4200   task_flags:0x400000 flags:0x00004002\n"
    "6,44,880000400,-;Call Trace:\n"
    "6,45,880000500,-; <TASK>\n"
    "6,46,880000600,-; __schedule+0x4d2/0x1410\n"
    "6,47,880000700,-; rwsem_down_write_slowpath+0x2b1/0x6c0\n"
    "6,48,880000800,-; </TASK>\n"
    "3,49,880000900,-;INFO: task dd:4242 <writer> blocked on an rw-semaphore likely owned by "
    "task flush:4240 <writer>\n"
    "6,50,880001000,-;task:flush           state:D stack:0     pid:4240  tgid:4240  "
    "ppid:4200   task_flags:0x400000 flags:0x00004002\n"
    /* a plain warning: no finding */
    "4,60,900000000,-;nf_conntrack: default automatic helper assignment has been turned off\n"
    "4,61,950000000,-;nf_conntrack: table full, dropping packet\n"
    /* the second report, 245 s, inside the window */
    "3,70,1003000000,-;INFO: task dd:4242 blocked for more than 245 seconds.\n"
    "3,71,1003000100,-;      Not tainted 6.18.4-test #1\n"
    "3,72,1003000200,-;\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this "
    "message.\n"
    "3,73,1003000900,-;INFO: task dd:4242 <writer> blocked on an rw-semaphore likely owned by "
    "task flush:4240 <writer>\n"
    /* the file-handle table, twice, inside the window */
    "6,80,1005000000,-;VFS: file-max limit 8192 reached\n"
    "6,81,1006000000,-;VFS: file-max limit 8192 reached\n";

static const char *const proc_dirs[] = { "proc", "proc/self", "proc/self/ns" };

/* A root with dev/kmsg (and proc/self/ns/net when netns); its path in dir (removed by the caller).
 */
static int kmsg_root(char *dir, size_t size, const char *text, const char *netns)
{
	char path[256];
	FILE *f;

	snprintf(dir, size, "%s/triage_kmsg.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/dev", dir);
	if (mkdir(path, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fputs(text, f);
	if (fclose(f))
		return -1;
	if (!netns)
		return 0;
	for (size_t i = 0; i < sizeof(proc_dirs) / sizeof(proc_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, proc_dirs[i]);
		if (mkdir(path, 0755))
			return -1;
	}
	snprintf(path, sizeof(path), "%s/proc/self/ns/net", dir);
	return symlink(netns, path);
}

static void remove_root(const char *dir)
{
	static const char *const paths[] = { "dev/kmsg",     "dev",	  "proc/self/ns/net",
					     "proc/self/ns", "proc/self", "proc" };
	char path[256];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, paths[i]);
		if (unlink(path))
			rmdir(path);
	}
	rmdir(dir);
}

/* The kernel-log events of the window over a root holding text (and our netns); 0 or -1. */
static int read_events_in(const char *text, const char *netns, struct report_data *d)
{
	struct window *w = calloc(1, sizeof(*w));
	char dir[200];
	int rc = -1;

	memset(d, 0, sizeof(*d));
	d->seconds = 10;
	if (w && !kmsg_root(dir, sizeof(dir), text, netns) && !procfs_open(&w->pf, dir)) {
		w->h[0].have_uptime = w->h[1].have_uptime = true;
		w->h[0].uptime_cs = START_CS;
		w->h[1].uptime_cs = END_CS;
		report_kmsg_results(w, d);
		rc = d->have_kmsg ? 0 : -1;
		procfs_close(w->pf);
	}
	remove_root(dir);
	free(w);
	return rc;
}

static int read_events(const char *text, struct report_data *d)
{
	return read_events_in(text, NULL, d);
}

static size_t count_kind(const struct report_findings *f, enum report_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->f[i].kind == k;
	return n;
}

static const struct rp_finding *find_kind(const struct report_findings *f, enum report_kind k)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->f[i].kind == k)
			return &f->f[i];
	return NULL;
}

static double evidence(const struct rp_finding *x, const char *metric)
{
	for (int i = 0; i < x->nev; i++)
		if (!strcmp(x->ev[i].metric, metric))
			return x->ev[i].value;
	return -1;
}

/* Two reports of one hung task and their dumps: one event, with its lock's owner. */
TEST(hung_task_reported_twice_is_one_event)
{
	struct report_data d;
	const struct rp_kevent *e = NULL;
	size_t hung = 0;

	ASSERT_EQ(read_events(kmsg_text, &d), 0);
	for (size_t i = 0; i < d.nkevents; i++)
		if (d.kevents[i].event == KMSG_HUNG_TASK) {
			hung++;
			e = &d.kevents[i];
		}
	ASSERT_EQ(hung, 1);
	ASSERT_EQ(e->pid, 4242);
	ASSERT_STREQ(e->comm, "dd");
	ASSERT_EQ(e->reports, 2);
	ASSERT_EQ(e->blocked_s, 245);
	ASSERT_TRUE(e->in_window);
	ASSERT_NEAR(e->age_s, 7.0, 1e-6);
	ASSERT_STREQ(e->lock, "rw-semaphore");
	ASSERT_EQ(e->owner_pid, 4240);
	ASSERT_STREQ(e->owner_comm, "flush");
	/* hung task, conntrack line, file-max line (twice): nothing else is an event */
	ASSERT_EQ(d.nkevents, 3);
}

/* What the rules make of that log on an otherwise quiet machine. */
TEST(kernel_log_findings)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	ASSERT_EQ(read_events(kmsg_text, &d), 0);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_KERNEL_ERRORS), 1);
	x = find_kind(&f, RK_KERNEL_ERRORS);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_EQ(x->subject.pid, 4242);
	ASSERT_EQ(x->subject.npids, 1);
	ASSERT_EQ(x->subject.pids[0], 4240);
	ASSERT_TRUE(strstr(x->summary, "more than 245 s") != NULL);
	ASSERT_TRUE(strstr(x->summary, "an rw-semaphore that PID 4240 flush likely holds") != NULL);
	ASSERT_STREQ(x->next, "cat /proc/4240/stack");
	ASSERT_NEAR(evidence(x, "reports"), 2, 1e-9);
	/* file-max logged in the window: critical, though file-nr was not read */
	ASSERT_EQ(count_kind(&f, RK_FD_EXHAUSTION), 1);
	x = find_kind(&f, RK_FD_EXHAUSTION);
	ASSERT_EQ(x->sev, SEV_CRITICAL);
	ASSERT_EQ(x->subject.pid, 0);
	ASSERT_NEAR(evidence(x, "logged"), 2, 1e-9);
	ASSERT_TRUE(strstr(x->summary, "VFS: file-max limit 8192 reached") != NULL);
	/* conntrack full 60 s before the window: a warning */
	x = find_kind(&f, RK_CONNTRACK_FULL);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_NEAR(evidence(x, "age"), 60, 1e-6);
	report_findings_release(&f);
}

/* A dump's lines alone (its report cut off by the look-back) raise nothing. */
TEST(dump_lines_alone_raise_nothing)
{
	struct report_data d;
	struct report_findings f;

	ASSERT_EQ(
	    read_events("3,1,900000000,-;      Not tainted 6.18.4-test #1\n"
			"3,2,900000100,-;\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" "
			"disables this message.\n"
			"3,3,900000200,-;INFO: task dd:4242 <writer> blocked on an "
			"rw-semaphore likely owned by task flush:4240 <writer>\n"
			"3,4,900000300,-; down_write+0x5c/0x70\n",
			&d),
	    0);
	ASSERT_EQ(d.nkevents, 0);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_KERNEL_ERRORS), 0);
	report_findings_release(&f);
}

/* A hung task without a blocker line, once, before the window: a warning without owner. */
TEST(hung_task_without_owner)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	ASSERT_EQ(read_events("3,1,900000000,-;INFO: task cat:77 blocked for more than 120 "
			      "seconds.\n"
			      "3,2,900000001,-;INFO: task other:78 blocked for more than 120 "
			      "seconds.\n",
			      &d),
		  0);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_KERNEL_ERRORS), 2); /* one per task */
	x = find_kind(&f, RK_KERNEL_ERRORS);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_EQ(x->subject.npids, 0);
	ASSERT_TRUE(strstr(x->next, "/stack") != NULL);
	report_findings_release(&f);
}

/* "table full in netns N": only our namespace's table is the one the report reads. */
TEST(conntrack_line_of_another_namespace)
{
	static const char *const text =
	    "4,1,900000000,-;nf_conntrack: nf_conntrack: table full in netns 4026532173, "
	    "dropping packet\n";
	struct report_data d;
	struct report_findings f;

	ASSERT_EQ(read_events_in(text, "net:[4026531840]", &d), 0);
	ASSERT_EQ(d.nkevents, 0);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CONNTRACK_FULL), 0);
	report_findings_release(&f);
	ASSERT_EQ(read_events_in(text, "net:[4026532173]", &d), 0);
	ASSERT_EQ(d.nkevents, 1);
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_CONNTRACK_FULL), 1);
	report_findings_release(&f);
}

/* net-drops of a CPU's backlog: at SOFTNET_DROPS_MIN and SOFTNET_DROPS_WARN_S, and below. */
TEST(softnet_drops_boundaries)
{
	struct report_data d;
	struct report_findings f;
	const struct rp_finding *x;

	memset(&d, 0, sizeof(d));
	d.seconds = 10;
	d.have_softnet = true;
	d.nsoftnet = 1;
	d.softnet[0].cpu = 1;
	d.softnet[0].dropped = (uint64_t)(SOFTNET_DROPS_WARN_S * 10); /* 1/s over 10 s */
	d.softnet[0].squeezed = 37;
	d.softnet[0].processed = 90000;
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	x = find_kind(&f, RK_NET_DROPS);
	ASSERT_TRUE(x != NULL);
	ASSERT_EQ(x->sev, SEV_WARNING);
	ASSERT_EQ(x->subject.cpu, 1);
	ASSERT_NEAR(evidence(x, "backlog_drops"), 10, 1e-9);
	ASSERT_NEAR(evidence(x, "time_squeeze"), 37, 1e-9);
	ASSERT_TRUE(strstr(x->summary, "CPU 1's network backlog") != NULL);
	report_findings_release(&f);
	d.softnet[0].dropped = 9; /* 0.9/s */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_NET_DROPS), 0);
	report_findings_release(&f);
	d.seconds = 1;
	d.softnet[0].dropped = SOFTNET_DROPS_MIN; /* 5/s, 5 in all */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_NET_DROPS), 1);
	report_findings_release(&f);
	d.softnet[0].dropped = SOFTNET_DROPS_MIN - 1; /* 4/s, but 4 in all */
	ASSERT_EQ(report_evaluate(&d, &f), 0);
	ASSERT_EQ(count_kind(&f, RK_NET_DROPS), 0);
	report_findings_release(&f);
}

/* Two softnet_stat readings: per-CPU deltas by the CPU column, a 32-bit wrap, no drops no row. */
TEST(softnet_deltas)
{
	struct window *w = calloc(1, sizeof(*w));
	struct report_data d;

	ASSERT_TRUE(w != NULL);
	memset(&d, 0, sizeof(d));
	w->src = &w->live;
	w->h[0].have_softnet = w->h[1].have_softnet = true;
	/* CPUs 0 and 2 online (1 offline): the 13th column names them */
	ASSERT_EQ(procfs_softnet_parse(P("00001000 00000000 00000001 0 0 0 0 0 0 0 0 0 00000000\n"
					 "00002000 fffffff0 00000002 0 0 0 0 0 0 0 0 0 00000002\n"),
				       &w->h[0].softnet),
		  0);
	ASSERT_EQ(procfs_softnet_parse(P("00001100 00000000 00000001 0 0 0 0 0 0 0 0 0 00000000\n"
					 "00002300 00000010 00000009 0 0 0 0 0 0 0 0 0 00000002\n"),
				       &w->h[1].softnet),
		  0);
	report_softnet_results(w, &d);
	ASSERT_TRUE(d.have_softnet);
	ASSERT_EQ(d.nsoftnet, 1);
	ASSERT_EQ(d.softnet[0].cpu, 2);
	ASSERT_UEQ(d.softnet[0].dropped, 0x20); /* 0xfffffff0 -> 0x10 across the wrap */
	ASSERT_UEQ(d.softnet[0].squeezed, 7);
	ASSERT_UEQ(d.softnet[0].processed, 0x300);
	free(w);
}

int main(void)
{
	struct unit_state st = { 0, 0 };

	RUN(&st, hung_task_reported_twice_is_one_event);
	RUN(&st, kernel_log_findings);
	RUN(&st, dump_lines_alone_raise_nothing);
	RUN(&st, hung_task_without_owner);
	RUN(&st, conntrack_line_of_another_namespace);
	RUN(&st, softnet_drops_boundaries);
	RUN(&st, softnet_deltas);
	printf("%d run, %d failed\n", st.run, st.failed);
	return st.failed ? 1 : 0;
}
