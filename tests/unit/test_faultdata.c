/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * The data layer for the report's fault kinds (issue 28): filesystems
 * and their fill, limits and how close things are to them, UDP drops,
 * accept queues, softnet and softirqs, zombies by parent, futex waiters.
 * Pure parsers on texts in the kernel's formats; readers on the fixture
 * tree tests/fixtures/faults (a live-style root: proc/, sys/, statvfs);
 * and where the kernel itself is the oracle (a listener's backlog, our
 * own descriptors, the root filesystem's statvfs), against it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <unistd.h>

#include "procfs/fsusage.h"
#include "procfs/hoststats.h"
#include "procfs/limits.h"
#include "procfs/netq.h"
#include "procfs/procfs.h"
#include "procfs/softirqs.h"
#include "procfs/taskwait.h"
#include "procfs/task_info.h"
#include "unit.h"

#define P(s) (s), strlen(s)
#define FIXTURE "tests/fixtures/faults"

static struct procfs *fixture(void)
{
	struct procfs *pf = NULL;

	return procfs_open(&pf, FIXTURE) ? NULL : pf;
}

TEST(mountinfo_lines)
{
	static struct mount_table t;
	const char *mi = "26 1 254:1 / / rw,relatime shared:1 master:2 - ext4 /dev/vda1 rw\n"
			 "37 26 8:33 / /mnt/with\\040space ro,relatime - xfs /dev/sdc1 rw\n"
			 "38 26 0:52 / /run/x rw - tmpfs tmpfs ro,size=4k\n";

	ASSERT_EQ(procfs_mountinfo_parse(P(mi), &t), 0);
	ASSERT_EQ(t.n, 3);
	ASSERT_EQ(t.m[0].id, 26);
	ASSERT_EQ(t.m[0].major, 254);
	ASSERT_EQ(t.m[0].minor, 1);
	ASSERT_STREQ(t.m[0].mnt, "/");
	ASSERT_STREQ(t.m[0].fstype, "ext4");
	ASSERT_STREQ(t.m[0].source, "/dev/vda1");
	ASSERT_TRUE(!t.m[0].readonly);
	ASSERT_STREQ(t.m[1].mnt, "/mnt/with space");
	ASSERT_TRUE(t.m[1].readonly); /* the mount's own options */
	ASSERT_TRUE(t.m[2].readonly); /* the superblock's */
	ASSERT_EQ(procfs_mountinfo_parse(P("26 1 254:1 / / rw\n"), &t), -EINVAL); /* no " - " */
	ASSERT_EQ(procfs_mountinfo_parse(P("26 1 x / / rw - ext4 /dev/a rw\n"), &t), -EINVAL);
}

TEST(which_mounts_store_data)
{
	struct mount_entry m = { .major = 8, .minor = 1, .fstype = "ext4", .source = "/dev/sda1" };

	ASSERT_TRUE(procfs_mount_stores_data(&m));
	m.readonly = true;
	ASSERT_TRUE(!procfs_mount_stores_data(&m));
	m = (struct mount_entry){ .major = 0, .fstype = "tmpfs", .source = "tmpfs" };
	ASSERT_TRUE(procfs_mount_stores_data(&m));
	m = (struct mount_entry){ .major = 0, .fstype = "btrfs", .source = "/dev/sdd" };
	ASSERT_TRUE(procfs_mount_stores_data(&m)); /* anonymous device number, real device */
	m = (struct mount_entry){ .major = 7, .fstype = "squashfs", .source = "/dev/loop0" };
	ASSERT_TRUE(!procfs_mount_stores_data(&m));
	m = (struct mount_entry){ .major = 0, .fstype = "cgroup2", .source = "cgroup2" };
	ASSERT_TRUE(!procfs_mount_stores_data(&m));
	m = (struct mount_entry){ .major = 0, .fstype = "fuse.sshfs", .source = "me@h:/" };
	ASSERT_TRUE(!procfs_mount_stores_data(&m));
	m = (struct mount_entry){ .major = 0, .fstype = "nfs4", .source = "server:/home" };
	ASSERT_TRUE(!procfs_mount_stores_data(&m));
}

TEST(space_and_inode_percentages)
{
	/* df: used 940000 of the 950000 blocks non-root can have */
	struct fs_space s = { 4096, 1000000, 60000, 10000, 655360, 600000 };

	ASSERT_NEAR(procfs_fs_space_used_pct(&s), 100.0 * 940000 / 950000, 1e-9);
	ASSERT_NEAR(procfs_fs_inodes_used_pct(&s), 100.0 * 55360 / 655360, 1e-9);
	s = (struct fs_space){ 4096, 256, 0, 0, 0, 0 };
	ASSERT_NEAR(procfs_fs_space_used_pct(&s), 100, 1e-9);
	ASSERT_NEAR(procfs_fs_inodes_used_pct(&s), 0, 1e-9); /* no inode count (btrfs) */
	s = (struct fs_space){ 0 };
	ASSERT_NEAR(procfs_fs_space_used_pct(&s), 0, 1e-9);
}

TEST(fixture_filesystems)
{
	static struct fs_usages u;
	struct procfs *pf = fixture();

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_fsread_usage(pf, procfs_fs_statvfs_for(true), &u), 0);
	procfs_close(pf);
	/* not: proc, sysfs, cgroup2, squashfs, ro ext4, the bind mount of /, nfs4,
	 * sshfs, a ro tmpfs, devtmpfs, btrfs with no size, ext4 with no figures */
	ASSERT_EQ(u.n, 4);
	ASSERT_STREQ(u.u[0].m.mnt, "/");
	ASSERT_UEQ(u.u[0].s.bavail, 10000);
	ASSERT_STREQ(u.u[1].m.mnt, "/dev/shm");
	ASSERT_NEAR(procfs_fs_space_used_pct(&u.u[1].s), 100, 1e-9);
	ASSERT_STREQ(u.u[2].m.fstype, "overlay");
	ASSERT_NEAR(procfs_fs_inodes_used_pct(&u.u[2].s), 99, 1e-9);
	ASSERT_STREQ(u.u[3].m.mnt, "/mnt/with space");
	ASSERT_STREQ(u.u[3].m.source, "/dev/sdc1");
}

