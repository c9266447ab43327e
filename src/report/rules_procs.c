/*
 * zombies: a parent with ZOMBIE_WARN_COUNT or more children that exited and
 * that it has not reaped. Each holds a PID (and a slot of its cgroup's
 * pids.max) until the parent calls wait() or exits itself.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

static int parent_finding(const struct rp_zparent *z, struct report_findings *f)
{
	const char *comm = z->comm[0] ? z->comm : "(not sampled)";
	struct rp_finding *x = report_finding_add(
	    f, RK_ZOMBIES, z->zombies >= ZOMBIE_CRIT_COUNT ? SEV_CRITICAL : SEV_DEFAULT);

	if (!x)
		return -ENOMEM;
	x->subject.pid = z->ppid;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), z->comm);
	x->weight = z->zombies;
	report_finding_say(x, "PID %d %s has %u zombie children: it does not wait() for them.",
			   (int)z->ppid, comm, z->zombies);
	report_finding_brief(x, "PID %d %s has %u zombie children", (int)z->ppid, comm, z->zombies);
	report_finding_next(x, "List its children", "ps -o pid,ppid,stat,cmd --ppid %d",
			    (int)z->ppid);
	report_finding_ev(x, "zombies", z->zombies, "processes");
	return 0;
}

int report_rule_zombies(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nzparents; i++)
		if (d->zparents[i].zombies >= ZOMBIE_WARN_COUNT &&
		    parent_finding(&d->zparents[i], f))
			return -ENOMEM;
	return 0;
}

/*
 * process-churn: new processes created at CHURN_WARN_PER_S or more a
 * second, or CHURN_UNSAMPLED_PCT of a CPU gone to processes that lived and
 * died between two samples (fewer children, each busier). Each lives too
 * briefly for a sampler to see, so their CPU shows up as host busy time
 * that no sampled process accounts for; the finding
 * says how much, and names the parents that spawn them (results_procs.c).
 */
static void spawner_words(const struct report_data *d, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->nspawners && used < size; i++) {
		const struct rp_spawner *s = &d->spawners[i];
		int n;

		if (s->forks_s > 0)
			n = snprintf(buf + used, size - used, "%sPID %d %s (%.0f forks/s)",
				     i ? ", " : "", (int)s->pid, s->comm[0] ? s->comm : "?",
				     s->forks_s);
		else if (s->child_pct > 0)
			n = snprintf(buf + used, size - used,
				     "%sPID %d %s (its children used %.0f%% of a CPU)",
				     i ? ", " : "", (int)s->pid, s->comm[0] ? s->comm : "?",
				     s->child_pct);
		else
			n = snprintf(buf + used, size - used, "%sPID %d %s (%u children seen)",
				     i ? ", " : "", (int)s->pid, s->comm[0] ? s->comm : "?",
				     s->seen);
		if (n > 0)
			used += (size_t)n;
	}
}

/* Whether a process name can go into a command line as it is (names are anyone's to choose). */
static bool shell_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._+-", *s))
			return false;
	return true;
}

/*
 * CPU that processes too short-lived to sample used: at least
 * CHURN_UNSAMPLED_PCT of one CPU no sampled process accounts for, most of
 * it in children their sampled parents reaped (not CPU hidden from us).
 */
static bool unsampled_churn(const struct report_data *d)
{
	return d->unsampled_pct >= CHURN_UNSAMPLED_PCT &&
	       d->reaped_pct >= CHURN_REAPED_SHARE * d->unsampled_pct;
}

/* The sentence when the unsampled CPU, not the rate, raised the finding. */
static void say_unsampled(const struct report_data *d, struct rp_finding *x, const char *who)
{
	report_finding_say(
	    x,
	    "%.0f%% of a CPU went to processes too short-lived to sample (busy time no "
	    "sampled process accounts for; sampled parents reaped %.0f%% of a CPU of "
	    "children's time), while %.0f new processes a second were created%s%s.",
	    d->unsampled_pct, d->reaped_pct, d->forks_per_s, who[0] ? ", by " : "", who);
}

int report_rule_process_churn(const struct report_data *d, struct report_findings *f)
{
	struct rp_finding *x;
	char who[600];
	bool by_rate = d->have_forks && d->forks_per_s >= CHURN_WARN_PER_S;

	if (!by_rate && !(d->have_forks && unsampled_churn(d)))
		return 0;
	if (!(x = report_finding_add(f, RK_PROCESS_CHURN,
				     d->forks_per_s >= CHURN_CRIT_PER_S ? SEV_CRITICAL
									: SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = d->forks_per_s;
	spawner_words(d, who, sizeof(who));
	for (size_t i = 0; i < d->nspawners; i++)
		report_finding_pid(x, d->spawners[i].pid);
	if (d->nspawners) {
		x->subject.pid = d->spawners[0].pid;
		report_set_str(x->subject.comm, sizeof(x->subject.comm), d->spawners[0].comm);
	}
	if (by_rate) {
		report_finding_say(
		    x,
		    "%.0f new processes a second were created during the window%s%s; %.0f%% "
		    "of a CPU went to processes too short-lived to sample (busy time no "
		    "sampled process accounts for).",
		    d->forks_per_s, who[0] ? ", by " : "", who, d->unsampled_pct);
		report_finding_brief(x, "%.0f new processes/s", d->forks_per_s);
	} else {
		say_unsampled(d, x, who);
		report_finding_brief(x, "%.0f%% of a CPU in processes too short-lived to sample",
				     d->unsampled_pct);
	}
	/* a child runs as its parent's comm until its execve(): -C catches every exec it makes */
	if (d->nspawners && shell_word(d->spawners[0].comm))
		report_finding_next(x, "See which programs its children exec",
				    "triage probe trace execve -C %s -d 5", d->spawners[0].comm);
	else
		report_finding_next(x, "See which programs are exec'd, and by whom",
				    "triage probe syscalls -d 5");
	report_finding_ev(x, "forks_per_s", d->forks_per_s, "processes/s");
	report_finding_ev(x, "unsampled_cpu", d->unsampled_pct, "% of one CPU");
	if (d->nspawners && d->spawners[0].forks_s > 0)
		report_finding_ev(x, "parent_forks_per_s", d->spawners[0].forks_s, "processes/s");
	else if (d->nspawners)
		report_finding_ev(x, "parent_children_cpu", d->spawners[0].child_pct,
				  "% of one CPU");
	report_finding_ev(x, "reaped_children_cpu", d->reaped_pct, "% of one CPU");
	return 0;
}
