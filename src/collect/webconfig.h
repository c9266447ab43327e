/*
 * node_exporter's web configuration file (--web.config.file), the subset the
 * collector serves: TLS from tls_server_config's cert_file and key_file, and
 * basic authentication from basic_auth_users (name: bcrypt hash). Any other
 * key is refused by name, so a file written for a feature we lack (client
 * certificates, say) never runs without it. Relative paths are read from the
 * file's own directory, as node_exporter does.
 */
#ifndef TRIAGE_COLLECT_WEBCONFIG_H
#define TRIAGE_COLLECT_WEBCONFIG_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define WEB_AUTH_DIGEST 32 /* SHA-256 */
/*
 * bcrypt checks of passwords not in the cache, per second (and at once, a
 * burst): each costs about 60 ms of CPU at cost 10, so a flood of wrong
 * passwords could otherwise keep the server's threads busy. A scraper
 * whose password already matched never waits for one.
 */
#define WEB_CHECKS_PER_S 4.0
#define WEB_CHECKS_BURST 8.0

struct web_user {
	char *name;
	char *hash; /* $2a$, $2b$ or $2y$ */
	/* the last password that matched, as SHA-256(salt || password), so a
	 * scrape every few seconds costs one bcrypt check, not one each */
	unsigned char good[WEB_AUTH_DIGEST];
	bool have_good;
};

struct web_config {
	char *cert_pem, *key_pem; /* NULL: plain HTTP */
	struct web_user *users;	  /* none: no authentication */
	size_t nusers;
	unsigned char salt[16];
	pthread_mutex_t lock; /* the users' cached digests and the checks' bucket */
	double checks;	      /* bcrypt checks that may start now */
	double checks_at;     /* when checks was last topped up */
};

/*
 * Reads and checks path: YAML syntax, known keys only, both TLS files
 * readable and a matching certificate and key, every hash bcrypt. 0, or
 * -errno with one line in why naming the file and the key at fault
 * (-EINVAL for content, the read's errno for a file).
 */
int http_config_load(const char *path, struct web_config *wc, char *why, size_t size);
void http_config_release(struct web_config *wc);

/*
 * Whether user and password match one of the users: 0, -EACCES, or
 * -EAGAIN when the password is not in the cache and no bcrypt check may
 * start before a later try (WEB_CHECKS_PER_S). An unknown name costs a
 * bcrypt check too, so timing does not tell names. now: monotonic seconds.
 */
int http_config_check(struct web_config *wc, const char *user, const char *password, double now);

#endif
