/* The web configuration file (see webconfig.h), read with libyaml. */
#define _GNU_SOURCE
#include "collect/webconfig.h"

#include <crypt.h>
#include <errno.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <yaml.h>

#define WEB_FILE_MAX (1 << 20) /* a config, a certificate or a key */

struct loader {
	const char *path;
	yaml_document_t doc;
	struct web_config *wc;
	char *cert_file, *key_file;
	char *why;
	size_t size;
};

static int fail(struct loader *l, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(l->why, l->size, "%s: ", l->path);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < l->size)
		vsnprintf(l->why + n, l->size - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The whole of a small file, NUL-terminated; 0 or -errno (-EFBIG past max). */
static int slurp(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;
	int rc = 0;

	if (!f)
		return -errno;
	buf = malloc(WEB_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return -ENOMEM;
	}
	n = fread(buf, 1, WEB_FILE_MAX + 1, f);
	if (ferror(f))
		rc = errno ? -errno : -EIO;
	else if (n > WEB_FILE_MAX)
		rc = -EFBIG;
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static const char *scalar(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A key's value must be a mapping; an empty value ("key:") counts as an empty one. */
static int want_mapping(struct loader *l, yaml_node_t *n, const char *key, bool *empty)
{
	*empty = false;
	if (n && n->type == YAML_MAPPING_NODE)
		return 0;
	if (n && n->type == YAML_SCALAR_NODE && !n->data.scalar.length &&
	    n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) {
		*empty = true;
		return 0;
	}
	return fail(l, "%s: wants a mapping (line %zu)", key, n ? n->start_mark.line + 1 : 0);
}

/* A relative path is read from the config file's directory, as node_exporter does. */
static char *beside_config(const char *config, const char *file)
{
	const char *slash = strrchr(config, '/');
	char *out = NULL;

	if (file[0] == '/' || !slash)
		return strdup(file);
	if (asprintf(&out, "%.*s/%s", (int)(slash - config), config, file) < 0)
		return NULL;
	return out;
}

static int take_file(struct loader *l, yaml_node_t *v, const char *key, char **dst)
{
	const char *s = scalar(v);

	if (!s || !*s)
		return fail(l, "tls_server_config.%s: wants a file name (line %zu)", key,
			    v ? v->start_mark.line + 1 : 0);
	if (*dst)
		return fail(l, "tls_server_config.%s: given twice", key);
	*dst = beside_config(l->path, s);
	return *dst ? 0 : -ENOMEM;
}

static int load_tls(struct loader *l, yaml_node_t *map)
{
	yaml_node_pair_t *p;
	bool empty;
	int rc = want_mapping(l, map, "tls_server_config", &empty);

	if (rc || empty)
		return rc ? rc : fail(l, "tls_server_config: wants cert_file and key_file");
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(&l->doc, p->key));
		yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);

		if (k && !strcmp(k, "cert_file"))
			rc = take_file(l, v, "cert_file", &l->cert_file);
		else if (k && !strcmp(k, "key_file"))
			rc = take_file(l, v, "key_file", &l->key_file);
		else
			rc = fail(l,
				  "unknown key 'tls_server_config.%s' (triage reads cert_file and "
				  "key_file only)",
				  k ? k : "?");
		if (rc)
			return rc;
	}
	if (!l->cert_file || !l->key_file)
		return fail(l, "tls_server_config.%s: missing",
			    l->cert_file ? "key_file" : "cert_file");
	return 0;
}

/* A bcrypt hash the system's crypt accepts as a setting. */
static bool is_bcrypt(const char *h)
{
	struct crypt_data *cd;
	const char *out;
	bool ok;

	if (strncmp(h, "$2a$", 4) && strncmp(h, "$2b$", 4) && strncmp(h, "$2y$", 4))
		return false;
	cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	/* a malformed setting gives a failure token starting with '*' */
	out = crypt_r("", h, cd);
	ok = out && out[0] == '$';
	free(cd);
	return ok;
}

