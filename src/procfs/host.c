#include "procfs/host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "procfs/procfs_impl.h"
#include "util/parse.h"

static void set_text(char *dst, size_t size, const char *v, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

static int meta_line(const char *line, size_t n, struct host_facts *h)
{
	const char *eq = memchr(line, '=', n);
	char num[32];
	uint64_t v;
	size_t klen, vlen;
	const char *val;

	if (!eq)
		return 0; /* blank lines and comments carry nothing */
	klen = (size_t)(eq - line);
	val = eq + 1;
	vlen = n - klen - 1;
#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(line, k, klen))
	if (KEY("sysname") || KEY("release") || KEY("nodename") || KEY("machine")) {
		char *dst = KEY("sysname")    ? h->sysname
			    : KEY("release")  ? h->release
			    : KEY("nodename") ? h->nodename
					      : h->machine;
		set_text(dst, sizeof(h->sysname), val, vlen);
		return 0;
	}
	set_text(num, sizeof(num), val, vlen);
	if (parse_u64(num, UINT64_MAX, &v))
		return 0;
	if (KEY("hz"))
		h->hz = (long)v;
	else if (KEY("pagesize"))
		h->pagesize = (long)v;
	else if (KEY("epoch"))
		h->start_time = (time_t)v;
#undef KEY
	return 0;
}

int procfs_host_meta_parse(const char *buf, size_t len, struct host_facts *h)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *lend = nl ? nl : end;

		if (*p != '#')
			meta_line(p, (size_t)(lend - p), h);
		p = lend + 1;
	}
	return h->hz > 0 && h->pagesize > 0 ? 0 : -EINVAL;
}

int procfs_host_count_cpus(const struct procfs *pf)
{
	int fd = openat(pf->root_fd, "sys/devices/system/cpu", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d)) != NULL) {
		struct stat st;

		if (strncmp(de->d_name, "cpu", 3) || de->d_name[3] < '0' || de->d_name[3] > '9')
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode))
			n++;
	}
	closedir(d);
	return n;
}

static void live_facts(struct host_facts *h)
{
	struct utsname u;

	h->hz = sysconf(_SC_CLK_TCK);
	h->pagesize = sysconf(_SC_PAGESIZE);
	if (uname(&u) == 0) {
		set_text(h->sysname, sizeof(h->sysname), u.sysname, strlen(u.sysname));
		set_text(h->release, sizeof(h->release), u.release, strlen(u.release));
		set_text(h->nodename, sizeof(h->nodename), u.nodename, strlen(u.nodename));
		set_text(h->machine, sizeof(h->machine), u.machine, strlen(u.machine));
	}
	h->start_time = time(NULL);
}

int procfs_host_facts_load(struct host_facts *h, const struct procfs *pf)
{
	char buf[4096];
	ssize_t n;

	memset(h, 0, sizeof(*h));
	n = procfs_read_root(pf, "meta", buf, sizeof(buf));
	if (n >= 0) {
		h->fixture = true;
		if (procfs_host_meta_parse(buf, (size_t)n, h))
			return -EINVAL;
	} else {
		live_facts(h);
	}
	h->ncpu = procfs_host_count_cpus(pf);
	if (h->ncpu < 0)
		h->ncpu = 0;
	return 0;
}
