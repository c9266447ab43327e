/* The /metrics endpoint over libmicrohttpd (see http.h). */
#include "collect/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/httpguard.h"

#include "runloop/clock.h"

#define CT_PROM "text/plain; version=0.0.4; charset=utf-8"
#define CT_OM "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_JSON "application/json"

#define HTTP_THREADS 2u	     /* one can check a password while the other answers */
#define HTTP_ROOM 512u	     /* connections before the longest-waiting is pushed out */
#define HTTP_PER_ADDRESS 32u /* open connections from one client address */
#define HTTP_BACKLOG 1024
#define HTTP_LOG_EVERY_S 10.0

struct http_server {
	struct MHD_Daemon *d;
	struct web_config *web; /* borrowed; NULL: plain HTTP, no authentication */
	FILE *err;
	double interval;
	/* the connections' deadlines and room, read by the reaper thread */
	pthread_mutex_t glock;
	struct guard_table guard;
	pthread_cond_t wake;
	bool stopping;
	pthread_t reaper;
	pthread_mutex_t loglock;
	double logged_at;
	unsigned long log_quiet;
	pthread_mutex_t lock;
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

/*
 * Basic authentication when the web config names users: 0 to go on,
 * -EACCES (401) or -EAGAIN (429: too many password checks just now).
 */
static int authorise(struct http_server *hs, struct MHD_Connection *c)
{
	char *pass = NULL;
	char *user;
	int rc = -EACCES;

	if (!hs->web || !hs->web->nusers)
		return 0;
	user = MHD_basic_auth_get_username_password(c, &pass);
	if (user && pass)
		rc = http_config_check(hs->web, user, pass, runloop_mono_s());
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return rc;
}

static enum MHD_Result refuse_auth(struct MHD_Connection *c)
{
	static const char text[] = "authentication required\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    sizeof(text) - 1, (void *)(uintptr_t)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	ret = MHD_queue_basic_auth_fail_response(c, "triage", r);
	MHD_destroy_response(r);
	return ret;
}

static struct guard_conn *guard_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	static int seen; /* its address marks a request's first call */
	struct http_server *hs = cls;
	int rc;

	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return reply_text(c, 405, "method not allowed\n");
	/*
	 * The first call comes with the headers: answering there would make
	 * libmicrohttpd close the connection, so the answer waits for the
	 * second call and the connection stays open for the next request.
	 */
	if (!*con_cls) {
		struct guard_conn *g = guard_of(c);

		*con_cls = &seen;
		pthread_mutex_lock(&hs->glock);
		if (g)
			http_guard_headers_done(g, runloop_mono_s());
		pthread_mutex_unlock(&hs->glock);
		return MHD_YES;
	}
	if (*upload_size) { /* a GET with a body: not ours to read */
		*upload_size = 0;
		return MHD_YES;
	}
	rc = authorise(hs, c);
	if (rc == -EAGAIN)
		return reply_text(c, MHD_HTTP_TOO_MANY_REQUESTS,
				  "too many password checks: try again in a second\n");
	if (rc)
		return refuse_auth(c);
	if (!strcmp(url, "/metrics"))
		return serve_metrics(hs, c);
	if (!strcmp(url, "/healthz"))
		return serve_health(hs, c);
	if (!strcmp(url, "/report"))
		return serve_report(hs, c);
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found; try /metrics, /report or /healthz\n");
}

/* A connection opened or closed: the guard's table follows, and may push one out. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct http_server *hs = cls;
	struct guard_conn *g = *socket_context, *victim;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci =
		    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

		g = ci ? calloc(1, sizeof(*g)) : NULL;
		if (!g)
			return; /* unguarded: MHD's own timeout still ends it */
		g->fd = ci->connect_fd;
		pthread_mutex_lock(&hs->glock);
		victim = http_guard_add(&hs->guard, g, runloop_mono_s());
		/* the victim's socket stays open until its CLOSED, which waits for glock */
		if (victim)
			shutdown(victim->fd, SHUT_RDWR);
		pthread_mutex_unlock(&hs->glock);
		*socket_context = g;
		return;
	}
	if (!g)
		return;
	pthread_mutex_lock(&hs->glock);
	http_guard_remove(&hs->guard, g);
	pthread_mutex_unlock(&hs->glock);
	*socket_context = NULL;
	free(g);
}

