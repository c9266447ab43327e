/* Rules for disks (iostat -xz figures), network interfaces, TCP and the kernel log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

bool report_disk_is_saturated(const struct rp_disk *k)
{
	return k->util_pct >= DISK_UTIL_WARN_PCT && k->aqu_sz >= DISK_QUEUE_WARN &&
	       k->await_ms >= DISK_AWAIT_WARN_MS;
}

int report_rule_disk_saturated(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->ndisks; i++) {
		const struct rp_disk *k = &d->disks[i];
		struct rp_finding *x;
		char psi[64];

		if (!report_disk_is_saturated(k))
			continue;
		if (!(x = report_finding_add(f, RK_DISK_SATURATED, SEV_DEFAULT)))
			return -ENOMEM;
		report_set_str(x->subject.device, sizeof(x->subject.device), k->name);
		x->weight = k->aqu_sz;
		report_finding_brief(
		    x,
		    "Device %s was busy %.0f%% of the window with %.1f requests queued "
		    "waiting %.0f ms",
		    k->name, k->util_pct, k->aqu_sz, k->await_ms);
		report_finding_say(
		    x,
		    "Device %s is saturated: busy %.0f%% of the window with %.2f requests "
		    "queued or in flight on average (aqu-sz) each waiting %.2f ms (await): "
		    "requests wait for the device, not only use it; %.0f reads/s (%.0f "
		    "kB/s), %.0f writes/s (%.0f kB/s)%s.",
		    k->name, k->util_pct, k->aqu_sz, k->await_ms, k->r_s, k->rkb_s, k->w_s,
		    k->wkb_s,
		    report_psi_phrase(d, RP_PSI_IO, "; some task waited on I/O ",
				      " of the time (PSI)", psi, sizeof(psi)));
		report_finding_next(x, "See which processes do the I/O",
				    "triage pidstat -d -p ALL 1 5");
		report_finding_ev(x, "util", k->util_pct, "%");
		report_finding_ev(x, "aqu_sz", k->aqu_sz, "requests");
		report_finding_ev(x, "await", k->await_ms, "ms");
		report_finding_ev(x, "r_s", k->r_s, "/s");
		report_finding_ev(x, "w_s", k->w_s, "/s");
	}
	return 0;
}

/* ---- io-stall: tasks wait on I/O while no disk is saturated ---- */

/* Whether cgroup path g is p or one of its ancestors. */
static bool cgroup_holds(const char *g, const char *p)
{
	size_t n = strlen(g);

	if (!strcmp(g, "/"))
		return true;
	return !strncmp(g, p, n) && (p[n] == '\0' || p[n] == '/');
}

/* The deepest cgroup with an I/O limit that holds path, or NULL. */
static const struct rp_cgroup *io_limiter_of(const struct report_data *d, const char *path)
{
	const struct rp_cgroup *best = NULL;

	for (size_t i = 0; path[0] && i < d->ncgroups; i++) {
		const struct rp_cgroup *g = &d->cgroups[i];

		if (g->has_io && cgroup_holds(g->path, path) &&
		    (!best || strlen(g->path) > strlen(best->path)))
			best = g;
	}
	return best;
}

static double share_of(double rate, uint64_t limit)
{
	return limit ? 100.0 * rate / (double)limit : 0;
}

/* The window's I/O rate of g as a % of its tightest limit (the highest share). */
static double limit_use_pct(const struct rp_cgroup *g, double seconds)
{
	const struct rp_io_limit *l = &g->io_limit;
	double use = 0, v[4];

	if (seconds <= 0)
		return 0;
	v[0] = share_of((double)g->io_rbytes / seconds, l->rbps);
	v[1] = share_of((double)g->io_wbytes / seconds, l->wbps);
	v[2] = share_of((double)g->io_rios / seconds, l->riops);
	v[3] = share_of((double)g->io_wios / seconds, l->wiops);
	for (int i = 0; i < 4; i++)
		if (v[i] > use)
			use = v[i];
	return use;
}