static int add_user(struct loader *l, const char *name, yaml_node_t *v)
{
	struct web_config *wc = l->wc;
	const char *h = scalar(v);
	struct web_user *u;
	size_t i;

	if (!*name || strchr(name, ':'))
		return fail(l, "basic_auth_users: '%s' is not a user name", name);
	for (i = 0; i < wc->nusers; i++)
		if (!strcmp(wc->users[i].name, name))
			return fail(l, "basic_auth_users.%s: given twice", name);
	if (!h || !is_bcrypt(h))
		return fail(l, "basic_auth_users.%s: wants a bcrypt hash ($2b$..., line %zu)", name,
			    v ? v->start_mark.line + 1 : 0);
	u = realloc(wc->users, (wc->nusers + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	wc->users = u;
	u += wc->nusers;
	*u = (struct web_user){ .name = strdup(name), .hash = strdup(h) };
	wc->nusers++;
	return u->name && u->hash ? 0 : -ENOMEM;
}

static int load_users(struct loader *l, yaml_node_t *map)
{
	yaml_node_pair_t *p;
	bool empty;
	int rc = want_mapping(l, map, "basic_auth_users", &empty);

	if (rc || empty)
		return rc;
	for (p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top && !rc; p++) {
		const char *k = scalar(yaml_document_get_node(&l->doc, p->key));

		rc = k ? add_user(l, k, yaml_document_get_node(&l->doc, p->value))
		       : fail(l, "basic_auth_users: a user name must be a string");
	}
	return rc;
}

static int load_root(struct loader *l)
{
	yaml_node_t *root = yaml_document_get_root_node(&l->doc);
	yaml_node_pair_t *p;
	bool seen_tls = false, seen_users = false, empty;
	int rc;

	if (!root) /* an empty file: plain HTTP, no authentication */
		return 0;
	rc = want_mapping(l, root, "the document", &empty);
	if (rc || empty)
		return rc;
	for (p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(&l->doc, p->key));
		yaml_node_t *v = yaml_document_get_node(&l->doc, p->value);
		bool *seen = NULL;

		if (k && !strcmp(k, "tls_server_config"))
			seen = &seen_tls;
		else if (k && !strcmp(k, "basic_auth_users"))
			seen = &seen_users;
		else
			return fail(l,
				    "unknown key '%s' (triage reads tls_server_config and "
				    "basic_auth_users only)",
				    k ? k : "?");
		if (*seen)
			return fail(l, "%s: given twice", k);
		*seen = true;
		rc = seen == &seen_tls ? load_tls(l, v) : load_users(l, v);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_yaml(struct loader *l, const char *text, size_t len)
{
	yaml_parser_t parser;
	int rc = 0;

	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &l->doc)) {
		rc = fail(l, "line %zu: %s", parser.problem_mark.line + 1,
			  parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		return rc;
	}
	yaml_parser_delete(&parser);
	rc = load_root(l);
	yaml_document_delete(&l->doc);
	return rc;
}

/* Both PEM files read, and GnuTLS agrees they are a certificate and its key. */
static int load_pems(struct loader *l)
{
	struct web_config *wc = l->wc;
	gnutls_certificate_credentials_t cred;
	gnutls_datum_t c, k;
	size_t clen, klen;
	int rc = slurp(l->cert_file, &wc->cert_pem, &clen);

	if (rc)
		return fail(l, "tls_server_config.cert_file: %s: %s", l->cert_file, strerror(-rc)),
		       rc;
	rc = slurp(l->key_file, &wc->key_pem, &klen);
	if (rc)
		return fail(l, "tls_server_config.key_file: %s: %s", l->key_file, strerror(-rc)),
		       rc;
	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return -ENOMEM;
	c = (gnutls_datum_t){ (unsigned char *)wc->cert_pem, (unsigned)clen };
	k = (gnutls_datum_t){ (unsigned char *)wc->key_pem, (unsigned)klen };
	rc = gnutls_certificate_set_x509_key_mem2(cred, &c, &k, GNUTLS_X509_FMT_PEM, NULL, 0);
	gnutls_certificate_free_credentials(cred);
	if (rc < 0)
		return fail(l, "tls_server_config: %s and %s: %s", l->cert_file, l->key_file,
			    gnutls_strerror(rc));
	return 0;
}

int http_config_load(const char *path, struct web_config *wc, char *why, size_t size)
{
	struct loader l = { .path = path, .wc = wc, .why = why, .size = size };
	char *text;
	size_t len;
	int rc = slurp(path, &text, &len);

	memset(wc, 0, sizeof(*wc));
	pthread_mutex_init(&wc->lock, NULL);
	if (rc) {
		snprintf(why, size, "%s: %s", path, strerror(-rc));
		return rc;
	}
	rc = parse_yaml(&l, text, len);
	free(text);
	if (!rc && l.cert_file)
		rc = load_pems(&l);
	if (!rc && getrandom(wc->salt, sizeof(wc->salt), 0) != (ssize_t)sizeof(wc->salt))
		rc = fail(&l, "no random bytes for the password cache");
	free(l.cert_file);
	free(l.key_file);
	if (rc)
		http_config_release(wc);
	return rc;
}

void http_config_release(struct web_config *wc)
{
	size_t i;

	for (i = 0; i < wc->nusers; i++) {
		free(wc->users[i].name);
		free(wc->users[i].hash);
	}
	free(wc->users);
	free(wc->cert_pem);
	if (wc->key_pem)
		explicit_bzero(wc->key_pem, strlen(wc->key_pem));
	free(wc->key_pem);
	pthread_mutex_destroy(&wc->lock);
	memset(wc, 0, sizeof(*wc));
}

/* SHA-256(salt || password): what the cache keeps of a password that matched. */
static int digest(const struct web_config *wc, const char *password,
		  unsigned char out[WEB_AUTH_DIGEST])
{
	size_t pl = strlen(password);
	unsigned char *buf = malloc(sizeof(wc->salt) + pl);
	int rc;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, wc->salt, sizeof(wc->salt));
	memcpy(buf + sizeof(wc->salt), password, pl);
	rc = gnutls_hash_fast(GNUTLS_DIG_SHA256, buf, sizeof(wc->salt) + pl, out);
	explicit_bzero(buf, sizeof(wc->salt) + pl);
	free(buf);
	return rc < 0 ? -EIO : 0;
}

static bool same_bytes(const unsigned char *a, const unsigned char *b, size_t n)
{
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < n; i++) /* every byte, whatever differs first */
		d |= a[i] ^ b[i];
	return !d;
}

