/*
 * zombies: a parent with ZOMBIE_WARN_COUNT or more children that exited and
 * that it has not reaped. Each holds a PID (and a slot of its cgroup's
 * pids.max) until the parent calls wait() or exits itself.
 */
#include <errno.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static int parent_finding(const struct rp_zparent *z, struct report_findings *f)
{
	const char *comm = z->comm[0] ? z->comm : "(not sampled)";
	struct rp_finding *x = finding_add(
	    f, RK_ZOMBIES, z->zombies >= ZOMBIE_CRIT_COUNT ? SEV_CRITICAL : SEV_DEFAULT);

	if (!x)
		return -ENOMEM;
	x->subject.pid = z->ppid;
	set_str(x->subject.comm, sizeof(x->subject.comm), z->comm);
	x->weight = z->zombies;
	finding_say(x, "PID %d %s has %u zombie children: it does not wait() for them.",
		    (int)z->ppid, comm, z->zombies);
	finding_brief(x, "PID %d %s has %u zombie children", (int)z->ppid, comm, z->zombies);
	finding_next(x, "List its children", "ps -o pid,ppid,stat,cmd --ppid %d", (int)z->ppid);
	finding_ev(x, "zombies", z->zombies, "processes");
	return 0;
}

int rule_zombies(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nzparents; i++)
		if (d->zparents[i].zombies >= ZOMBIE_WARN_COUNT &&
		    parent_finding(&d->zparents[i], f))
			return -ENOMEM;
	return 0;
}
