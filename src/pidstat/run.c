/* Setting up and tearing down a run's state from options and environment. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pidstat/pidstat.h"
#include "util/json.h"

static int log2_kb(long pagesize)
{
	int shift = 0;

	for (long kb = pagesize >> 10; kb > 1; kb >>= 1)
		shift++;
	return shift;
}

static void compile_filters(struct pidstat_run *r, const struct pidstat_opts *o)
{
	/* an invalid regex hides every task, silently, as in sysstat */
	if (o->comm_re)
		r->comm_re_ok = !regcomp(&r->comm_re, o->comm_re, REG_EXTENDED | REG_NOSUB);
	if (o->proc_re)
		r->proc_re_ok = !regcomp(&r->proc_re, o->proc_re, REG_EXTENDED | REG_NOSUB);
}

/* Taskstats and the bpf door serve the live host only: a --root tree has no kernel behind it. */
static bool live_host(const struct pidstat_run *r)
{
	const char *root = r->opts->root;

	return !r->host->fixture && (!root || !strcmp(root, "/"));
}

/* /proc files the proc door reads per task for o's activities. */
static unsigned files_per_task(const struct pidstat_opts *o)
{
	unsigned act = o->act;

	return 1 + !!(act & ACT_CPU) + !!(act & (ACT_CTXSW | ACT_STACK)) + !!(act & ACT_IO);
}

/* The listed processes' threads (-t), from their stat; a few stand for many. */
static size_t listed_tasks(const struct pidstat_opts *o, const struct procfs *pf)
{
	size_t n = o->npids < 64 ? o->npids : 64, tasks = 0;

	if (!o->threads)
		return o->npids;
	for (size_t i = 0; i < n; i++) {
		char path[32], buf[1024];
		struct pid_stat st;
		ssize_t len;

		snprintf(path, sizeof(path), "%d/stat", (int)o->pids[i]);
		len = procfs_read(pf, path, buf, sizeof(buf));
		tasks +=
		    len > 0 && !procfs_pid_stat_parse(buf, (size_t)len, &st) && st.num_threads > 0
			? (size_t)st.num_threads
			: 1;
	}
	return n ? tasks * o->npids / n : 0;
}

/*
 * The work ahead for the door choice: every process (or thread, -t) of
 * the machine, or the listed ones, for the samples the options ask.
 */
static struct task_work pidstat_work(const struct pidstat_opts *o, const struct procfs *pf,
				     unsigned scans)
{
	struct task_work w = { .files = files_per_task(o), .scans = scans };
	struct id_list pids = { 0 };

	if (o->pid_given && !o->all_pids) {
		w.tasks = listed_tasks(o, pf);
		if (!w.tasks)
			w.tasks = 1;
	} else if (!o->threads && !procfs_list_pids(pf, &pids)) {
		w.tasks = pids.len ? pids.len : 1;
	}
	procfs_id_list_release(&pids);
	return w;
}

/*
 * taskstats answers the status fields for up to 32 tasks per system call
 * pair, but opening it costs a netlink socket, the family lookup and the
 * batch buffers' stack pages, more than reading status for a few listed
 * tasks (docs/performance.md, start-up). w.tasks 0 is every thread.
 */
#define TASKSTATS_MIN_TASKS 16

static bool taskstats_pays(const struct task_work *w)
{
	return w->tasks == 0 || w->tasks >= TASKSTATS_MIN_TASKS;
}

int pidstat_run_init(struct pidstat_run *r, const struct pidstat_opts *o, struct procfs *pf,
		     const struct host_facts *h, const struct pidstat_env *env)
{
	memset(r, 0, sizeof(*r));
	r->ts.fd = -1;
	r->uptime_fd = -1;
	r->opts = o;
	r->pf = pf;
	r->host = h;
	r->out.f = env->out;
	r->out.dec = o->dec;
	r->out.human = o->human;
	r->out.fast = pidstat_fast_numbers();
	r->iso_time = env->s_time_format && !strcmp(env->s_time_format, "ISO");
	r->kb_shift = log2_kb(h->pagesize);
	r->want_anon = env->anon;
	r->table.fd_budget.left = h->fixture ? 0 : env->fd_budget;
	r->average_label = pidstat_average_label();
	if (o->json) {
		json_init(env->json, env->out, true);
		r->json = env->json;
	} else {
		pidstat_colors_init(&r->out.col, env->s_colors, env->s_colors_sgr, env->out_tty);
	}
	compile_filters(r, o);
	if (live_host(r)) {
		struct task_work w = pidstat_work(o, pf, env->scans);
		int err = procfs_task_source_open_for(&r->tasks, pf, false, env->door,
						      TASK_WANT_ALL, env->fd_budget, &w);

		if (err)
			return err;
		/*
		 * The fds go to whichever door reads files: the iterator's scan
		 * keeps the stat files of the processes it cannot see (on some
		 * VMs the agent at PID 1 and its threads) instead of opening them
		 * every interval; the /proc door's are the table's.
		 */
		if (procfs_task_source_door(r->tasks) == TASK_DOOR_BPF)
			r->table.fd_budget.left = 0;
		/* the bpf door has the status fields itself */
		if (env->taskstats && procfs_task_source_door(r->tasks) != TASK_DOOR_BPF &&
		    taskstats_pays(&w))
			r->use_taskstats = procfs_taskstats_open(&r->ts) == 0;
	} else if (env->door == TASK_DOOR_BPF) {
		return -EINVAL; /* a fixture root has no kernel to iterate */
	}
	if (o->npids && pidstat_table_seed(r, o->pids, o->npids))
		return -ENOMEM;
	return 0;
}

void pidstat_run_release(struct pidstat_run *r)
{
	if (r->uptime_fd >= 0)
		close(r->uptime_fd);
	r->uptime_fd = -1;
	procfs_taskstats_close(&r->ts);
	procfs_task_source_close(r->tasks);
	r->tasks = NULL;
	procfs_task_set_release(&r->set);
	if (r->comm_re_ok)
		regfree(&r->comm_re);
	if (r->proc_re_ok)
		regfree(&r->proc_re);
	r->comm_re_ok = r->proc_re_ok = false;
	pidstat_table_release(&r->table);
	for (size_t i = 0; i < r->nusers; i++)
		free(r->users[i].name);
	free(r->users);
	r->users = NULL;
	r->nusers = r->users_cap = 0;
}
