/* Plain renderer: sysstat 12.6.1's exact bytes (spec 3), names made safe. */
#include "pidstat/report.h"

#include <string.h>
#include <sys/types.h>

#include "common.h"
#include "util/text.h"

const char *pidstat_policy_name(unsigned p)
{
	static const char *const names[] = {
		"NORMAL", "FIFO", "RR", "BATCH", "?", "IDLE", "DEADLN"
	};

	return p < sizeof(names) / sizeof(names[0]) ? names[p] : "?";
}

/*
 * Prints a task name made safe for a terminal between prefix and suffix:
 * control bytes and invalid UTF-8 become \xNN so a name can neither emit
 * escapes nor forge a line. Names without either print unchanged.
 */
/* Out of line: its 16 kB buffer would put every row's writes 16 kB deeper
 * into the stack, pages a short run otherwise never touches. */
static __attribute__((noinline)) void put_escaped(struct pidstat_out *o, const char *name)
{
	char buf[4096 * 4 + 1];

	text_sanitize(buf, sizeof(buf), name);
	pidstat_puts(o, buf);
}

/* The length of name when it is all printable ASCII (nothing to escape), else -1. */
static ssize_t plain_ascii_len(const char *name)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0;

	while (s[n] >= 0x20 && s[n] < 0x7f)
		n++;
	return s[n] ? -1 : (ssize_t)n;
}

static void put_name(struct pidstat_out *o, const char *color, const char *prefix, const char *name,
		     const char *suffix)
{
	ssize_t n = plain_ascii_len(name);

	pidstat_puts(o, color);
	pidstat_puts(o, prefix);
	if (n >= 0)
		pidstat_write(o, name, (size_t)n);
	else if (text_needs_escape(name))
		put_escaped(o, name);
	else
		pidstat_puts(o, name);
	pidstat_puts(o, suffix);
	pidstat_puts(o, o->col.normal);
}

static void plain_id_header(struct pidstat_run *r, const char *ts)
{
	pidstat_printf(&r->out, "\n%-11s%s%s", ts, r->opts->username ? "     USER" : "   UID",
		       r->opts->threads ? "      TGID       TID" : "       PID");
}

static void plain_header(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b)
{
	struct pidstat_out *o = &r->out;
	unsigned act = r->opts->act;

	plain_id_header(r, rp->prev_str);
	if (b == B_ALL) {
		for (int i = B_CPU; i <= B_RT; i++)
			if ((act & pidstat_blocks[i].act) && pidstat_blocks[i].pflag != TSK_CHILD)
				pidstat_puts(o, pidstat_blocks[i].hdr);
	} else if (b == B_ALL_CHILD) {
		if (act & ACT_CPU)
			pidstat_puts(o, pidstat_blocks[B_CPU_CHILD].hdr);
		if (act & ACT_MEM)
			pidstat_puts(o, pidstat_blocks[B_MEM_CHILD].hdr);
	} else {
		pidstat_puts(o, pidstat_blocks[b].hdr);
	}
	pidstat_puts(o, "  Command\n");
	pidstat_out_flush(o);
}

static void plain_ids(struct pidstat_run *r, const struct pidstat_report *rp,
		      const struct pidstat_row *w)
{
	struct pidstat_out *o = &r->out;
	const struct pidstat_task *t = w->task;
	const char *user = r->opts->username ? pidstat_user_name(r, t->uid) : NULL;

	pidstat_puts(o, rp->curr_str);
	for (size_t n = strlen(rp->curr_str); n < 11; n++)
		pidstat_putc(o, ' ');
	pidstat_puts(o, o->col.item);
	if (user)
		pidstat_printf(o, " %8s", user);
	else if ((int)t->uid >= 0)
		pidstat_put_uint(o, 5, t->uid);
	else
		pidstat_printf(o, " %5d", (int)t->uid);
	pidstat_puts(o, o->col.normal);
	pidstat_puts(o, o->col.item);
	switch (w->id) {
	case ID_PID:
		pidstat_put_uint(o, 9, (unsigned)t->pid);
		break;
	case ID_TGID:
		pidstat_put_uint(o, 9, (unsigned)t->pid);
		pidstat_puts(o, "         -");
		break;
	case ID_THREAD:
		pidstat_puts(o, "         -");
		pidstat_put_uint(o, 9, (unsigned)t->pid);
		break;
	case ID_ORPHAN:
		pidstat_put_uint(o, 9, (unsigned)t->leader->pid);
		pidstat_puts(o, o->col.normal);
		pidstat_puts(o, o->col.item);
		pidstat_put_uint(o, 9, (unsigned)t->pid);
		break;
	}
	pidstat_puts(o, o->col.normal);
}