TEST(fixture_writers)
{
	struct procfs *pf = fixture();
	pid_t w[4];
	size_t n;

	ASSERT_TRUE(pf);
	/* 4410 has fd 0 read-only and fd 4 O_WRONLY|O_APPEND on mount 26 */
	ASSERT_EQ(procfs_fsread_writers(pf, 26, w, 4, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_EQ(w[0], 4410);
	/* 4411 has fd 7 O_RDWR on mount 29 */
	ASSERT_EQ(procfs_fsread_writers(pf, 29, w, 4, &n), 0);
	ASSERT_EQ(n, 1);
	ASSERT_EQ(w[0], 4411);
	ASSERT_EQ(procfs_fsread_writers(pf, 31, w, 4, &n), 0);
	ASSERT_EQ(n, 0);
	procfs_close(pf);
	ASSERT_TRUE(!procfs_fdinfo_writes_on(P("pos: 0\nflags: 0100000\nmnt_id: 26\n"), 26));
	ASSERT_TRUE(procfs_fdinfo_writes_on(P("pos: 0\nflags: 0100002\nmnt_id: 26\n"), 26));
	ASSERT_TRUE(!procfs_fdinfo_writes_on(P("pos: 0\nflags: 0100002\nmnt_id: 27\n"), 26));
	ASSERT_TRUE(!procfs_fdinfo_writes_on(P("pos: 0\n"), 26));
}

/* Our own file open for writing on the filesystem of /tmp: known behaviour is the oracle. */
TEST(live_writers)
{
	static struct mount_table t;
	struct procfs *pf = NULL;
	char path[] = "/tmp/triage-faultdata.XXXXXX", buf[1 << 16];
	int fd = mkstemp(path), id = -1;
	static pid_t w[1 << 16]; /* every process: most hold something writable on "/" */
	size_t n = 0;
	ssize_t len;
	bool mine = false;

	ASSERT_TRUE(fd >= 0);
	unlink(path);
	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	snprintf(buf, sizeof(buf), "self/fdinfo/%d", fd);
	len = procfs_read(pf, buf, buf, sizeof(buf));
	if (len > 0) {
		const char *m = strstr(buf, "mnt_id:");

		id = m ? atoi(m + 7) : -1;
	}
	if (id >= 0)
		(void)procfs_fsread_writers(pf, id, w, sizeof(w) / sizeof(w[0]), &n);
	len = procfs_read(pf, "self/mountinfo", buf, sizeof(buf));
	procfs_close(pf);
	close(fd);
	ASSERT_TRUE(id >= 0);
	for (size_t i = 0; i < n; i++)
		mine |= w[i] == getpid();
	ASSERT_TRUE(mine);
	ASSERT_TRUE(len > 0);
	ASSERT_TRUE(procfs_mountinfo_parse(buf, (size_t)len, &t) == 0 || t.n == FS_MAX_MOUNTS);
	mine = false;
	for (size_t i = 0; i < t.n; i++)
		mine |= t.m[i].id == id;
	ASSERT_TRUE(mine); /* fdinfo's mnt_id is mountinfo's first field */
}

/* The kernel's statvfs is the oracle for the live root filesystem. */
TEST(live_root_filesystem)
{
	static struct fs_usages u;
	struct procfs *pf = NULL;
	struct statvfs v;
	size_t i;

	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	ASSERT_EQ(procfs_fsread_usage(pf, procfs_fs_statvfs_for(false), &u), 0);
	procfs_close(pf);
	ASSERT_EQ(statvfs("/", &v), 0);
	for (i = 0; i < u.n && strcmp(u.u[i].m.mnt, "/"); i++)
		;
	if (i == u.n)
		return; /* "/" is read-only or not a data filesystem here */
	ASSERT_UEQ(u.u[i].s.blocks, v.f_blocks);
	ASSERT_UEQ(u.u[i].s.files, v.f_files);
	for (size_t k = 0; k < u.n; k++)
		ASSERT_TRUE(procfs_mount_stores_data(&u.u[k].m) && u.u[k].s.blocks > 0);
}

TEST(limit_values)
{
	uint64_t v, soft, hard;
	struct file_handles fh;

	ASSERT_EQ(procfs_limit_value_parse(P("max\n"), &v), 0);
	ASSERT_UEQ(v, LIMIT_NONE);
	ASSERT_EQ(procfs_limit_value_parse(P("4194304\n"), &v), 0);
	ASSERT_UEQ(v, 4194304);
	ASSERT_EQ(procfs_limit_value_parse(P("12 x\n"), &v), -EINVAL);
	ASSERT_EQ(procfs_limit_value_parse(P(""), &v), -EINVAL);
	ASSERT_EQ(procfs_file_nr_parse(P("1181\t0\t2466235\n"), &fh), 0);
	ASSERT_UEQ(fh.allocated, 1181);
	ASSERT_UEQ(fh.max, 2466235);
	ASSERT_EQ(procfs_limits_nofile_parse(
		      P("Max processes 5 5 processes\n"
			"Max open files            1024                 4096 files\n"),
		      &soft, &hard),
		  0);
	ASSERT_UEQ(soft, 1024);
	ASSERT_UEQ(hard, 4096);
	ASSERT_EQ(procfs_limits_nofile_parse(P("Max processes 5 5 processes\n"), &soft, &hard),
		  -ENOENT);
}

TEST(fixture_limits)
{
	struct procfs *pf = fixture();
	struct file_handles fh;
	struct task_caps tc;
	struct conntrack_fill ct;
	struct cg_pids cp;
	struct fd_usage fu;

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_limits_read_file_handles(pf, &fh), 0);
	ASSERT_UEQ(fh.allocated, 9500);
	ASSERT_UEQ(fh.max, 10000);
	ASSERT_EQ(procfs_limits_read_task_caps(pf, &tc), 0);
	ASSERT_UEQ(tc.pid_max, 32768);
	ASSERT_UEQ(tc.threads_max, 1000);
	ASSERT_EQ(procfs_limits_read_conntrack(pf, &ct), 0);
	ASSERT_UEQ(ct.count, 262000);
	ASSERT_UEQ(ct.max, 262144);
	ASSERT_EQ(procfs_limits_read_cg_pids(pf, "sys/fs/cgroup/pids/app", &cp), 0);
	ASSERT_UEQ(cp.current, 95);
	ASSERT_UEQ(cp.max, 100);
	ASSERT_EQ(procfs_limits_read_cg_pids(pf, "sys/fs/cgroup/unified/svc", &cp), 0);
	ASSERT_UEQ(cp.max, LIMIT_NONE);
	ASSERT_EQ(procfs_limits_read_cg_pids(pf, "sys/fs/cgroup/pids/none", &cp), -ENOENT);
	ASSERT_EQ(procfs_limits_read_fd_usage(pf, 4410, &fu), 0);
	ASSERT_EQ(fu.open, 5);
	ASSERT_UEQ(fu.soft, 1024);
	ASSERT_UEQ(fu.hard, 524288);
	ASSERT_EQ(procfs_limits_read_fd_usage(pf, 4411, &fu), 0);
	ASSERT_EQ(fu.open, 2);
	ASSERT_UEQ(fu.soft, LIMIT_NONE);
	ASSERT_EQ(procfs_limits_read_fd_usage(pf, 4999, &fu), -ENOENT);
	procfs_close(pf);
}

/* Our own descriptors, counted by listing /proc/self/fd, are the oracle. */
TEST(live_fd_usage)
{
	struct procfs *pf = NULL;
	struct fd_usage fu;
	struct rlimit rl;
	int fds[20], listed;

	for (int i = 0; i < 20; i++)
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	listed = procfs_count_fds(pf, "self/fd");
	ASSERT_EQ(procfs_limits_read_fd_usage(pf, getpid(), &fu), 0);
	procfs_close(pf);
	for (int i = 0; i < 20; i++)
		close(fds[i]);
	ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ASSERT_UEQ(fu.soft, rl.rlim_cur == RLIM_INFINITY ? LIMIT_NONE : rl.rlim_cur);
	/* the listing held one more descriptor (its own directory) than we do */
	ASSERT_TRUE(fu.open >= 20);
	ASSERT_TRUE((int)fu.open == listed || (int)fu.open == listed - 1);
}

TEST(cgroup_paths)
{
	/* the one /proc/PID/cgroup parser, as limits.c and memlimit.c use it */
	const char *cg =
	    "12:pids:/app\n5:cpu,cpuacct:/batch\n7:blkio:/throttled/r\n0::/user.slice\n";
	struct task_cgroups t;

	ASSERT_EQ(procfs_task_cgroups_parse(P(cg), &t), 0);
	ASSERT_TRUE(t.has_v1[CGC_IO]);
	ASSERT_STREQ(t.v1[CGC_IO], "/throttled/r");
	ASSERT_TRUE(t.has_v1[CGC_CPU]); /* "cpu,cpuacct": cpu in a comma list */
	ASSERT_STREQ(t.v1[CGC_CPU], "/batch");
	ASSERT_TRUE(t.has_unified);
	ASSERT_STREQ(t.unified, "/user.slice");
	ASSERT_TRUE(!t.has_v1[CGC_MEMORY]);
	ASSERT_TRUE(!t.has_v1[CGC_CPUSET]); /* "cpu" is not "cpuset" */
	ASSERT_EQ(procfs_task_cgroups_parse("junk\n", 5, &t), -EINVAL);
}

TEST(io_limit_texts)
{
	struct io_limits l = { 0 };

	ASSERT_EQ(
	    procfs_io_max_parse(P("8:0 rbps=1048576 wbps=max riops=max wiops=120 future=1\n"), &l),
	    0);
	ASSERT_EQ(l.n, 1);
	ASSERT_TRUE(l.v2);
	ASSERT_UEQ(l.l[0].rbps, 1048576);
	ASSERT_UEQ(l.l[0].wbps, LIMIT_NONE);
	ASSERT_UEQ(l.l[0].wiops, 120);
	ASSERT_EQ(procfs_io_max_parse(P("8:0 rbps=\n"), &l), -EINVAL);
	l.n = 0;
	ASSERT_EQ(procfs_blkio_throttle_parse(P("7:0 65536\n8:16 100\n"), BLKIO_RBPS, &l), 0);
	ASSERT_EQ(procfs_blkio_throttle_parse(P("7:0 9\n"), BLKIO_WIOPS, &l), 0);
	ASSERT_EQ(l.n, 2);
	ASSERT_TRUE(!l.v2);
	ASSERT_UEQ(l.l[0].rbps, 65536);
	ASSERT_UEQ(l.l[0].wiops, 9);
	ASSERT_UEQ(l.l[0].wbps, LIMIT_NONE);
	ASSERT_EQ(l.l[1].major, 8);
	ASSERT_EQ(l.l[1].minor, 16);
}

TEST(fixture_io_limits)
{
	struct procfs *pf = fixture();
	struct io_limits l;

	ASSERT_TRUE(pf);
	/* v1: the reader's own blkio cgroup sets nothing, its parent does */
	ASSERT_EQ(procfs_limits_read_io(pf, 4410, &l), 0);
	ASSERT_EQ(l.n, 1);
	ASSERT_TRUE(!l.v2);
	ASSERT_STREQ(l.cgroup, "/throttled");
	ASSERT_UEQ(l.l[0].rbps, 65536);
	ASSERT_UEQ(l.l[0].wiops, 100);
	/* v2: io.max of the parent of /svc/db */
	ASSERT_EQ(procfs_limits_read_io(pf, 4420, &l), 0);
	ASSERT_EQ(l.n, 2);
	ASSERT_TRUE(l.v2);
	ASSERT_STREQ(l.cgroup, "/svc");
	ASSERT_UEQ(l.l[1].wbps, 2097152);
	/* no limit anywhere */
	ASSERT_EQ(procfs_limits_read_io(pf, 4411, &l), -ENOENT); /* no cgroup file */
	procfs_close(pf);
}

TEST(fixture_udp)
{
	struct procfs *pf = fixture();
	struct net_socks s = { 0 };
	struct udp_counters c;
	struct id_list pids = { 0 };
	uint64_t inodes[3] = { 31337, 31338, 77 };
	pid_t owners[3];

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_netread_udp_socks(pf, NULL, &s), 0);
	ASSERT_EQ(s.n, 3);
	ASSERT_STREQ(s.v[0].addr, "0.0.0.0");
	ASSERT_EQ(s.v[0].port, 12345);
	ASSERT_UEQ(s.v[0].inode, 31337);
	ASSERT_UEQ(s.v[0].drops, 2270000);
	ASSERT_UEQ(s.v[0].rx_queue, 0x1100);
	ASSERT_EQ(s.v[0].uid, 1000);
	ASSERT_STREQ(s.v[1].addr, "127.0.0.1");
	ASSERT_TRUE(s.v[2].v6);
	ASSERT_STREQ(s.v[2].addr, "::1");
	ASSERT_EQ(s.v[2].port, 514);
	ASSERT_UEQ(s.v[2].drops, 17);
	s.n = 0;
	/* another namespace, through a PID in it: v4 only, no udp6 there */
	ASSERT_EQ(procfs_netread_udp_socks(pf, "4410", &s), 0);
	ASSERT_EQ(s.n, 1);
	ASSERT_STREQ(s.v[0].addr, "10.0.0.1");
	ASSERT_UEQ(s.v[0].drops, 42);
	ASSERT_EQ(procfs_netread_udp_counters(pf, NULL, &c), 0);
	ASSERT_TRUE(c.has_v4 && c.has_v6);
	ASSERT_UEQ(c.rcvbuf_errors, 2270000);
	ASSERT_UEQ(c.in_errors, 2270004); /* Udp:, not UdpLite: */
	ASSERT_UEQ(c.rcvbuf_errors6, 17);
	ASSERT_UEQ(c.in_errors6, 17);
	ASSERT_EQ(procfs_netread_udp_counters(pf, "4410", &c), 0);
	ASSERT_TRUE(c.has_v4 && !c.has_v6);
	ASSERT_UEQ(c.rcvbuf_errors, 42);
	/* the owners, from the processes' descriptors */
	ASSERT_EQ(procfs_socket_owners(pf, NULL, inodes, 3, owners), 0);
	ASSERT_EQ(owners[0], 4410);
	ASSERT_EQ(owners[1], 4410); /* 4411 holds it too: the first PID wins */
	ASSERT_EQ(owners[2], 0);
	ASSERT_EQ(procfs_list_pids(pf, &pids), 0);
	pids.ids[0] = 4411; /* only 4411 */
	pids.len = 1;
	ASSERT_EQ(procfs_socket_owners(pf, &pids, inodes, 3, owners), 0);
	ASSERT_EQ(owners[0], 0);
	ASSERT_EQ(owners[1], 4411);
	procfs_id_list_release(&pids);
	procfs_net_socks_release(&s);
	procfs_close(pf);
}

