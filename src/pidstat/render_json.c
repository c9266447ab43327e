/*
 * JSON renderer: sysstat 12.7's -o JSON schema (spec 11), but every name
 * goes through the escaping writer so the document is always valid.
 */
#include "pidstat/report.h"

#include <stdio.h>

#include "util/json.h"

static int json_dec(const struct pidstat_run *r)
{
	return r->opts->dec >= 0 ? r->opts->dec : 2;
}

static void json_report_begin(struct pidstat_run *r, const struct pidstat_report *rp)
{
	json_object_begin(r->json);
	json_kv_string(r->json, "timestamp", rp->curr_str);
}

static void json_report_end(struct pidstat_run *r, const struct pidstat_report *rp)
{
	(void)rp;
	json_end(r->json);
}

static void json_header(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b)
{
	(void)r;
	(void)rp;
	(void)b;
}

static void json_block_begin(struct pidstat_run *r, const struct pidstat_report *rp,
			     enum pidstat_blk b)
{
	(void)rp;
	json_key(r->json, pidstat_blocks[b].jname);
	json_array_begin(r->json);
}

static void json_block_end(struct pidstat_run *r, const struct pidstat_report *rp,
			   enum pidstat_blk b)
{
	(void)rp;
	(void)b;
	json_end(r->json);
}

static void kv_id(struct json_writer *j, const char *key, unsigned v)
{
	char num[16];

	snprintf(num, sizeof(num), "%u", v);
	json_kv_string(j, key, num);
}

static void json_ids(struct pidstat_run *r, const struct pidstat_row *w)
{
	struct json_writer *j = r->json;
	const struct pidstat_task *t = w->task;
	const char *user = r->opts->username ? pidstat_user_name(r, t->uid) : NULL;

	if (r->opts->username)
		user ? json_kv_string(j, "USER", user) : kv_id(j, "USER", t->uid);
	else
		kv_id(j, "UID", t->uid);
	if (!r->opts->threads) {
		kv_id(j, "PID", (unsigned)t->pid);
	} else if (!t->leader) {
		kv_id(j, "TGID", (unsigned)t->pid);
		json_kv_string(j, "TID", "");
	} else {
		kv_id(j, "TGID", (unsigned)t->leader->pid);
		kv_id(j, "TID", (unsigned)t->pid);
	}
}

static void json_cpu(struct pidstat_run *r, const struct pidstat_row *w)
{
	struct json_writer *j = r->json;
	int d = json_dec(r);

	json_kv_double(j, "usr", w->usr, d);
	json_kv_double(j, "system", w->system, d);
	json_kv_double(j, "guest", w->guest, d);
	json_kv_double(j, "wait", w->wait, d);
	json_kv_double(j, "cpu", w->cpu, d);
	json_kv_int(j, "cpu_nr", w->cpu_nr);
}

static void json_values(struct pidstat_run *r, enum pidstat_blk b, const struct pidstat_row *w)
{
	struct json_writer *j = r->json;
	int d = json_dec(r);

	switch (b) {
	case B_CPU:
		json_cpu(r, w);
		break;
	case B_CPU_CHILD:
		json_kv_double(j, "usr-ms", w->usr_ms, 0);
		json_kv_double(j, "system-ms", w->system_ms, 0);
		json_kv_double(j, "guest-ms", w->guest_ms, 0);
		break;
	case B_MEM:
		json_kv_double(j, "minflt/s", w->minflt_s, d);
		json_kv_double(j, "majflt/s", w->majflt_s, d);
		json_kv_uint(j, "VSZ", w->vsz);
		json_kv_uint(j, "RSS", w->rss);
		json_kv_double(j, "MEM", w->mem, d);
		break;
	case B_MEM_CHILD:
		json_kv_uint(j, "minflt-nr", w->minflt_nr);
		json_kv_uint(j, "majflt-nr", w->majflt_nr);
		break;
	case B_STACK:
		json_kv_uint(j, "StkSize", w->stk_size);
		json_kv_uint(j, "StkRef", w->stk_ref);
		break;
	case B_IO:
		json_kv_double(j, "kB_rd/s", w->io_ok ? w->rd : -1.0, d);
		json_kv_double(j, "kB_wr/s", w->io_ok ? w->wr : -1.0, d);
		json_kv_double(j, "kB_ccwr/s", w->io_ok ? w->ccwr : -1.0, d);
		json_kv_uint(j, "iodelay", w->iodelay);
		break;
	case B_CTXSW:
		json_kv_double(j, "cswch/s", w->cswch, d);
		json_kv_double(j, "nvcswch/s", w->nvcswch, d);
		break;
	case B_KTAB:
		json_kv_uint(j, "threads", w->threads);
		if (w->fd_ok)
			json_kv_uint(j, "fd-nr", w->fd_nr);
		else
			json_kv_int(j, "fd-nr", -1);
		break;
	case B_RT:
		json_kv_uint(j, "prio", w->prio);
		json_kv_string(j, "policy", pidstat_policy_name(w->policy));
		break;
	default:
		break;
	}
}

static void json_row(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b,
		     const struct pidstat_row *w)
{
	struct json_writer *j = r->json;

	(void)rp;
	json_object_begin(j);
	json_ids(r, w);
	json_values(r, b, w);
	if (r->opts->threads)
		json_kv_string(j, "leader", w->task->leader ? w->task->leader->comm : "");
	json_kv_string(j, "cmd", pidstat_task_cmd(r, w->task));
	json_end(j);
}

const struct pidstat_render_ops pidstat_json_ops = {
	.report_begin = json_report_begin,
	.header = json_header,
	.block_begin = json_block_begin,
	.row = json_row,
	.block_end = json_block_end,
	.report_end = json_report_end,
};
