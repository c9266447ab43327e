/*
 * lock-contention: threads that take turns instead of working. A process
 * whose threads switch voluntarily at a high rate while together using
 * little CPU is waiting on something; when most of its threads sleep in a
 * futex wait (a pthread mutex, a condition variable, a Java monitor all
 * end in futex) and several of them wait on the same futex word, that
 * something is one of its own locks. Sleeping on timers or I/O switches
 * as often but leaves no thread in futex; message loops handing work to
 * each other wait in futex, each on a word of its own; a pool of idle
 * workers sits in futex without switching.
 */
#include <errno.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static double thread_avg_pct(const struct rp_proc *p)
{
	return p->nthreads ? (p->usr_pct + p->sys_pct) / p->nthreads : 0;
}

bool report_lock_contention_candidate(const struct rp_proc *p)
{
	return !p->exited && p->nthreads >= LOCK_MIN_THREADS && p->cswch_s >= LOCK_CSWCH_S &&
	       thread_avg_pct(p) < LOCK_THREAD_CPU_PCT;
}

/*
 * More than LOCK_FUTEX_SHARE of the threads looked at were in a futex wait,
 * LOCK_SAME_WORD_MIN or more of them on one word: a queue behind one lock.
 * Where no waiter's word could be read (wchan alone), the share decides.
 */
static bool queued_on_a_lock(const struct rp_proc *p)
{
	bool words_known = p->futex_no_word < p->futex_waiting;

	return p->has_futex && p->futex_threads &&
	       (double)p->futex_waiting > LOCK_FUTEX_SHARE * p->futex_threads &&
	       (!words_known || p->futex_same_word >= LOCK_SAME_WORD_MIN);
}

/* ", 7 of them on one futex word (one lock's queue)", or "" when the words are not known. */
static void word_words(const struct rp_proc *p, char *buf, size_t size)
{
	buf[0] = '\0';
	if (p->futex_no_word < p->futex_waiting)
		snprintf(buf, size, ", %u of them on one futex word (one lock's queue)",
			 p->futex_same_word);
}

static int contended(const struct rp_proc *p, struct report_findings *f)
{
	struct rp_finding *x = report_finding_add(f, RK_LOCK_CONTENTION, SEV_DEFAULT);
	double cpu = p->usr_pct + p->sys_pct;
	char word[80];

	if (!x)
		return -ENOMEM;
	report_subject_proc(x, p);
	x->weight = p->cswch_s;
	word_words(p, word, sizeof(word));
	report_finding_brief(x, "PID %d %s: %u of %u threads waiting on a lock, %.0f switches/s",
			     (int)p->pid, p->comm, p->futex_waiting, p->futex_threads, p->cswch_s);
	report_finding_say(
	    x,
	    "PID %d %s switched voluntarily %.0f times a second across %u threads while "
	    "using %.1f%% of one CPU (%.1f%% per thread), and %u of its %u threads were "
	    "asleep in a futex wait at the window's end%s: its threads take turns on a "
	    "lock (a mutex or condition variable) instead of working.",
	    (int)p->pid, p->comm, p->cswch_s, p->nthreads, cpu, thread_avg_pct(p), p->futex_waiting,
	    p->futex_threads, word);
	report_finding_next(x, "See where its threads sleep", "triage probe offcpu -p %d -d 10",
			    (int)p->pid);
	report_finding_ev(x, "cswch", p->cswch_s, "/s");
	report_finding_ev(x, "cpu", cpu, "% of one CPU");
	report_finding_ev(x, "cpu_per_thread", thread_avg_pct(p), "% of one CPU");
	report_finding_ev(x, "threads", p->futex_threads, "threads");
	report_finding_ev(x, "futex_waiting", p->futex_waiting, "threads");
	if (p->futex_no_word < p->futex_waiting)
		report_finding_ev(x, "futex_same_word", p->futex_same_word, "threads");
	return 0;
}

int report_rule_lock_contention(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct rp_proc *p = &d->procs[i];

		if (report_lock_contention_candidate(p) && queued_on_a_lock(p) && contended(p, f))
			return -ENOMEM;
	}
	return 0;
}