TEST(fixture_tcp_listeners)
{
	struct procfs *pf = fixture();
	struct net_socks s = { 0 };

	ASSERT_TRUE(pf);
	/* not a kernel /proc: the listeners of /proc/net/tcp, queue without backlog */
	ASSERT_EQ(procfs_netread_tcp_listeners(pf, 0, &s), 0);
	ASSERT_EQ(s.n, 2);
	ASSERT_STREQ(s.v[0].addr, "127.0.0.1");
	ASSERT_EQ(s.v[0].port, 8080);
	ASSERT_UEQ(s.v[0].rx_queue, 2);
	ASSERT_TRUE(!s.v[0].has_backlog);
	ASSERT_EQ(s.v[1].port, 22);
	procfs_net_socks_release(&s);
	procfs_close(pf);
}

/* The listener on port among s's IPv4 sockets, or NULL. */
static const struct net_sock *listener_on(const struct net_socks *s, unsigned port)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].port == port && !s->v[i].v6)
			return &s->v[i];
	return NULL;
}

/* Reads our namespace's listeners both ways: sock_diag into s, /proc/net/tcp into p. */
static int read_both(struct net_socks *s, struct net_socks *p)
{
	struct procfs *pf = NULL;
	char buf[1 << 16];
	ssize_t n;
	int rc;

	s->n = p->n = 0;
	if ((rc = procfs_open(&pf, "/")))
		return rc;
	rc = procfs_netread_tcp_listeners(pf, 0, s);
	n = procfs_read(pf, "net/tcp", buf, sizeof(buf));
	procfs_close(pf);
	if (rc || n < 0)
		return rc ? rc : (int)n;
	return procfs_net_socks_parse(buf, (size_t)n, false, true, p);
}

