/*
 * Filesystems that store data and how full they are: the mounts of
 * <proc>/self/mountinfo, kept when writes land on them (block-backed,
 * tmpfs, overlay), with their statvfs figures.
 *
 * statvfs is the one figure /proc does not carry, so it comes through a
 * seam: procfs_fs_statvfs_live asks the kernel about the mount point (under the
 * root), procfs_fs_statvfs_fixture reads a fixture's table beside its proc/
 * ("statvfs": one "MOUNTPOINT FRSIZE BLOCKS BFREE BAVAIL FILES FFREE" a
 * line, the mount point escaped as in mountinfo). procfs_fs_statvfs_for() picks
 * the one that fits the root.
 *
 * Parsers are pure; readers return 0 or -errno.
 */
#ifndef TRIAGE_PROCFS_FSUSAGE_H
#define TRIAGE_PROCFS_FSUSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/procfs.h"

#define FS_MAX_MOUNTS 128
#define FS_PATH_MAX 256
#define FS_TYPE_MAX 32

/* One line of mountinfo (proc(5)), its octal escapes (\040) decoded. */
struct mount_entry {
	int id; /* the mount ID (fdinfo's mnt_id names it) */
	unsigned major, minor;
	char mnt[FS_PATH_MAX];	  /* the mount point */
	char fstype[FS_TYPE_MAX]; /* "ext4", "tmpfs", "fuse.sshfs" */
	char source[FS_PATH_MAX]; /* "/dev/vda1", "tmpfs", "overlay" */
	bool readonly;		  /* the mount or its superblock is ro */
};

struct mount_table {
	struct mount_entry m[FS_MAX_MOUNTS];
	size_t n;
};

/*
 * Every mount of a mountinfo text. Returns 0, -EINVAL on a line it cannot
 * read, -E2BIG when more than FS_MAX_MOUNTS (the first ones are kept).
 */
int procfs_mountinfo_parse(const char *buf, size_t len, struct mount_table *out);

/*
 * Whether writes to the mount can fill it: read-write, and block-backed
 * (a device number with a major, or a /dev/ source), tmpfs or overlay.
 * Not pseudo filesystems (proc, sysfs, cgroup, devtmpfs ...), not
 * read-only images (squashfs, iso9660, erofs), not network or FUSE ones
 * (whose statvfs may block on a server).
 */
bool procfs_mount_stores_data(const struct mount_entry *m);

/* What statvfs(3) says, in bytes of frsize and inode counts. */
struct fs_space {
	uint64_t frsize, blocks, bfree, bavail, files, ffree;
};

/* Per cent of the space non-root can use that is used (df's Use%); 0 when blocks is 0. */
double procfs_fs_space_used_pct(const struct fs_space *s);
/* Per cent of the inodes used; 0 when the filesystem has no inode count (files 0). */
double procfs_fs_inodes_used_pct(const struct fs_space *s);

/* The statvfs seam: figures of the mount at mnt (an absolute path as mountinfo gives it). */
typedef int (*fs_statvfs_fn)(const struct procfs *pf, const char *mnt, struct fs_space *out);

/* The kernel's statvfs of <root>/mnt. */
int procfs_fs_statvfs_live(const struct procfs *pf, const char *mnt, struct fs_space *out);
/* The line for mnt in the fixture's "statvfs" table beside its proc/ (-ENOENT if none). */
int procfs_fs_statvfs_fixture(const struct procfs *pf, const char *mnt, struct fs_space *out);
/* Pure: the line for mnt in a statvfs table text; -ENOENT when absent. */
int procfs_fs_statvfs_table_find(const char *buf, size_t len, const char *mnt,
				 struct fs_space *out);
/* procfs_fs_statvfs_fixture under a fixture root, else procfs_fs_statvfs_live. */
fs_statvfs_fn procfs_fs_statvfs_for(bool fixture);

struct fs_usage {
	struct mount_entry m;
	struct fs_space s;
};

struct fs_usages {
	struct fs_usage u[FS_MAX_MOUNTS];
	size_t n;
};

/*
 * The filesystems that store data, each once (the first mount of a
 * device: bind mounts share its figures), with their figures; a mount
 * statfn cannot read, or one with no size (ramfs), is left out. Returns 0,
 * or -errno when mountinfo cannot be read.
 */
int procfs_fsread_usage(const struct procfs *pf, fs_statvfs_fn statfn, struct fs_usages *out);

/*
 * The processes with a file open for writing on the mount with ID mnt_id
 * (fdinfo's mnt_id and flags), at most max of them into out, *n of them.
 * One look at every descriptor of every process: for when a filesystem is
 * full, not for every sample. Returns 0 or -errno when /proc cannot be listed.
 */
int procfs_fsread_writers(const struct procfs *pf, int mnt_id, pid_t *out, size_t max, size_t *n);

/* Pure: whether an fdinfo text is a file open for writing on mount mnt_id. */
bool procfs_fdinfo_writes_on(const char *buf, size_t len, int mnt_id);

#endif
