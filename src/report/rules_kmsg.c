/*
 * Kernel log events that need more than one line said: a hung task (once
 * however often the kernel re-reported it, with the lock and its likely
 * owner the kernel named), and the log's evidence for other kinds (the
 * file-handle and conntrack tables full).
 */
#include <errno.h>
#include <stdio.h>

#include "report/findings.h"
#include "report/rules.h"

const struct rp_kevent *report_kmsg_event_of(const struct report_data *d, enum kmsg_event ev)
{
	for (size_t i = 0; i < d->nkevents; i++)
		if (d->kevents[i].event == ev)
			return &d->kevents[i];
	return NULL;
}

/* "; it waits for an rw-semaphore that PID 12 comm likely holds" or "". */
static void blocker_words(const struct rp_kevent *e, char *buf, size_t size)
{
	if (e->owner_pid)
		snprintf(buf, size, "; it waits for a%s %s that PID %d %s likely holds",
			 e->lock[0] == 'r' ? "n" : "", e->lock, e->owner_pid, e->owner_comm);
	else if (e->lock[0])
		snprintf(buf, size, "; it waits for a%s %s whose owner the kernel did not find",
			 e->lock[0] == 'r' ? "n" : "", e->lock);
	else
		buf[0] = '\0';
}

int report_kmsg_hung_task(const struct rp_kevent *e, struct report_findings *f)
{
	struct rp_finding *x =
	    report_finding_add(f, RK_KERNEL_ERRORS, e->in_window ? SEV_CRITICAL : SEV_WARNING);
	char why[RP_COMM_MAX + 96], times[48] = "";

	if (!x)
		return -ENOMEM;
	x->subject.pid = e->pid;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), e->comm);
	if (e->owner_pid)
		x->subject.pids[x->subject.npids++] = e->owner_pid;
	x->weight = -e->age_s;
	blocker_words(e, why, sizeof(why));
	if (e->reports > 1)
		snprintf(times, sizeof(times), " (%u reports, the last %.0f s ago)", e->reports,
			 e->age_s);
	else
		snprintf(times, sizeof(times), " %.0f s ago", e->age_s);
	report_finding_say(
	    x,
	    "The kernel reported PID %d %s hung: blocked in D for more than %u s without "
	    "running%s%s.",
	    e->pid, e->comm, e->blocked_s, times, why);
	report_finding_brief(x, "PID %d %s hung, blocked for more than %u s%s", e->pid, e->comm,
			     e->blocked_s, why);
	if (e->owner_pid)
		report_finding_next(x, "See where the lock's owner is", "cat /proc/%d/stack",
				    e->owner_pid);
	else
		report_finding_next(x, "See where it waits", "cat /proc/%d/stack", e->pid);
	report_finding_ev(x, "blocked", e->blocked_s, "s");
	report_finding_ev(x, "reports", e->reports, "reports");
	report_finding_ev(x, "age", e->age_s, "s");
	if (e->owner_pid)
		report_finding_ev(x, "owner_pid", e->owner_pid, "pid");
	return 0;
}
