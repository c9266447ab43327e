/*
 * A TCP listener whose accept queue overflows.
 *   report_listen server PORT BACKLOG SECS   listens on 0.0.0.0:PORT with
 *                                            BACKLOG and never accepts
 *   report_listen clients ADDR PORT RATE SECS  starts RATE non-blocking
 *                                            connects a second to ADDR:PORT
 *                                            and closes each after 2 s
 * Each prints "listener PID" / "clients PID", then "ready" once listening /
 * once the first connect is started. Once BACKLOG + 1 connections wait
 * for an accept, the kernel drops every further SYN and counts it in
 * TcpExt ListenOverflows: the tests' oracle.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#define HOLD_S 2

static int server(int port, int backlog)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, s = socket(AF_INET, SOCK_STREAM, 0);

	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, backlog))
		return 1;
	rw_say("listener %d", getpid());
	rw_say("ready");
	for (;;)
		pause();
}

static int clients(const char *addr, int port, long rate)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct timespec next;
	size_t ring_len = (size_t)rate * HOLD_S, at = 0;
	int *ring;

	if (rate < 1 || rate > 2000 || inet_pton(AF_INET, addr, &a.sin_addr) != 1 ||
	    !(ring = calloc(ring_len, sizeof(*ring))))
		return 2;
	for (size_t i = 0; i < ring_len; i++)
		ring[i] = -1;
	rw_say("clients %d", getpid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int first = 1;; first = 0) {
		if (ring[at] >= 0)
			close(ring[at]); /* the one started HOLD_S seconds ago */
		ring[at] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (ring[at] >= 0)
			(void)connect(ring[at], (struct sockaddr *)&a, sizeof(a));
		at = (at + 1) % ring_len;
		if (first)
			rw_say("ready");
		rw_pace(&next, 1000000000L / rate);
	}
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "server")) {
		rw_lifetime(argv[4]);
		return server(atoi(argv[2]), atoi(argv[3]));
	}
	if (argc == 6 && !strcmp(argv[1], "clients")) {
		rw_lifetime(argv[5]);
		return clients(argv[2], atoi(argv[3]), atol(argv[4]));
	}
	rw_usage("report_listen server PORT BACKLOG SECS | clients ADDR PORT RATE SECS");
	return 2;
}
