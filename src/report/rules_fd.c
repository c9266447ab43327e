/*
 * fd-exhaustion: a process whose open descriptors reach FD_WARN_PCT of its
 * soft RLIMIT_NOFILE (at 100% its next open() or accept() fails with
 * EMFILE), or the system's file handles near fs.file-max (ENFILE for
 * everyone), or the kernel's log line saying they ran out.
 */
#include <errno.h>
#include <stdio.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static int process_finding(const struct rp_fdproc *p, struct report_findings *f)
{
	double pct = 100.0 * p->open / (double)p->soft;
	struct rp_finding *x = report_finding_add(f, RK_FD_EXHAUSTION,
						  pct >= FD_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT);

	if (!x)
		return -ENOMEM;
	x->subject.pid = p->pid;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
	x->weight = pct;
	if (pct >= FD_CRIT_PCT)
		report_finding_say(
		    x,
		    "PID %d %s has %u descriptors open, its whole soft limit (RLIMIT_NOFILE "
		    "%llu): its next open(), socket() or accept() fails with EMFILE.",
		    (int)p->pid, p->comm, p->open, (unsigned long long)p->soft);
	else
		report_finding_say(x,
				   "PID %d %s has %u descriptors open, %.0f%% of its soft limit "
				   "(RLIMIT_NOFILE %llu).",
				   (int)p->pid, p->comm, p->open, pct, (unsigned long long)p->soft);
	report_finding_brief(x, "PID %d %s has %u of %llu descriptors open", (int)p->pid, p->comm,
			     p->open, (unsigned long long)p->soft);
	report_finding_next(
	    x, "See what it holds open",
	    "ls -l /proc/%d/fd | awk '{print $NF}' | sed 's/:\\[.*//' | sort | uniq -c "
	    "| sort -n | tail",
	    (int)p->pid);
	report_finding_ev(x, "open_fds", p->open, "descriptors");
	report_finding_ev(x, "nofile_soft", (double)p->soft, "descriptors");
	report_finding_ev(x, "used", pct, "%");
	return 0;
}

/* ", and the kernel logged \"VFS: file-max limit N reached\" (3 times, the last 12 s ago)" */
static void logged_words(const struct rp_kevent *e, char *buf, size_t size)
{
	if (!e)
		buf[0] = '\0';
	else if (e->reports > 1)
		snprintf(buf, size, "; the kernel logged \"%s\" %u times, the last %.0f s ago",
			 e->text, e->reports, e->age_s);
	else
		snprintf(buf, size, "; the kernel logged \"%s\" %.0f s ago", e->text, e->age_s);
}

/*
 * The system's file handles: from file-nr at FD_WARN_PCT of file-max, or
 * the kernel's "file-max limit reached" (an open() failed with ENFILE:
 * file-nr may have dropped since). Critical at FD_CRIT_PCT, or when the
 * kernel logged it during the window.
 */
static int system_finding(const struct report_data *d, struct report_findings *f)
{
	const struct rp_kevent *e = report_kmsg_event_of(d, KMSG_FILE_MAX);
	bool counted = d->have_files && d->files_max;
	double pct = counted ? 100.0 * (double)d->files_alloc / (double)d->files_max : 0;
	bool crit = pct >= FD_CRIT_PCT || (e && e->in_window);
	char logged[KMSG_TEXT_MAX + 64];
	struct rp_finding *x;

	if (pct < FD_WARN_PCT && !e)
		return 0;
	if (!(x = report_finding_add(f, RK_FD_EXHAUSTION, crit ? SEV_CRITICAL : SEV_WARNING)))
		return -ENOMEM;
	x->weight = e && pct < FD_CRIT_PCT ? FD_CRIT_PCT : pct;
	logged_words(e, logged, sizeof(logged));
	if (counted)
		report_finding_say(
		    x,
		    "The system has %llu file handles allocated, %.0f%% of fs.file-max "
		    "(%llu)%s%s",
		    (unsigned long long)d->files_alloc, pct, (unsigned long long)d->files_max,
		    logged, crit ? ": opening a file fails with ENFILE for every process." : ".");
	else
		report_finding_say(
		    x,
		    "The system ran out of file handles (fs.file-max)%s: opening a file "
		    "failed with ENFILE for every process.",
		    logged);
	if (e && pct < FD_WARN_PCT)
		report_finding_brief(x,
				     "The system ran out of file handles (the kernel logged it)");
	else
		report_finding_brief(x, "%.0f%% of fs.file-max file handles allocated", pct);
	report_finding_next(
	    x, "See which processes hold them",
	    "for p in /proc/[0-9]*; do echo \"$(ls $p/fd 2>/dev/null | wc -l) $p\"; "
	    "done | sort -n | tail");
	if (counted) {
		report_finding_ev(x, "file_handles", (double)d->files_alloc, "handles");
		report_finding_ev(x, "file_max", (double)d->files_max, "handles");
		report_finding_ev(x, "used", pct, "%");
	}
	if (e) {
		report_finding_ev(x, "logged", e->reports, "lines");
		report_finding_ev(x, "age", e->age_s, "s");
	}
	return 0;
}

int report_rule_fd_exhaustion(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nfdprocs; i++)
		if (d->fdprocs[i].soft &&
		    100.0 * d->fdprocs[i].open / (double)d->fdprocs[i].soft >= FD_WARN_PCT &&
		    process_finding(&d->fdprocs[i], f))
			return -ENOMEM;
	return system_finding(d, f);
}
