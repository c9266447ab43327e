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

/*
 * process-churn: new processes created at CHURN_WARN_PER_S or more a
 * second. Each lives too briefly for a sampler to see, so their CPU shows
 * up as host busy time that no sampled process accounts for.
 */
int rule_process_churn(const struct report_data *d, struct report_findings *f)
{
	struct rp_finding *x;

	if (!d->have_forks || d->forks_per_s < CHURN_WARN_PER_S)
		return 0;
	if (!(x = finding_add(f, RK_PROCESS_CHURN,
			      d->forks_per_s >= CHURN_CRIT_PER_S ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->forks_per_s;
	finding_say(x,
		    "%.0f new processes a second were created during the window: short-lived "
		    "processes too brief to sample, whose CPU no process shown accounts for.",
		    d->forks_per_s);
	finding_brief(x, "%.0f new processes/s", d->forks_per_s);
	finding_next(x, "See which programs are exec'd, and by whom", "triage probe syscalls -d 5");
	finding_ev(x, "forks_per_s", d->forks_per_s, "processes/s");
	return 0;
}
