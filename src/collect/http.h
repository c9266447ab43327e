/*
 * The Prometheus endpoint, served by libmicrohttpd on its own threads:
 * /metrics (text format 0.0.4, OpenMetrics 1.0.0 when the Accept header
 * asks for it), /healthz (200 while samples keep coming), and /report
 * (the last report window's JSON, 503 before the first window ends).
 * The run loop publishes each interval's metric set; a scrape renders the
 * last one. Connections stay open for the next request (keep-alive,
 * pipelining); httpguard.h's deadlines and room, a per-address limit and
 * node_exporter's web configuration (TLS, basic authentication) keep it
 * for the clients it is meant for.
 */
#ifndef TRIAGE_COLLECT_HTTP_H
#define TRIAGE_COLLECT_HTTP_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>

#include "collect/model.h"
#include "collect/webconfig.h"

/* connections at once (file descriptors the caller keeps free for them) */
#define HTTP_MAX_CONNECTIONS 1024u

struct http_server;

/*
 * A listening socket for addr: "HOST:PORT" (an IPv4 address or a name,
 * which resolves to its first IPv4 address if it has one, as
 * node_exporter's does), "[IPv6]:PORT", or "PORT" / ":PORT" for
 * 127.0.0.1:PORT. 0 with *fd, or -errno with the reason in why (a name
 * that does not resolve: -EADDRNOTAVAIL).
 */
int http_listen(const char *addr, int *fd, char *why, size_t size);
/*
 * Serves on listen_fd (taken over). web: TLS and users, or NULL; kept by
 * the caller until http_server_stop. interval: the collector's, for
 * /healthz. err: libmicrohttpd's messages, at most one line in 10 s.
 * 0 or -errno.
 */
int http_server_start(struct http_server **out, int listen_fd, struct web_config *web,
		      double interval, FILE *err);
void http_server_stop(struct http_server *hs);
/* Swaps *m with the published set (the caller keeps the old one to reuse). */
void http_server_publish(struct http_server *hs, struct metric_set *m);
/* Takes json (malloc'd, len bytes) as /report's body; frees the one before. */
void http_server_publish_report(struct http_server *hs, char *json, size_t len);
/*
 * addr (as http_listen takes it) into host (brackets of IPv6 removed;
 * 127.0.0.1 when there is none) and port; 0 or -EINVAL. Pure.
 */
int http_split_addr(const char *addr, char *host, size_t hsize, unsigned *port);
/*
 * /healthz: 200 "ok" when a sample was published within three intervals
 * (plus 5 s), else 503 with why, into buf. Times in monotonic seconds. Pure.
 */
int http_health(double published_at, double now, double interval, char *buf, size_t size);
/* Whether a scrape's Accept header asks for OpenMetrics. Pure. */
bool http_wants_openmetrics(const char *accept);

#endif
