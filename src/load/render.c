#include "load/render.h"

#include <string.h>

#include "util/text.h"

/* ---- one-shot ---- */

static void plain_header(FILE *out, const struct load_snapshot *s)
{
	if (s->have_loadavg)
		fprintf(out,
			"load average  1m %.2f  5m %.2f  15m %.2f   runnable %u/%u  last pid %d\n",
			s->kernel.load[0], s->kernel.load[1], s->kernel.load[2], s->kernel.runnable,
			s->kernel.total, s->kernel.last_pid);
	else
		fprintf(out, "load average  unavailable (no /proc/loadavg)\n");
	fprintf(out, "CPUs          %d\n", s->ncpu);
	fprintf(out, "PSI avg10    ");
	for (int r = 0; r < PSI_COUNT; r++) {
		if (!s->have_psi[r]) {
			fprintf(out, " %s n/a", load_psi_resource_name(r));
			continue;
		}
		fprintf(out, " %s some %.2f%%", load_psi_resource_name(r), s->psi[r].some.avg10);
		if (s->psi[r].full.present)
			fprintf(out, " full %.2f%%", s->psi[r].full.avg10);
		fprintf(out, r + 1 < PSI_COUNT ? " |" : "");
	}
	fprintf(out,
		"\ntasks now     %u runnable, %u in D counted, %u frozen (D, not counted); %u "
		"threads scanned\n",
		s->n_runnable, s->n_d_counted, s->n_frozen, s->threads_scanned);
}

static void plain_stack(FILE *out, const struct kstack *st)
{
	fprintf(out, "%20s stack:", "");
	for (int f = 0; f < st->nframes && f < 8; f++) {
		fprintf(out, "%s", f ? " < " : " ");
		text_put_safe(out, st->frame[f]);
	}
	fprintf(out, "%s\n", st->nframes > 8 ? " ..." : "");
}

static void plain_task(FILE *out, const struct load_task *t)
{
	char comm[64], wchan[KSYM_MAX * 4];

	text_sanitize(comm, sizeof(comm), t->comm);
	text_sanitize(wchan, sizeof(wchan), t->state == 'D' && t->wchan[0] ? t->wchan : "-");
	fprintf(out, "%7d %7d  %c  %-16s %-8s %-6s %-28s ", t->pid, t->tid, t->state, comm,
		t->state == 'D' ? load_dreason_key(t->why.reason) : "cpu", t->counts ? "yes" : "no",
		wchan);
	text_put_safe(out, t->cgroup);
	fputc('\n', out);
	if (t->state == 'D' && t->stack.nframes)
		plain_stack(out, &t->stack);
}

static void plain_verdict(FILE *out, const struct load_verdict *v)
{
	fprintf(out, "\nverdict:\n");
	for (int i = 0; i < v->nlines; i++)
		fprintf(out, "  %s\n", v->line[i]);
}

void load_render_snapshot_plain(FILE *out, const struct load_snapshot *s,
				const struct load_verdict *v)
{
	plain_header(out, s);
	if (s->ntasks) {
		fprintf(out, "\n%7s %7s  %s  %-16s %-8s %-6s %-28s %s\n", "PID", "TID", "S", "COMM",
			"WHY", "COUNTS", "WCHAN", "CGROUP");
		for (size_t i = 0; i < s->ntasks; i++)
			plain_task(out, &s->tasks[i]);
	}
	plain_verdict(out, v);
}

static void json_loadavg(struct json_writer *w, const struct loadavg *l)
{
	json_key(w, "loadavg");
	json_object_begin(w);
	json_kv_double(w, "1m", l->load[0], 2);
	json_kv_double(w, "5m", l->load[1], 2);
	json_kv_double(w, "15m", l->load[2], 2);
	json_kv_uint(w, "runnable", l->runnable);
	json_kv_uint(w, "total", l->total);
	json_kv_int(w, "last_pid", l->last_pid);
	json_end(w);
}

static void json_psi_line(struct json_writer *w, const char *key, const struct psi_line *l)
{
	json_key(w, key);
	if (!l->present) {
		json_null(w);
		return;
	}
	json_object_begin(w);
	json_kv_double(w, "avg10", l->avg10, 2);
	json_kv_double(w, "avg60", l->avg60, 2);
	json_kv_double(w, "avg300", l->avg300, 2);
	json_kv_uint(w, "total_us", l->total_us);
	json_end(w);
}

