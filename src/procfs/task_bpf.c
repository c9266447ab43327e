#include "procfs/task_bpf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#if TRIAGE_HAVE_BPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <string.h>

/* bpftool's generated light skeleton does arithmetic on void * */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpointer-arith"
#include "tasks.lskel.h"
#pragma GCC diagnostic pop
#include "tasks.skel.h"

/*
 * Two ways in, the same program. The light skeleton first: its loader
 * program does the CO-RE relocations and finds the iterator's attach
 * target in the kernel, so nothing here reads the 5 MB vmlinux BTF
 * (libbpf's loader reads and parses all of it for an iterator program,
 * even with a minimal btf_custom_path: docs/performance.md). Kernels
 * without in-kernel CO-RE (before 5.17) refuse that loader: then libbpf's.
 */
struct task_bpf {
	struct tasks_lbpf *light;
	struct tasks_bpf *skel;
	struct bpf_link *link;
	int link_fd;
	volatile __u32 *active_only;
	volatile __u64 *walked;
	char *buf;
	size_t cap;
};

static int print_nothing(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

static int open_light(struct task_bpf *b)
{
	int fd;

	b->light = tasks_lbpf__open_and_load();
	if (!b->light)
		return errno ? -errno : -EINVAL;
	fd = tasks_lbpf__dump_tasks__attach(b->light);
	if (fd <= 0)
		return fd < 0 ? fd : -EINVAL;
	b->link_fd = fd;
	b->active_only = &b->light->bss->active_only;
	b->walked = &b->light->bss->walked;
	return 0;
}

static int open_libbpf(struct task_bpf *b)
{
	libbpf_print_fn_t old = libbpf_set_print(print_nothing);
	int err = 0;

	b->skel = tasks_bpf__open_and_load();
	if (!b->skel)
		err = errno ? -errno : -EINVAL;
	if (!err && !(b->link = bpf_program__attach_iter(b->skel->progs.dump_tasks, NULL)))
		err = errno ? -errno : -EINVAL;
	libbpf_set_print(old);
	if (err)
		return err;
	b->link_fd = bpf_link__fd(b->link);
	b->active_only = &b->skel->bss->active_only;
	b->walked = &b->skel->bss->walked;
	return 0;
}

static void close_kernel_side(struct task_bpf *b)
{
	tasks_lbpf__destroy(b->light);
	bpf_link__destroy(b->link);
	tasks_bpf__destroy(b->skel);
	b->light = NULL;
	b->skel = NULL;
	b->link = NULL;
}

int procfs_task_bpf_open(struct task_bpf **out)
{
	struct task_bpf *b = calloc(1, sizeof(*b));
	int err;

	*out = NULL;
	if (!b)
		return -ENOMEM;
	/* a failed load is an answer (the next way, or the proc door), not a message */
	errno = 0;
	err = open_light(b);
	if (err) {
		close_kernel_side(b);
		errno = 0;
		err = open_libbpf(b);
	}
	if (err) {
		procfs_task_bpf_close(b);
		return err < 0 ? err : -EINVAL;
	}
	*out = b;
	return 0;
}

const char *procfs_task_bpf_loader(const struct task_bpf *b)
{
	return b->light ? "light skeleton" : "libbpf";
}

void procfs_task_bpf_close(struct task_bpf *b)
{
	if (!b)
		return;
	close_kernel_side(b);
	free(b->buf);
	free(b);
}

int procfs_task_bpf_read(struct task_bpf *b, bool active_only, struct tasks_rec **recs, size_t *n,
			 size_t *walked)
{
	uint64_t walked0 = *b->walked;
	size_t len = 0;
	ssize_t got;
	int err = 0, fd;

	*b->active_only = active_only;
	fd = bpf_iter_create(b->link_fd);
	if (fd < 0)
		return fd;
	for (;;) {
		if (b->cap - len < 64 * sizeof(struct tasks_rec)) {
			size_t cap = b->cap ? b->cap * 2 : 256 * sizeof(struct tasks_rec);
			char *p = realloc(b->buf, cap);

			if (!p) {
				close(fd);
				return -ENOMEM;
			}
			b->buf = p;
			b->cap = cap;
		}
		got = read(fd, b->buf + len, b->cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			err = -errno;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (err)
		return err;
	*recs = (struct tasks_rec *)(void *)b->buf;
	*n = len / sizeof(struct tasks_rec);
	*walked = (size_t)(*b->walked - walked0);
	return 0;
}

#else

struct task_bpf {
	int unused;
};

int procfs_task_bpf_open(struct task_bpf **out)
{
	*out = NULL;
	return -EOPNOTSUPP;
}

void procfs_task_bpf_close(struct task_bpf *b)
{
}

int procfs_task_bpf_read(struct task_bpf *b, bool active_only, struct tasks_rec **recs, size_t *n,
			 size_t *walked)
{
	return -EOPNOTSUPP;
}

const char *procfs_task_bpf_loader(const struct task_bpf *b)
{
	return "none";
}
#endif
