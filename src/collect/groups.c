/* Process groups with monotonic counters (see groups.h). */
#include "collect/groups.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procfs/task_info.h"
#include "util/grow.h"
#include "util/kmerge.h"

enum { C_UTIME, C_STIME, C_WTIME, C_NVCSW, C_NIVCSW, C_READ, C_WRITE, NCTR };

struct group {
	char name[COLLECT_LABEL_MAX];
	uint64_t c[NCTR];
	uint64_t rss_kb;
	unsigned threads, procs;
};

/* A process seen in the last sample. */
struct seen {
	pid_t pid;
	uint64_t start;
	uint64_t c[NCTR];
	size_t group;
};

struct group_table {
	enum group_by by;
	const struct procfs *pf;
	double hz;
	struct group *g;
	size_t ng, capg;
	struct kmerge seen; /* struct seen by pid: the last sample's; this one's, as it is read */
	size_t *order;
	size_t caporder;
};

int group_table_new(struct group_table **out, enum group_by by, const struct procfs *pf, double hz)
{
	struct group_table *gt = calloc(1, sizeof(*gt));

	if (!gt)
		return -ENOMEM;
	gt->by = by;
	gt->pf = pf;
	gt->hz = hz > 0 ? hz : 100;
	kmerge_init(&gt->seen, sizeof(struct seen));
	*out = gt;
	return 0;
}

void group_table_free(struct group_table *gt)
{
	if (!gt)
		return;
	free(gt->g);
	kmerge_release(&gt->seen);
	free(gt->order);
	free(gt);
}

static void group_name(const struct group_table *gt, const struct proc_row *r, char *out,
		       size_t size)
{
	struct task_cgroups cg;

	switch (gt->by) {
	case GROUP_PID:
		snprintf(out, size, "%s/%d", r->comm, (int)r->pid);
		return;
	case GROUP_CGROUP:
		if (procfs_task_read_cgroups(gt->pf, r->pid, &cg))
			memset(&cg, 0, sizeof(cg)); /* gone, or unreadable: the root */
		snprintf(out, size, "%s", procfs_task_cgroups_cpu_path(&cg));
		return;
	default:
		snprintf(out, size, "%s", r->comm);
	}
}

static int group_find(struct group_table *gt, const char *name, size_t *idx)
{
	for (size_t i = 0; i < gt->ng; i++)
		if (!strcmp(gt->g[i].name, name)) {
			*idx = i;
			return 0;
		}
	if (util_grow(&gt->g, &gt->capg, gt->ng + 1, sizeof(*gt->g)))
		return -ENOMEM;
	memset(&gt->g[gt->ng], 0, sizeof(gt->g[0]));
	snprintf(gt->g[gt->ng].name, sizeof(gt->g[0].name), "%s", name);
	*idx = gt->ng++;
	return 0;
}

void group_table_begin(struct group_table *gt)
{
	for (size_t i = 0; i < gt->ng; i++) {
		gt->g[i].rss_kb = 0;
		gt->g[i].threads = gt->g[i].procs = 0;
	}
	kmerge_begin(&gt->seen);
}

static int seen_cmp(const void *entry, const void *key)
{
	pid_t a = ((const struct seen *)entry)->pid, b = *(const pid_t *)key;

	return (a > b) - (a < b);
}

int group_table_add(void *ctx, const struct proc_row *r)
{
	struct group_table *gt = ctx;
	const uint64_t c[NCTR] = { r->utime,  r->stime,	     r->wtime,	    r->nvcsw,
				   r->nivcsw, r->read_bytes, r->write_bytes };
	const struct seen *prev = NULL;
	struct seen *s;
	struct group *g;

	while (kmerge_pass(&gt->seen, &r->pid, seen_cmp))
		; /* processes gone since the last sample */
	prev = kmerge_take(&gt->seen, &r->pid, seen_cmp);
	if (prev && prev->start != r->start)
		prev = NULL; /* its pid reused */
	s = kmerge_push(&gt->seen);
	if (!s)
		return -ENOMEM;
	s->pid = r->pid;
	s->start = r->start;
	memcpy(s->c, c, sizeof(c));
	if (prev) {
		s->group = prev->group;
	} else {
		char name[COLLECT_LABEL_MAX];
		int rc;

		group_name(gt, r, name, sizeof(name));
		rc = group_find(gt, name, &s->group);
		if (rc)
			return rc;
	}
	g = &gt->g[s->group];
	for (int k = 0; k < NCTR; k++) /* a new process brings its whole total */
		g->c[k] += !prev ? c[k] : c[k] > prev->c[k] ? c[k] - prev->c[k] : 0;
	g->rss_kb += r->rss_kb;
	g->threads += r->nthreads;
	g->procs++;
	return 0;
}