/* The file system family a network/FUSE wait is in, from the frame that decided it. */
static const char *netfs_family(const char *frame)
{
	static const struct {
		const char *prefix, *fs;
	} fams[] = {
		{ "nfs", "nfs" },	    { "__nfs", "nfs" }, { "rpc_", "nfs" },
		{ "__rpc", "nfs" },	    { "xprt_", "nfs" }, { "fuse", "fuse" },
		{ "cifs", "cifs" },	    { "smb2", "cifs" }, { "ceph", "ceph" },
		{ "v9fs", "9p" },	    { "p9_", "9p" },	{ "afs", "afs" },
		{ "orangefs", "orangefs" },
	};

	for (size_t i = 0; i < sizeof(fams) / sizeof(fams[0]); i++)
		if (!strncmp(frame, fams[i].prefix, strlen(fams[i].prefix)))
			return fams[i].fs;
	return "";
}

/* Which waiters a finding is about: those a cgroup throttles, those on a network fs, the rest. */
enum stall_cause { STALL_CGROUP, STALL_NETFS, STALL_UNEXPLAINED };

struct stall {
	enum stall_cause cause;
	const struct rp_cgroup *g; /* STALL_CGROUP */
};

static bool stall_has(const struct report_data *d, const struct stall *st, const struct rp_dtask *t)
{
	bool disk = !strcmp(t->reason_key, "disk_io");

	switch (st->cause) {
	case STALL_CGROUP:
		return disk && io_limiter_of(d, t->io_cgroup) == st->g;
	case STALL_NETFS:
		return !strcmp(t->reason_key, "netfs");
	default:
		return disk && !io_limiter_of(d, t->io_cgroup);
	}
}

/* Whether an earlier waiter of st is of the same process as dtasks[i]. */
static bool named_before(const struct report_data *d, const struct stall *st, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (d->dtasks[k].pid == d->dtasks[i].pid && stall_has(d, st, &d->dtasks[k]))
			return true;
	return false;
}

/* ", 3 threads" when more than one thread of pid waits */
static const char *threads_words(const struct report_data *d, const struct stall *st, pid_t pid)
{
	static const char *const words[] = {
		"", "", ", 2 threads", ", 3 threads", ", 4 threads", ", 5 or more threads"
	};
	unsigned n = 0;

	for (size_t i = 0; i < d->ndtasks; i++)
		n += d->dtasks[i].pid == pid && stall_has(d, st, &d->dtasks[i]);
	return words[n < 5 ? n : 5];
}

/* "PID 812 reader (disk I/O in ...), ..." of st's waiters, into the subject's pids. */
static unsigned io_waiters(const struct report_data *d, const struct stall *st,
			   struct rp_finding *x, char *buf, size_t size)
{
	size_t used = 0;
	unsigned n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < d->ndtasks; i++) {
		const struct rp_dtask *t = &d->dtasks[i];
		int k;

		if (!stall_has(d, st, t) || named_before(d, st, i))
			continue;
		if (!n++) {
			x->subject.pid = t->pid;
			report_set_str(x->subject.comm, sizeof(x->subject.comm), t->comm);
		}
		report_finding_pid(x, t->pid);
		k = used < size ? snprintf(buf + used, size - used, "%sPID %d %s (%s%s%s%s)",
					   used ? ", " : "", (int)t->pid, t->comm, t->reason,
					   t->frame[0] ? " in " : "", t->frame,
					   threads_words(d, st, t->pid))
				: 0;
		if (k > 0)
			used += (size_t)k;
	}
	return n;
}

static unsigned count_waiters(const struct report_data *d, const struct stall *st)
{
	unsigned n = 0;

	for (size_t i = 0; i < d->ndtasks; i++)
		n += stall_has(d, st, &d->dtasks[i]);
	return n;
}

