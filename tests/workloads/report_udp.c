/*
 * UDP receive-buffer drops; the test runs the two ends in a network
 * namespace of its own.
 *   report_udp recv PORT RCVBUF SECS     binds 0.0.0.0:PORT with SO_RCVBUF
 *                                        RCVBUF bytes and reads one datagram
 *                                        every 100 ms: a slow consumer whose
 *                                        buffer overflows
 *   report_udp send ADDR PORT RATE SECS  sends 1000-byte datagrams to
 *                                        ADDR:PORT, RATE a second (in 1 ms
 *                                        batches)
 * Each prints "receiver PID" / "sender PID", then "ready" once bound /
 * once the first batch is sent. The kernel's Udp RcvbufErrors and the
 * socket's drops column are the tests' oracle.
 */
#define _GNU_SOURCE
#include "report_common.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

static int receiver(int port, int rcvbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct timespec next;
	char buf[2048];

	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)) ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)))
		return 1;
	rw_say("receiver %d", getpid());
	rw_say("ready");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (recv(s, buf, sizeof(buf), 0) < 0)
			return 1;
		rw_pace(&next, 100000000L);
	}
}

static int sender(const char *addr, int port, long rate)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct timespec next;
	char dgram[1000];
	long per_ms = rate / 1000 > 0 ? rate / 1000 : 1;

	if (s < 0 || rate < 1 || inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		return 2;
	memset(dgram, 'u', sizeof(dgram));
	rw_say("sender %d", getpid());
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (int first = 1;; first = 0) {
		for (long i = 0; i < per_ms; i++)
			(void)sendto(s, dgram, sizeof(dgram), 0, (struct sockaddr *)&a, sizeof(a));
		if (first)
			rw_say("ready");
		rw_pace(&next, rate >= 1000 ? 1000000L : 1000000000L / rate);
	}
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "recv")) {
		rw_lifetime(argv[4]);
		return receiver(atoi(argv[2]), atoi(argv[3]));
	}
	if (argc == 6 && !strcmp(argv[1], "send")) {
		rw_lifetime(argv[5]);
		return sender(argv[2], atoi(argv[3]), atol(argv[4]));
	}
	rw_usage("report_udp recv PORT RCVBUF SECS | send ADDR PORT RATE SECS");
	return 2;
}
