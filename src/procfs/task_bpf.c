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

#include "tasks.skel.h"

struct task_bpf {
	struct tasks_bpf *skel;
	struct bpf_link *link, *active;
	char *buf;
	size_t cap;
};

static int print_nothing(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int task_bpf_open(struct task_bpf **out)
{
	struct task_bpf *b = calloc(1, sizeof(*b));
	libbpf_print_fn_t old;
	int err = 0;

	*out = NULL;
	if (!b)
		return -ENOMEM;
	/* a failed load is an answer (the proc door), not a message */
	old = libbpf_set_print(print_nothing);
	b->skel = tasks_bpf__open();
	if (!b->skel)
		err = errno ? -errno : -EINVAL;
	if (!err)
		err = tasks_bpf__load(b->skel);
	if (!err) {
		b->link = bpf_program__attach_iter(b->skel->progs.dump_tasks, NULL);
		if (b->link)
			b->active = bpf_program__attach_iter(b->skel->progs.dump_active, NULL);
		if (!b->link || !b->active)
			err = errno ? -errno : -EINVAL;
	}
	libbpf_set_print(old);
	if (err) {
		task_bpf_close(b);
		return err < 0 ? err : -EINVAL;
	}
	*out = b;
	return 0;
}

void task_bpf_close(struct task_bpf *b)
{
	if (!b)
		return;
	bpf_link__destroy(b->active);
	bpf_link__destroy(b->link);
	tasks_bpf__destroy(b->skel);
	free(b->buf);
	free(b);
}

int task_bpf_read(struct task_bpf *b, bool active_only, struct tasks_rec **recs, size_t *n,
		  size_t *walked)
{
	uint64_t walked0 = b->skel->bss->walked;
	int fd = bpf_iter_create(bpf_link__fd(active_only ? b->active : b->link));
	size_t len = 0;
	ssize_t got;
	int err = 0;

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
	*walked = active_only ? (size_t)(b->skel->bss->walked - walked0) : *n;
	return 0;
}

#else

struct task_bpf {
	int unused;
};

int task_bpf_open(struct task_bpf **out)
{
	*out = NULL;
	return -EOPNOTSUPP;
}

void task_bpf_close(struct task_bpf *b)
{
}

int task_bpf_read(struct task_bpf *b, bool active_only, struct tasks_rec **recs, size_t *n,
		  size_t *walked)
{
	return -EOPNOTSUPP;
}
#endif
