/*
 * The Prometheus endpoint, served by libmicrohttpd on its own thread:
 * /metrics (text format 0.0.4, OpenMetrics 1.0.0 when the Accept header
 * asks for it), /healthz (200 while samples keep coming), and /report
 * (the last report window's JSON, 503 before the first window ends).
 * The run loop publishes each interval's metric set; a scrape renders the
 * last one.
 */
#ifndef TRIAGE_COLLECT_HTTP_H
#define TRIAGE_COLLECT_HTTP_H

#include <sys/socket.h>

#include "collect/model.h"

struct http_server;

/*
 * addr "IP:PORT" (IPv4 or [IPv6]:PORT), or "PORT" / ":PORT" for
 * 127.0.0.1:PORT. interval: the collector's, for /healthz. 0, -EINVAL, or
 * -errno of the listen.
 */
int http_server_start(struct http_server **out, const char *addr, double interval);
void http_server_stop(struct http_server *hs);
/* Swaps *m with the published set (the caller keeps the old one to reuse). */
void http_server_publish(struct http_server *hs, struct metric_set *m);
/* Takes json (malloc'd, len bytes) as /report's body; frees the one before. */
void http_server_publish_report(struct http_server *hs, char *json, size_t len);
/* addr (as http_server_start takes it) into a socket address; 0 or -EINVAL. Pure. */
int http_parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len);
/*
 * /healthz: 200 "ok" when a sample was published within three intervals
 * (plus 5 s), else 503 with why, into buf. Times in monotonic seconds. Pure.
 */
int http_health(double published_at, double now, double interval, char *buf, size_t size);
/* Whether a scrape's Accept header asks for OpenMetrics. Pure. */
bool http_wants_openmetrics(const char *accept);

#endif
