/* Filesystems that store data, and their statvfs figures (see fsusage.h). */
#define _GNU_SOURCE
#include "procfs/fsusage.h"
#include "procfs/procfs_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "util/inplace.h"

/* A cursor over one line of a buffer that need not be NUL-terminated. */
struct cur {
	const char *p, *end;
};

/* The next space-separated word, octal escapes decoded, into buf (cut at size - 1). */
static bool next_word(struct cur *c, char *buf, size_t size)
{
	size_t n = 0;

	while (c->p < c->end && *c->p == ' ')
		c->p++;
	if (c->p >= c->end)
		return false;
	while (c->p < c->end && *c->p != ' ') {
		char ch = *c->p++;

		if (ch == '\\' && c->end - c->p >= 3 && c->p[0] >= '0' && c->p[0] <= '3' &&
		    c->p[1] >= '0' && c->p[1] <= '7' && c->p[2] >= '0' && c->p[2] <= '7') {
			ch = (char)((c->p[0] - '0') << 6 | (c->p[1] - '0') << 3 | (c->p[2] - '0'));
			c->p += 3;
		}
		if (n + 1 < size)
			buf[n++] = ch;
	}
	buf[n] = '\0';
	return true;
}

/* Whether a comma-separated option list holds "ro". */
static bool opts_readonly(const char *opts)
{
	size_t n = strlen(opts);

	return (n >= 2 && !strncmp(opts, "ro", 2) && (n == 2 || opts[2] == ',')) ||
	       strstr(opts, ",ro,") || (n >= 3 && !strcmp(opts + n - 3, ",ro"));
}

static int mount_line(struct cur *c, struct mount_entry *m)
{
	char w[FS_PATH_MAX];
	unsigned maj, min;

	memset(m, 0, sizeof(*m));
	/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL ...] - FSTYPE SOURCE SUPER */
	if (!next_word(c, w, sizeof(w)) || sscanf(w, "%d", &m->id) != 1 ||
	    !next_word(c, w, sizeof(w)) || !next_word(c, w, sizeof(w)) ||
	    sscanf(w, "%u:%u", &maj, &min) != 2 || !next_word(c, w, sizeof(w)) ||
	    !next_word(c, m->mnt, sizeof(m->mnt)) || !next_word(c, w, sizeof(w)))
		return -EINVAL;
	m->major = maj;
	m->minor = min;
	m->readonly = opts_readonly(w);
	do
		if (!next_word(c, w, sizeof(w)))
			return -EINVAL;
	while (strcmp(w, "-"));
	if (!next_word(c, m->fstype, sizeof(m->fstype)) ||
	    !next_word(c, m->source, sizeof(m->source)))
		return -EINVAL;
	if (next_word(c, w, sizeof(w)) && opts_readonly(w))
		m->readonly = true;
	return 0;
}

int procfs_mountinfo_parse(const char *buf, size_t len, struct mount_table *out)
{
	const char *p = buf, *end = buf + len;

	out->n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct cur c = { p, nl ? nl : end };

		p = nl ? nl + 1 : end;
		if (c.p == c.end)
			continue;
		if (out->n >= FS_MAX_MOUNTS)
			return -E2BIG;
		if (mount_line(&c, &out->m[out->n]))
			return -EINVAL;
		out->n++;
	}
	return 0;
}