static uint64_t group_cpu(const struct group *g)
{
	return g->c[C_UTIME] + g->c[C_STIME];
}

/* Keeps the table bounded: forgets groups with no process left once it is full. */
static void group_table_prune(struct group_table *gt)
{
	size_t *map, n = 0;

	if (gt->ng <= GROUPS_KEEP)
		return;
	map = malloc(gt->ng * sizeof(*map));
	if (!map)
		return;
	for (size_t i = 0; i < gt->ng; i++) {
		map[i] = n;
		if (gt->g[i].procs)
			gt->g[n++] = gt->g[i];
	}
	for (size_t i = 0; i < gt->seen.nlast; i++) { /* the sample just swapped in */
		struct seen *s = kmerge_at(&gt->seen, i);

		s->group = map[s->group];
	}
	gt->ng = n;
	free(map);
}

/* Top N by CPU seconds: a partial selection over the live groups. */
static size_t select_top(struct group_table *gt, unsigned top)
{
	size_t n = 0;

	for (size_t i = 0; i < gt->ng; i++)
		if (gt->g[i].procs)
			gt->order[n++] = i;
	for (size_t k = 0; k < n && k < top; k++) {
		size_t best = k;

		for (size_t i = k + 1; i < n; i++) {
			const struct group *a = &gt->g[gt->order[i]], *b = &gt->g[gt->order[best]];

			if (group_cpu(a) > group_cpu(b) ||
			    (group_cpu(a) == group_cpu(b) && strcmp(a->name, b->name) < 0))
				best = i;
		}
		size_t t = gt->order[k];
		gt->order[k] = gt->order[best];
		gt->order[best] = t;
	}
	return n < top ? n : top;
}

static int group_metrics(const struct group *g, double hz, struct metric_set *m)
{
	const char *n = g->name;
	int rc = metric_add(m, M_PROC_CPU, n, "user", (double)g->c[C_UTIME] / hz);

	rc = rc ? rc : metric_add(m, M_PROC_CPU, n, "system", (double)g->c[C_STIME] / hz);
	rc = rc ? rc : metric_add(m, M_PROC_CTXSW, n, "voluntary", (double)g->c[C_NVCSW]);
	rc = rc ? rc : metric_add(m, M_PROC_CTXSW, n, "involuntary", (double)g->c[C_NIVCSW]);
	rc = rc ? rc : metric_add(m, M_PROC_RUNQ, n, NULL, (double)g->c[C_WTIME] / hz);
	rc = rc ? rc : metric_add(m, M_PROC_RSS, n, NULL, (double)g->rss_kb * 1024);
	rc = rc ? rc : metric_add(m, M_PROC_READ_BYTES, n, NULL, (double)g->c[C_READ]);
	rc = rc ? rc : metric_add(m, M_PROC_WRITTEN_BYTES, n, NULL, (double)g->c[C_WRITE]);
	rc = rc ? rc : metric_add(m, M_PROC_THREADS, n, NULL, g->threads);
	return rc ? rc : metric_add(m, M_PROC_PROCS, n, NULL, g->procs);
}

int group_table_metrics(struct group_table *gt, unsigned top, struct metric_set *m)
{
	size_t n;
	int rc = 0;

	kmerge_end(&gt->seen); /* this sample's processes are the next one's start */
	group_table_prune(gt);
	if (util_grow(&gt->order, &gt->caporder, gt->ng + 1, sizeof(*gt->order)))
		return -ENOMEM;
	n = select_top(gt, top);
	for (size_t k = 0; k < n && !rc; k++)
		rc = group_metrics(&gt->g[gt->order[k]], gt->hz, m);
	return rc;
}
