/* Zombies by parent and futex waiters (see taskwait.h). */
#include "procfs/taskwait.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "procfs/task_info.h"

static int by_zombies(const void *a, const void *b)
{
	const struct zombie_parent *x = a, *y = b;

	if (x->zombies != y->zombies)
		return x->zombies < y->zombies ? 1 : -1;
	return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

/* Counts zombies per parent into a table as long as the set (every parent fits). */
static size_t count_parents(const struct task_set *set, struct zombie_parent *all)
{
	size_t n = 0;

	for (size_t i = 0; i < set->len; i++) {
		const struct task_sample *t = &set->v[i];
		size_t k;

		/* a leader that exited while its other threads run is not a zombie to reap */
		if (!(t->flags & TS_LEADER) || t->state != 'Z' || t->nthreads > 1)
			continue;
		for (k = 0; k < n && all[k].ppid != t->ppid; k++)
			;
		if (k == n)
			all[n++] = (struct zombie_parent){ .ppid = t->ppid };
		all[k].zombies++;
	}
	return n;
}

int procfs_task_zombies_by_parent(const struct task_set *set, struct zombie_parent *out, size_t max,
				  size_t *n)
{
	struct zombie_parent *all;
	size_t parents;

	*n = 0;
	if (!set->len)
		return 0;
	if (!(all = calloc(set->len, sizeof(*all))))
		return -ENOMEM;
	parents = count_parents(set, all);
	qsort(all, parents, sizeof(*all), by_zombies);
	for (size_t i = 0; i < parents && *n < max; i++) {
		const struct task_sample *p = procfs_task_set_find(set, all[i].ppid, all[i].ppid);

		out[*n] = all[i];
		if (p)
			snprintf(out[*n].comm, sizeof(out[*n].comm), "%s", p->comm);
		(*n)++;
	}
	free(all);
	return 0;
}

static bool is_futex_nr(long nr)
{
#ifdef SYS_futex
	if (nr == SYS_futex)
		return true;
#endif
#ifdef SYS_futex_time64
	if (nr == SYS_futex_time64)
		return true;
#endif
#ifdef SYS_futex_waitv
	if (nr == SYS_futex_waitv)
		return true;
#endif
#ifdef SYS_futex_wait
	if (nr == SYS_futex_wait)
		return true;
#endif
	return false;
}

/*
 * The first space-separated field of buf from *at into field (cut to its
 * size); *at moves past it. Returns the field's length.
 */
static size_t next_field(const char *buf, size_t len, size_t *at, char *field, size_t size)
{
	size_t n = 0;

	while (*at < len && buf[*at] == ' ')
		++*at;
	for (; *at < len && buf[*at] != ' ' && buf[*at] != '\n'; ++*at)
		if (n + 1 < size)
			field[n++] = buf[*at];
	field[n] = '\0';
	return n;
}

int procfs_syscall_is_futex_wait(const char *buf, size_t len)
{
	char word[24];
	size_t at = 0, n = next_field(buf, len, &at, word, sizeof(word));
	char *e;
	long nr;

	if (!strcmp(word, "running"))
		return 0;
	nr = strtol(word, &e, 10);
	if (!n || *e)
		return -EINVAL;
	return is_futex_nr(nr) ? 1 : 0; /* -1: blocked, but in no syscall */
}

bool procfs_wchan_is_futex(const char *wchan)
{
	return !strncmp(wchan, "futex_wait", 10) || !strcmp(wchan, "futex_do_wait");
}

/* A wait on one word: futex(2) in any of its forms, or futex_wait(2); not futex_waitv. */
static bool is_one_word_wait(long nr)
{
#ifdef SYS_futex_waitv
	if (nr == SYS_futex_waitv)
		return false;
#endif
	return is_futex_nr(nr);
}

int procfs_syscall_futex_word(const char *buf, size_t len, uint64_t *word)
{
	char field[24];
	size_t at = 0;
	char *e;
	long nr;

	if (!next_field(buf, len, &at, field, sizeof(field)))
		return 0;
	nr = strtol(field, &e, 10);
	if (*e || !is_one_word_wait(nr) || !next_field(buf, len, &at, field, sizeof(field)))
		return 0;
	*word = strtoull(field, &e, 16);
	return !*e;
}

/*
 * 1 when tid waits in a futex (with its word in *word, or 0 when only
 * wchan says so), 0 when not, -errno when neither file can be read.
 */
static int thread_in_futex(const struct procfs *pf, pid_t pid, pid_t tid, uint64_t *word)
{
	char path[64], buf[256];
	ssize_t n;

	*word = 0;
	snprintf(path, sizeof(path), "%d/task/%d/syscall", (int)pid, (int)tid);
	n = procfs_read(pf, path, buf, sizeof(buf));
	if (n > 0) {
		int rc = procfs_syscall_is_futex_wait(buf, (size_t)n);

		if (rc == 1 && !procfs_syscall_futex_word(buf, (size_t)n, word))
			*word = 0;
		if (rc >= 0)
			return rc;
	}
	n = procfs_task_read_wchan(pf, pid, tid, buf, sizeof(buf));
	return n < 0 ? (int)n : procfs_wchan_is_futex(buf);
}

static int by_word(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The most entries of words[0..n) (none 0) that are equal. Sorts words. */
static unsigned most_on_one_word(uint64_t *words, size_t n)
{
	unsigned best = 0, run = 0;

	if (n > 1)
		qsort(words, n, sizeof(*words), by_word);
	for (size_t i = 0; i < n; i++) {
		run = i && words[i] == words[i - 1] ? run + 1 : 1;
		if (run > best)
			best = run;
	}
	return best;
}

int procfs_task_read_futex_waiters(const struct procfs *pf, pid_t pid, struct futex_waiters *out)
{
	struct id_list tids = { 0 };
	int rc = procfs_list_tids(pf, pid, &tids);
	uint64_t *words = NULL;
	size_t nwords = 0;

	memset(out, 0, sizeof(*out));
	if (!rc && tids.len && !(words = calloc(tids.len, sizeof(*words))))
		rc = -ENOMEM;
	if (rc) {
		procfs_id_list_release(&tids);
		return rc;
	}
	for (size_t i = 0; i < tids.len; i++) {
		uint64_t word;
		int w = thread_in_futex(pf, pid, tids.ids[i], &word);

		if (w < 0)
			continue; /* gone since the listing */
		out->threads++;
		out->waiting += (unsigned)w;
		if (w && word)
			words[nwords++] = word;
		else if (w)
			out->no_word++;
	}
	out->same_word = most_on_one_word(words, nwords);
	free(words);
	procfs_id_list_release(&tids);
	return 0;
}