/*
 * A listener with backlog 1 that never accepts, and three clients: the
 * kernel completes handshakes until the accept queue holds backlog + 1
 * (two), then drops the third's SYNs. sock_diag must say backlog 1 and
 * the queue /proc/net/tcp shows.
 */
TEST(live_listener_backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	struct net_socks s = { 0 }, p = { 0 };
	const struct net_sock *mine = NULL, *proc = NULL;
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), c[3];
	unsigned port;

	ASSERT_TRUE(l >= 0);
	ASSERT_EQ(bind(l, (struct sockaddr *)&a, sizeof(a)), 0);
	ASSERT_EQ(listen(l, 1), 0);
	ASSERT_EQ(getsockname(l, (struct sockaddr *)&a, &alen), 0);
	port = ntohs(a.sin_port);
	for (int i = 0; i < 3; i++) {
		c[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		(void)connect(c[i], (struct sockaddr *)&a, sizeof(a));
	}
	/* the first two clients see their handshake done; the server's side follows */
	for (int i = 0; i < 2; i++) {
		struct pollfd pfd = { c[i], POLLOUT, 0 };

		(void)poll(&pfd, 1, 5000);
	}
	for (int tries = 0; tries < 500; tries++) {
		if (read_both(&s, &p))
			break;
		mine = listener_on(&s, port);
		proc = listener_on(&p, port);
		if (mine && proc && mine->rx_queue >= 2 && proc->rx_queue >= 2)
			break;
		usleep(10000); /* until the server has queued both */
	}
	for (int i = 0; i < 3; i++)
		close(c[i]);
	close(l);
	ASSERT_TRUE(mine && proc);
	ASSERT_TRUE(mine->has_backlog);
	ASSERT_UEQ(mine->backlog, 1);
	ASSERT_UEQ(mine->rx_queue, 2); /* full: sk_ack_backlog > sk_max_ack_backlog */
	ASSERT_UEQ(proc->rx_queue, 2);
	ASSERT_UEQ(mine->inode, proc->inode);
	procfs_net_socks_release(&s);
	procfs_net_socks_release(&p);
}

