/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The host-level parsers of src/procfs/hoststats.h and kmsg.c, on texts in
 * the kernel's formats (proc(5), Documentation/admin-guide/iostats.rst,
 * cgroup-v2.rst, dev-kmsg ABI) with values chosen here.
 */
#include <errno.h>
#include <string.h>

#include "procfs/hoststats.h"
#include "unit.h"

#define P(s) (s), strlen(s)

TEST(cpu_stat_per_cpu)
{
	static struct cpu_stat s;
	const char *t = "cpu  10 1 20 300 4 5 6 7 0 0\n"
			"cpu0 4 1 10 150 2 2 3 3 0 0\n"
			"cpu1 6 0 10 150 2 3 3 4 0 0\n"
			"intr 12345 1 2 3\nctxt 999\nprocs_running 3\nprocs_blocked 1\n";

	ASSERT_EQ(procfs_cpu_stat_parse(P(t), &s), 0);
	ASSERT_EQ(s.ncpu, 2);
	ASSERT_UEQ(s.all.steal, 7);
	ASSERT_UEQ(s.cpu[1].user, 6);
	ASSERT_UEQ(s.cpu[1].steal, 4);
	ASSERT_UEQ(s.procs_running, 3);
	ASSERT_UEQ(s.procs_blocked, 1);
	ASSERT_UEQ(s.ctxt, 999);
	ASSERT_UEQ(procfs_cpu_times_total(&s.cpu[0]), 4 + 1 + 10 + 150 + 2 + 2 + 3 + 3);
	ASSERT_UEQ(procfs_cpu_times_busy(&s.cpu[0]), 4 + 1 + 10 + 2 + 3 + 3);
	/* an offline CPU has no line: the table keeps a hole */
	ASSERT_EQ(procfs_cpu_stat_parse(P("cpu  1 2 3 4\ncpu0 1 1 1 1\ncpu2 0 1 2 1\n"), &s), 0);
	ASSERT_EQ(s.ncpu, 3);
	ASSERT_TRUE(s.online[0] && !s.online[1] && s.online[2]);
	ASSERT_EQ(procfs_cpu_stat_parse(P("cpu0 1 1 1 1\n"), &s), -EINVAL);
}

TEST(keyed_values)
{
	uint64_t v = 0;
	const char *mi = "MemTotal:       24000000 kB\nMemAvailableX: 1 kB\nMemAvailable: 12 kB\n";

	ASSERT_EQ(procfs_keyed_u64(P(mi), "MemAvailable", &v), 0);
	ASSERT_UEQ(v, 12); /* not the longer key with the same prefix */
	ASSERT_EQ(procfs_keyed_u64(P("nr_periods 5\nnr_throttled 2\n"), "nr_throttled", &v), 0);
	ASSERT_UEQ(v, 2);
	ASSERT_EQ(procfs_keyed_u64(P("high 1\n"), "max", &v), -ENOENT);
	ASSERT_EQ(procfs_keyed_u64(P("max x\n"), "max", &v), -EINVAL);
}

TEST(meminfo_and_vmstat)
{
	struct meminfo m;
	struct vmstat vm;

	ASSERT_EQ(procfs_meminfo_parse(P("MemTotal: 100 kB\nMemFree: 5 kB\nMemAvailable: 40 kB\n"
					 "SwapTotal: 50 kB\nSwapFree: 20 kB\n"),
				       &m),
		  0);
	ASSERT_UEQ(m.available, 40);
	ASSERT_UEQ(m.swap_total - m.swap_free, 30);
	ASSERT_EQ(procfs_vmstat_parse(P("pswpin 7\npswpout 8\npgmajfault 9\noom_kill 2\n"), &vm),
		  0);
	ASSERT_UEQ(vm.pswpin + vm.pswpout, 15);
	ASSERT_TRUE(vm.has_oom_kill);
	ASSERT_UEQ(vm.oom_kill, 2);
	ASSERT_EQ(procfs_vmstat_parse(P("pswpin 7\n"), &vm), -EINVAL);
}

