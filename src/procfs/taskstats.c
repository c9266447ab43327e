#define _GNU_SOURCE
#include "procfs/taskstats.h"

#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

struct ts_request {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[64];
};

static int send_request(struct taskstats_conn *c, uint16_t type, uint8_t cmd, uint16_t atype,
			const void *data, size_t len)
{
	struct ts_request r;
	struct nlattr *na;
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };

	memset(&r, 0, sizeof(r));
	r.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	r.n.nlmsg_type = type;
	r.n.nlmsg_flags = NLM_F_REQUEST;
	r.n.nlmsg_seq = ++c->seq;
	r.g.cmd = cmd;
	r.g.version = 1;
	na = (struct nlattr *)((char *)&r + r.n.nlmsg_len);
	na->nla_type = atype;
	na->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((char *)na + NLA_HDRLEN, data, len);
	r.n.nlmsg_len += NLA_ALIGN(na->nla_len);
	if (sendto(c->fd, &r, r.n.nlmsg_len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
		return -errno;
	return 0;
}

/*
 * Walks the attributes in [p, p + len) for type; returns its payload and
 * length, or NULL. Headers are copied out: buffers need not be aligned.
 */
static const char *find_attr(const char *p, size_t len, uint16_t type, size_t *plen)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr na;
		size_t step;

		memcpy(&na, p, sizeof(na));
		step = NLA_ALIGN(na.nla_len);
		if (na.nla_len < NLA_HDRLEN || na.nla_len > len)
			return NULL;
		if ((na.nla_type & NLA_TYPE_MASK) == type) {
			*plen = na.nla_len - NLA_HDRLEN;
			return p + NLA_HDRLEN;
		}
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return NULL;
}

/* A netlink error message, or the generic payload of a reply. */
static int reply_payload(const void *buf, size_t len, const char **payload, size_t *plen)
{
	struct nlmsghdr h;

	if (len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len > len || h.nlmsg_len < NLMSG_HDRLEN)
		return -EINVAL;
	if (h.nlmsg_type == NLMSG_ERROR) {
		struct nlmsgerr e;

		if (h.nlmsg_len < NLMSG_LENGTH(sizeof(e)))
			return -EINVAL;
		memcpy(&e, (const char *)buf + NLMSG_HDRLEN, sizeof(e));
		return e.error < 0 ? e.error : -EINVAL;
	}
	if (h.nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return -EINVAL;
	*payload = (const char *)buf + NLMSG_HDRLEN + GENL_HDRLEN;
	*plen = h.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	return 0;
}

int procfs_taskstats_parse_reply(const void *buf, size_t len, struct taskstats_brief *out)
{
	const char *p, *aggr, *stats;
	size_t plen, alen, have;
	struct taskstats ts;
	int rc = reply_payload(buf, len, &p, &plen);

	if (rc)
		return rc;
	aggr = find_attr(p, plen, TASKSTATS_TYPE_AGGR_PID, &alen);
	if (!aggr)
		return -EINVAL;
	stats = find_attr(aggr, alen, TASKSTATS_TYPE_STATS, &have);
	if (!stats || have < offsetof(struct taskstats, nivcsw) + sizeof(ts.nivcsw))
		return -EINVAL;
	memset(&ts, 0, sizeof(ts));
	memcpy(&ts, stats, have < sizeof(ts) ? have : sizeof(ts));
	out->uid = ts.ac_uid;
	out->nvcsw = ts.nvcsw;
	out->nivcsw = ts.nivcsw;
	return 0;
}

static int resolve_family(struct taskstats_conn *c)
{
	char buf[4096];
	const char *p, *id;
	size_t plen, idlen;
	ssize_t n;
	int rc = send_request(c, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
			      TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME));

	if (rc)
		return rc;
	n = recv(c->fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	if ((rc = reply_payload(buf, (size_t)n, &p, &plen)))
		return rc;
	id = find_attr(p, plen, CTRL_ATTR_FAMILY_ID, &idlen);
	if (!id || idlen < sizeof(uint16_t))
		return -ENOENT;
	memcpy(&c->family, id, sizeof(uint16_t));
	return 0;
}

int procfs_taskstats_open(struct taskstats_conn *c)
{
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };
	int rc;

	c->seq = 0;
	c->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (c->fd < 0)
		return -errno;
	rc = bind(c->fd, (struct sockaddr *)&me, sizeof(me)) < 0 ? -errno : resolve_family(c);
	if (rc)
		procfs_taskstats_close(c);
	return rc;
}