TEST(inet_diag_errors)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} m = { { sizeof(m), NLMSG_ERROR, 0, 1, 0 }, { -EPERM, { 0 } } };
	struct nlmsghdr done = { sizeof(done), NLMSG_DONE, 0, 1, 0 };
	struct net_socks s = { 0 };

	ASSERT_EQ(procfs_inet_diag_reply_parse(&m, sizeof(m), &s), -EPERM);
	ASSERT_EQ(procfs_inet_diag_reply_parse(&done, sizeof(done), &s), 1);
	m.h.nlmsg_type = SOCK_DIAG_BY_FAMILY; /* shorter than an inet_diag_msg */
	ASSERT_EQ(procfs_inet_diag_reply_parse(&m, sizeof(m), &s), -EPROTO);
	ASSERT_EQ(s.n, 0);
}

TEST(fixture_softnet)
{
	struct procfs *pf = fixture();
	static struct softnet sn;

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_netread_softnet(pf, &sn), 0);
	procfs_close(pf);
	ASSERT_EQ(sn.n, 2);
	ASSERT_EQ(sn.c[1].cpu, 2); /* CPU 1 offline: the column, not the line */
	ASSERT_UEQ(sn.c[1].dropped, 500);
	ASSERT_UEQ(sn.c[1].time_squeeze, 16);
	ASSERT_UEQ(sn.c[0].processed, 0xa3f1);
	/* an old kernel's 10 columns: numbered by line */
	ASSERT_EQ(procfs_softnet_parse(P("00000001 00000002 00000003 0 0 0 0 0 0 0\n"
					 "00000004 00000005 00000006 0 0 0 0 0 0 0\n"),
				       &sn),
		  0);
	ASSERT_EQ(sn.c[1].cpu, 1);
	ASSERT_UEQ(sn.c[1].dropped, 5);
	ASSERT_EQ(procfs_softnet_parse(P("zz\n"), &sn), -EINVAL);
}

