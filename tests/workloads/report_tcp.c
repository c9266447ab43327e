/*
 * TCP for the retransmit scenario, one end per network namespace.
 *   report_tcp server PORT SECS            accepts one connection and
 *                                          discards what it reads
 *   report_tcp client ADDR PORT SEGS SECS  sends SEGS segments a second
 *                                          (1000 bytes each, TCP_NODELAY)
 * Each prints "server PID" / "client PID", then "ready" once listening /
 * connected.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

static int server(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0), c;
	char buf[65536];

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(s, 1) != 0)
		return 1;
	rw_say("server %d", getpid());
	rw_say("ready");
	c = accept(s, NULL, NULL);
	if (c < 0)
		return 1;
	while (read(c, buf, sizeof(buf)) > 0)
		;
	return 0;
}

static int client(const char *addr, int port, int rate)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timespec next;
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);
	char seg[1000];

	if (s < 0 || rate < 1 || inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		return 2;
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) != 0)
		return 1;
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	memset(seg, 'x', sizeof(seg));
	rw_say("client %d", getpid());
	rw_say("ready");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (write(s, seg, sizeof(seg)) != (ssize_t)sizeof(seg))
			return 1;
		next.tv_nsec += 1000000000L / rate;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "server")) {
		rw_lifetime(argv[3]);
		return server(atoi(argv[2]));
	}
	if (argc == 6 && !strcmp(argv[1], "client")) {
		rw_lifetime(argv[5]);
		return client(argv[2], atoi(argv[3]), atoi(argv[4]));
	}
	rw_usage("report_tcp server PORT SECS | client ADDR PORT SEGS SECS");
	return 2;
}