void procfs_taskstats_close(struct taskstats_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/*
 * Many queries with two syscalls per batch: the kernel answers each request
 * while sendmmsg() runs, so every reply is queued when it returns and
 * recvmmsg() never has to wait (a reply dropped for lack of buffer space
 * just reads as an error for that task).
 */
#define TS_BATCH 32
#define TS_REPLY 1024

static void batch_send(struct taskstats_conn *c, const pid_t *tids, size_t n,
		       struct sockaddr_nl *to, struct ts_request *req, struct mmsghdr *msgs,
		       struct iovec *iov)
{
	for (size_t i = 0; i < n; i++) {
		struct nlattr *na;
		uint32_t id = (uint32_t)tids[i];

		memset(&req[i], 0, sizeof(req[i]));
		req[i].n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
		req[i].n.nlmsg_type = c->family;
		req[i].n.nlmsg_flags = NLM_F_REQUEST;
		req[i].n.nlmsg_seq = ++c->seq;
		req[i].g.cmd = TASKSTATS_CMD_GET;
		req[i].g.version = 1;
		na = (struct nlattr *)((char *)&req[i] + req[i].n.nlmsg_len);
		na->nla_type = TASKSTATS_CMD_ATTR_PID;
		na->nla_len = NLA_HDRLEN + sizeof(id);
		memcpy((char *)na + NLA_HDRLEN, &id, sizeof(id));
		req[i].n.nlmsg_len += NLA_ALIGN(na->nla_len);
		iov[i].iov_base = &req[i];
		iov[i].iov_len = req[i].n.nlmsg_len;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_name = to;
		msgs[i].msg_hdr.msg_namelen = sizeof(*to);
	}
}

static void batch_one(struct taskstats_conn *c, const pid_t *tids, size_t n,
		      struct taskstats_brief *out, int *rcs)
{
	char replies[TS_BATCH][TS_REPLY];
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct ts_request req[TS_BATCH];
	struct mmsghdr msgs[TS_BATCH];
	struct iovec iov[TS_BATCH];
	uint32_t first_seq = c->seq + 1;
	int sent, got;

	for (size_t i = 0; i < n; i++)
		rcs[i] = -EIO;
	batch_send(c, tids, n, &to, req, msgs, iov);
	sent = sendmmsg(c->fd, msgs, (unsigned)n, 0);
	if (sent <= 0)
		return;
	for (int i = 0; i < sent; i++) {
		iov[i].iov_base = replies[i];
		iov[i].iov_len = TS_REPLY;
		memset(&msgs[i], 0, sizeof(msgs[i]));
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	got = recvmmsg(c->fd, msgs, (unsigned)sent, MSG_DONTWAIT, NULL);
	for (int i = 0; i < got; i++) {
		struct nlmsghdr h;
		uint32_t k;

		if (msgs[i].msg_len < NLMSG_HDRLEN)
			continue;
		memcpy(&h, replies[i], sizeof(h));
		k = h.nlmsg_seq - first_seq;
		if (k >= (uint32_t)sent)
			continue;
		rcs[k] = procfs_taskstats_parse_reply(replies[i], msgs[i].msg_len, &out[k]);
	}
	/* a short read means something odd was queued: drain it */
	if (got != sent)
		while (recv(c->fd, replies[0], TS_REPLY, MSG_DONTWAIT) > 0)
			;
}

void procfs_taskstats_query_many(struct taskstats_conn *c, const pid_t *tids, size_t n,
				 struct taskstats_brief *out, int *rcs)
{
	for (size_t i = 0; i < n; i += TS_BATCH)
		batch_one(c, tids + i, n - i < TS_BATCH ? n - i : TS_BATCH, out + i, rcs + i);
}

int procfs_taskstats_query(struct taskstats_conn *c, pid_t tid, struct taskstats_brief *out)
{
	char buf[1024];
	uint32_t id = (uint32_t)tid;
	ssize_t n;
	int rc =
	    send_request(c, c->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &id, sizeof(id));

	if (rc)
		return rc;
	n = recv(c->fd, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	return procfs_taskstats_parse_reply(buf, (size_t)n, out);
}