TEST(softirq_deltas)
{
	struct procfs *pf = fixture();
	static struct softirqs a, b;
	const char *later =
	    "      CPU0       CPU2\n"
	    "  HI:  1 0\n TIMER: 100100 90100\n NET_TX: 10 3\n"
	    " NET_RX: 5001 9500000\n BLOCK: 20 30\n IRQ_POLL: 0 0\n"
	    " TASKLET: 4 5\n SCHED: 80000 70200\n HRTIMER: 0 1\n RCU: 60000 50000\n";
	uint64_t runs;

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_softirqs_read(pf, &a), 0);
	procfs_close(pf);
	ASSERT_EQ(a.nvec, 10);
	ASSERT_EQ(a.ncols, 2);
	ASSERT_EQ(a.cpu_id[1], 2);
	ASSERT_STREQ(a.name[3], "NET_RX");
	ASSERT_UEQ(a.count[3][1], 9000000);
	ASSERT_EQ(procfs_softirqs_parse(P(later), &b), 0);
	ASSERT_EQ(procfs_softirqs_top_vector(&a, &b, 2, &runs), 3); /* NET_RX on CPU 2 */
	ASSERT_UEQ(runs, 500000);
	ASSERT_EQ(procfs_softirqs_top_vector(&a, &b, 0, &runs), 1); /* TIMER on CPU 0 */
	ASSERT_UEQ(runs, 100);
	ASSERT_EQ(procfs_softirqs_top_vector(&a, &b, 1, &runs), -1); /* no such CPU */
	ASSERT_EQ(procfs_softirqs_parse(P("HI: 1 2\n"), &b), -EINVAL);
}

TEST(fork_counter)
{
	static struct cpu_stat s;

	ASSERT_EQ(procfs_cpu_stat_parse(P("cpu  1 2 3 4\ncpu0 1 2 3 4\nctxt 9\nbtime 1\n"
					  "processes 123456\nprocs_running 2\n"),
					&s),
		  0);
	ASSERT_UEQ(s.forks, 123456);
}

