/* Network receive queues and drops of a namespace (see netq.h). */
#define _GNU_SOURCE
#include "procfs/netq.h"
#include "procfs/procfs_impl.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/grow.h"

#define PROC_MAGIC 0x9fa0   /* PROC_SUPER_MAGIC */
#define TCP_STATE_LISTEN 10 /* TCP_LISTEN: "0A" in /proc/net/tcp */

void procfs_net_socks_release(struct net_socks *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static struct net_sock *net_socks_add(struct net_socks *s)
{
	if (s->n == s->cap && util_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return NULL;
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	return &s->v[s->n++];
}

/* The 32-bit words of a /proc/net address ("0100007F" or 4 of them), as the kernel stored them. */
static int hex_addr(const char *hex, size_t n, bool v6, char *out, size_t size)
{
	uint32_t w[4];
	size_t words = v6 ? 4 : 1;

	if (n != words * 8)
		return -EINVAL;
	for (size_t i = 0; i < words; i++) {
		char part[9];
		char *e;

		memcpy(part, hex + i * 8, 8);
		part[8] = '\0';
		w[i] = (uint32_t)strtoul(part, &e, 16);
		if (*e)
			return -EINVAL;
	}
	return inet_ntop(v6 ? AF_INET6 : AF_INET, w, out, (socklen_t)size) ? 0 : -EINVAL;
}

/*
 * "sl: LOCAL REMOTE ST TXQ:RXQ TR:WHEN RETR UID TIMEOUT INODE REF PTR [DROPS]"
 * Returns 1 for a line to skip (the header, another state).
 */
static int sock_line(char *line, bool v6, bool only_listen, struct net_sock *s)
{
	char local[64], remote[64];
	unsigned st, uid;
	unsigned long long txq, rxq, inode, drops = 0;
	char *colon;
	int n;

	n = sscanf(line, " %*u: %63s %63s %x %llx:%llx %*x:%*x %*x %u %*u %llu %*u %*x %llu", local,
		   remote, &st, &txq, &rxq, &uid, &inode, &drops);
	if (n < 7)
		return strstr(line, "local_address") ? 1 : -EINVAL;
	if (only_listen && st != TCP_STATE_LISTEN)
		return 1;
	colon = strchr(local, ':');
	if (!colon || hex_addr(local, (size_t)(colon - local), v6, s->addr, sizeof(s->addr)))
		return -EINVAL;
	s->port = (unsigned)strtoul(colon + 1, NULL, 16);
	s->v6 = v6;
	s->uid = uid;
	s->inode = inode;
	s->rx_queue = rxq;
	s->drops = drops;
	return 0;
}

int procfs_net_socks_parse(const char *buf, size_t len, bool v6, bool only_listen,
			   struct net_socks *out)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[512];
		struct net_sock s = { 0 }, *slot;
		int rc;

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		if (!n)
			continue;
		rc = sock_line(line, v6, only_listen, &s);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (!(slot = net_socks_add(out)))
			return -ENOMEM;
		*slot = s;
	}
	return 0;
}

/* Reads <proc>[/dir]/net/<name> into a heap buffer; its length or -errno. */
static ssize_t read_net(const struct procfs *pf, const char *dir, const char *name, char **buf)
{
	char path[64];
	size_t size = 1 << 20;
	ssize_t n;

	snprintf(path, sizeof(path), "%s%snet/%s", dir ? dir : "", dir ? "/" : "", name);
	if (!(*buf = malloc(size)))
		return -ENOMEM;
	n = procfs_read(pf, path, *buf, size);
	if (n < 0) {
		free(*buf);
		*buf = NULL;
	}
	return n;
}

static int read_socks(const struct procfs *pf, const char *dir, const char *name, bool v6,
		      bool only_listen, struct net_socks *out)
{
	char *buf;
	ssize_t n = read_net(pf, dir, name, &buf);
	int rc;

	if (n < 0)
		return (int)n;
	rc = procfs_net_socks_parse(buf, (size_t)n, v6, only_listen, out);
	free(buf);
	return rc;
}

int procfs_netread_udp_socks(const struct procfs *pf, const char *dir, struct net_socks *out)
{
	int rc = read_socks(pf, dir, "udp", false, false, out);

	if (rc)
		return rc;
	rc = read_socks(pf, dir, "udp6", true, false, out);
	return rc == -ENOENT ? 0 : rc; /* no IPv6 */
}