/* "reads on loop0 to 64 kB/s (it read 64 kB/s)" for each limit the cgroup has */
static void limit_words(const struct rp_cgroup *g, double seconds, char *buf, size_t size)
{
	const struct rp_io_limit *l = &g->io_limit;
	const struct {
		const char *what, *did, *unit;
		uint64_t limit, done;
		double scale;
	} parts[] = {
		{ "reads", "read", "kB/s", l->rbps, g->io_rbytes, 1024.0 },
		{ "writes", "wrote", "kB/s", l->wbps, g->io_wbytes, 1024.0 },
		{ "reads", "read", "IOPS", l->riops, g->io_rios, 1.0 },
		{ "writes", "wrote", "IOPS", l->wiops, g->io_wios, 1.0 },
	};
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && used < size; i++) {
		int k;

		if (!parts[i].limit)
			continue;
		k = snprintf(buf + used, size - used, "%s%s on %s to %.0f %s (it %s %.0f %s)",
			     used ? ", " : "", parts[i].what, l->device,
			     (double)parts[i].limit / parts[i].scale, parts[i].unit, parts[i].did,
			     (double)parts[i].done / parts[i].scale / seconds, parts[i].unit);
		if (k > 0)
			used += (size_t)k;
	}
}

static const struct rp_disk *busiest_disk(const struct report_data *d)
{
	const struct rp_disk *b = NULL;

	for (size_t i = 0; i < d->ndisks; i++)
		if (!b || d->disks[i].util_pct > b->util_pct)
			b = &d->disks[i];
	return b;
}

/* The first network or FUSE file system family a waiter is in ("network" when unknown). */
static const char *netfs_waited(const struct report_data *d)
{
	for (size_t i = 0; i < d->ndtasks; i++)
		if (!strcmp(d->dtasks[i].reason_key, "netfs"))
			return netfs_family(d->dtasks[i].frame)[0]
				   ? netfs_family(d->dtasks[i].frame)
				   : "network";
	return "";
}

/* The cause in words: "cgroup /x throttles them (...)" into cause, brief into why. */
static void io_cause(const struct report_data *d, const struct stall *st, struct rp_finding *x,
		     char *cause, size_t size, char *why, size_t wsize)
{
	const struct rp_cgroup *g = st->g;
	char lim[200];

	cause[0] = why[0] = '\0';
	if (st->cause == STALL_CGROUP) {
		double use = limit_use_pct(g, d->seconds);

		limit_words(g, d->seconds, lim, sizeof(lim));
		report_set_str(x->subject.cgroup, sizeof(x->subject.cgroup), g->path);
		snprintf(cause, size,
			 ": cgroup %s throttles them (%s limits %s: %.0f%% of the limit)", g->path,
			 g->version == 1 ? "v1 blkio.throttle" : "v2 io.max", lim, use);
		snprintf(why, wsize, ", throttled by cgroup %s", g->path);
		x->weight += use;
		report_finding_ev(x, "limit_use", use, "%");
		report_finding_ev(x, "read_rate", (double)g->io_rbytes / d->seconds, "B/s");
		report_finding_ev(x, "write_rate", (double)g->io_wbytes / d->seconds, "B/s");
		if (g->io_limit.rbps)
			report_finding_ev(x, "read_bps_limit", (double)g->io_limit.rbps, "B/s");
		if (g->io_limit.wbps)
			report_finding_ev(x, "write_bps_limit", (double)g->io_limit.wbps, "B/s");
		if (!x->subject.npids)
			for (size_t i = 0; i < g->npids; i++)
				report_finding_pid(x, g->pids[i]);
		if (!x->subject.pid && g->npids)
			x->subject.pid = g->pids[0];
	} else if (st->cause == STALL_NETFS) {
		const char *fs = netfs_waited(d);

		report_set_str(x->subject.fstype, sizeof(x->subject.fstype), fs);
		snprintf(cause, size, ": the tasks wait on a %s file system, not on a local disk",
			 fs);
		snprintf(why, wsize, ", on a %s file system", fs);
	}
}