static void json_psi(struct json_writer *w, const struct load_snapshot *s)
{
	json_key(w, "psi");
	json_object_begin(w);
	for (int r = 0; r < PSI_COUNT; r++) {
		json_key(w, load_psi_resource_name(r));
		if (!s->have_psi[r]) {
			json_null(w);
			continue;
		}
		json_object_begin(w);
		json_psi_line(w, "some", &s->psi[r].some);
		json_psi_line(w, "full", &s->psi[r].full);
		json_end(w);
	}
	json_end(w);
}

static void json_task(struct json_writer *w, const struct load_task *t)
{
	char state[2] = { t->state, '\0' };

	json_object_begin(w);
	json_kv_int(w, "pid", t->pid);
	json_kv_int(w, "tid", t->tid);
	json_kv_string(w, "comm", t->comm);
	json_kv_string(w, "state", state);
	json_kv_bool(w, "counts", t->counts);
	json_kv_bool(w, "frozen", t->frozen);
	json_kv_bool(w, "kernel_thread", t->kernel_thread);
	json_kv_string(w, "cgroup", t->cgroup);
	if (t->state == 'D') {
		json_kv_string(w, "reason", load_dreason_key(t->why.reason));
		json_kv_string(w, "reason_frame", t->why.frame);
		json_kv_string(w, "wchan", t->wchan);
		json_key(w, "stack");
		json_array_begin(w);
		for (int f = 0; f < t->stack.nframes; f++)
			json_string(w, t->stack.frame[f]);
		json_end(w);
	}
	json_end(w);
}

static void json_verdict(struct json_writer *w, const struct load_verdict *v)
{
	json_key(w, "verdict");
	json_array_begin(w);
	for (int i = 0; i < v->nlines; i++)
		json_string(w, v->line[i]);
	json_end(w);
}

void load_render_snapshot_json(struct json_writer *w, const struct load_snapshot *s,
			       const struct load_verdict *v)
{
	json_object_begin(w);
	if (s->have_loadavg)
		json_loadavg(w, &s->kernel);
	json_kv_int(w, "ncpu", s->ncpu);
	json_psi(w, s);
	json_key(w, "counts");
	json_object_begin(w);
	json_kv_uint(w, "runnable", s->n_runnable);
	json_kv_uint(w, "d_counted", s->n_d_counted);
	json_kv_uint(w, "frozen", s->n_frozen);
	json_kv_uint(w, "threads_scanned", s->threads_scanned);
	json_end(w);
	json_key(w, "d_reasons");
	json_object_begin(w);
	for (int r = D_DISK_IO; r < D_REASON_COUNT; r++)
		json_kv_uint(w, load_dreason_key(r), s->reason_count[r]);
	json_end(w);
	json_key(w, "tasks");
	json_array_begin(w);
	for (size_t i = 0; i < s->ntasks; i++)
		json_task(w, &s->tasks[i]);
	json_end(w);
	json_verdict(w, v);
	json_end(w);
}

/* ---- --watch ---- */

static void plain_contrib(FILE *out, const struct watch_contrib *c, bool task)
{
	char name[64];

	text_sanitize(name, sizeof(name), c->name);
	if (task) {
		fprintf(out, "    %7d %7d  %-16s %6.2f %6.2f  %-10s ", c->pid, c->tid, name,
			c->runnable, c->d, c->d >= 0.005 ? load_dreason_key(c->why.reason) : "");
		text_put_safe(out, c->cgroup);
		fputc('\n', out);
	} else {
		fprintf(out, "    %6.2f %6.2f  ", c->runnable, c->d);
		text_put_safe(out, c->name);
		fputc('\n', out);
	}
}

