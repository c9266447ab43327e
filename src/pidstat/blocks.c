/*
 * What report.c and both renderers share: the blocks' table and a task's
 * command string. Apart from report.c so that the renderers, which report.c
 * calls through their ops, do not call back into it.
 */
#include "pidstat/report.h"

const struct pidstat_block pidstat_blocks[B_COUNT] = {
	[B_CPU] = { ACT_CPU, TSK_TASK, "    %usr %system  %guest   %wait    %CPU   CPU",
		    "task-cpu-load" },
	[B_CPU_CHILD] = { ACT_CPU, TSK_CHILD, "    usr-ms system-ms  guest-ms", "child-cpu-load" },
	[B_MEM] = { ACT_MEM, TSK_TASK, "  minflt/s  majflt/s     VSZ     RSS   %MEM",
		    "task-memory" },
	[B_MEM_CHILD] = { ACT_MEM, TSK_CHILD, " minflt-nr majflt-nr", "child-memory" },
	[B_STACK] = { ACT_STACK, 0, " StkSize  StkRef", "stack" },
	[B_IO] = { ACT_IO, 0, "   kB_rd/s   kB_wr/s kB_ccwr/s iodelay", "io" },
	[B_CTXSW] = { ACT_CTXSW, 0, "   cswch/s nvcswch/s", "context-switch" },
	[B_KTAB] = { ACT_KTAB, 0, " threads   fd-nr", "kernel" },
	[B_RT] = { ACT_RT, 0, " prio policy", "realtime" },
	[B_ALL] = { 0, TSK_TASK, NULL, NULL },
	[B_ALL_CHILD] = { 0, TSK_CHILD, NULL, NULL },
};

/* The command string: the command line with -l (processes only), else comm. */
const char *pidstat_task_cmd(const struct pidstat_run *r, const struct pidstat_task *t)
{
	if (r->opts->cmdline && t->cmdline && *t->cmdline && !t->leader)
		return t->cmdline;
	return t->comm;
}
