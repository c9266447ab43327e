/* Internal to src/pidstat: reports, blocks, rows and their two renderers. */
#ifndef TRIAGE_PIDSTAT_REPORT_H
#define TRIAGE_PIDSTAT_REPORT_H

#include "pidstat/pidstat.h"

/* Blocks in print order (spec 3.3); B_ALL* are the -h one-line blocks. */
enum pidstat_blk {
	B_CPU,
	B_CPU_CHILD,
	B_MEM,
	B_MEM_CHILD,
	B_STACK,
	B_IO,
	B_CTXSW,
	B_KTAB,
	B_RT,
	B_ALL,
	B_ALL_CHILD,
	B_COUNT
};

struct pidstat_block {
	unsigned act;	   /* the block's activity; 0: every selected one (-h) */
	unsigned pflag;	   /* TSK_TASK, TSK_CHILD, or 0 for task-only blocks */
	const char *hdr;   /* column headers after the ID columns */
	const char *jname; /* JSON array name */
};

extern const struct pidstat_block pidstat_blocks[B_COUNT];

enum pidstat_idmode {
	ID_PID,	   /* no -t */
	ID_TGID,   /* -t, process row */
	ID_THREAD, /* -t, thread of a process shown above */
	ID_ORPHAN, /* -t, thread whose process row is not shown */
};

/* Everything one row shows; filled once, rendered plain or as JSON. */
struct pidstat_row {
	const struct pidstat_task *task;
	enum pidstat_idmode id;
	double usr, system, guest, wait, cpu;
	int cpu_nr;
	double usr_ms, system_ms, guest_ms;
	double minflt_s, majflt_s;
	uint64_t vsz, rss;
	double vsz_avg, rss_avg, mem;
	uint64_t minflt_nr, majflt_nr;
	double minflt_nr_avg, majflt_nr_avg;
	uint64_t stk_size, stk_ref;
	double stk_size_avg, stk_ref_avg;
	bool io_ok;
	double rd, wr, ccwr;
	uint64_t iodelay;
	double iodelay_avg;
	double cswch, nvcswch;
	bool fd_ok;
	uint64_t threads, fd_nr;
	double threads_avg, fd_nr_avg;
	uint64_t prio;
	unsigned policy;
};

struct pidstat_report;

struct pidstat_render_ops {
	void (*report_begin)(struct pidstat_run *r, const struct pidstat_report *rp);
	void (*header)(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b);
	void (*block_begin)(struct pidstat_run *r, const struct pidstat_report *rp,
			    enum pidstat_blk b);
	void (*row)(struct pidstat_run *r, const struct pidstat_report *rp, enum pidstat_blk b,
		    const struct pidstat_row *w);
	void (*block_end)(struct pidstat_run *r, const struct pidstat_report *rp,
			  enum pidstat_blk b);
	void (*report_end)(struct pidstat_run *r, const struct pidstat_report *rp);
};

struct pidstat_report {
	int prev, curr;
	bool dis, avg;
	const char *prev_str, *curr_str;
	uint64_t itv, deltot_jiffies, hz, memtotal;
	bool irix_off, human;
	const struct pidstat_render_ops *ops;
};

extern const struct pidstat_render_ops pidstat_plain_ops;
extern const struct pidstat_render_ops pidstat_json_ops;

const char *pidstat_task_cmd(const struct pidstat_run *r, const struct pidstat_task *t);
int pidstat_report_blocks(const struct pidstat_opts *o, enum pidstat_blk *out);
const char *pidstat_policy_name(unsigned policy);

#endif