static bool in_list(const char *s, const char (*list)[12])
{
	for (; (*list)[0]; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

bool procfs_mount_stores_data(const struct mount_entry *m)
{
	STRINGS_IN_PLACE
	static const char always[][12] = { "tmpfs", "overlay", "" };
	/* Never filled by writes, or asking them may block (network, FUSE). */
	static const char never[][12] = {
		"proc",	     "sysfs",	"cgroup",   "cgroup2",	"devtmpfs",
		"devpts",    "mqueue",	"debugfs",  "tracefs",	"securityfs",
		"pstore",    "bpf",	"configfs", "fusectl",	"hugetlbfs",
		"autofs",    "nsfs",	"ramfs",    "efivarfs", "binfmt_misc",
		"squashfs",  "iso9660", "erofs",    "nfs",	"nfs4",
		"cifs",	     "smb3",	"9p",	    "ceph",	"rpc_pipefs",
		"selinuxfs", "fuse",	"virtiofs", ""
	};
	STRINGS_IN_PLACE_END

	if (m->readonly || in_list(m->fstype, never) || !strncmp(m->fstype, "fuse.", 5))
		return false;
	if (in_list(m->fstype, always))
		return true;
	return m->major != 0 || !strncmp(m->source, "/dev/", 5);
}

double procfs_fs_space_used_pct(const struct fs_space *s)
{
	uint64_t used = s->blocks >= s->bfree ? s->blocks - s->bfree : 0;

	if (!s->blocks || used + s->bavail == 0)
		return 0;
	return 100.0 * (double)used / (double)(used + s->bavail);
}

double procfs_fs_inodes_used_pct(const struct fs_space *s)
{
	if (!s->files)
		return 0;
	return 100.0 * (double)(s->files - (s->ffree < s->files ? s->ffree : s->files)) /
	       (double)s->files;
}

int procfs_fs_statvfs_live(const struct procfs *pf, const char *mnt, struct fs_space *out)
{
	struct statvfs v;
	int fd, rc;

	while (*mnt == '/')
		mnt++;
	fd = openat(pf->root_fd, *mnt ? mnt : ".", O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = fstatvfs(fd, &v) ? -errno : 0;
	close(fd);
	if (rc)
		return rc;
	*out = (struct fs_space){ v.f_frsize ? v.f_frsize : v.f_bsize,
				  v.f_blocks,
				  v.f_bfree,
				  v.f_bavail,
				  v.f_files,
				  v.f_ffree };
	return 0;
}

int procfs_fs_statvfs_table_find(const char *buf, size_t len, const char *mnt, struct fs_space *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct cur c = { p, nl ? nl : end };
		char w[FS_PATH_MAX], num[6][24];
		uint64_t *f[6] = { &out->frsize, &out->blocks, &out->bfree,
				   &out->bavail, &out->files,  &out->ffree };
		int i;

		p = nl ? nl + 1 : end;
		if (!next_word(&c, w, sizeof(w)) || strcmp(w, mnt))
			continue;
		for (i = 0; i < 6 && next_word(&c, num[i], sizeof(num[i])); i++) {
			char *e;

			*f[i] = strtoull(num[i], &e, 10);
			if (*e || e == num[i])
				return -EINVAL;
		}
		return i == 6 ? 0 : -EINVAL;
	}
	return -ENOENT;
}

int procfs_fs_statvfs_fixture(const struct procfs *pf, const char *mnt, struct fs_space *out)
{
	char buf[16384];
	ssize_t n = procfs_read(pf, "../statvfs", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return procfs_fs_statvfs_table_find(buf, (size_t)n, mnt, out);
}

fs_statvfs_fn procfs_fs_statvfs_for(bool fixture)
{
	return fixture ? procfs_fs_statvfs_fixture : procfs_fs_statvfs_live;
}

static bool seen_device(const struct fs_usages *out, const struct mount_entry *m)
{
	for (size_t i = 0; i < out->n; i++)
		if (out->u[i].m.major == m->major && out->u[i].m.minor == m->minor)
			return true;
	return false;
}

int procfs_fsread_usage(const struct procfs *pf, fs_statvfs_fn statfn, struct fs_usages *out)
{
	struct mount_table *t = malloc(sizeof(*t));
	char *buf = malloc(1 << 18);
	ssize_t n;
	int rc;

	out->n = 0;
	if (!t || !buf) {
		free(t);
		free(buf);
		return -ENOMEM;
	}
	n = procfs_read(pf, "self/mountinfo", buf, 1 << 18);
	rc = n < 0 ? (int)n : procfs_mountinfo_parse(buf, (size_t)n, t);
	if (rc == -E2BIG)
		rc = 0; /* the first FS_MAX_MOUNTS mounts are kept */
	for (size_t i = 0; !rc && i < t->n; i++) {
		struct fs_usage *u = &out->u[out->n];

		if (!procfs_mount_stores_data(&t->m[i]) || seen_device(out, &t->m[i]))
			continue;
		if (statfn(pf, t->m[i].mnt, &u->s) || !u->s.blocks)
			continue;
		u->m = t->m[i];
		out->n++;
	}
	free(buf);
	free(t);
	return rc;
}

bool procfs_fdinfo_writes_on(const char *buf, size_t len, int mnt_id)
{
	char text[512];
	const char *f, *m;
	unsigned long flags;
	int id;

	if (len >= sizeof(text))
		len = sizeof(text) - 1;
	memcpy(text, buf, len);
	text[len] = '\0';
	if (!(f = strstr(text, "flags:")) || sscanf(f + 6, "%lo", &flags) != 1 ||
	    !(m = strstr(text, "mnt_id:")) || sscanf(m + 7, "%d", &id) != 1)
		return false;
	return id == mnt_id && (flags & O_ACCMODE) != O_RDONLY;
}

/* Whether pid has a descriptor open for writing on mnt_id. */
static bool writes_on(const struct procfs *pf, pid_t pid, int mnt_id)
{
	char path[48], buf[512];
	bool found = false;
	struct dirent *e;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), "%d/fdinfo", (int)pid);
	if ((fd = procfs_openat(pf, path, O_RDONLY | O_DIRECTORY)) < 0)
		return false;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return false;
	}
	while (!found && (e = readdir(d))) {
		ssize_t n;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		n = procfs_read_at(fd, e->d_name, buf, sizeof(buf));
		found = n > 0 && procfs_fdinfo_writes_on(buf, (size_t)n, mnt_id);
	}
	closedir(d);
	return found;
}

int procfs_fsread_writers(const struct procfs *pf, int mnt_id, pid_t *out, size_t max, size_t *n)
{
	struct id_list pids = { 0 };
	int rc = procfs_list_pids(pf, &pids);

	*n = 0;
	for (size_t i = 0; !rc && i < pids.len && *n < max; i++)
		if (writes_on(pf, pids.ids[i], mnt_id))
			out[(*n)++] = pids.ids[i];
	procfs_id_list_release(&pids);
	return rc;
}