TEST(diskstats_lines)
{
	static struct disk_stats d;
	const char *t = "   7       0 loop0 100 1 800 50 10 2 80 20 1 60 70 0 0 0 0\n"
			" 254       0 vda 5 0 40 3 0 0 0 0 0 2 3\n";

	ASSERT_EQ(procfs_diskstats_parse(P(t), &d), 0);
	ASSERT_EQ(d.n, 2);
	ASSERT_STREQ(d.d[0].name, "loop0");
	ASSERT_UEQ(d.d[0].rd_sectors, 800);
	ASSERT_UEQ(d.d[0].wr_ticks, 20);
	ASSERT_UEQ(d.d[0].in_flight, 1);
	ASSERT_UEQ(d.d[0].io_ticks, 60);
	ASSERT_UEQ(d.d[0].time_in_queue, 70);
	ASSERT_EQ(d.d[1].major, 254);
	ASSERT_EQ(procfs_diskstats_parse(P("   7 0 loop0 1 2 3\n"), &d), -EINVAL);
}

TEST(netdev_interfaces)
{
	static struct iface_stats s;
	const char *t =
	    "Inter-|   Receive                            |  Transmit\n"
	    " face |bytes    packets errs drop fifo frame compressed multicast|bytes ...\n"
	    "    lo:    3267      29    0    0    0     0          0         0     3267      29    "
	    "0    0    0     0       0          0\n"
	    "  eth0:1000 10 1 2 0 0 0 0 2000 20 3 4 0 0 0 0\n";

	ASSERT_EQ(procfs_netdev_parse(P(t), &s), 0);
	ASSERT_EQ(s.n, 2);
	ASSERT_STREQ(s.i[1].name, "eth0");
	ASSERT_UEQ(s.i[1].rx_errs, 1);
	ASSERT_UEQ(s.i[1].rx_drop, 2);
	ASSERT_UEQ(s.i[1].tx_bytes, 2000);
	ASSERT_UEQ(s.i[1].tx_errs, 3);
	ASSERT_UEQ(s.i[1].tx_drop, 4);
}

TEST(snmp_and_netstat)
{
	struct tcp_counters t;
	uint64_t v;
	const char *snmp =
	    "Ip: Forwarding DefaultTTL\nIp: 1 64\n"
	    "Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens PassiveOpens AttemptFails "
	    "EstabResets CurrEstab InSegs OutSegs RetransSegs InErrs OutRsts InCsumErrors\n"
	    "Tcp: 1 200 120000 -1 10 5 0 0 2 900 1000 37 1 3 0\n";
	const char *ns = "TcpExt: SyncookiesSent ListenOverflows ListenDrops\n"
			 "TcpExt: 0 4 6\nIpExt: InNoRoutes\nIpExt: 0\n";

	memset(&t, 0, sizeof(t));
	ASSERT_EQ(procfs_tcp_snmp_parse(P(snmp), &t), 0);
	ASSERT_UEQ(t.out_segs, 1000);
	ASSERT_UEQ(t.retrans_segs, 37);
	ASSERT_UEQ(t.in_errs, 1);
	ASSERT_EQ(procfs_tcp_netstat_parse(P(ns), &t), 0);
	ASSERT_UEQ(t.listen_overflows, 4);
	ASSERT_UEQ(t.listen_drops, 6);
	ASSERT_EQ(procfs_snmp_counter(P(snmp), "Udp", "InDatagrams", &v), -ENOENT);
	ASSERT_EQ(procfs_snmp_counter(P("Tcp: A B\nTcp: 1\n"), "Tcp", "B", &v), -EINVAL);
}

