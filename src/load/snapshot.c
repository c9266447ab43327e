#include "load/snapshot.h"
#include "util/grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *load_psi_resource_name(enum psi_resource r)
{
	static const char *const names[PSI_COUNT] = { "cpu", "io", "memory" };

	return (unsigned)r < PSI_COUNT ? names[r] : "?";
}

static void read_kernel_figures(const struct procfs *pf, struct load_snapshot *snap)
{
	char buf[1024], path[32];
	ssize_t n = procfs_read(pf, "loadavg", buf, sizeof(buf));

	snap->have_loadavg = n > 0 && procfs_loadavg_parse(buf, (size_t)n, &snap->kernel) == 0;
	for (int r = 0; r < PSI_COUNT; r++) {
		snprintf(path, sizeof(path), "pressure/%s", load_psi_resource_name(r));
		n = procfs_read(pf, path, buf, sizeof(buf));
		snap->have_psi[r] = n > 0 && procfs_psi_parse(buf, (size_t)n, &snap->psi[r]) == 0;
	}
}

static struct load_task *snapshot_push(struct load_snapshot *snap)
{
	if (util_grow(&snap->tasks, &snap->cap, snap->ntasks + 1, sizeof(*snap->tasks)))
		return NULL;
	memset(&snap->tasks[snap->ntasks], 0, sizeof(snap->tasks[0]));
	return &snap->tasks[snap->ntasks++];
}

void load_task_judge(struct load_task *t, int frozen)
{
	if (t->state != 'D') {
		t->why.reason = D_NONE;
		t->why.frame[0] = '\0';
		t->counts = t->state == 'R';
		return;
	}
	load_dreason_classify(t->wchan, &t->stack, &t->why);
	/*
	 * Frozen tasks are reported as D (TASK_FROZEN is shown as
	 * uninterruptible) but the kernel does not count them. A task frozen
	 * in place keeps its old wchan, so the cgroup's freezer state decides.
	 */
	t->frozen = frozen > 0 || t->why.reason == D_FREEZER;
	if (t->frozen)
		t->why.reason = D_FREEZER;
	t->counts = !t->frozen;
}

static void fill_task(const struct procfs *pf, const struct load_scan_opts *opts,
		      const struct task_sample *ts, struct load_task *t)
{
	struct task_cgroups cg;
	pid_t pid = ts->tgid, tid = ts->tid;
	int frozen = 0;

	t->pid = pid;
	t->tid = tid;
	t->state = ts->state;
	t->starttime = ts->starttime;
	t->kernel_thread = pid == 2 || ts->ppid == 2; /* children of kthreadd */
	snprintf(t->comm, sizeof(t->comm), "%s", ts->comm);
	strcpy(t->cgroup, "?");
	if (procfs_task_read_cgroups(pf, pid, &cg) == 0) {
		snprintf(t->cgroup, sizeof(t->cgroup), "%s", cg.display);
		if (ts->state == 'D')
			frozen = procfs_cgroup_is_frozen(pf, &cg);
	}
	if (ts->state == 'D') {
		if (procfs_task_read_wchan(pf, pid, tid, t->wchan, sizeof(t->wchan)) < 0)
			t->wchan[0] = '\0';
		if (!opts->want_stacks || procfs_task_read_stack(pf, pid, tid, &t->stack) < 0)
			t->stack.nframes = 0;
	}
	load_task_judge(t, frozen);
}

static void count_task(struct load_snapshot *snap, const struct load_task *t)
{
	if (t->state == 'R')
		snap->n_runnable++;
	else if (t->frozen)
		snap->n_frozen++;
	else
		snap->n_d_counted++;
	if (t->state == 'D')
		snap->reason_count[t->why.reason]++;
	if (t->stack.nframes)
		snap->stacks_readable = true;
}

int load_snapshot_take(const struct procfs *pf, const struct load_scan_opts *opts,
		       struct load_snapshot *snap)
{
	const struct task_set *set = opts->set;
	int err;

	memset(snap, 0, sizeof(*snap));
	read_kernel_figures(pf, snap);
	err = procfs_task_source_scan(opts->tasks, opts->set, opts->skip_pid);
	snap->threads_scanned = err ? 0 : (unsigned)set->scanned;
	for (size_t i = 0; err == 0 && i < set->len; i++) {
		const struct task_sample *ts = &set->v[set->order[i]];
		struct load_task *t;

		if (ts->state != 'R' && ts->state != 'D')
			continue;
		t = snapshot_push(snap);
		if (!t) {
			err = -ENOMEM;
			break;
		}
		fill_task(pf, opts, ts, t);
		count_task(snap, t);
	}
	if (err < 0)
		load_snapshot_release(snap);
	return err;
}

void load_snapshot_release(struct load_snapshot *snap)
{
	free(snap->tasks);
	snap->tasks = NULL;
	snap->ntasks = snap->cap = 0;
}