void load_render_watch_plain(FILE *out, const struct watch_report *r, const struct load_verdict *v)
{
	fprintf(out, "t=%.0fs  kernel %.2f %.2f %.2f  reconstructed %.2f %.2f %.2f  (1m %+.1f%%)\n",
		r->elapsed, r->kernel[0], r->kernel[1], r->kernel[2], r->recon[0], r->recon[1],
		r->recon[2], r->error1_pct);
	fprintf(out,
		"  1m = runnable %.2f + D %.2f + before start %.2f + unattributed %.2f\n"
		"  (%u fold%s: %u predicted, %u held)\n",
		r->runnable[0], r->d[0], r->before[0], r->unattributed[0], r->steps,
		r->steps == 1 ? "" : "s", r->forced_steps, r->held_steps);
	fprintf(out, "  sampling %.1f Hz, %u thread%s, %.2f ms CPU per scan, %.2f%% of one CPU%s\n",
		r->rate_hz, r->threads, r->threads == 1 ? "" : "s", r->scan_ms, r->cpu_pct,
		r->realtime ? ", SCHED_FIFO" : "");
	if (r->ntop) {
		fprintf(out, "  top tasks (1m share):\n    %7s %7s  %-16s %6s %6s  %-10s %s\n",
			"PID", "TID", "COMM", "R", "D", "WHY", "CGROUP");
		for (int i = 0; i < r->ntop; i++)
			plain_contrib(out, &r->top[i], true);
	}
	if (r->ntopcg) {
		fprintf(out, "  top cgroups (1m share):\n    %6s %6s  %s\n", "R", "D", "CGROUP");
		for (int i = 0; i < r->ntopcg; i++)
			plain_contrib(out, &r->topcg[i], false);
	}
	for (int i = 0; i < v->nlines; i++)
		fprintf(out, "  %s\n", v->line[i]);
	fputc('\n', out);
}

static void json_triple(struct json_writer *w, const char *key, const double v[3])
{
	json_key(w, key);
	json_array_begin(w);
	for (int k = 0; k < 3; k++)
		json_double(w, v[k], 3);
	json_end(w);
}

static void json_contrib(struct json_writer *w, const struct watch_contrib *c, bool task)
{
	json_object_begin(w);
	if (task) {
		json_kv_int(w, "pid", c->pid);
		json_kv_int(w, "tid", c->tid);
		json_kv_string(w, "comm", c->name);
		json_kv_string(w, "cgroup", c->cgroup);
	} else {
		json_kv_string(w, "cgroup", c->name);
	}
	json_kv_double(w, "runnable_1m", c->runnable, 3);
	json_kv_double(w, "d_1m", c->d, 3);
	if (task && c->d >= 0.0005) {
		json_kv_string(w, "reason", load_dreason_key(c->why.reason));
		json_kv_string(w, "reason_frame", c->why.frame);
	}
	json_end(w);
}

void load_render_watch_json(struct json_writer *w, const struct watch_report *r,
			    const struct load_verdict *v)
{
	json_object_begin(w);
	json_kv_double(w, "elapsed_s", r->elapsed, 1);
	json_triple(w, "kernel", r->kernel);
	json_triple(w, "reconstructed", r->recon);
	json_kv_double(w, "error_1m_pct", r->error1_pct, 2);
	json_triple(w, "runnable", r->runnable);
	json_triple(w, "d", r->d);
	json_triple(w, "before_start", r->before);
	json_triple(w, "unattributed", r->unattributed);
	json_key(w, "d_reasons_1m");
	json_object_begin(w);
	for (int k = D_DISK_IO; k < D_REASON_COUNT; k++)
		if (k != D_FREEZER)
			json_kv_double(w, load_dreason_key(k), r->reason1[k], 3);
	json_end(w);
	json_kv_uint(w, "folds", r->steps);
	json_kv_uint(w, "predicted_folds", r->forced_steps);
	json_kv_uint(w, "held_folds", r->held_steps);
	json_kv_int(w, "ncpu", r->ncpu);
	json_kv_uint(w, "frozen_now", r->frozen_now);
	json_key(w, "sampling");
	json_object_begin(w);
	json_kv_double(w, "rate_hz", r->rate_hz, 2);
	json_kv_uint(w, "threads", r->threads);
	json_kv_double(w, "scan_cpu_ms", r->scan_ms, 3);
	json_kv_double(w, "cpu_pct", r->cpu_pct, 3);
	json_kv_bool(w, "sched_fifo", r->realtime);
	json_end(w);
	json_key(w, "top_tasks");
	json_array_begin(w);
	for (int i = 0; i < r->ntop; i++)
		json_contrib(w, &r->top[i], true);
	json_end(w);
	json_key(w, "top_cgroups");
	json_array_begin(w);
	for (int i = 0; i < r->ntopcg; i++)
		json_contrib(w, &r->topcg[i], false);
	json_end(w);
	json_verdict(w, v);
	json_end(w);
}