TEST(cgroup_cpu_files)
{
	struct cg_cpu_stat c;
	int64_t quota;
	uint64_t period;

	/* v2: microseconds */
	ASSERT_EQ(procfs_cg_cpu_stat_parse(P("usage_usec 5\nnr_periods 50\nnr_throttled 40\n"
					     "throttled_usec 3000000\n"),
					   &c),
		  0);
	ASSERT_UEQ(c.nr_throttled, 40);
	ASSERT_UEQ(c.throttled_us, 3000000);
	/* v1: nanoseconds */
	ASSERT_EQ(procfs_cg_cpu_stat_parse(
		      P("nr_periods 50\nnr_throttled 40\nthrottled_time 2000000000\n"), &c),
		  0);
	ASSERT_UEQ(c.throttled_us, 2000000);
	ASSERT_EQ(procfs_cg_cpu_max_parse(P("20000 100000\n"), &quota, &period), 0);
	ASSERT_EQ(quota, 20000);
	ASSERT_UEQ(period, 100000);
	ASSERT_EQ(procfs_cg_cpu_max_parse(P("max 100000\n"), &quota, &period), 0);
	ASSERT_EQ(quota, -1);
	ASSERT_EQ(procfs_cg_cpu_max_parse(P("12x 100000\n"), &quota, &period), -EINVAL);
}

/* I/O limits and counters as the kernel writes them (v2 io.max, io.stat; v1 blkio.throttle.*). */
TEST(cgroup_io_files)
{
	static const char io_max[] = "254:0 rbps=max wbps=max riops=max wiops=max\n"
				     "7:0 rbps=65536 wbps=max riops=max wiops=200\n";
	static const char io_stat[] = "254:0 rbytes=1000 wbytes=10 rios=3 wios=1 dbytes=0 dios=0\n"
				      "7:0 rbytes=65536 wbytes=0 rios=16 wios=0 dbytes=0 dios=0\n";
	static const char service[] =
	    "254:0 Read 368640\n254:0 Write 4096\n254:0 Total 372736\n"
	    "7:0 Read 327680\n7:0 Write 0\n7:0 Total 327680\nTotal 700416\n";
	struct cg_io_limit l;
	struct cg_io_stat io;
	unsigned ma = CG_ANY_DEVICE, mi = 0;
	uint64_t v, r, w;

	ASSERT_EQ(procfs_cg_io_max_parse(P(io_max), &l), 0);
	ASSERT_EQ(l.major, 7);
	ASSERT_UEQ(l.rbps, 65536);
	ASSERT_UEQ(l.wbps, 0); /* max: no limit */
	ASSERT_UEQ(l.wiops, 200);
	ASSERT_EQ(procfs_cg_io_max_parse(P("254:0 rbps=max wbps=max riops=max wiops=max\n"), &l),
		  -ENOENT);
	ASSERT_EQ(procfs_cg_io_max_parse(P(""), &l), -ENOENT);
	ASSERT_EQ(procfs_cg_io_stat_parse(P(io_stat), 7, 0, &io), 0);
	ASSERT_UEQ(io.rbytes, 65536);
	ASSERT_UEQ(io.rios, 16);
	ASSERT_EQ(procfs_cg_io_stat_parse(P(io_stat), CG_ANY_DEVICE, 0, &io), 0);
	ASSERT_UEQ(io.rbytes, 66536);
	ASSERT_UEQ(io.wbytes, 10);
	/* v1: the first limited device fixes the device the other files are read for */
	ASSERT_EQ(procfs_cg_blkio_limit_parse(P("7:0 65536\n8:0 1048576\n"), &ma, &mi, &v), 0);
	ASSERT_EQ(ma, 7);
	ASSERT_UEQ(v, 65536);
	ASSERT_EQ(procfs_cg_blkio_limit_parse(P("8:0 100\n"), &ma, &mi, &v), -ENOENT);
	ASSERT_UEQ(v, 0);
	ma = CG_ANY_DEVICE;
	ASSERT_EQ(procfs_cg_blkio_limit_parse(P(""), &ma, &mi, &v), -ENOENT);
	ASSERT_EQ(procfs_cg_blkio_stat_parse(P(service), 7, 0, &r, &w), 0);
	ASSERT_UEQ(r, 327680);
	ASSERT_UEQ(w, 0);
	ASSERT_EQ(procfs_cg_blkio_stat_parse(P(service), CG_ANY_DEVICE, 0, &r, &w), 0);
	ASSERT_UEQ(r, 696320); /* the "Total" lines are not counted twice */
	ASSERT_UEQ(w, 4096);
}

