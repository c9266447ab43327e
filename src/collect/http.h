/*
 * The Prometheus endpoint, served by libmicrohttpd on its own thread:
 * /metrics (text format 0.0.4, OpenMetrics 1.0.0 when the Accept header
 * asks for it), /healthz, and /report when a report JSON was published.
 * The run loop publishes each interval's metric set; a scrape renders the
 * last one.
 */
#ifndef TRIAGE_COLLECT_HTTP_H
#define TRIAGE_COLLECT_HTTP_H

#include "collect/model.h"

struct http_server;

/* addr "IP:PORT" (IPv4 or [IPv6]:PORT). 0, -EINVAL, or -errno of the listen. */
int http_server_start(struct http_server **out, const char *addr);
void http_server_stop(struct http_server *hs);
/* Swaps *m with the published set (the caller keeps the old one to reuse). */
void http_server_publish(struct http_server *hs, struct metric_set *m);
/* Whether a scrape's Accept header asks for OpenMetrics. Pure. */
bool http_wants_openmetrics(const char *accept);

#endif
