#include "procfs/kept.h"

#include <errno.h>
#include <unistd.h>

#include "procfs/procfs.h"

bool procfs_fd_budget_take(struct procfs_fd_budget *b)
{
	if (b->left <= 0)
		return false;
	b->left--;
	return true;
}

void procfs_kept_close(int *fd, struct procfs_fd_budget *b)
{
	if (*fd >= 0) {
		close(*fd);
		b->left++;
	}
	*fd = -1;
}

ssize_t procfs_kept_reread(int *fd, struct procfs_fd_budget *b, char *buf, size_t size)
{
	ssize_t n;

	if (*fd < 0)
		return -EBADF;
	n = procfs_reread_fd(*fd, buf, size);
	if (n < 0)
		procfs_kept_close(fd, b);
	return n;
}

void procfs_kept_keep(int *slot, int fd, struct procfs_fd_budget *b)
{
	if (procfs_fd_budget_take(b))
		*slot = fd;
	else
		close(fd);
}