TEST(cgroup_memory_events)
{
	struct cg_mem_events e;

	ASSERT_EQ(procfs_cg_mem_events_parse(P("low 0\nhigh 12\nmax 3\noom 1\noom_kill 1\n"
					       "oom_group_kill 0\n"),
					     &e),
		  0);
	ASSERT_UEQ(e.high, 12);
	ASSERT_UEQ(e.max, 3);
	ASSERT_UEQ(e.oom_kill, 1);
	ASSERT_EQ(procfs_cg_mem_events_parse(P("low 0\n"), &e), -EINVAL);
}

static void classify(const char *line, struct kmsg_class *c)
{
	struct kmsg_record r;

	memset(c, 0, sizeof(*c));
	if (procfs_kmsg_record_parse(line, strlen(line), &r) == 0)
		procfs_kmsg_classify(&r, c);
	else
		c->event = (enum kmsg_event) - 1;
}

TEST(kmsg_records)
{
	struct kmsg_record r;
	struct kmsg_class c;

	ASSERT_EQ(procfs_kmsg_record_parse(P("3,1234,5678901,-;hello world\n"), &r), 0);
	ASSERT_EQ(r.level, 3);
	ASSERT_EQ(r.facility, 0);
	ASSERT_UEQ(r.seq, 1234);
	ASSERT_UEQ(r.ts_us, 5678901);
	ASSERT_STREQ(r.text, "hello world");
	ASSERT_EQ(procfs_kmsg_record_parse(P(" SUBSYSTEM=block\n"), &r), -EINVAL);

	classify("3,1,10,-;Memory cgroup out of memory: Killed process 4242 (bloat) total-vm:1kB",
		 &c);
	ASSERT_EQ(c.event, KMSG_OOM_KILL);
	ASSERT_EQ(c.pid, 4242);
	ASSERT_STREQ(c.comm, "bloat");
	classify("6,2,10,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,"
		 "mems_allowed=0,oom_memcg=/box,task_memcg=/box/inner,task=bloat,pid=4242,uid=0",
		 &c);
	ASSERT_EQ(c.event, KMSG_OOM_KILL);
	ASSERT_EQ(c.pid, 4242);
	ASSERT_STREQ(c.cgroup, "/box/inner");
	classify("3,3,10,-;INFO: task kworker/0:1:77 blocked for more than 120 seconds.", &c);
	ASSERT_EQ(c.event, KMSG_HUNG_TASK);
	ASSERT_EQ(c.pid, 77);
	ASSERT_STREQ(c.comm, "kworker/0:1");
	classify("0,4,10,-;watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [spin:99]", &c);
	ASSERT_EQ(c.event, KMSG_SOFT_LOCKUP);
	ASSERT_EQ(c.pid, 99);
	ASSERT_STREQ(c.comm, "spin");
	classify("3,5,10,-;I/O error, dev loop3, sector 2048 op 0x0:(READ) flags 0x0", &c);
	ASSERT_EQ(c.event, KMSG_IO_ERROR);
	ASSERT_STREQ(c.device, "loop3");
	classify("3,6,10,-;Buffer I/O error on dev sdb1, logical block 0, async page read", &c);
	ASSERT_STREQ(c.device, "sdb1");
	classify("6,7,10,-;crash[321]: segfault at 0 ip 0000 sp 0000 error 6 in crash[1000+1000]",
		 &c);
	ASSERT_EQ(c.event, KMSG_SEGFAULT);
	ASSERT_EQ(c.pid, 321);
	ASSERT_STREQ(c.comm, "crash");
	classify("3,8,10,-;some driver failed", &c);
	ASSERT_EQ(c.event, KMSG_OTHER_ERROR);
	classify("6,9,10,-;eth0: link up", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
	/* user-space messages (facility 1) at level err are not the kernel's errors */
	classify("11,10,10,-;app says error", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
}

/*
 * A hung-task report as Linux 6.x logs it (kernel/hung_task.c): the
 * "INFO: task" line, then at level err the taint line and the hint, then
 * sched_show_task's dump at info, then (CONFIG_DETECT_HUNG_TASK_BLOCKER)
 * the lock and its likely owner at err. Values are this test's own.
 */
TEST(kmsg_hung_task_dump)
{
	static const char *const boilerplate[] = {
		"3,41,880000100,-;      Not tainted 6.18.4-test #1",
		"3,42,880000200,-;      Tainted: G        W           6.18.4-test #1",
		"3,43,880000300,-;\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables "
		"this "
		"message.",
		"3,44,880000350,-;      Blocked by coredump.",
		"6,45,880000400,-;task:dd              state:D stack:0     pid:4242  tgid:4242  "
		"ppid:4200   task_flags:0x400000 flags:0x00004002",
		"6,46,880000500,-;Call Trace:",
		"6,47,880000600,-; <TASK>",
		"6,48,880000700,-; __schedule+0x4d2/0x1410",
		"3,49,880000800,-; ? rwsem_down_write_slowpath+0x2b1/0x6c0",
		"3,50,880000900,-; down_write+0x5c/0x70 [ext4]",
		"6,51,880001000,-; </TASK>",
		"4,52,880001100,-;RIP: 0033:0x7f3a2c1e4a37",
		"4,53,880001200,-;RSP: 002b:00007ffd6a5c1e08 EFLAGS: 00000246",
		"4,54,880001300,-;CPU: 1 UID: 0 PID: 4242 Comm: dd Not tainted 6.18.4-test #1",
		"4,55,880001400,-;Modules linked in: loop ext4",
	};
	struct kmsg_class c;

	classify("3,40,880000000,-;INFO: task dd:4242 blocked for more than 122 seconds.", &c);
	ASSERT_EQ(c.event, KMSG_HUNG_TASK);
	ASSERT_EQ(c.pid, 4242);
	ASSERT_STREQ(c.comm, "dd");
	ASSERT_EQ(c.blocked_s, 122);
	for (size_t i = 0; i < sizeof(boilerplate) / sizeof(boilerplate[0]); i++) {
		classify(boilerplate[i], &c);
		if (c.event != KMSG_NONE)
			UNIT_FAIL_("a dump line is an event %d: %s", c.event, boilerplate[i]);
	}
	/* an rw-semaphore, the blocked task and the owner each with their role */
	classify("3,56,880001500,-;INFO: task dd:4242 <writer> blocked on an rw-semaphore likely "
		 "owned by task kworker/u8:3:4240 <reader>",
		 &c);
	ASSERT_EQ(c.event, KMSG_HUNG_BLOCKER);
	ASSERT_EQ(c.pid, 4242);
	ASSERT_STREQ(c.comm, "dd");
	ASSERT_STREQ(c.lock, "rw-semaphore");
	ASSERT_EQ(c.owner_pid, 4240);
	ASSERT_STREQ(c.owner_comm, "kworker/u8:3");
	classify("3,57,10,-;INFO: task a b:77 is blocked on a mutex likely owned by task x:y:78.",
		 &c);
	ASSERT_EQ(c.event, KMSG_HUNG_BLOCKER);
	ASSERT_STREQ(c.comm, "a b");
	ASSERT_EQ(c.pid, 77);
	ASSERT_STREQ(c.lock, "mutex");
	ASSERT_STREQ(c.owner_comm, "x:y");
	ASSERT_EQ(c.owner_pid, 78);
	classify("3,58,10,-;INFO: task cat:90 blocked on a semaphore likely last held by task "
		 "init:1",
		 &c);
	ASSERT_STREQ(c.lock, "semaphore");
	ASSERT_EQ(c.pid, 90);
	ASSERT_EQ(c.owner_pid, 1);
	classify("3,59,10,-;INFO: task cat:90 is blocked on an rw-semaphore, but the owner is not "
		 "found.",
		 &c);
	ASSERT_EQ(c.event, KMSG_HUNG_BLOCKER);
	ASSERT_EQ(c.pid, 90);
	ASSERT_STREQ(c.lock, "rw-semaphore");
	ASSERT_EQ(c.owner_pid, 0);
	/* cut or odd lines name nobody rather than read outside the text */
	classify("3,60,10,-;INFO: task blocked on a mutex likely owned by task", &c);
	ASSERT_EQ(c.event, KMSG_HUNG_BLOCKER);
	ASSERT_EQ(c.pid, 0);
	ASSERT_EQ(c.owner_pid, 0);
	classify("3,61,10,-;INFO: task x:5 blocked for more than", &c);
	ASSERT_EQ(c.event, KMSG_HUNG_TASK);
	ASSERT_EQ(c.pid, 5);
	ASSERT_EQ(c.blocked_s, 0);
}

/* Lines below err that name a full table; other warnings stay out. */
TEST(kmsg_table_full_lines)
{
	struct kmsg_class c;

	classify("6,1,10,-;VFS: file-max limit 8192 reached", &c);
	ASSERT_EQ(c.event, KMSG_FILE_MAX);
	classify("4,2,10,-;nf_conntrack: table full, dropping packet", &c);
	ASSERT_EQ(c.event, KMSG_CONNTRACK_FULL);
	ASSERT_UEQ(c.netns, 0);
	/* Linux 6.x, pr_fmt's prefix and the message's own, for any namespace */
	classify("4,3,10,-;nf_conntrack: nf_conntrack: table full in netns 4026532288, dropping "
		 "packet",
		 &c);
	ASSERT_EQ(c.event, KMSG_CONNTRACK_FULL);
	ASSERT_UEQ(c.netns, 4026532288ULL);
	/* other warnings and notices are not findings */
	classify("4,4,10,-;nf_conntrack: default automatic helper assignment has been turned off",
		 &c);
	ASSERT_EQ(c.event, KMSG_NONE);
	classify("4,5,10,-;e1000e 0000:00:19.0 eth0: Detected Hardware Unit Hang", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
	classify("5,6,10,-;VFS: file-max limits are fine", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
	/* user space (facility 1, "<12>" written to /dev/kmsg) cannot speak for the kernel */
	classify("12,7,10,-;VFS: file-max limit 8192 reached", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
	classify("12,8,10,-;nf_conntrack: table full, dropping packet", &c);
	ASSERT_EQ(c.event, KMSG_NONE);
}

TEST(cpu_lists)
{
	struct cpuset s;
	char buf[64];

	ASSERT_EQ(procfs_cpulist_parse(P("0-3,8,10-11\n"), &s), 0);
	ASSERT_EQ(procfs_cpuset_count(&s), 7);
	ASSERT_TRUE(procfs_cpuset_has(&s, 8) && !procfs_cpuset_has(&s, 9));
	procfs_cpulist_format(&s, buf, sizeof(buf));
	ASSERT_STREQ(buf, "0-3,8,10-11");
	ASSERT_EQ(procfs_cpuset_first(&s), 0);
	ASSERT_EQ(procfs_cpulist_parse(P("3-1"), &s), -EINVAL);
	ASSERT_EQ(procfs_cpulist_parse(P("1,,2"), &s), -EINVAL);
	ASSERT_EQ(
	    procfs_status_cpus_allowed_parse(P("Name:\tx\nCpus_allowed:\t4\nCpus_allowed_list:\t2\n"
					       "Mems_allowed_list:\t0\n"),
					     &s),
	    0);
	ASSERT_EQ(procfs_cpuset_count(&s), 1);
	ASSERT_EQ(procfs_cpuset_first(&s), 2);
}

int main(void)
{
	struct unit_state st = { 0, 0 };

	RUN(&st, cpu_stat_per_cpu);
	RUN(&st, keyed_values);
	RUN(&st, meminfo_and_vmstat);
	RUN(&st, diskstats_lines);
	RUN(&st, netdev_interfaces);
	RUN(&st, snmp_and_netstat);
	RUN(&st, cgroup_cpu_files);
	RUN(&st, cgroup_memory_events);
	RUN(&st, cgroup_io_files);
	RUN(&st, kmsg_records);
	RUN(&st, kmsg_hung_task_dump);
	RUN(&st, kmsg_table_full_lines);
	RUN(&st, cpu_lists);
	UNIT_MAIN_END(&st);
}