static void stall_next(const struct stall *st, struct rp_finding *x)
{
	char pids[200];

	if (!x->subject.npids) {
		report_finding_next(x, "See which processes do the I/O",
				    "triage pidstat -d -p ALL 1 5");
		return;
	}
	report_pid_list(x->subject.pids, x->subject.npids, pids, sizeof(pids));
	if (st->cause == STALL_NETFS)
		report_finding_next(x, "See where they wait", "triage probe offcpu -p %d -d 10",
				    (int)x->subject.pid);
	else
		report_finding_next(x, "See their I/O rates", "triage pidstat -d -p %s 1 5", pids);
}

/* One io-stall finding: the stall's waiters and cause, with the host's PSI and busiest disk. */
static int stall_finding(const struct report_data *d, const struct stall *st, double psi,
			 struct report_findings *f)
{
	const struct rp_disk *b = busiest_disk(d);
	struct rp_finding *x;
	char who[600], cause[600], why[300], disk[160] = "";
	unsigned n;

	if (!(x = report_finding_add(f, RK_IO_STALL,
				     psi >= PSI_IO_SOME_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	report_finding_ev(x, "psi_io_some", psi, "%");
	n = io_waiters(d, st, x, who, sizeof(who));
	x->weight = 1000.0 * n; /* most waiters first, then the fullest use of a limit */
	io_cause(d, st, x, cause, sizeof(cause), why, sizeof(why));
	if (b) {
		snprintf(disk, sizeof(disk), " (busiest %s: %.0f%% busy, %.2f requests queued)",
			 b->name, b->util_pct, b->aqu_sz);
		report_finding_ev(x, "disk_util", b->util_pct, "%");
		report_finding_ev(x, "disk_aqu_sz", b->aqu_sz, "requests");
	}
	report_finding_ev(x, "io_waiters", n, "tasks");
	report_finding_say(
	    x,
	    "Some task waited on I/O %.0f%% of the window (PSI io some) while no disk was "
	    "saturated%s%s; %s%s.",
	    psi, disk, cause, n ? "in D on I/O at the end: " : "no task was caught in D on I/O",
	    who);
	report_finding_brief(x, "Tasks waited on I/O %.0f%% of the window with no disk saturated%s",
			     psi, why);
	stall_next(st, x);
	return 0;
}

/*
 * One finding per cause: each cgroup with an I/O limit that holds a waiter
 * or ran at its limit, the waiters on network or FUSE file systems; when
 * neither, one naming whatever waited.
 */
int report_rule_io_stall(const struct report_data *d, struct report_findings *f)
{
	double psi = d->have_psi[RP_PSI_IO] ? d->psi_some[RP_PSI_IO] : 0;
	struct stall st = { STALL_NETFS, NULL };
	unsigned made = 0;

	if (psi < PSI_IO_SOME_WARN_PCT)
		return 0;
	for (size_t i = 0; i < d->ndisks; i++)
		if (report_disk_is_saturated(&d->disks[i]))
			return 0; /* disk-saturated explains the wait */
	for (size_t i = 0; i < d->ncgroups; i++) {
		struct stall c = { STALL_CGROUP, &d->cgroups[i] };

		if (!c.g->has_io ||
		    (!count_waiters(d, &c) && limit_use_pct(c.g, d->seconds) < IO_LIMIT_NEAR_PCT))
			continue;
		if (stall_finding(d, &c, psi, f))
			return -ENOMEM;
		made++;
	}
	if (count_waiters(d, &st)) {
		if (stall_finding(d, &st, psi, f))
			return -ENOMEM;
		made++;
	}
	st.cause = STALL_UNEXPLAINED;
	return made ? 0 : stall_finding(d, &st, psi, f);
}

int report_rule_net_drops(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nifaces; i++) {
		const struct rp_iface *n = &d->ifaces[i];
		uint64_t bad = n->rx_drop + n->tx_drop + n->rx_errs + n->tx_errs;
		struct rp_finding *x;

		if (bad < NET_DROPS_MIN || (double)bad / d->seconds < NET_DROPS_WARN_S)
			continue;
		if (!(x = report_finding_add(f, RK_NET_DROPS, SEV_DEFAULT)))
			return -ENOMEM;
		report_set_str(x->subject.iface, sizeof(x->subject.iface), n->name);
		x->weight = (double)bad;
		report_finding_say(
		    x,
		    "Interface %s dropped %llu received and %llu sent packets and counted %llu "
		    "receive and %llu send errors in %.1f s (rx %.0f kB/s, tx %.0f kB/s).",
		    n->name, (unsigned long long)n->rx_drop, (unsigned long long)n->tx_drop,
		    (unsigned long long)n->rx_errs, (unsigned long long)n->tx_errs, d->seconds,
		    n->rx_kb_s, n->tx_kb_s);
		report_finding_brief(x, "Interface %s dropped or errored %llu packets in %.1f s",
				     n->name, (unsigned long long)bad, d->seconds);
		report_finding_next(x, "", "ip -s -s link show dev %s", n->name);
		report_finding_ev(x, "rx_drop", (double)n->rx_drop, "packets");
		report_finding_ev(x, "tx_drop", (double)n->tx_drop, "packets");
		report_finding_ev(x, "errors", (double)(n->rx_errs + n->tx_errs), "packets");
	}
	return report_rule_softnet_drops(d, f); /* and the CPUs' backlogs (rules_host.c) */
}

/* "in our network namespace" or "in the network namespace of PID 12 comm". */
static void netns_words(const struct report_data *d, const struct rp_netns *ns,
			struct rp_finding *x, char *buf, size_t size)
{
	const struct rp_proc *p;

	if (ns->ours) {
		snprintf(buf, size, "in the host's network namespace");
		return;
	}
	for (size_t k = 0; k < ns->npids; k++)
		report_finding_pid(x, ns->pids[k]);
	x->subject.pid = ns->pids[0];
	p = report_proc_by_pid(d, ns->pids[0]);
	if (p)
		report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
	snprintf(buf, size, "in the network namespace of PID %d%s%s (%zu process%s)",
		 (int)ns->pids[0], p ? " " : "", p ? p->comm : "", ns->npids,
		 ns->npids > 1 ? "es" : "");
}

#define RETRANS_LEAD "See the connections' retransmits and RTT"

/*
 * The retransmits that say packets are lost. A SYN sent again to a
 * listener whose accept queue overflowed was not lost on the way: the
 * server dropped it (tcp-listen-overflows says so), so while a namespace's
 * listen queues overflow its SYN retransmits are left out.
 */
static uint64_t lost_retrans(const struct rp_netns *ns)
{
	uint64_t syn = ns->listen_overflows || ns->listen_drops ? ns->syn_retrans : 0;

	return ns->retrans_segs > syn ? ns->retrans_segs - syn : 0;
}

/*
 * Of the segments sent, % sent again. OutSegs counts no retransmission
 * (the kernel counts a segment there only the first time), so the segments
 * sent are OutSegs + RetransSegs, and the share is at most 100%.
 */
static double retrans_share(const struct rp_netns *ns, uint64_t lost)
{
	uint64_t sent = ns->out_segs + ns->retrans_segs;

	return sent ? 100.0 * (double)lost / (double)sent : 0;
}

static int retransmits(const struct report_data *d, const struct rp_netns *ns,
		       struct report_findings *f)
{
	uint64_t lost = lost_retrans(ns);
	double share = retrans_share(ns, lost);
	struct rp_finding *x;
	char where[400];

	if (lost < TCP_RETRANS_MIN || share < TCP_RETRANS_WARN_PCT)
		return 0;
	if (!(x = report_finding_add(f, RK_TCP_RETRANSMITS,
				     share >= TCP_RETRANS_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = share;
	netns_words(d, ns, x, where, sizeof(where));
	report_finding_say(
	    x,
	    "TCP retransmitted %llu of %llu segments sent (%.1f%%) %s: packets are lost on the way "
	    "(drops, congestion, a filter).",
	    (unsigned long long)lost, (unsigned long long)(ns->out_segs + ns->retrans_segs), share,
	    where);
	report_finding_brief(x, "TCP retransmitted %.1f%% of the segments sent %s", share, where);
	if (ns->ours)
		report_finding_next(x, RETRANS_LEAD, "ss -tin state established");
	else
		report_finding_next(x, RETRANS_LEAD, "nsenter -t %d -n ss -tin state established",
				    (int)ns->pids[0]);
	report_finding_ev(x, "retrans_segs", (double)lost, "segments");
	report_finding_ev(x, "out_segs", (double)ns->out_segs, "segments");
	if (lost != ns->retrans_segs)
		report_finding_ev(x, "syn_retrans_to_full_queues",
				  (double)(ns->retrans_segs - lost), "segments");
	report_finding_ev(x, "retrans", share, "%");
	return 0;
}

/* "[::]:8080" or "0.0.0.0:8080" */
static void listener_words(const struct rp_listener *l, char *buf, size_t size)
{
	bool v6 = strchr(l->addr, ':') != NULL;

	snprintf(buf, size, "%s%s%s:%u", v6 ? "[" : "", l->addr, v6 ? "]" : "", l->port);
}

/* The finding names the listener whose queue is full and the process that owns it. */
static int name_listener(const struct report_data *d, const struct rp_netns *ns,
			 struct rp_finding *x, const char *where)
{
	const struct rp_listener *l = &ns->full;
	const struct rp_proc *p = l->pid ? report_proc_by_pid(d, l->pid) : NULL;
	char sock[RP_ADDR_MAX + 12], owner[RP_COMM_MAX + 48], queue[64];

	listener_words(l, sock, sizeof(sock));
	if (l->pid) {
		x->subject.pid = l->pid;
		x->subject.comm[0] = '\0';
		if (p)
			report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
		report_finding_pid(x, l->pid);
		snprintf(owner, sizeof(owner), "PID %d%s%s", (int)l->pid, p ? " " : "",
			 p ? p->comm : "");
	} else {
		snprintf(owner, sizeof(owner), "a process not found");
	}
	if (l->has_backlog)
		snprintf(queue, sizeof(queue), "%llu waiting, backlog %llu",
			 (unsigned long long)l->queue, (unsigned long long)l->backlog);
	else
		snprintf(queue, sizeof(queue), "%llu waiting", (unsigned long long)l->queue);
	report_finding_say(
	    x,
	    "TCP listener %s of %s has a full accept queue (%s): it overflowed %llu times "
	    "and dropped %llu connection attempts in %.1f s %s; the process does not "
	    "accept() as fast as connections arrive.",
	    sock, owner, queue, (unsigned long long)ns->listen_overflows,
	    (unsigned long long)ns->listen_drops, d->seconds, where);
	report_finding_brief(x, "TCP listener %s of %s overflowed its accept queue %llu times",
			     sock, owner, (unsigned long long)ns->listen_overflows);
	if (ns->ours)
		report_finding_next(x, "", "ss -ltnp 'sport = :%u'", l->port);
	else
		report_finding_next(x, "", "nsenter -t %d -n ss -ltnp 'sport = :%u'",
				    (int)ns->pids[0], l->port);
	report_finding_ev(x, "listen_overflows", (double)ns->listen_overflows, "events");
	report_finding_ev(x, "listen_drops", (double)ns->listen_drops, "connections");
	report_finding_ev(x, "port", (double)l->port, "port");
	report_finding_ev(x, "accept_queue", (double)l->queue, "connections");
	if (l->has_backlog)
		report_finding_ev(x, "backlog", (double)l->backlog, "connections");
	return 0;
}

static int listen_overflows(const struct report_data *d, const struct rp_netns *ns,
			    struct report_findings *f)
{
	struct rp_finding *x;
	char where[400];
	bool crit;

	if (!ns->listen_overflows && !ns->listen_drops)
		return 0;
	crit = d->seconds > 0 &&
	       (double)ns->listen_overflows >= TCP_LISTEN_OVERFLOW_CRIT_S * d->seconds;
	if (!(x = report_finding_add(f, RK_TCP_LISTEN_OVERFLOWS,
				     crit ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = (double)ns->listen_drops;
	netns_words(d, ns, x, where, sizeof(where));
	if (ns->has_full)
		return name_listener(d, ns, x, where);
	report_finding_say(
	    x,
	    "TCP listen queues overflowed %llu time%s and dropped %llu connection attempt%s "
	    "%s: a server accepts connections more slowly than they arrive.",
	    (unsigned long long)ns->listen_overflows, ns->listen_overflows == 1 ? "" : "s",
	    (unsigned long long)ns->listen_drops, ns->listen_drops == 1 ? "" : "s", where);
	report_finding_brief(x, "TCP listen queues overflowed %llu time%s %s",
			     (unsigned long long)ns->listen_overflows,
			     ns->listen_overflows == 1 ? "" : "s", where);
	report_finding_next(x, "", "ss -ltn");
	report_finding_ev(x, "listen_overflows", (double)ns->listen_overflows, "events");
	report_finding_ev(x, "listen_drops", (double)ns->listen_drops, "connections");
	return 0;
}

/* "; socket 0.0.0.0:5000 of PID 812 receiver dropped 4100 of them" */
static void udp_socket_words(const struct report_data *d, const struct rp_udp_sock *u,
			     struct rp_finding *x, char *buf, size_t size)
{
	const struct rp_proc *p = u->pid ? report_proc_by_pid(d, u->pid) : NULL;
	bool v6 = strchr(u->addr, ':') != NULL;
	char owner[RP_COMM_MAX + 32] = "a process not found";

	if (u->pid) {
		x->subject.pid = u->pid;
		x->subject.comm[0] = '\0';
		if (p)
			report_set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
		report_finding_pid(x, u->pid);
		snprintf(owner, sizeof(owner), "PID %d%s%s", (int)u->pid, p ? " " : "",
			 p ? p->comm : "");
	}
	snprintf(buf, size, "; socket %s%s%s:%u of %s dropped %llu of them", v6 ? "[" : "", u->addr,
		 v6 ? "]" : "", u->port, owner, (unsigned long long)u->drops);
}

static int udp_drops(const struct report_data *d, const struct rp_netns *ns,
		     struct report_findings *f)
{
	double per_s = d->seconds > 0 ? (double)ns->udp_rcvbuf_errors / d->seconds : 0;
	struct rp_finding *x;
	char where[400], sock[RP_ADDR_MAX + RP_COMM_MAX + 96] = "";

	if (!ns->has_udp || d->seconds <= 0 || per_s < UDP_RCVBUF_WARN_S)
		return 0;
	if (!(x = report_finding_add(f, RK_UDP_DROPS,
				     per_s >= UDP_RCVBUF_CRIT_S ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = per_s;
	netns_words(d, ns, x, where, sizeof(where));
	if (ns->has_udp_top)
		udp_socket_words(d, &ns->udp_top, x, sock, sizeof(sock));
	report_finding_say(
	    x,
	    "UDP dropped %llu datagrams for a full receive buffer (%.0f/s) %s%s: the "
	    "receiver reads more slowly than datagrams arrive, or its SO_RCVBUF is too "
	    "small.",
	    (unsigned long long)ns->udp_rcvbuf_errors, per_s, where, sock);
	report_finding_brief(x, "UDP dropped %.0f datagrams/s for a full receive buffer %s", per_s,
			     where);
	if (ns->ours)
		report_finding_next(x, "", "ss -uanmp");
	else
		report_finding_next(x, "", "nsenter -t %d -n ss -uanmp", (int)ns->pids[0]);
	report_finding_ev(x, "rcvbuf_errors", (double)ns->udp_rcvbuf_errors, "datagrams");
	report_finding_ev(x, "in_errors", (double)ns->udp_in_errors, "datagrams");
	if (ns->has_udp_top) {
		report_finding_ev(x, "port", (double)ns->udp_top.port, "port");
		report_finding_ev(x, "socket_drops", (double)ns->udp_top.drops, "datagrams");
	}
	return 0;
}

int report_rule_udp_drops(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nnetns; i++)
		if (udp_drops(d, &d->netns[i], f))
			return -ENOMEM;
	return 0;
}

int report_rule_tcp_retransmits(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nnetns; i++)
		if (retransmits(d, &d->netns[i], f))
			return -ENOMEM;
	return 0;
}

int report_rule_tcp_listen_overflows(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nnetns; i++)
		if (listen_overflows(d, &d->netns[i], f))
			return -ENOMEM;
	return 0;
}

/* Words and severity of a kernel log event (OOM kills are the memory rules'). */
static const char *event_words(enum kmsg_event e)
{
	switch (e) {
	case KMSG_HUNG_TASK:
		return "a task hung (blocked for longer than the hung-task timeout)";
	case KMSG_SOFT_LOCKUP:
		return "a CPU locked up or stalled";
	case KMSG_SEGFAULT:
		return "a process crashed";
	case KMSG_IO_ERROR:
		return "an I/O error";
	default:
		return "an error";
	}
}

static int io_error(const struct rp_kevent *e, struct report_findings *f)
{
	struct rp_finding *x =
	    report_finding_add(f, RK_DISK_ERRORS, e->in_window ? SEV_DEFAULT : SEV_WARNING);

	if (!x)
		return -ENOMEM;
	report_set_str(x->subject.device, sizeof(x->subject.device), e->device);
	x->weight = -e->age_s;
	report_finding_say(x, "The kernel logged an I/O error on %s %.0f s ago: \"%s\".", e->device,
			   e->age_s, e->text);
	report_finding_next(x, "", "dmesg -T | grep -w %s", e->device);
	report_finding_ev(x, "age", e->age_s, "s");
	return 0;
}

static int kernel_event(const struct rp_kevent *e, struct report_findings *f)
{
	enum report_sev sev =
	    e->event == KMSG_SEGFAULT || !e->in_window ? SEV_WARNING : SEV_CRITICAL;
	struct rp_finding *x;

	if (e->event == KMSG_OTHER_ERROR)
		sev = SEV_INFO;
	if (!(x = report_finding_add(f, RK_KERNEL_ERRORS, sev)))
		return -ENOMEM;
	x->subject.pid = e->pid;
	report_set_str(x->subject.comm, sizeof(x->subject.comm), e->comm);
	x->weight = -e->age_s;
	report_finding_say(x, "The kernel logged %s %.0f s ago: \"%s\".", event_words(e->event),
			   e->age_s, e->text);
	report_finding_next(x, "", "dmesg -T --level=emerg,alert,crit,err,warn");
	report_finding_ev(x, "age", e->age_s, "s");
	return 0;
}

#define RP_MAX_OTHER_ERRORS 3 /* plain error lines reported; the rest are counted */

int report_rule_disk_errors(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nkevents; i++)
		if (d->kevents[i].event == KMSG_IO_ERROR && io_error(&d->kevents[i], f))
			return -ENOMEM;
	return 0;
}

/* Hung tasks, lockups, segfaults, other errors (I/O errors and OOM kills have their kinds). */
int report_rule_kernel_errors(const struct report_data *d, struct report_findings *f)
{
	unsigned other = 0;

	for (size_t i = 0; i < d->nkevents; i++) {
		const struct rp_kevent *e = &d->kevents[i];

		/* I/O errors, OOM kills and full tables are their kinds' evidence */
		if (e->event == KMSG_IO_ERROR || e->event == KMSG_OOM_KILL ||
		    e->event == KMSG_FILE_MAX || e->event == KMSG_CONNTRACK_FULL)
			continue;
		if (e->event == KMSG_OTHER_ERROR && ++other > RP_MAX_OTHER_ERRORS)
			continue;
		if (e->event == KMSG_HUNG_TASK ? report_kmsg_hung_task(e, f) : kernel_event(e, f))
			return -ENOMEM;
	}
	return 0;
}