/* A request line arrived: its headers are due within GUARD_REQUEST_S. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
	struct http_server *hs = cls;
	struct guard_conn *g = guard_of(c);

	if (g) {
		pthread_mutex_lock(&hs->glock);
		http_guard_request_line(g, runloop_mono_s());
		pthread_mutex_unlock(&hs->glock);
	}
	return NULL;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct http_server *hs = cls;
	struct guard_conn *g = guard_of(c);

	if (g) {
		pthread_mutex_lock(&hs->glock);
		http_guard_response_done(g, runloop_mono_s());
		pthread_mutex_unlock(&hs->glock);
	}
}

/*
 * libmicrohttpd's messages, one line each, at most one per
 * HTTP_LOG_EVERY_S: a crowd refused at the per-address limit would
 * otherwise write a line per connection.
 */
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct http_server *hs = cls;
	char msg[256];
	double now = runloop_mono_s();
	unsigned long quiet;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	pthread_mutex_lock(&hs->loglock);
	if (hs->logged_at && now - hs->logged_at < HTTP_LOG_EVERY_S) {
		hs->log_quiet++;
		pthread_mutex_unlock(&hs->loglock);
		return;
	}
	quiet = hs->log_quiet;
	hs->log_quiet = 0;
	hs->logged_at = now;
	pthread_mutex_unlock(&hs->loglock);
	if (quiet)
		fprintf(hs->err, "triage collect: http: %s (and %lu more messages)\n", msg, quiet);
	else
		fprintf(hs->err, "triage collect: http: %s\n", msg);
}

/* Shuts down connections past their deadlines, until told to stop. */
static void *reaper(void *arg)
{
	struct http_server *hs = arg;

	pthread_mutex_lock(&hs->glock);
	while (!hs->stopping) {
		double now = runloop_mono_s(), next = now + 1;
		struct guard_conn *g;
		struct timespec ts;

		while ((g = http_guard_overdue(&hs->guard, now, &next)))
			shutdown(g->fd, SHUT_RDWR);
		ts.tv_sec = (time_t)next;
		ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&hs->wake, &hs->glock, &ts);
	}
	pthread_mutex_unlock(&hs->glock);
	return NULL;
}

/*
 * An IPv4 address or a host name. Digits and dots alone must be a whole
 * address ("1.2.3" is a typo, not a name); an IPv6 address must come in
 * brackets, as node_exporter wants it.
 */
