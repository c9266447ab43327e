/* Safe output files (see outfile.h). */
#define _GNU_SOURCE
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far past any record's data and SQLite's lock bytes (1 GiB to 1 GiB + 512). */
#define OUTFILE_LOCK_BYTE ((off_t)1 << 46)
#define OUTFILE_PID_SPAN ((off_t)1 << 22) /* PIDs are below 2^22 (pid_max's ceiling) */

static int kind_error(mode_t mode)
{
	if (S_ISREG(mode))
		return 0;
	if (S_ISLNK(mode))
		return -ELOOP;
	if (S_ISDIR(mode))
		return -EISDIR;
	return -EINVAL;
}

int outfile_check(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return kind_error(st.st_mode);
}

const char *outfile_strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link (not followed)";
	case -EISDIR:
		return "it is a directory";
	case -EINVAL:
		return "it is not a regular file (a device, FIFO or socket)";
	case -EROFS:
		return "read-only file system";
	default:
		return strerror(-err);
	}
}

static bool is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

int outfile_open(struct outfile *o, const char *path)
{
	size_t len;
	mode_t mask;
	int fd, err;

	memset(o, 0, sizeof(*o));
	if (is_stdout(path)) {
		o->f = stdout;
		return 0;
	}
	err = outfile_check(path);
	if (err)
		return err;
	len = strlen(path) + sizeof(".tmp.XXXXXX");
	o->tmp = malloc(len);
	if (!o->tmp)
		return -ENOMEM;
	snprintf(o->tmp, len, "%s.tmp.XXXXXX", path);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		err = -errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	mask = umask(0); /* the file gets the mode open(2) would give it */
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	o->path = path;
	return 0;
}

int outfile_commit(struct outfile *o)
{
	int err = 0;

	if (!o->tmp) {
		if (o->f && fflush(o->f))
			err = -errno;
		o->f = NULL;
		return err;
	}
	if (fflush(o->f))
		err = -errno;
	if (fclose(o->f) && !err)
		err = -errno;
	o->f = NULL;
	/* checked again: something may have been put there meanwhile (rename
	 * would replace a link or node, not follow it, but we refuse those) */
	err = err ? err : outfile_check(o->path);
	if (!err && rename(o->tmp, o->path))
		err = -errno;
	if (err)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return err;
}

void outfile_abort(struct outfile *o)
{
	if (o->tmp) {
		if (o->f)
			fclose(o->f);
		unlink(o->tmp);
		free(o->tmp);
	}
	memset(o, 0, sizeof(*o));
}

int outfile_open_rw(const char *path, int *fd)
{
	struct stat before, after;
	int err = outfile_check(path), f;
	bool existed = !lstat(path, &before);

	*fd = -1;
	if (err)
		return err;
	/* O_NOFOLLOW: a link put there since the check fails (ELOOP);
	 * O_NONBLOCK: a FIFO put there does not hang the open */
	f = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
	if (f < 0)
		return -errno;
	if (fstat(f, &after)) {
		err = -errno;
	} else {
		err = kind_error(after.st_mode);
		if (!err && existed &&
		    (after.st_ino != before.st_ino || after.st_dev != before.st_dev))
			err = -EAGAIN; /* replaced between the look and the open */
	}
	if (!err && fcntl(f, F_SETFL, fcntl(f, F_GETFL) & ~O_NONBLOCK))
		err = -errno;
	if (err) {
		close(f);
		return err;
	}
	*fd = f;
	return 0;
}

/* An open-file-description lock on [start, start + len): 0 or -errno. */
static int ofd_lock(int fd, off_t start, off_t len)
{
	struct flock l = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = start, .l_len = len
	};

	return fcntl(fd, F_OFD_SETLK, &l) ? -errno : 0;
}

/*
 * OFD locks, not POSIX ones: SQLite releases its POSIX locks with an unlock
 * of the whole file, which would release ours too. An OFD lock does not
 * tell F_GETLK its holder's PID, so the holder says it by a second lock,
 * on the byte OUTFILE_LOCK_BYTE + 1 + PID.
 */
int outfile_lock(int fd, pid_t *holder)
{
	struct flock l = { .l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = OUTFILE_LOCK_BYTE + 1,
			   .l_len = OUTFILE_PID_SPAN };
	int err = ofd_lock(fd, OUTFILE_LOCK_BYTE, 1);

	*holder = 0;
	if (!err)
		return ofd_lock(fd, OUTFILE_LOCK_BYTE + 1 + getpid(), 1);
	if (err != -EAGAIN && err != -EACCES)
		return err;
	if (!fcntl(fd, F_OFD_GETLK, &l) && l.l_type != F_UNLCK)
		*holder = (pid_t)(l.l_start - OUTFILE_LOCK_BYTE - 1);
	return -EAGAIN;
}
