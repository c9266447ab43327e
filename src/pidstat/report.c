/*
 * One report: the blocks of one sample (or of the Average), which tasks
 * each shows (sysstat's get_pid_to_display) and the values of each row.
 * Rows are rendered by render.c (plain) or render_json.c.
 */
#include "pidstat/report.h"

#include <string.h>
#include <unistd.h>

#include "util/json.h"

static bool differ2(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	return a != b || c != d;
}

/* sysstat's activity test: did any counter of these activities change? */
static bool is_active(const struct pidstat_task *t, const struct pidstat_snap *c,
		      const struct pidstat_snap *p, unsigned act, unsigned pflag)
{
	if ((act & ACT_CPU) &&
	    (differ2(c->utime, p->utime, c->stime, p->stime) ||
	     ((pflag & TSK_CHILD) && differ2((uint64_t)c->cutime, (uint64_t)p->cutime,
					     (uint64_t)c->cstime, (uint64_t)p->cstime))))
		return true;
	if (act & ACT_MEM) {
		if (differ2(c->minflt, p->minflt, c->majflt, p->majflt))
			return true;
		if ((pflag & TSK_TASK) && differ2(c->vsz, p->vsz, c->rss, p->rss))
			return true;
		if (!(pflag & TSK_TASK) && (pflag & TSK_CHILD) &&
		    differ2(c->cminflt, p->cminflt, c->cmajflt, p->cmajflt))
			return true;
	}
	if ((act & ACT_STACK) && differ2(c->stack_size, p->stack_size, c->stack_ref, p->stack_ref))
		return true;
	if ((act & ACT_IO) &&
	    (c->blkio != p->blkio ||
	     (!(t->flags & TASK_NO_IO) &&
	      (differ2(c->read_bytes, p->read_bytes, c->write_bytes, p->write_bytes) ||
	       c->cancelled_write_bytes != p->cancelled_write_bytes))))
		return true;
	if ((act & ACT_CTXSW) && differ2(c->nvcsw, p->nvcsw, c->nivcsw, p->nivcsw))
		return true;
	if ((act & ACT_RT) && differ2(c->priority, p->priority, c->policy, p->policy))
		return true;
	if ((act & ACT_KTAB) && !(t->flags & TASK_NO_FD) &&
	    differ2(c->threads, p->threads, c->fd_nr, p->fd_nr))
		return true;
	return false;
}

static bool re_match(const regex_t *re, bool ok, const char *s)
{
	return ok && regexec(re, s, 0, NULL, 0) == 0;
}

/*
 * sysstat's get_pid_to_display: 1 to show, -1 exists but hidden. The
 * process's DISPLAYED flag is what thread rows look at (-G, orphans).
 */
static int task_visible(struct pidstat_run *r, struct pidstat_task *t, int prev, int curr,
			unsigned act, unsigned pflag)
{
	const struct pidstat_opts *o = r->opts;

	if (!t->leader)
		t->flags &= ~TASK_DISPLAYED;
	if (o->active_only && !is_active(t, &t->snap[curr], &t->snap[prev], act, pflag))
		return -1;
	if (o->comm_re && !re_match(&r->comm_re, r->comm_re_ok, pidstat_task_cmd(r, t)))
		return -1;
	if (o->proc_re) {
		if (!t->leader) {
			if (!re_match(&r->proc_re, r->proc_re_ok, pidstat_task_cmd(r, t)))
				return -1;
		} else if (!(t->leader->flags & TASK_DISPLAYED)) {
			return -1;
		}
	}
	if (o->user) {
		const char *name = pidstat_user_name(r, t->uid);

		if (name && strcmp(name, o->user))
			return -1;
	}
	t->flags |= TASK_DISPLAYED;
	return 1;
}

/* Per-block Average accumulators, updated for every existing task. */
static void accumulate(struct pidstat_task *t, enum pidstat_blk b, const struct pidstat_snap *c)
{
	switch (b) {
	case B_MEM:
		t->total_vsz += c->vsz;
		t->total_rss += c->rss;
		t->rt_asum++;
		break;
	case B_CPU_CHILD:
		t->uc_asum++;
		break;
	case B_MEM_CHILD:
		t->rc_asum++;
		break;
	case B_STACK:
		t->total_stack_size += c->stack_size;
		t->total_stack_ref += c->stack_ref;
		t->sk_asum++;
		break;
	case B_IO:
		t->delay_asum++;
		break;
	case B_KTAB:
		t->total_threads += c->threads;
		t->total_fd_nr += c->fd_nr;
		t->tf_asum++;
		break;
	default:
		break;
	}
}

static double avg_of(uint64_t total, unsigned n)
{
	return n ? (double)total / n : 0.0;
}