static bool bcrypt_matches(const char *password, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *out;
	bool ok;

	if (!cd)
		return false;
	out = crypt_r(password, hash, cd);
	ok = out && strlen(out) == strlen(hash) &&
	     same_bytes((const unsigned char *)out, (const unsigned char *)hash, strlen(hash));
	explicit_bzero(cd, sizeof(*cd));
	free(cd);
	return ok;
}

/* A token for one bcrypt check, if the bucket has one; under wc->lock. */
static bool take_check(struct web_config *wc, double now)
{
	if (!wc->checks_at || now < wc->checks_at) {
		wc->checks = WEB_CHECKS_BURST;
	} else {
		wc->checks += (now - wc->checks_at) * WEB_CHECKS_PER_S;
		if (wc->checks > WEB_CHECKS_BURST)
			wc->checks = WEB_CHECKS_BURST;
	}
	wc->checks_at = now;
	if (wc->checks < 1)
		return false;
	wc->checks -= 1;
	return true;
}

int http_config_check(struct web_config *wc, const char *user, const char *password, double now)
{
	unsigned char d[WEB_AUTH_DIGEST];
	struct web_user *u = NULL;
	bool cached = false, may_check, ok;
	size_t i;

	for (i = 0; i < wc->nusers; i++)
		if (!strcmp(wc->users[i].name, user))
			u = &wc->users[i];
	if (!wc->nusers || digest(wc, password, d))
		return -EACCES;
	pthread_mutex_lock(&wc->lock);
	if (u && u->have_good)
		cached = same_bytes(u->good, d, sizeof(d));
	may_check = cached || take_check(wc, now);
	pthread_mutex_unlock(&wc->lock);
	if (cached)
		return 0;
	if (!may_check)
		return -EAGAIN;
	/* an unknown name is checked against a real hash all the same */
	ok = bcrypt_matches(password, u ? u->hash : wc->users[0].hash) && u;
	if (ok) {
		pthread_mutex_lock(&wc->lock);
		memcpy(u->good, d, sizeof(d));
		u->have_good = true;
		pthread_mutex_unlock(&wc->lock);
	}
	return ok ? 0 : -EACCES;
}
