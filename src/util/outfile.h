/*
 * Every file triage writes goes through here. The target is either a new
 * file or a regular file; a symbolic link (dangling or not), a directory,
 * a device node, a FIFO or a socket is refused, and links are never
 * followed, so `-o /dev/null` as root or a link planted in a shared
 * directory cannot turn a write into damage elsewhere. "-" (or no path)
 * is standard output, written in place.
 *
 * Whole-file outputs (a plot page, a flame graph) are written to a
 * temporary file in the target's directory (mkstemp: new, never a link)
 * and renamed over the target when complete: a failed run leaves the old
 * file whole and no half-written one.
 */
#ifndef TRIAGE_UTIL_OUTFILE_H
#define TRIAGE_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * 0 when path is absent or a regular file; -ELOOP for a symbolic link,
 * -EISDIR for a directory, -EINVAL for any other kind (device, FIFO,
 * socket), or lstat's -errno.
 */
int outfile_check(const char *path);

/* What an error from this module means, for a message ("is a device, FIFO or socket"). */
const char *outfile_strerror(int err);

struct outfile {
	FILE *f;	  /* write here */
	const char *path; /* the target (NULL: standard output) */
	char *tmp;	  /* the temporary file, renamed over path by outfile_commit() */
};

/* Opens path for a whole-file write ("-" or NULL: stdout). 0 or -errno. */
int outfile_open(struct outfile *o, const char *path);
/*
 * Completes the write: flushes, closes and renames the temporary into
 * place (stdout: flushed only). 0 or -errno; on error nothing is replaced.
 */
int outfile_commit(struct outfile *o);
/* Abandons the write: the temporary file goes, the target is untouched. */
void outfile_abort(struct outfile *o);

/*
 * Opens (creating, mode 0666 & ~umask) a regular file for reading and
 * writing in place, refusing what outfile_check() refuses; *fd is
 * O_CLOEXEC. 0 or -errno (-EROFS on a read-only file system).
 */
int outfile_open_rw(const char *path, int *fd);

/*
 * Takes the one-writer lock on fd's file: open-file-description locks far
 * past any file's data and SQLite's own lock bytes, held until fd is
 * closed or the process exits, whatever else closes or unlocks the file.
 * 0, or -EAGAIN with the holder's PID in *holder (0 if it could not be
 * told), or -errno.
 */
int outfile_lock(int fd, pid_t *holder);

#endif