static void add_task(struct task_set *s, pid_t tid, pid_t tgid, pid_t ppid, char state,
		     unsigned nthreads, const char *comm)
{
	struct task_sample *t = &s->v[s->len];

	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	t->ppid = ppid;
	t->state = state;
	t->nthreads = nthreads;
	t->flags = tid == tgid ? TS_LEADER : 0;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	s->order[s->len] = (uint32_t)s->len;
	s->len++;
}

TEST(zombies_by_parent)
{
	struct task_sample v[16];
	uint32_t order[16];
	struct task_set s = { .v = v, .order = order, .cap = 16, .cap_order = 16 };
	struct zombie_parent z[4];
	size_t n;

	/* in the set's order: by process, its leader first */
	add_task(&s, 900, 900, 1, 'S', 1, "cron");
	add_task(&s, 4410, 4410, 1, 'S', 1, "supervisor");
	for (pid_t p = 5000; p < 5005; p++)
		add_task(&s, p, p, 4410, 'Z', 1, "worker");
	add_task(&s, 6000, 6000, 900, 'Z', 1, "job");
	add_task(&s, 6001, 6001, 900, 'Z', 1, "job");
	add_task(&s, 6002, 6002, 900, 'Z', 3, "job");	   /* its threads still run */
	add_task(&s, 6003, 6002, 900, 'Z', 3, "job");	   /* not a leader */
	add_task(&s, 7000, 7000, 12345, 'Z', 1, "orphan"); /* parent not sampled */
	ASSERT_EQ(procfs_task_zombies_by_parent(&s, z, 4, &n), 0);
	ASSERT_EQ(n, 3);
	ASSERT_EQ(z[0].ppid, 4410);
	ASSERT_EQ(z[0].zombies, 5);
	ASSERT_STREQ(z[0].comm, "supervisor");
	ASSERT_EQ(z[1].ppid, 900);
	ASSERT_EQ(z[1].zombies, 2);
	ASSERT_STREQ(z[1].comm, "cron");
	ASSERT_EQ(z[2].ppid, 12345);
	ASSERT_STREQ(z[2].comm, "");
	ASSERT_EQ(procfs_task_zombies_by_parent(&s, z, 1, &n), 0);
	ASSERT_EQ(n, 1);
	s.len = 0;
	ASSERT_EQ(procfs_task_zombies_by_parent(&s, z, 4, &n), 0);
	ASSERT_EQ(n, 0);
}

/*
 * Our own unreaped children, through the task source (both doors where the
 * bpf one loads): known behaviour is the oracle, three zombies under us.
 */
static int live_zombies(enum task_door door, unsigned *found, bool *named)
{
	struct procfs *pf = NULL;
	struct task_source *src = NULL;
	struct task_set set = { 0 };
	struct zombie_parent z[8];
	size_t n = 0;
	int rc = procfs_open(&pf, "/");

	if (!rc)
		rc = procfs_task_source_open(&src, pf, false, door, TASK_WANT_STATUS, 0);
	if (!rc)
		rc = procfs_task_source_scan(src, &set, 0);
	if (!rc)
		rc = procfs_task_zombies_by_parent(&set, z, 8, &n);
	*found = 0;
	*named = false;
	for (size_t i = 0; !rc && i < n; i++)
		if (z[i].ppid == getpid()) {
			*found = z[i].zombies;
			*named = !strncmp(z[i].comm, "test_faultdata", 14);
		}
	procfs_task_set_release(&set);
	procfs_task_source_close(src);
	procfs_close(pf);
	return rc;
}

TEST(live_zombies_by_parent)
{
	pid_t kids[3];
	unsigned found = 0;
	bool named = false;
	int rc;

	for (int i = 0; i < 3; i++) {
		siginfo_t si;

		if ((kids[i] = fork()) == 0)
			_exit(0);
		ASSERT_TRUE(kids[i] > 0);
		ASSERT_EQ(waitid(P_PID, (id_t)kids[i], &si, WEXITED | WNOWAIT), 0);
	}
	rc = live_zombies(TASK_DOOR_PROC, &found, &named);
	if (!rc && found == 3 && named) {
		rc = live_zombies(TASK_DOOR_BPF, &found, &named);
		if (rc == -EPERM || rc == -EOPNOTSUPP || rc == -ENOENT || rc == -ENOSYS) {
			printf("note: the bpf door is not here (%s)\n", strerror(-rc));
			rc = 0; /* the proc door's figures stand */
		}
	}
	for (int i = 0; i < 3; i++)
		waitpid(kids[i], NULL, 0);
	ASSERT_EQ(rc, 0);
	ASSERT_EQ(found, 3);
	ASSERT_TRUE(named);
}

struct held {
	pthread_mutex_t lock;
};

