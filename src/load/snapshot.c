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

	snap->have_loadavg = n > 0 && loadavg_parse(buf, (size_t)n, &snap->kernel) == 0;
	for (int r = 0; r < PSI_COUNT; r++) {
		snprintf(path, sizeof(path), "pressure/%s", load_psi_resource_name(r));
		n = procfs_read(pf, path, buf, sizeof(buf));
		snap->have_psi[r] = n > 0 && psi_parse(buf, (size_t)n, &snap->psi[r]) == 0;
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
		      const struct pid_stat *st, pid_t pid, pid_t tid, struct load_task *t)
{
	struct task_cgroups cg;
	int frozen = 0;

	t->pid = pid;
	t->tid = tid;
	t->state = st->state;
	t->starttime = st->starttime;
	t->kernel_thread = pid == 2 || st->ppid == 2; /* children of kthreadd */
	snprintf(t->comm, sizeof(t->comm), "%s", st->comm);
	strcpy(t->cgroup, "?");
	if (task_read_cgroups(pf, pid, &cg) == 0) {
		snprintf(t->cgroup, sizeof(t->cgroup), "%s", cg.display);
		if (st->state == 'D')
			frozen = cgroup_is_frozen(pf, &cg);
	}
	if (st->state == 'D') {
		if (task_read_wchan(pf, pid, tid, t->wchan, sizeof(t->wchan)) < 0)
			t->wchan[0] = '\0';
		if (!opts->want_stacks || task_read_stack(pf, pid, tid, &t->stack) < 0)
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

/* Scans the threads of one process; vanished threads are skipped. */
static int scan_process(const struct procfs *pf, const struct load_scan_opts *opts, pid_t pid,
			struct id_list *tids, struct load_snapshot *snap)
{
	char path[64], buf[2048];

	/* an error here means the process exited since the listing: scan what was listed */
	if (procfs_list_tids(pf, pid, tids) == -ENOMEM)
		return -ENOMEM;
	for (size_t i = 0; i < tids->len; i++) {
		struct pid_stat st;
		struct load_task *t;
		ssize_t n;

		if (opts->stat_cache) {
			n = task_stat_cache_read(opts->stat_cache, pf, pid, tids->ids[i], buf,
						 sizeof(buf));
		} else {
			snprintf(path, sizeof(path), "%d/task/%d/stat", (int)pid,
				 (int)tids->ids[i]);
			n = procfs_read(pf, path, buf, sizeof(buf));
		}
		if (n <= 0 || pid_stat_parse(buf, (size_t)n, &st) < 0)
			continue;
		snap->threads_scanned++;
		if (st.state != 'R' && st.state != 'D')
			continue;
		t = snapshot_push(snap);
		if (!t)
			return -ENOMEM;
		fill_task(pf, opts, &st, pid, tids->ids[i], t);
		count_task(snap, t);
	}
	return 0;
}

int load_snapshot_take(const struct procfs *pf, const struct load_scan_opts *opts,
		       struct load_snapshot *snap)
{
	struct id_list pids = { 0 }, tids = { 0 };
	int err;

	memset(snap, 0, sizeof(*snap));
	read_kernel_figures(pf, snap);
	err = procfs_list_pids(pf, &pids);
	if (opts->stat_cache)
		task_stat_cache_begin(opts->stat_cache);
	for (size_t i = 0; err == 0 && i < pids.len; i++)
		if (pids.ids[i] != opts->skip_pid)
			err = scan_process(pf, opts, pids.ids[i], &tids, snap);
	if (opts->stat_cache)
		task_stat_cache_end(opts->stat_cache);
	id_list_release(&pids);
	id_list_release(&tids);
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
