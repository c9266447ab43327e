/* test: shared -- pure code and its own process; see docs/testing.md */
/*
 * taskstats reply parsing (src/procfs/taskstats.c): a reply is built the
 * way the kernel lays it out (genl header, AGGR_PID nest holding PID and
 * STATS), and the parser must find the UID and switch counts in it, and
 * reject truncated or error replies.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <string.h>

#include "procfs/taskstats.h"
#include "unit.h"

static size_t put_attr(char *p, uint16_t type, const void *data, size_t len)
{
	struct nlattr na = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = type };

	memcpy(p, &na, sizeof(na));
	if (data)
		memcpy(p + NLA_HDRLEN, data, len);
	return NLA_ALIGN(na.nla_len);
}

static size_t build_reply(char *buf, size_t stats_len)
{
	struct nlmsghdr h = { 0 };
	struct genlmsghdr g = { .cmd = TASKSTATS_CMD_NEW, .version = 1 };
	struct taskstats ts;
	uint32_t pid = 4242;
	char nest[sizeof(ts) + 64];
	size_t n = 0, off;

	memset(&ts, 0, sizeof(ts));
	ts.ac_uid = 1000;
	ts.nvcsw = 123456789012ull;
	ts.nivcsw = 42;
	n += put_attr(nest + n, TASKSTATS_TYPE_PID, &pid, sizeof(pid));
	n += put_attr(nest + n, TASKSTATS_TYPE_STATS, &ts, stats_len);
	off = NLMSG_HDRLEN + GENL_HDRLEN;
	off += put_attr(buf + off, TASKSTATS_TYPE_AGGR_PID, nest, n);
	h.nlmsg_len = (uint32_t)off;
	h.nlmsg_type = 30;
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &g, sizeof(g));
	return off;
}

TEST(reply_fields)
{
	char buf[2048];
	size_t len = build_reply(buf, sizeof(struct taskstats));
	struct taskstats_brief b;

	ASSERT_EQ(procfs_taskstats_parse_reply(buf, len, &b), 0);
	ASSERT_EQ(b.uid, 1000);
	ASSERT_UEQ(b.nvcsw, 123456789012ull);
	ASSERT_UEQ(b.nivcsw, 42);
}

TEST(short_stats_rejected)
{
	char buf[2048];
	size_t len = build_reply(buf, offsetof(struct taskstats, nvcsw));
	struct taskstats_brief b;

	ASSERT_EQ(procfs_taskstats_parse_reply(buf, len, &b), -EINVAL);
	ASSERT_EQ(procfs_taskstats_parse_reply(buf, 10, &b), -EINVAL);
}

TEST(error_reply)
{
	char buf[64];
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct nlmsgerr)),
			      .nlmsg_type = NLMSG_ERROR };
	struct nlmsgerr e = { .error = -ESRCH };
	struct taskstats_brief b;

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + NLMSG_HDRLEN, &e, sizeof(e));
	ASSERT_EQ(procfs_taskstats_parse_reply(buf, h.nlmsg_len, &b), -ESRCH);
}

int main(void)
{
	struct unit_state st = { 0 };

	RUN(&st, reply_fields);
	RUN(&st, short_stats_rejected);
	RUN(&st, error_reply);
	UNIT_MAIN_END(&st);
}
