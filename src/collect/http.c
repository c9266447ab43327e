/* The /metrics endpoint over libmicrohttpd (see http.h). */
#include "collect/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runloop/clock.h"

#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_OM "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_JSON "application/json"

struct http_server {
	struct MHD_Daemon *d;
	pthread_mutex_t lock;
	double interval;
	/* under lock: the last sample's metrics, the last report window's JSON */
	struct metric_set published;
	double published_at; /* CLOCK_MONOTONIC seconds; 0: nothing yet */
	char *report;
	size_t report_len;
};

bool http_wants_openmetrics(const char *accept)
{
	return accept && strstr(accept, "application/openmetrics-text");
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, const char *ctype,
			     char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	enum MHD_Result ret;

	if (!r) {
		free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *c, unsigned status, const char *text)
{
	char *body = strdup(text);

	return body ? reply(c, status, "text/plain; charset=utf-8", body, strlen(body)) : MHD_NO;
}

static enum MHD_Result serve_metrics(struct http_server *hs, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	bool om = http_wants_openmetrics(accept);
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	int rc;

	if (!f)
		return reply_text(c, 500, "out of memory\n");
	pthread_mutex_lock(&hs->lock);
	rc = collect_render_prom(&hs->published, om, f);
	pthread_mutex_unlock(&hs->lock);
	if (fclose(f) || rc) {
		free(body);
		return reply_text(c, 500, "render failed\n");
	}
	return reply(c, MHD_HTTP_OK, om ? CT_OM : CT_PROM, body, len);
}

static enum MHD_Result serve_report(struct http_server *hs, struct MHD_Connection *c)
{
	char *body = NULL;
	size_t len = 0;

	pthread_mutex_lock(&hs->lock);
	if (hs->report) {
		body = malloc(hs->report_len ? hs->report_len : 1);
		len = hs->report_len;
		if (body)
			memcpy(body, hs->report, len);
	}
	pthread_mutex_unlock(&hs->lock);
	if (body)
		return reply(c, MHD_HTTP_OK, CT_JSON, body, len);
	if (len)
		return reply_text(c, 500, "out of memory\n");
	return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
			  "no report yet: the first window ends one interval after the start\n");
}

int http_health(double published_at, double now, double interval, char *buf, size_t size)
{
	double age = now - published_at;

	if (published_at <= 0) {
		snprintf(buf, size, "starting: no sample yet\n");
		return 503;
	}
	/* a sample is due every interval; three missed ones is a stuck collector */
	if (age > 3 * interval + 5) {
		snprintf(buf, size, "stale: last sample %.0f s ago (interval %.0f s)\n", age,
			 interval);
		return 503;
	}
	snprintf(buf, size, "ok\n");
	return 200;
}

static enum MHD_Result serve_health(struct http_server *hs, struct MHD_Connection *c)
{
	char text[128];
	double at;
	int status;

	pthread_mutex_lock(&hs->lock);
	at = hs->published_at;
	pthread_mutex_unlock(&hs->lock);
	status = http_health(at, runloop_mono_s(), hs->interval, text, sizeof(text));
	return reply_text(c, (unsigned)status, text);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct http_server *hs = cls;

	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply_text(c, 405, "method not allowed\n");
	if (!strcmp(url, "/metrics"))
		return serve_metrics(hs, c);
	if (!strcmp(url, "/healthz"))
		return serve_health(hs, c);
	if (!strcmp(url, "/report"))
		return serve_report(hs, c);
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found; try /metrics, /report or /healthz\n");
}

/* "IP:PORT", "PORT" or ":PORT" (both 127.0.0.1) into a socket address. */
int http_parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len)
{
	const char *colon = strrchr(addr, ':');
	const char *digits = colon ? colon + 1 : addr;
	char host[64];
	size_t hl = colon ? (size_t)(colon - addr) : 0;
	char *end;
	long port;

	if (hl >= sizeof(host) || *digits < '0' || *digits > '9')
		return -EINVAL;
	port = strtol(digits, &end, 10);
	if (*end || port < 0 || port > 65535)
		return -EINVAL;
	memcpy(host, addr, hl);
	host[hl] = '\0';
	if (!hl) /* no address: loopback, never every interface */
		snprintf(host, sizeof(host), "127.0.0.1");
	memset(ss, 0, sizeof(*ss));
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		host[hl - 1] = '\0';
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
		return inet_pton(AF_INET6, host + 1, &s6->sin6_addr) == 1 ? 0 : -EINVAL;
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_port = htons((uint16_t)port);
	*len = sizeof(*s4);
	return inet_pton(AF_INET, host, &s4->sin_addr) == 1 ? 0 : -EINVAL;
}

int http_server_start(struct http_server **out, const char *addr, double interval)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct http_server *hs;
	/* epoll, not select(): the sampler keeps thousands of /proc files open */
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
	int rc = http_parse_addr(addr, &ss, &sl);

	if (rc)
		return rc;
	hs = calloc(1, sizeof(*hs));
	if (!hs)
		return -ENOMEM;
	pthread_mutex_init(&hs->lock, NULL);
	hs->interval = interval;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	hs->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, hs, MHD_OPTION_SOCK_ADDR,
				 (struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT, 64u,
				 MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	if (!hs->d) {
		rc = errno ? -errno : -EADDRINUSE;
		pthread_mutex_destroy(&hs->lock);
		free(hs);
		return rc;
	}
	*out = hs;
	return 0;
}

void http_server_stop(struct http_server *hs)
{
	if (!hs)
		return;
	MHD_stop_daemon(hs->d);
	pthread_mutex_destroy(&hs->lock);
	metric_set_release(&hs->published);
	free(hs->report);
	free(hs);
}

void http_server_publish(struct http_server *hs, struct metric_set *m)
{
	struct metric_set tmp;

	pthread_mutex_lock(&hs->lock);
	tmp = hs->published;
	hs->published = *m;
	hs->published_at = runloop_mono_s();
	*m = tmp;
	pthread_mutex_unlock(&hs->lock);
}

void http_server_publish_report(struct http_server *hs, char *json, size_t len)
{
	char *old;

	pthread_mutex_lock(&hs->lock);
	old = hs->report;
	hs->report = json;
	hs->report_len = len;
	pthread_mutex_unlock(&hs->lock);
	free(old);
}
