/*
 * fd-exhaustion: a process whose open descriptors reach FD_WARN_PCT of its
 * soft RLIMIT_NOFILE (at 100% its next open() or accept() fails with
 * EMFILE), or the system's file handles near fs.file-max (ENFILE for
 * everyone).
 */
#include <errno.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static int process_finding(const struct rp_fdproc *p, struct report_findings *f)
{
	double pct = 100.0 * p->open / (double)p->soft;
	struct rp_finding *x =
	    finding_add(f, RK_FD_EXHAUSTION, pct >= FD_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT);

	if (!x)
		return -ENOMEM;
	x->subject.pid = p->pid;
	set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
	x->weight = pct;
	if (pct >= FD_CRIT_PCT)
		finding_say(
		    x,
		    "PID %d %s has %u descriptors open, its whole soft limit (RLIMIT_NOFILE "
		    "%llu): its next open(), socket() or accept() fails with EMFILE.",
		    (int)p->pid, p->comm, p->open, (unsigned long long)p->soft);
	else
		finding_say(x,
			    "PID %d %s has %u descriptors open, %.0f%% of its soft limit "
			    "(RLIMIT_NOFILE %llu).",
			    (int)p->pid, p->comm, p->open, pct, (unsigned long long)p->soft);
	finding_brief(x, "PID %d %s has %u of %llu descriptors open", (int)p->pid, p->comm, p->open,
		      (unsigned long long)p->soft);
	finding_next(x, "See what it holds open",
		     "ls -l /proc/%d/fd | awk '{print $NF}' | sed 's/:\\[.*//' | sort | uniq -c "
		     "| sort -n | tail",
		     (int)p->pid);
	finding_ev(x, "open_fds", p->open, "descriptors");
	finding_ev(x, "nofile_soft", (double)p->soft, "descriptors");
	finding_ev(x, "used", pct, "%");
	return 0;
}

static int system_finding(const struct report_data *d, struct report_findings *f)
{
	double pct = 100.0 * (double)d->files_alloc / (double)d->files_max;
	struct rp_finding *x;

	if (pct < FD_WARN_PCT)
		return 0;
	if (!(x = finding_add(f, RK_FD_EXHAUSTION,
			      pct >= FD_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = pct;
	finding_say(x, "The system has %llu file handles allocated, %.0f%% of fs.file-max (%llu)%s",
		    (unsigned long long)d->files_alloc, pct, (unsigned long long)d->files_max,
		    pct >= FD_CRIT_PCT ? ": opening a file fails with ENFILE for every process."
				       : ".");
	finding_brief(x, "%.0f%% of fs.file-max file handles allocated", pct);
	finding_next(x, "See which processes hold them",
		     "for p in /proc/[0-9]*; do echo \"$(ls $p/fd 2>/dev/null | wc -l) $p\"; "
		     "done | sort -n | tail");
	finding_ev(x, "file_handles", (double)d->files_alloc, "handles");
	finding_ev(x, "file_max", (double)d->files_max, "handles");
	finding_ev(x, "used", pct, "%");
	return 0;
}

int rule_fd_exhaustion(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nfdprocs; i++)
		if (d->fdprocs[i].soft &&
		    100.0 * d->fdprocs[i].open / (double)d->fdprocs[i].soft >= FD_WARN_PCT &&
		    process_finding(&d->fdprocs[i], f))
			return -ENOMEM;
	if (d->have_files && d->files_max)
		return system_finding(d, f);
	return 0;
}
