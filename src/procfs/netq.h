/*
 * Where a network namespace drops what it receives: UDP sockets and their
 * `drops` (/proc/net/udp, udp6), the UDP MIB (Udp: RcvbufErrors and
 * InErrors of /proc/net/snmp, Udp6 ones of snmp6), softnet backlog drops
 * per CPU (/proc/net/softnet_stat), TCP listeners with their accept queue
 * against their backlog (sock_diag, as `ss -ltn`), and which process owns
 * a socket inode.
 *
 * A namespace is named by dir: NULL for ours (<proc>/net), else a PID in
 * it (its <proc>/PID/net). Parsers are pure; readers return 0 or -errno.
 */
#ifndef TRIAGE_PROCFS_NETQ_H
#define TRIAGE_PROCFS_NETQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs/hoststats.h"
#include "procfs/procfs.h"

#define NET_ADDR_MAX 48 /* an IPv6 address in text */

/* One socket line of /proc/net/udp or udp6, or a TCP listener. */
struct net_sock {
	bool v6;
	char addr[NET_ADDR_MAX]; /* the local address, as inet_ntop writes it */
	unsigned port;
	unsigned uid;
	uint64_t inode;
	uint64_t rx_queue; /* UDP: bytes waiting; TCP listener: the accept queue's length */
	uint64_t drops;	   /* UDP: datagrams dropped (the `drops` column) */
	uint64_t backlog;  /* TCP listener: the backlog listen() was given (sock_diag only) */
	bool has_backlog;
};

struct net_socks {
	struct net_sock *v;
	size_t n, cap;
};

void procfs_net_socks_release(struct net_socks *s);

/*
 * The sockets of a /proc/net/udp{,6} or tcp{,6} text, appended to out;
 * only_listen keeps the TCP ones in LISTEN (state 0A), whose rx_queue the
 * kernel fills with the accept queue's length. Returns 0, -EINVAL, -ENOMEM.
 */
int procfs_net_socks_parse(const char *buf, size_t len, bool v6, bool only_listen,
			   struct net_socks *out);

/* The UDP sockets of a namespace, v4 then v6 (a missing udp6 is no error). */
int procfs_netread_udp_socks(const struct procfs *pf, const char *dir, struct net_socks *out);

/* The UDP MIB of a namespace. */
struct udp_counters {
	uint64_t in_datagrams, in_errors, rcvbuf_errors;    /* Udp: */
	uint64_t in_datagrams6, in_errors6, rcvbuf_errors6; /* Udp6 */
	bool has_v4, has_v6;
};

/* Udp: of a /proc/net/snmp text. */
int procfs_udp_snmp_parse(const char *buf, size_t len, struct udp_counters *out);
/* Udp6 of a /proc/net/snmp6 text ("Udp6RcvbufErrors 3" lines). */
int procfs_udp_snmp6_parse(const char *buf, size_t len, struct udp_counters *out);
int procfs_netread_udp_counters(const struct procfs *pf, const char *dir, struct udp_counters *out);

/* /proc/net/softnet_stat: one line per online CPU, hex columns. */
struct softnet_cpu {
	int cpu;
	uint64_t processed, dropped, time_squeeze;
};

struct softnet {
	struct softnet_cpu c[HOST_MAX_CPUS];
	size_t n;
};

/*
 * Lines carry the CPU in their 13th column on Linux 5.10 and later; older
 * ones are numbered by line, which is wrong when CPUs are offline.
 */
int procfs_softnet_parse(const char *buf, size_t len, struct softnet *out);
int procfs_netread_softnet(const struct procfs *pf, struct softnet *out);

/*
 * TCP listeners of a namespace with their accept queues. Over the
 * kernel's /proc: sock_diag (NETLINK_SOCK_DIAG, entered into pid's
 * namespace, which needs CAP_SYS_ADMIN for another's) gives queue and
 * backlog; where it cannot be had (a fixture tree, no privilege) the
 * /proc/PID/net/tcp{,6} listeners give the queue alone (has_backlog false).
 * pid 0: our namespace.
 */
int procfs_netread_tcp_listeners(const struct procfs *pf, pid_t pid, struct net_socks *out);

/*
 * Pure: the inet_diag_msg records of one sock_diag reply (a run of
 * netlink messages), appended to out. Returns 1 when NLMSG_DONE ended
 * the dump, 0 when more is to come, -errno on NLMSG_ERROR or a short
 * message.
 */
int procfs_inet_diag_reply_parse(const void *buf, size_t len, struct net_socks *out);

/*
 * The owners of socket inodes: for each inodes[i], the first PID among
 * pids (all of <proc> when NULL) with a descriptor "socket:[inode]", or 0.
 * One walk over those processes' fd directories.
 */
int procfs_socket_owners(const struct procfs *pf, const struct id_list *pids,
			 const uint64_t *inodes, size_t n, pid_t *owners);

#endif