static bool host_ok(const char *host)
{
	struct in_addr a;

	if (!host[strspn(host, "0123456789.")])
		return inet_pton(AF_INET, host, &a) == 1;
	return !host[strspn(host,
			    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")];
}

int http_split_addr(const char *addr, char *host, size_t hsize, unsigned *port)
{
	const char *colon = strrchr(addr, ':');
	const char *digits = colon ? colon + 1 : addr;
	size_t hl = colon ? (size_t)(colon - addr) : 0;
	char *end;
	long p;

	if (hl >= hsize || *digits < '0' || *digits > '9')
		return -EINVAL;
	p = strtol(digits, &end, 10);
	if (*end || p < 0 || p > 65535)
		return -EINVAL;
	*port = (unsigned)p;
	if (!hl) { /* no address: loopback, never every interface */
		snprintf(host, hsize, "127.0.0.1");
		return 0;
	}
	if (addr[0] == '[') { /* [IPv6]:PORT */
		if (hl < 3 || addr[hl - 1] != ']')
			return -EINVAL;
		snprintf(host, hsize, "%.*s", (int)(hl - 2), addr + 1);
		return 0;
	}
	snprintf(host, hsize, "%.*s", (int)hl, addr);
	return host_ok(host) ? 0 : -EINVAL;
}

/* The address to bind: the first IPv4 one a name resolves to, else the first. */
static int resolve(const char *host, unsigned port, struct sockaddr_storage *ss, socklen_t *len,
		   char *why, size_t size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
	struct addrinfo *res, *a, *pick = NULL;
	char service[8];
	int rc;

	snprintf(service, sizeof(service), "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc) {
		snprintf(why, size, "%s", rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -EADDRNOTAVAIL;
	}
	for (a = res; a && !pick; a = a->ai_next)
		if (a->ai_family == AF_INET)
			pick = a;
	if (!pick)
		pick = res;
	memcpy(ss, pick->ai_addr, pick->ai_addrlen);
	*len = pick->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int http_listen(const char *addr, int *out, char *why, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	char host[256];
	unsigned port;
	int fd, one = 1, rc = http_split_addr(addr, host, sizeof(host), &port);

	if (rc) {
		snprintf(why, size, "not [ADDR:]PORT");
		return rc;
	}
	rc = resolve(host, port, &ss, &sl, why, size);
	if (rc)
		return rc;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ss, sl) || listen(fd, HTTP_BACKLOG)) {
		rc = -errno;
		snprintf(why, size, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	*out = fd;
	return 0;
}

static void server_free(struct http_server *hs)
{
	pthread_cond_destroy(&hs->wake);
	pthread_mutex_destroy(&hs->glock);
	pthread_mutex_destroy(&hs->loglock);
	pthread_mutex_destroy(&hs->lock);
	metric_set_release(&hs->published);
	free(hs->report);
	free(hs);
}

static struct http_server *server_new(struct web_config *web, double interval, FILE *err)
{
	struct http_server *hs = calloc(1, sizeof(*hs));
	pthread_condattr_t ca;

	if (!hs)
		return NULL;
	pthread_mutex_init(&hs->lock, NULL);
	pthread_mutex_init(&hs->glock, NULL);
	pthread_mutex_init(&hs->loglock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&hs->wake, &ca);
	pthread_condattr_destroy(&ca);
	http_guard_init(&hs->guard, HTTP_ROOM);
	hs->interval = interval;
	hs->web = web;
	hs->err = err;
	return hs;
}

static struct MHD_Daemon *start_daemon(struct http_server *hs, int fd)
{
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	struct MHD_OptionItem opts[16];
	size_t n = 0;

#define OPT(o, v, p) (opts[n++] = (struct MHD_OptionItem){ (o), (intptr_t)(v), (p) })
	OPT(MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)on_log, hs); /* first, or MHD says so */
	OPT(MHD_OPTION_LISTEN_SOCKET, fd, NULL);
	OPT(MHD_OPTION_THREAD_POOL_SIZE, HTTP_THREADS, NULL);
	OPT(MHD_OPTION_CONNECTION_LIMIT, HTTP_MAX_CONNECTIONS, NULL);
	OPT(MHD_OPTION_PER_IP_CONNECTION_LIMIT, HTTP_PER_ADDRESS, NULL);
	/* a backstop: the guard's deadlines come first */
	OPT(MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)GUARD_IDLE_S + 5, NULL);
	OPT(MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, hs);
	OPT(MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, hs);
	OPT(MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, hs);
	if (hs->web && hs->web->cert_pem) {
		flags |= MHD_USE_TLS;
		OPT(MHD_OPTION_HTTPS_MEM_CERT, 0, hs->web->cert_pem);
		OPT(MHD_OPTION_HTTPS_MEM_KEY, 0, hs->web->key_pem);
	}
	OPT(MHD_OPTION_END, 0, NULL);
#undef OPT
	return MHD_start_daemon(flags, 0, NULL, NULL, on_request, hs, MHD_OPTION_ARRAY, opts,
				MHD_OPTION_END);
}

int http_server_start(struct http_server **out, int listen_fd, struct web_config *web,
		      double interval, FILE *err)
{
	struct http_server *hs;

	if (web && web->cert_pem && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
		return -EPROTONOSUPPORT;
	hs = server_new(web, interval, err);
	if (!hs)
		return -ENOMEM;
	if (pthread_create(&hs->reaper, NULL, reaper, hs)) {
		server_free(hs);
		return -EAGAIN;
	}
	hs->d = start_daemon(hs, listen_fd);
	if (!hs->d) {
		int rc = errno ? -errno : -EINVAL;

		http_server_stop(hs);
		return rc;
	}
	*out = hs;
	return 0;
}

void http_server_stop(struct http_server *hs)
{
	if (!hs)
		return;
	/* the daemon first: its connections' CLOSED events still need the table */
	if (hs->d)
		MHD_stop_daemon(hs->d);
	pthread_mutex_lock(&hs->glock);
	hs->stopping = true;
	pthread_cond_signal(&hs->wake);
	pthread_mutex_unlock(&hs->glock);
	pthread_join(hs->reaper, NULL);
	server_free(hs);
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