int procfs_udp_snmp_parse(const char *buf, size_t len, struct udp_counters *out)
{
	if (procfs_snmp_counter(buf, len, "Udp", "InDatagrams", &out->in_datagrams) ||
	    procfs_snmp_counter(buf, len, "Udp", "InErrors", &out->in_errors) ||
	    procfs_snmp_counter(buf, len, "Udp", "RcvbufErrors", &out->rcvbuf_errors))
		return -EINVAL;
	out->has_v4 = true;
	return 0;
}

int procfs_udp_snmp6_parse(const char *buf, size_t len, struct udp_counters *out)
{
	if (procfs_keyed_u64(buf, len, "Udp6InDatagrams", &out->in_datagrams6) ||
	    procfs_keyed_u64(buf, len, "Udp6InErrors", &out->in_errors6) ||
	    procfs_keyed_u64(buf, len, "Udp6RcvbufErrors", &out->rcvbuf_errors6))
		return -EINVAL;
	out->has_v6 = true;
	return 0;
}

int procfs_netread_udp_counters(const struct procfs *pf, const char *dir, struct udp_counters *out)
{
	char *buf;
	ssize_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((n = read_net(pf, dir, "snmp", &buf)) < 0)
		return (int)n;
	rc = procfs_udp_snmp_parse(buf, (size_t)n, out);
	free(buf);
	if (rc)
		return rc;
	if ((n = read_net(pf, dir, "snmp6", &buf)) < 0)
		return 0; /* no IPv6 */
	(void)procfs_udp_snmp6_parse(buf, (size_t)n, out);
	free(buf);
	return 0;
}

int procfs_softnet_parse(const char *buf, size_t len, struct softnet *out)
{
	const char *p = buf, *end = buf + len;

	out->n = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		char line[512];
		unsigned long long col[13];
		struct softnet_cpu *c;
		int got = 0, off;

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = nl ? nl + 1 : end;
		if (!n)
			continue;
		for (const char *q = line; got < 13 && sscanf(q, "%llx%n", &col[got], &off) == 1;
		     q += off)
			got++;
		if (got < 3)
			return -EINVAL;
		if (out->n >= HOST_MAX_CPUS)
			return -E2BIG;
		c = &out->c[out->n];
		c->processed = col[0];
		c->dropped = col[1];
		c->time_squeeze = col[2];
		c->cpu = got == 13 ? (int)col[12] : (int)out->n;
		out->n++;
	}
	return 0;
}

int procfs_netread_softnet(const struct procfs *pf, struct softnet *out)
{
	char *buf;
	ssize_t n = read_net(pf, NULL, "softnet_stat", &buf);
	int rc;

	if (n < 0)
		return (int)n;
	rc = procfs_softnet_parse(buf, (size_t)n, out);
	free(buf);
	return rc;
}

static void diag_sock(const struct inet_diag_msg *m, struct net_sock *s)
{
	s->v6 = m->idiag_family == AF_INET6;
	inet_ntop(m->idiag_family, m->id.idiag_src, s->addr, sizeof(s->addr));
	s->port = ntohs(m->id.idiag_sport);
	s->uid = m->idiag_uid;
	s->inode = m->idiag_inode;
	s->rx_queue = m->idiag_rqueue; /* listeners: sk_ack_backlog */
	s->backlog = m->idiag_wqueue;  /* listeners: sk_max_ack_backlog */
	s->has_backlog = true;
}

int procfs_inet_diag_reply_parse(const void *buf, size_t len, struct net_socks *out)
{
	const struct nlmsghdr *h = buf;
	size_t left = len;

	for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
		struct net_sock *s;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(h);

			return h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) || !e->error ? -EPROTO
										    : e->error;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
			continue;
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg)))
			return -EPROTO;
		if (!(s = net_socks_add(out)))
			return -ENOMEM;
		diag_sock(NLMSG_DATA(h), s);
	}
	return left ? -EPROTO : 0;
}

/* One dump of family's TCP listeners over a sock_diag socket. */
static int diag_dump(int fd, int family, struct net_socks *out)
{
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req = {
		.h = { .nlmsg_len = sizeof(req),
		       .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = (__u8)family,
		       .sdiag_protocol = IPPROTO_TCP,
		       .idiag_states = 1u << TCP_STATE_LISTEN },
	};
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	long buf[8192 / sizeof(long)];
	int rc = 0;

	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&nl, sizeof(nl)) < 0)
		return -errno;
	while (rc == 0) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPROTO;
		rc = procfs_inet_diag_reply_parse(buf, (size_t)n, out);
	}
	return rc < 0 ? rc : 0;
}