static void plain_command(struct pidstat_run *r, const struct pidstat_row *w)
{
	struct pidstat_out *o = &r->out;
	const char *cmd = pidstat_task_cmd(r, w->task);

	if (w->id == ID_THREAD) {
		put_name(o, o->col.zero, "  |__", cmd, "\n");
	} else if (w->id == ID_ORPHAN) {
		put_name(o, o->col.nz, "  (", w->task->leader->comm, ")");
		put_name(o, o->col.zero, "__", cmd, "\n");
	} else {
		put_name(o, o->col.nz, "  ", cmd, "\n");
	}
}

static void cpu_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	pidstat_put_pc(o, 7, 2, w->usr);
	pidstat_put_pc(o, 7, 2, w->system);
	pidstat_put_pc(o, 7, 2, w->guest);
	pidstat_put_pc(o, 7, 2, w->wait);
	pidstat_put_pc(o, 7, 2, w->cpu);
	pidstat_puts(o, o->col.item);
	if (avg)
		pidstat_puts(o, "     -");
	else if (w->cpu_nr >= 0) {
		pidstat_puts(o, "  "); /* "   %3d" */
		pidstat_put_uint(o, 3, (unsigned)w->cpu_nr);
	} else
		pidstat_printf(o, "   %3d", w->cpu_nr);
	pidstat_puts(o, o->col.normal);
}

static void cpu_child_fields(struct pidstat_out *o, const struct pidstat_row *w)
{
	pidstat_put_f(o, UNIT_NONE, 9, 0, w->usr_ms);
	pidstat_put_f(o, UNIT_NONE, 9, 0, w->system_ms);
	pidstat_put_f(o, UNIT_NONE, 9, 0, w->guest_ms);
}

static void mem_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	int unit = o->human ? UNIT_KILOBYTE : UNIT_NONE;

	pidstat_put_f(o, UNIT_NONE, 9, 2, w->minflt_s);
	pidstat_put_f(o, UNIT_NONE, 9, 2, w->majflt_s);
	if (avg) {
		pidstat_put_f(o, unit, 7, 0, w->vsz_avg);
		pidstat_put_f(o, unit, 7, 0, w->rss_avg);
	} else {
		pidstat_put_u64(o, unit, 7, w->vsz);
		pidstat_put_u64(o, unit, 7, w->rss);
	}
	pidstat_put_pc(o, 6, 2, w->mem);
}

static void mem_child_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	if (avg) {
		pidstat_put_f(o, UNIT_NONE, 9, 0, w->minflt_nr_avg);
		pidstat_put_f(o, UNIT_NONE, 9, 0, w->majflt_nr_avg);
	} else {
		pidstat_put_u64(o, UNIT_NONE, 9, w->minflt_nr);
		pidstat_put_u64(o, UNIT_NONE, 9, w->majflt_nr);
	}
}

static void stack_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	int unit = o->human ? UNIT_KILOBYTE : UNIT_NONE;

	if (avg) {
		pidstat_put_f(o, unit, 7, 0, w->stk_size_avg);
		pidstat_put_f(o, unit, 7, 0, w->stk_ref_avg);
	} else {
		pidstat_put_u64(o, unit, 7, w->stk_size);
		pidstat_put_u64(o, unit, 7, w->stk_ref);
	}
}

static void io_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	if (w->io_ok) {
		int unit = o->human ? UNIT_BYTE : UNIT_NONE;

		pidstat_put_f(o, unit, 9, 2, w->rd);
		pidstat_put_f(o, unit, 9, 2, w->wr);
		pidstat_put_f(o, unit, 9, 2, w->ccwr);
	} else {
		/* sysstat keeps the layout with a fixed placeholder */
		pidstat_printf(o, "%s %9.2f %9.2f %9.2f%s", o->col.zero, -1.0, -1.0, -1.0,
			       o->col.normal);
	}
	if (avg)
		pidstat_put_f(o, UNIT_NONE, 7, 0, w->iodelay_avg);
	else
		pidstat_put_u64(o, UNIT_NONE, 7, w->iodelay);
}