static void fill_cpu(const struct pidstat_report *rp, struct pidstat_row *w,
		     const struct pidstat_snap *c, const struct pidstat_snap *p)
{
	uint64_t T = rp->itv * (uint64_t)rp->hz / 100;

	w->usr = (c->utime - c->gtime) < (p->utime - p->gtime)
		     ? 0.0
		     : pidstat_sp_value(p->utime - p->gtime, c->utime - c->gtime, T);
	w->system = pidstat_sp_value(p->stime, c->stime, T);
	w->guest = pidstat_sp_value(p->gtime, c->gtime, T);
	w->wait = pidstat_sp_value(p->wtime, c->wtime, T);
	w->cpu = pidstat_sp_value(p->utime + p->stime, c->utime + c->stime,
				  rp->irix_off ? rp->deltot_jiffies : T);
	w->cpu_nr = (int)c->processor;
}

static void fill_cpu_child(const struct pidstat_report *rp, struct pidstat_row *w,
			   const struct pidstat_snap *c, const struct pidstat_snap *p, unsigned n)
{
	uint64_t cu = c->utime + (uint64_t)c->cutime - c->gtime - (uint64_t)c->cgtime;
	uint64_t pu = p->utime + (uint64_t)p->cutime - p->gtime - (uint64_t)p->cgtime;
	double div = rp->avg ? (double)(rp->hz * (uint64_t)n) : (double)rp->hz;

	w->usr_ms = cu < pu ? 0.0 : (double)(cu - pu) / div * 1000;
	w->system_ms =
	    (double)((c->stime + (uint64_t)c->cstime) - (p->stime + (uint64_t)p->cstime)) / div *
	    1000;
	w->guest_ms =
	    (double)((c->gtime + (uint64_t)c->cgtime) - (p->gtime + (uint64_t)p->cgtime)) / div *
	    1000;
}

static void fill_mem(const struct pidstat_report *rp, struct pidstat_row *w,
		     const struct pidstat_task *t, const struct pidstat_snap *c,
		     const struct pidstat_snap *p)
{
	w->minflt_s = pidstat_s_value(p->minflt, c->minflt, rp->itv);
	w->majflt_s = pidstat_s_value(p->majflt, c->majflt, rp->itv);
	if (rp->avg) {
		uint64_t mean_rss = t->rt_asum ? t->total_rss / t->rt_asum : 0;

		w->vsz_avg = avg_of(t->total_vsz, t->rt_asum);
		w->rss_avg = avg_of(t->total_rss, t->rt_asum);
		w->mem = rp->memtotal ? pidstat_sp_value(0, mean_rss, rp->memtotal) : 0.0;
	} else {
		w->vsz = c->vsz;
		w->rss = c->rss;
		w->mem = rp->memtotal ? pidstat_sp_value(0, c->rss, rp->memtotal) : 0.0;
	}
}

static void fill_mem_child(const struct pidstat_report *rp, struct pidstat_row *w,
			   const struct pidstat_task *t, const struct pidstat_snap *c,
			   const struct pidstat_snap *p)
{
	w->minflt_nr = (c->minflt + c->cminflt) - (p->minflt + p->cminflt);
	w->majflt_nr = (c->majflt + c->cmajflt) - (p->majflt + p->cmajflt);
	if (rp->avg) {
		w->minflt_nr_avg = t->rc_asum ? (double)w->minflt_nr / t->rc_asum : 0.0;
		w->majflt_nr_avg = t->rc_asum ? (double)w->majflt_nr / t->rc_asum : 0.0;
	}
}

static void fill_io(const struct pidstat_report *rp, struct pidstat_row *w,
		    const struct pidstat_task *t, const struct pidstat_snap *c,
		    const struct pidstat_snap *p)
{
	w->io_ok = !(t->flags & TASK_NO_IO);
	w->rd = pidstat_s_value(p->read_bytes, c->read_bytes, rp->itv);
	w->wr = pidstat_s_value(p->write_bytes, c->write_bytes, rp->itv);
	w->ccwr = pidstat_s_value(p->cancelled_write_bytes, c->cancelled_write_bytes, rp->itv);
	if (!rp->human) {
		w->rd /= 1024;
		w->wr /= 1024;
		w->ccwr /= 1024;
	}
	w->iodelay = c->blkio - p->blkio;
	w->iodelay_avg = t->delay_asum ? (double)w->iodelay / t->delay_asum : 0.0;
}