struct ns_socket {
	int nsfd;
	int fd; /* out: the socket, or -errno */
};

/* A helper thread enters the namespace, so ours never changes. */
static void *socket_in_ns(void *arg)
{
	struct ns_socket *a = arg;

	if (setns(a->nsfd, CLONE_NEWNET)) {
		a->fd = -errno;
		return NULL;
	}
	a->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (a->fd < 0)
		a->fd = -errno;
	return NULL;
}

/* A sock_diag socket in pid's namespace (ours for 0); an fd or -errno. */
static int diag_socket(const struct procfs *pf, pid_t pid)
{
	struct ns_socket a = { -1, -1 };
	pthread_t t;
	char path[32];
	int rc;

	if (!pid) {
		rc = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
		return rc < 0 ? -errno : rc;
	}
	snprintf(path, sizeof(path), "%d/ns/net", (int)pid);
	if ((a.nsfd = procfs_openat(pf, path, O_RDONLY)) < 0)
		return a.nsfd;
	rc = pthread_create(&t, NULL, socket_in_ns, &a);
	if (!rc)
		pthread_join(t, NULL);
	close(a.nsfd);
	return rc ? -rc : a.fd;
}

static bool proc_is_kernel(const struct procfs *pf)
{
	struct statfs fs;

	return pf->proc_fd >= 0 && !fstatfs(pf->proc_fd, &fs) && fs.f_type == PROC_MAGIC;
}

static int listeners_from_diag(const struct procfs *pf, pid_t pid, struct net_socks *out)
{
	int fd = diag_socket(pf, pid), rc;

	if (fd < 0)
		return fd;
	rc = diag_dump(fd, AF_INET, out);
	if (!rc)
		rc = diag_dump(fd, AF_INET6, out);
	close(fd);
	return rc;
}

int procfs_netread_tcp_listeners(const struct procfs *pf, pid_t pid, struct net_socks *out)
{
	char dir[16];
	int rc;

	out->n = 0;
	if (proc_is_kernel(pf) && !listeners_from_diag(pf, pid, out))
		return 0;
	out->n = 0;
	snprintf(dir, sizeof(dir), "%d", (int)pid);
	rc = read_socks(pf, pid ? dir : NULL, "tcp", false, true, out);
	if (rc)
		return rc;
	rc = read_socks(pf, pid ? dir : NULL, "tcp6", true, true, out);
	return rc == -ENOENT ? 0 : rc;
}

/* The inode of a "socket:[N]" link, or 0. */
static uint64_t socket_inode(int dirfd, const char *name)
{
	char link[64];
	ssize_t n = readlinkat(dirfd, name, link, sizeof(link) - 1);
	unsigned long long ino;

	if (n <= 0)
		return 0;
	link[n] = '\0';
	return sscanf(link, "socket:[%llu]", &ino) == 1 ? ino : 0;
}

/* Claims for pid the inodes among pid's descriptors that have no owner yet. */
static void owners_of(const struct procfs *pf, pid_t pid, const uint64_t *inodes, size_t n,
		      pid_t *owners)
{
	char path[32];
	int fd;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%d/fd", (int)pid);
	if ((fd = procfs_openat(pf, path, O_RDONLY | O_DIRECTORY)) < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		uint64_t ino;

		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    !(ino = socket_inode(fd, e->d_name)))
			continue;
		for (size_t i = 0; i < n; i++)
			if (inodes[i] == ino && !owners[i])
				owners[i] = pid;
	}
	closedir(d);
}

int procfs_socket_owners(const struct procfs *pf, const struct id_list *pids,
			 const uint64_t *inodes, size_t n, pid_t *owners)
{
	struct id_list all = { 0 };
	int rc = 0;

	memset(owners, 0, n * sizeof(*owners));
	if (!pids) {
		if ((rc = procfs_list_pids(pf, &all)))
			goto out;
		pids = &all;
	}
	for (size_t i = 0; i < pids->len; i++)
		owners_of(pf, pids->ids[i], inodes, n, owners);
out:
	procfs_id_list_release(&all);
	return rc;
}
