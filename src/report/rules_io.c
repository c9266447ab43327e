/* Rules for disks (iostat -xz figures), network interfaces, TCP and the kernel log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/findings.h"
#include "report/rules.h"
#include "report/thresholds.h"

int rule_disk_saturated(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->ndisks; i++) {
		const struct rp_disk *k = &d->disks[i];
		struct rp_finding *x;
		char psi[64];

		if (k->util_pct < DISK_UTIL_WARN_PCT)
			continue;
		if (!(x = finding_add(f, RK_DISK_SATURATED, SEV_DEFAULT)))
			return -ENOMEM;
		set_str(x->subject.device, sizeof(x->subject.device), k->name);
		x->weight = k->util_pct;
		finding_brief(x, "Device %s was busy %.0f%% of the window", k->name, k->util_pct);
		finding_say(x,
			    "Device %s was busy %.0f%% of the window: %.0f reads/s (%.0f kB/s), "
			    "%.0f writes/s (%.0f kB/s), %.2f ms average wait, %.2f requests queued "
			    "on average%s.",
			    k->name, k->util_pct, k->r_s, k->rkb_s, k->w_s, k->wkb_s, k->await_ms,
			    k->aqu_sz,
			    psi_phrase(d, RP_PSI_IO, "; some task waited on I/O ",
				       " of the time (PSI)", psi, sizeof(psi)));
		finding_next(x, "See which processes do the I/O", "triage pidstat -d -p ALL 1 5");
		finding_ev(x, "util", k->util_pct, "%");
		finding_ev(x, "r_s", k->r_s, "/s");
		finding_ev(x, "w_s", k->w_s, "/s");
		finding_ev(x, "await", k->await_ms, "ms");
		finding_ev(x, "aqu_sz", k->aqu_sz, "requests");
	}
	return 0;
}

int rule_net_drops(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nifaces; i++) {
		const struct rp_iface *n = &d->ifaces[i];
		uint64_t bad = n->rx_drop + n->tx_drop + n->rx_errs + n->tx_errs;
		struct rp_finding *x;

		if (bad < NET_DROPS_MIN || (double)bad / d->seconds < NET_DROPS_WARN_S)
			continue;
		if (!(x = finding_add(f, RK_NET_DROPS, SEV_DEFAULT)))
			return -ENOMEM;
		set_str(x->subject.iface, sizeof(x->subject.iface), n->name);
		x->weight = (double)bad;
		finding_say(
		    x,
		    "Interface %s dropped %llu received and %llu sent packets and counted %llu "
		    "receive and %llu send errors in %.1f s (rx %.0f kB/s, tx %.0f kB/s).",
		    n->name, (unsigned long long)n->rx_drop, (unsigned long long)n->tx_drop,
		    (unsigned long long)n->rx_errs, (unsigned long long)n->tx_errs, d->seconds,
		    n->rx_kb_s, n->tx_kb_s);
		finding_brief(x, "Interface %s dropped or errored %llu packets in %.1f s", n->name,
			      (unsigned long long)bad, d->seconds);
		finding_next(x, "", "ip -s -s link show dev %s", n->name);
		finding_ev(x, "rx_drop", (double)n->rx_drop, "packets");
		finding_ev(x, "tx_drop", (double)n->tx_drop, "packets");
		finding_ev(x, "errors", (double)(n->rx_errs + n->tx_errs), "packets");
	}
	return rule_softnet_drops(d, f); /* and the CPUs' backlogs (rules_host.c) */
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
		finding_pid(x, ns->pids[k]);
	x->subject.pid = ns->pids[0];
	p = proc_by_pid(d, ns->pids[0]);
	if (p)
		set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
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
	if (!(x = finding_add(f, RK_TCP_RETRANSMITS,
			      share >= TCP_RETRANS_CRIT_PCT ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = share;
	netns_words(d, ns, x, where, sizeof(where));
	finding_say(
	    x,
	    "TCP retransmitted %llu of %llu segments sent (%.1f%%) %s: packets are lost on the way "
	    "(drops, congestion, a filter).",
	    (unsigned long long)lost, (unsigned long long)(ns->out_segs + ns->retrans_segs), share,
	    where);
	finding_brief(x, "TCP retransmitted %.1f%% of the segments sent %s", share, where);
	if (ns->ours)
		finding_next(x, RETRANS_LEAD, "ss -tin state established");
	else
		finding_next(x, RETRANS_LEAD, "nsenter -t %d -n ss -tin state established",
			     (int)ns->pids[0]);
	finding_ev(x, "retrans_segs", (double)lost, "segments");
	finding_ev(x, "out_segs", (double)ns->out_segs, "segments");
	if (lost != ns->retrans_segs)
		finding_ev(x, "syn_retrans_to_full_queues", (double)(ns->retrans_segs - lost),
			   "segments");
	finding_ev(x, "retrans", share, "%");
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
	const struct rp_proc *p = l->pid ? proc_by_pid(d, l->pid) : NULL;
	char sock[RP_ADDR_MAX + 12], owner[RP_COMM_MAX + 48], queue[64];

	listener_words(l, sock, sizeof(sock));
	if (l->pid) {
		x->subject.pid = l->pid;
		x->subject.comm[0] = '\0';
		if (p)
			set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
		finding_pid(x, l->pid);
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
	finding_say(x,
		    "TCP listener %s of %s has a full accept queue (%s): it overflowed %llu times "
		    "and dropped %llu connection attempts in %.1f s %s; the process does not "
		    "accept() as fast as connections arrive.",
		    sock, owner, queue, (unsigned long long)ns->listen_overflows,
		    (unsigned long long)ns->listen_drops, d->seconds, where);
	finding_brief(x, "TCP listener %s of %s overflowed its accept queue %llu times", sock,
		      owner, (unsigned long long)ns->listen_overflows);
	if (ns->ours)
		finding_next(x, "", "ss -ltnp 'sport = :%u'", l->port);
	else
		finding_next(x, "", "nsenter -t %d -n ss -ltnp 'sport = :%u'", (int)ns->pids[0],
			     l->port);
	finding_ev(x, "listen_overflows", (double)ns->listen_overflows, "events");
	finding_ev(x, "listen_drops", (double)ns->listen_drops, "connections");
	finding_ev(x, "port", (double)l->port, "port");
	finding_ev(x, "accept_queue", (double)l->queue, "connections");
	if (l->has_backlog)
		finding_ev(x, "backlog", (double)l->backlog, "connections");
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
	if (!(x = finding_add(f, RK_TCP_LISTEN_OVERFLOWS, crit ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = (double)ns->listen_drops;
	netns_words(d, ns, x, where, sizeof(where));
	if (ns->has_full)
		return name_listener(d, ns, x, where);
	finding_say(x,
		    "TCP listen queues overflowed %llu times and dropped %llu connection attempts "
		    "%s: a server accepts connections more slowly than they arrive.",
		    (unsigned long long)ns->listen_overflows, (unsigned long long)ns->listen_drops,
		    where);
	finding_brief(x, "TCP listen queues overflowed %llu times %s",
		      (unsigned long long)ns->listen_overflows, where);
	finding_next(x, "", "ss -ltn");
	finding_ev(x, "listen_overflows", (double)ns->listen_overflows, "events");
	finding_ev(x, "listen_drops", (double)ns->listen_drops, "connections");
	return 0;
}

/* "; socket 0.0.0.0:5000 of PID 812 receiver dropped 4100 of them" */
static void udp_socket_words(const struct report_data *d, const struct rp_udp_sock *u,
			     struct rp_finding *x, char *buf, size_t size)
{
	const struct rp_proc *p = u->pid ? proc_by_pid(d, u->pid) : NULL;
	bool v6 = strchr(u->addr, ':') != NULL;
	char owner[RP_COMM_MAX + 32] = "a process not found";

	if (u->pid) {
		x->subject.pid = u->pid;
		x->subject.comm[0] = '\0';
		if (p)
			set_str(x->subject.comm, sizeof(x->subject.comm), p->comm);
		finding_pid(x, u->pid);
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
	if (!(x = finding_add(f, RK_UDP_DROPS,
			      per_s >= UDP_RCVBUF_CRIT_S ? SEV_CRITICAL : SEV_DEFAULT)))
		return -ENOMEM;
	x->weight = per_s;
	netns_words(d, ns, x, where, sizeof(where));
	if (ns->has_udp_top)
		udp_socket_words(d, &ns->udp_top, x, sock, sizeof(sock));
	finding_say(x,
		    "UDP dropped %llu datagrams for a full receive buffer (%.0f/s) %s%s: the "
		    "receiver reads more slowly than datagrams arrive, or its SO_RCVBUF is too "
		    "small.",
		    (unsigned long long)ns->udp_rcvbuf_errors, per_s, where, sock);
	finding_brief(x, "UDP dropped %.0f datagrams/s for a full receive buffer %s", per_s, where);
	if (ns->ours)
		finding_next(x, "", "ss -uanmp");
	else
		finding_next(x, "", "nsenter -t %d -n ss -uanmp", (int)ns->pids[0]);
	finding_ev(x, "rcvbuf_errors", (double)ns->udp_rcvbuf_errors, "datagrams");
	finding_ev(x, "in_errors", (double)ns->udp_in_errors, "datagrams");
	if (ns->has_udp_top) {
		finding_ev(x, "port", (double)ns->udp_top.port, "port");
		finding_ev(x, "socket_drops", (double)ns->udp_top.drops, "datagrams");
	}
	return 0;
}

int rule_udp_drops(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nnetns; i++)
		if (udp_drops(d, &d->netns[i], f))
			return -ENOMEM;
	return 0;
}

int rule_tcp_retransmits(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nnetns; i++)
		if (retransmits(d, &d->netns[i], f))
			return -ENOMEM;
	return 0;
}

int rule_tcp_listen_overflows(const struct report_data *d, struct report_findings *f)
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
	    finding_add(f, RK_DISK_ERRORS, e->in_window ? SEV_DEFAULT : SEV_WARNING);

	if (!x)
		return -ENOMEM;
	set_str(x->subject.device, sizeof(x->subject.device), e->device);
	x->weight = -e->age_s;
	finding_say(x, "The kernel logged an I/O error on %s %.0f s ago: \"%s\".", e->device,
		    e->age_s, e->text);
	finding_next(x, "", "dmesg -T | grep -w %s", e->device);
	finding_ev(x, "age", e->age_s, "s");
	return 0;
}

static int kernel_event(const struct rp_kevent *e, struct report_findings *f)
{
	enum report_sev sev =
	    e->event == KMSG_SEGFAULT || !e->in_window ? SEV_WARNING : SEV_CRITICAL;
	struct rp_finding *x;

	if (e->event == KMSG_OTHER_ERROR)
		sev = SEV_INFO;
	if (!(x = finding_add(f, RK_KERNEL_ERRORS, sev)))
		return -ENOMEM;
	x->subject.pid = e->pid;
	set_str(x->subject.comm, sizeof(x->subject.comm), e->comm);
	x->weight = -e->age_s;
	finding_say(x, "The kernel logged %s %.0f s ago: \"%s\".", event_words(e->event), e->age_s,
		    e->text);
	finding_next(x, "", "dmesg -T --level=emerg,alert,crit,err,warn");
	finding_ev(x, "age", e->age_s, "s");
	return 0;
}

#define RP_MAX_OTHER_ERRORS 3 /* plain error lines reported; the rest are counted */

int rule_disk_errors(const struct report_data *d, struct report_findings *f)
{
	for (size_t i = 0; i < d->nkevents; i++)
		if (d->kevents[i].event == KMSG_IO_ERROR && io_error(&d->kevents[i], f))
			return -ENOMEM;
	return 0;
}

/* Hung tasks, lockups, segfaults, other errors (I/O errors and OOM kills have their kinds). */
int rule_kernel_errors(const struct report_data *d, struct report_findings *f)
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
		if (e->event == KMSG_HUNG_TASK ? kmsg_hung_task(e, f) : kernel_event(e, f))
			return -ENOMEM;
	}
	return 0;
}