static void ctxsw_fields(struct pidstat_out *o, const struct pidstat_row *w)
{
	pidstat_put_f(o, UNIT_NONE, 9, 2, w->cswch);
	pidstat_put_f(o, UNIT_NONE, 9, 2, w->nvcswch);
}

static void ktab_fields(struct pidstat_out *o, const struct pidstat_row *w, bool avg)
{
	if (avg) {
		pidstat_put_f(o, UNIT_NONE, 7, 0, w->threads_avg);
		pidstat_put_f(o, UNIT_NONE, 7, 0, w->fd_ok ? w->fd_nr_avg : -1.0);
		return;
	}
	pidstat_put_u64(o, UNIT_NONE, 7, w->threads);
	if (w->fd_ok)
		pidstat_put_u64(o, UNIT_NONE, 7, w->fd_nr);
	else
		pidstat_printf(o, "%s %7s%s", o->col.zero, "-1", o->col.normal);
}

static void rt_fields(struct pidstat_out *o, const struct pidstat_row *w)
{
	pidstat_put_u64(o, UNIT_NONE, 4, w->prio);
	pidstat_printf(o, "%s %6s%s", o->col.nz, pidstat_policy_name(w->policy), o->col.normal);
}

/* -h: every selected activity of the task on one line. */
static void all_fields(struct pidstat_run *r, const struct pidstat_row *w)
{
	struct pidstat_out *o = &r->out;
	unsigned act = r->opts->act;

	if (act & ACT_CPU)
		cpu_fields(o, w, false);
	if (act & ACT_MEM)
		mem_fields(o, w, false);
	if (act & ACT_STACK)
		stack_fields(o, w, false);
	if (act & ACT_IO)
		io_fields(o, w, false);
	if (act & ACT_CTXSW)
		ctxsw_fields(o, w);
	if (act & ACT_KTAB)
		ktab_fields(o, w, false);
	if (act & ACT_RT)
		rt_fields(o, w);
}

static void plain_row(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b,
		      const struct pidstat_row *w)
{
	struct pidstat_out *o = &r->out;

	plain_ids(r, rp, w);
	switch (b) {
	case B_CPU:
		cpu_fields(o, w, rp->avg);
		break;
	case B_CPU_CHILD:
		cpu_child_fields(o, w);
		break;
	case B_MEM:
		mem_fields(o, w, rp->avg);
		break;
	case B_MEM_CHILD:
		mem_child_fields(o, w, rp->avg);
		break;
	case B_STACK:
		stack_fields(o, w, rp->avg);
		break;
	case B_IO:
		io_fields(o, w, rp->avg);
		break;
	case B_CTXSW:
		ctxsw_fields(o, w);
		break;
	case B_KTAB:
		ktab_fields(o, w, rp->avg);
		break;
	case B_RT:
		rt_fields(o, w);
		break;
	case B_ALL:
		all_fields(r, w);
		break;
	case B_ALL_CHILD:
		if (r->opts->act & ACT_CPU)
			cpu_child_fields(o, w);
		if (r->opts->act & ACT_MEM)
			mem_child_fields(o, w, false);
		break;
	default:
		break;
	}
	plain_command(r, w);
	pidstat_out_flush(o);
}

static void plain_nop_report(struct pidstat_run *r, const struct pidstat_report *rp)
{
	(void)r;
	(void)rp;
}

static void plain_nop_block(struct pidstat_run *r, const struct pidstat_report *rp,
			    enum pidstat_blk b)
{
	(void)r;
	(void)rp;
	(void)b;
}

const struct pidstat_render_ops pidstat_plain_ops = {
	.report_begin = plain_nop_report,
	.header = plain_header,
	.block_begin = plain_nop_block,
	.row = plain_row,
	.block_end = plain_nop_block,
	.report_end = plain_nop_report,
};
