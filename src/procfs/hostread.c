/* Host-level readers through the procfs root (see hostread.h). */
#include "procfs/hostread.h"
#include "procfs/procfs_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* /proc/stat carries one long "intr" line: read it into a heap buffer. */
#define STAT_BUF (256 * 1024)

/* Reads a /proc file into a fresh buffer and hands it to parse. */
static int read_parse(const struct procfs *pf, const char *path, size_t size,
		      int (*parse)(const char *, size_t, void *), void *out)
{
	char *buf = malloc(size);
	ssize_t n;
	int rc;

	if (!buf)
		return -ENOMEM;
	n = procfs_read(pf, path, buf, size);
	rc = n < 0 ? (int)n : parse(buf, (size_t)n, out);
	free(buf);
	return rc;
}

static int p_cpu(const char *b, size_t n, void *o)
{
	return procfs_cpu_stat_parse(b, n, o);
}
static int p_mem(const char *b, size_t n, void *o)
{
	return procfs_meminfo_parse(b, n, o);
}
static int p_vm(const char *b, size_t n, void *o)
{
	return procfs_vmstat_parse(b, n, o);
}
static int p_disk(const char *b, size_t n, void *o)
{
	return procfs_diskstats_parse(b, n, o);
}
static int p_psi(const char *b, size_t n, void *o)
{
	return procfs_psi_parse(b, n, o);
}
static int p_load(const char *b, size_t n, void *o)
{
	return procfs_loadavg_parse(b, n, o);
}
static int p_uptime(const char *b, size_t n, void *o)
{
	return procfs_uptime_parse(b, n, o);
}
static int p_netdev(const char *b, size_t n, void *o)
{
	return procfs_netdev_parse(b, n, o);
}
static int p_snmp(const char *b, size_t n, void *o)
{
	return procfs_tcp_snmp_parse(b, n, o);
}
static int p_netstat(const char *b, size_t n, void *o)
{
	return procfs_tcp_netstat_parse(b, n, o);
}

int procfs_hostread_cpu_stat(const struct procfs *pf, struct cpu_stat *out)
{
	return read_parse(pf, "stat", STAT_BUF, p_cpu, out);
}

int procfs_hostread_meminfo(const struct procfs *pf, struct meminfo *out)
{
	return read_parse(pf, "meminfo", 16384, p_mem, out);
}

int procfs_hostread_vmstat(const struct procfs *pf, struct vmstat *out)
{
	return read_parse(pf, "vmstat", 32768, p_vm, out);
}

int procfs_hostread_diskstats(const struct procfs *pf, struct disk_stats *out)
{
	return read_parse(pf, "diskstats", 65536, p_disk, out);
}

int procfs_hostread_psi(const struct procfs *pf, const char *name, struct psi *out)
{
	char path[64];

	snprintf(path, sizeof(path), "pressure/%s", name);
	return read_parse(pf, path, 1024, p_psi, out);
}

int procfs_hostread_loadavg(const struct procfs *pf, struct loadavg *out)
{
	return read_parse(pf, "loadavg", 256, p_load, out);
}

int procfs_hostread_uptime_cs(const struct procfs *pf, uint64_t *uptime_cs)
{
	return read_parse(pf, "uptime", 256, p_uptime, uptime_cs);
}

int procfs_hostread_netdev(const struct procfs *pf, const char *dir, struct iface_stats *out)
{
	char path[64];

	snprintf(path, sizeof(path), "%s%snet/dev", dir ? dir : "", dir ? "/" : "");
	return read_parse(pf, path, 32768, p_netdev, out);
}

int procfs_hostread_tcp(const struct procfs *pf, const char *dir, struct tcp_counters *out)
{
	char path[64];
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s%snet/snmp", dir ? dir : "", dir ? "/" : "");
	rc = read_parse(pf, path, 16384, p_snmp, out);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s%snet/netstat", dir ? dir : "", dir ? "/" : "");
	(void)read_parse(pf, path, 16384, p_netstat, out); /* optional: TcpExt */
	return 0;
}

int procfs_hostread_root_file(const struct procfs *pf, const char *path, char *buf, size_t size)
{
	ssize_t n = procfs_read_root(pf, path, buf, size);

	return n < 0 ? (int)n : 0;
}

/* Each line of buf that is a record (not a "  KEY=value" continuation). */
static void each_record(char *buf, size_t len, kmsg_fn fn, void *ctx)
{
	size_t pos = 0;

	while (pos < len) {
		char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct kmsg_record r;

		if (buf[pos] != ' ' && !procfs_kmsg_record_parse(buf + pos, end - pos, &r))
			fn(ctx, &r);
		pos = end + 1;
	}
}

/* The live device: one record per read(); EAGAIN at the end; EPIPE when overwritten. */
static void read_device(int fd, kmsg_fn fn, void *ctx)
{
	char buf[8192];

	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		if (n < 0 && (errno == EINTR || errno == EPIPE))
			continue; /* EPIPE: records were lost; the next read resumes */
		if (n <= 0)
			return;
		buf[n] = '\0';
		each_record(buf, (size_t)n, fn, ctx);
	}
}

int procfs_hostread_kmsg(const struct procfs *pf, kmsg_fn fn, void *ctx)
{
	int fd = openat(pf->root_fd, "dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		char *buf = malloc(1 << 20);
		ssize_t n = buf ? procfs_read_fd(fd, buf, 1 << 20) : -ENOMEM;

		if (n > 0)
			each_record(buf, (size_t)n, fn, ctx);
		free(buf);
	} else {
		read_device(fd, fn, ctx);
	}
	close(fd);
	return 0;
}

int procfs_hostread_netns_id(const struct procfs *pf, pid_t pid, char *buf, size_t size)
{
	char path[48];
	ssize_t n;

	if (pf->proc_fd < 0 || size < 2)
		return -ENOENT;
	if (pid)
		snprintf(path, sizeof(path), "%d/ns/net", (int)pid);
	else
		snprintf(path, sizeof(path), "self/ns/net");
	n = readlinkat(pf->proc_fd, path, buf, size - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

struct walk {
	const struct procfs *pf;
	int max_depth, left;
	dir_fn fn;
	void *ctx;
};

static void walk_dir(struct walk *w, char *path, size_t size, int depth)
{
	int fd;
	DIR *d;
	struct dirent *e;
	size_t len = strlen(path);

	if (w->left-- <= 0)
		return;
	w->fn(w->ctx, path);
	if (depth >= w->max_depth)
		return;
	fd = openat(w->pf->root_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)) && w->left > 0) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		if (len + 1 + strlen(e->d_name) + 1 > size)
			continue;
		snprintf(path + len, size - len, "/%s", e->d_name);
		walk_dir(w, path, size, depth + 1);
		path[len] = '\0';
	}
	closedir(d);
}

int procfs_hostread_walk_dirs(const struct procfs *pf, const char *base, int max_depth,
			      int max_dirs, dir_fn fn, void *ctx)
{
	struct walk w = { pf, max_depth, max_dirs, fn, ctx };
	char path[512];
	struct stat st;

	if (fstatat(pf->root_fd, base, &st, 0) || !S_ISDIR(st.st_mode))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s", base);
	walk_dir(&w, path, sizeof(path), 0);
	return 0;
}