static void *wait_for_lock(void *arg)
{
	struct held *h = arg;

	pthread_mutex_lock(&h->lock);
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Four threads blocked on a mutex we hold: known behaviour is the oracle. */
TEST(live_futex_waiters)
{
	struct held h = { PTHREAD_MUTEX_INITIALIZER };
	struct procfs *pf = NULL;
	struct futex_waiters w = { 0 };
	pthread_t t[4];

	pthread_mutex_lock(&h.lock);
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(pthread_create(&t[i], NULL, wait_for_lock, &h), 0);
	ASSERT_EQ(procfs_open(&pf, "/"), 0);
	/* until all four have reached the futex (a thread starts in its own time) */
	for (int tries = 0; tries < 500; tries++) {
		if (procfs_task_read_futex_waiters(pf, getpid(), &w) || w.waiting >= 4)
			break;
		usleep(10000);
	}
	procfs_close(pf);
	pthread_mutex_unlock(&h.lock);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	ASSERT_EQ(w.threads, 5);
	ASSERT_EQ(w.waiting, 4);   /* not us: we are reading files */
	ASSERT_EQ(w.same_word, 4); /* all queued on h.lock's word */
	ASSERT_EQ(w.no_word, 0);
}

TEST(futex_texts)
{
	char text[64];
	uint64_t word = 0;

	snprintf(text, sizeof(text), "%ld 0x7f12a0001000 0x80 0x2\n", (long)SYS_futex);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P(text)), 1);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P("running\n")), 0);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P("-1 0x7ffd1c0 0x7f12a3c4\n")), 0);
	snprintf(text, sizeof(text), "%ld 0x3 0x0\n", (long)SYS_read);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P(text)), 0);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P("x1\n")), -EINVAL);
	snprintf(text, sizeof(text), "%ld 0x7f12a0001000 0x80 0x2\n", (long)SYS_futex);
	ASSERT_EQ(procfs_syscall_futex_word(P(text), &word), 1);
	ASSERT_TRUE(word == 0x7f12a0001000ull);
	ASSERT_EQ(procfs_syscall_futex_word(P("running\n"), &word), 0);
	snprintf(text, sizeof(text), "%ld 0x3 0x0\n", (long)SYS_read);
	ASSERT_EQ(procfs_syscall_futex_word(P(text), &word), 0);
	snprintf(text, sizeof(text), "%ld\n", (long)SYS_futex);
	ASSERT_EQ(procfs_syscall_futex_word(P(text), &word), 0); /* no argument */
#ifdef SYS_futex_waitv
	snprintf(text, sizeof(text), "%ld 0x7f12a0001000 0x2 0x0\n", (long)SYS_futex_waitv);
	ASSERT_EQ(procfs_syscall_is_futex_wait(P(text)), 1);
	ASSERT_EQ(procfs_syscall_futex_word(P(text), &word), 0); /* several words */
#endif
	ASSERT_TRUE(procfs_wchan_is_futex("futex_wait_queue"));
	ASSERT_TRUE(procfs_wchan_is_futex("futex_wait_queue_me"));
	ASSERT_TRUE(!procfs_wchan_is_futex("do_epoll_wait"));
	ASSERT_TRUE(!procfs_wchan_is_futex(""));
}

TEST(fixture_futex_waiters)
{
	struct procfs *pf = fixture();
	struct futex_waiters w, none;

	ASSERT_TRUE(pf);
	ASSERT_EQ(procfs_task_read_futex_waiters(pf, 4430, &w), 0);
	ASSERT_EQ(procfs_task_read_futex_waiters(pf, 4999, &none), -ENOENT);
	procfs_close(pf);
#if defined(__x86_64__)
	/* 4430 in futex (202, x86-64's), 4431 running, 4432 unreadable syscall
	 * but wchan futex_wait_queue, 4433 blocked outside any syscall */
	ASSERT_EQ(w.threads, 4);
	ASSERT_EQ(w.waiting, 2);
	ASSERT_EQ(w.same_word, 1); /* 4430's word */
	ASSERT_EQ(w.no_word, 1);   /* 4432: wchan only */
#endif
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, mountinfo_lines);
	RUN(&st, which_mounts_store_data);
	RUN(&st, space_and_inode_percentages);
	RUN(&st, fixture_filesystems);
	RUN(&st, live_root_filesystem);
	RUN(&st, fixture_writers);
	RUN(&st, live_writers);
	RUN(&st, limit_values);
	RUN(&st, fixture_limits);
	RUN(&st, live_fd_usage);
	RUN(&st, cgroup_paths);
	RUN(&st, io_limit_texts);
	RUN(&st, fixture_io_limits);
	RUN(&st, fixture_udp);
	RUN(&st, fixture_tcp_listeners);
	RUN(&st, live_listener_backlog);
	RUN(&st, inet_diag_errors);
	RUN(&st, fixture_softnet);
	RUN(&st, softirq_deltas);
	RUN(&st, fork_counter);
	RUN(&st, zombies_by_parent);
	RUN(&st, live_zombies_by_parent);
	RUN(&st, live_futex_waiters);
	RUN(&st, futex_texts);
	RUN(&st, fixture_futex_waiters);
	UNIT_MAIN_END(&st);
}