static void fill_row(const struct pidstat_report *rp, struct pidstat_row *w,
		     const struct pidstat_task *t, unsigned act, unsigned pflag)
{
	const struct pidstat_snap *c = &t->snap[rp->curr], *p = &t->snap[rp->prev];

	if ((act & ACT_CPU) && (pflag & TSK_TASK))
		fill_cpu(rp, w, c, p);
	if ((act & ACT_CPU) && (pflag & TSK_CHILD))
		fill_cpu_child(rp, w, c, p, t->uc_asum);
	if ((act & ACT_MEM) && (pflag & TSK_TASK))
		fill_mem(rp, w, t, c, p);
	if ((act & ACT_MEM) && (pflag & TSK_CHILD))
		fill_mem_child(rp, w, t, c, p);
	if (act & ACT_STACK) {
		w->stk_size = c->stack_size;
		w->stk_ref = c->stack_ref;
		w->stk_size_avg = avg_of(t->total_stack_size, t->sk_asum);
		w->stk_ref_avg = avg_of(t->total_stack_ref, t->sk_asum);
	}
	if (act & ACT_IO)
		fill_io(rp, w, t, c, p);
	if (act & ACT_CTXSW) {
		w->cswch = pidstat_s_value(p->nvcsw, c->nvcsw, rp->itv);
		w->nvcswch = pidstat_s_value(p->nivcsw, c->nivcsw, rp->itv);
	}
	if (act & ACT_KTAB) {
		w->fd_ok = !(t->flags & TASK_NO_FD);
		w->threads = c->threads;
		w->fd_nr = c->fd_nr;
		w->threads_avg = avg_of(t->total_threads, t->tf_asum);
		w->fd_nr_avg = avg_of(t->total_fd_nr, t->tf_asum);
	}
	if (act & ACT_RT) {
		w->prio = c->priority;
		w->policy = c->policy;
	}
}

/* How a row identifies its task (spec 3.4). */
static enum pidstat_idmode id_mode(const struct pidstat_run *r, const struct pidstat_task *t)
{
	if (!r->opts->threads)
		return ID_PID;
	if (!t->leader)
		return ID_TGID;
	return (t->leader->flags & TASK_DISPLAYED) ? ID_THREAD : ID_ORPHAN;
}

static int write_block(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b)
{
	const struct pidstat_block *bi = &pidstat_blocks[b];
	unsigned act = bi->act ? bi->act : r->opts->act;
	int again = 0;

	if (rp->dis)
		rp->ops->header(r, rp, b);
	rp->ops->block_begin(r, rp, b);
	for (size_t i = 0; i < r->table.len; i++) {
		struct pidstat_task *t = r->table.order[i];
		struct pidstat_row row;
		int vis;

		if (t->leader && !r->opts->threads)
			continue; /* read for --whole only */
		vis = task_visible(r, t, rp->prev, rp->curr, act, bi->pflag);
		if (!rp->avg && bi->act)
			accumulate(t, b, &t->snap[rp->curr]);
		if (vis < 0)
			continue;
		memset(&row, 0, sizeof(row));
		row.task = t;
		row.id = id_mode(r, t);
		fill_row(rp, &row, t, act, bi->pflag ? bi->pflag : TSK_TASK);
		rp->ops->row(r, rp, b, &row);
		if (row.id == ID_ORPHAN)
			t->leader->flags |= TASK_DISPLAYED;
		again = 1;
	}
	rp->ops->block_end(r, rp, b);
	return again;
}

/* The blocks of a report, in sysstat's fixed order. */
int pidstat_report_blocks(const struct pidstat_opts *o, enum pidstat_blk *out)
{
	int n = 0;

	if (o->oneline && !o->json) {
		if (o->tsk & TSK_TASK)
			out[n++] = B_ALL;
		if (o->tsk & TSK_CHILD)
			out[n++] = B_ALL_CHILD;
		return n;
	}
	for (int b = B_CPU; b <= B_RT; b++) {
		const struct pidstat_block *bi = &pidstat_blocks[b];

		if ((o->act & bi->act) && (!bi->pflag || (o->tsk & bi->pflag)))
			out[n++] = (enum pidstat_blk)b;
	}
	return n;
}

int pidstat_write_report(struct pidstat_run *r, int prev, int curr, bool dis, bool avg,
			 const char *prev_str, const char *curr_str)
{
	struct pidstat_report rp = {
		.prev = prev,
		.curr = curr,
		.dis = dis,
		.avg = avg,
		.prev_str = prev_str,
		.curr_str = curr_str,
		.hz = (uint64_t)r->host->hz,
		.memtotal = r->memtotal_kb,
		.irix_off = r->opts->irix_off,
		.human = r->opts->human,
		.ops = r->json ? &pidstat_json_ops : &pidstat_plain_ops,
	};
	enum pidstat_blk blocks[B_COUNT];
	int n = pidstat_report_blocks(r->opts, blocks), again = 0;

	rp.itv = pidstat_interval(r->uptime_cs[prev], r->uptime_cs[curr]);
	rp.deltot_jiffies = pidstat_interval(r->tot_jiffies[prev], r->tot_jiffies[curr]);
	rp.ops->report_begin(r, &rp);
	for (int i = 0; i < n; i++)
		again += write_block(r, &rp, blocks[i]);
	rp.ops->report_end(r, &rp);
	return r->opts->all_pids ? 1 : again;
}
