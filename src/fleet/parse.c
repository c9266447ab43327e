/*
 * Prometheus' and graphite-web's JSON answers into series, through json-c
 * (loaded at first use, src/util/dl_jsonc.c). Everything in an answer is
 * data from the network: names are copied bounded, numbers checked.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_object.h>
#include <json-c/json_tokener.h>

#include "fleet/fleet.h"
#include "util/grow.h"
#include "util/text.h"

void fleet_series_release(struct fleet_series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i].t);
		free(set->s[i].v);
	}
	free(set->s);
	memset(set, 0, sizeof(*set));
}

static struct fleet_series *series_new(struct fleet_series_set *set)
{
	if (util_grow(&set->s, &set->cap, set->n + 1, sizeof(*set->s)))
		return NULL;
	memset(&set->s[set->n], 0, sizeof(set->s[0]));
	return &set->s[set->n++];
}

static int point_add(struct fleet_series *s, double t, double v)
{
	size_t cap = s->cap;

	if (util_grow(&s->t, &cap, s->n + 1, sizeof(*s->t)))
		return -ENOMEM;
	if (util_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v)))
		return -ENOMEM;
	s->t[s->n] = t;
	s->v[s->n++] = v;
	return 0;
}

/* The whole body as one JSON value (NULL with err filled). */
static struct json_object *parse_body(const char *body, size_t len, char *err, size_t errsize)
{
	struct json_tokener *tok;
	struct json_object *root;

	if (len > 0x7fffffff) {
		snprintf(err, errsize, "the answer is over 2 GB");
		return NULL;
	}
	if (!(tok = json_tokener_new_ex(64))) {
		snprintf(err, errsize, "out of memory");
		return NULL;
	}
	root = json_tokener_parse_ex(tok, body, (int)len);
	if (!root)
		snprintf(err, errsize, "not JSON (%s)",
			 json_tokener_error_desc(json_tokener_get_error(tok)));
	json_tokener_free(tok);
	return root;
}

static struct json_object *member(struct json_object *o, const char *key, enum json_type type)
{
	struct json_object *v = NULL;

	if (!o || json_object_get_type(o) != json_type_object ||
	    !json_object_object_get_ex(o, key, &v) || json_object_get_type(v) != type)
		return NULL;
	return v;
}

/* A label's value copied bounded ("" when absent). */
static void label(struct json_object *metric, const char *key, char *out, size_t size)
{
	struct json_object *v = member(metric, key, json_type_string);

	text_copy(out, size, v ? json_object_get_string(v) : "");
}

/* A [time, "value"] pair; false when it is not one. */
static bool prom_point(struct json_object *pair, double *t, double *v)
{
	struct json_object *a, *b;
	char *end;

	if (!pair || json_object_get_type(pair) != json_type_array ||
	    json_object_array_length(pair) != 2)
		return false;
	a = json_object_array_get_idx(pair, 0);
	b = json_object_array_get_idx(pair, 1);
	if (json_object_get_type(a) != json_type_double && json_object_get_type(a) != json_type_int)
		return false;
	if (json_object_get_type(b) != json_type_string)
		return false;
	*t = json_object_get_double(a);
	*v = strtod(json_object_get_string(b), &end);
	return *end == '\0' && isfinite(*t);
}

static int prom_series(struct json_object *item, enum fleet_what what, const char *host_label,
		       bool matrix, struct fleet_series_set *out)
{
	struct json_object *metric = member(item, "metric", json_type_object), *pts;
	struct fleet_series *s;
	double t, v;

	if (!metric)
		return -EPROTO;
	if (!(s = series_new(out)))
		return -ENOMEM;
	s->what = what;
	label(metric, host_label, s->host, sizeof(s->host));
	label(metric, "rule", s->rule, sizeof(s->rule));
	label(metric, "subject", s->subject, sizeof(s->subject));
	if (!matrix) {
		if (!prom_point(member(item, "value", json_type_array), &t, &v))
			return -EPROTO;
		return point_add(s, t, v);
	}
	if (!(pts = member(item, "values", json_type_array)))
		return -EPROTO;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		int rc;

		if (!prom_point(json_object_array_get_idx(pts, i), &t, &v))
			return -EPROTO;
		if ((rc = point_add(s, t, v)))
			return rc;
	}
	return 0;
}

int fleet_parse_prom(const char *body, size_t len, enum fleet_what what, const char *host_label,
		     struct fleet_series_set *out, char *err, size_t errsize)
{
	struct json_object *root = parse_body(body, len, err, errsize), *status, *data, *type, *res;
	bool matrix;
	int rc = 0;

	if (!root)
		return -EPROTO;
	status = member(root, "status", json_type_string);
	if (!status || strcmp(json_object_get_string(status), "success")) {
		struct json_object *e = member(root, "error", json_type_string);
		char msg[FLEET_ERR_MAX];

		text_sanitize(msg, sizeof(msg), e ? json_object_get_string(e) : "no status");
		snprintf(err, errsize, "Prometheus says: %s", msg);
		json_object_put(root);
		return -EPROTO;
	}
	data = member(root, "data", json_type_object);
	type = member(data, "resultType", json_type_string);
	res = member(data, "result", json_type_array);
	if (!type || !res ||
	    (strcmp(json_object_get_string(type), "vector") &&
	     strcmp(json_object_get_string(type), "matrix"))) {
		snprintf(err, errsize, "not a vector or matrix answer");
		json_object_put(root);
		return -EPROTO;
	}
	matrix = !strcmp(json_object_get_string(type), "matrix");
	for (size_t i = 0; i < json_object_array_length(res) && !rc; i++)
		rc =
		    prom_series(json_object_array_get_idx(res, i), what,
				host_label && host_label[0] ? host_label : "instance", matrix, out);
	if (rc == -EPROTO)
		snprintf(err, errsize, "a series without its labels or points");
	else if (rc)
		snprintf(err, errsize, "out of memory");
	json_object_put(root);
	return rc;
}

/* Splits s at dots into at most max parts (pointers into buf); returns the count. */
static size_t split_dots(const char *s, char *buf, size_t size, char **parts, size_t max)
{
	size_t n = 0;

	text_copy(buf, size, s);
	for (char *p = buf; n < max;) {
		char *dot = strchr(p, '.');

		parts[n++] = p;
		if (!dot)
			break;
		*dot = '\0';
		p = dot + 1;
	}
	return n;
}

bool fleet_graphite_path(const char *path, const char *prefix, struct fleet_series *s)
{
	char pb[FLEET_NAME_MAX], xb[1024], *pp[32], *xp[40];
	size_t k = split_dots(prefix && prefix[0] ? prefix : "triage.*", pb, sizeof(pb), pp, 32);
	size_t n = split_dots(path, xb, sizeof(xb), xp, 40), used = 0;
	bool wild = false;

	if (n < k + 3 || strcmp(xp[k], "report"))
		return false;
	if (!strcmp(xp[k + 1], "finding") && n == k + 4)
		s->what = FW_SEVERITY;
	else if (!strcmp(xp[k + 1], "finding_value") && n == k + 4)
		s->what = FW_VALUE;
	else if (!strcmp(xp[k + 1], "findings") && n == k + 3 && !strcmp(xp[k + 2], "critical"))
		s->what = FW_SEEN;
	else
		return false;
	if (s->what != FW_SEEN) {
		text_copy(s->rule, sizeof(s->rule), xp[k + 2]);
		text_copy(s->subject, sizeof(s->subject), xp[k + 3]);
	}
	/* the host: the parts the prefix leaves open ("triage.*": the second) */
	for (size_t i = 0; i < k; i++)
		wild |= strpbrk(pp[i], "*?[{") != NULL;
	s->host[0] = '\0';
	for (size_t i = 0; i < k; i++) {
		int w;

		if (wild && !strpbrk(pp[i], "*?[{"))
			continue;
		w = snprintf(s->host + used, sizeof(s->host) - used, "%s%s", used ? "." : "",
			     xp[i]);
		if (w < 0 || (size_t)w >= sizeof(s->host) - used)
			break;
		used += (size_t)w;
	}
	return true;
}

static int graphite_series(struct json_object *item, const char *prefix,
			   struct fleet_series_set *out)
{
	struct json_object *target = member(item, "target", json_type_string);
	struct json_object *pts = member(item, "datapoints", json_type_array);
	struct fleet_series probe = { 0 }, *s;

	if (!target || !pts)
		return -EPROTO;
	if (!fleet_graphite_path(json_object_get_string(target), prefix, &probe))
		return 0; /* not one of ours: a wider pattern's match */
	if (!(s = series_new(out)))
		return -ENOMEM;
	*s = probe;
	for (size_t i = 0; i < json_object_array_length(pts); i++) {
		struct json_object *p = json_object_array_get_idx(pts, i), *v, *t;
		int rc;

		if (!p || json_object_get_type(p) != json_type_array ||
		    json_object_array_length(p) != 2)
			return -EPROTO;
		v = json_object_array_get_idx(p, 0);
		t = json_object_array_get_idx(p, 1);
		if (!v || json_object_get_type(v) == json_type_null)
			continue; /* no point stored at this step */
		if ((json_object_get_type(v) != json_type_double &&
		     json_object_get_type(v) != json_type_int) ||
		    !t || json_object_get_type(t) != json_type_int)
			return -EPROTO;
		/* a host's sample times are the values of its "seen" series, as from Prometheus */
		rc = point_add(s, json_object_get_double(t),
			       s->what == FW_SEEN ? json_object_get_double(t)
						  : json_object_get_double(v));
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * The end of the JSON value starting at p (an object or array: its closing
 * bracket; strings skipped with their escapes), or NULL when the body ends
 * first. Only brackets are matched: json-c judges the value itself.
 */
static const char *value_end(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= end)
				return NULL;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if ((*p == '}' || *p == ']') && --depth == 0) {
			return p + 1;
		}
	}
	return NULL;
}

static bool json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * graphite-web's answer is one array of series: each is parsed (and freed)
 * on its own, so json-c holds one series' objects at a time, not the whole
 * answer's (1,000 hosts over an hour: 130 MB as one tree).
 */
int fleet_parse_graphite(const char *body, size_t len, const char *prefix,
			 struct fleet_series_set *out, char *err, size_t errsize)
{
	const char *p = body, *end = body + len;
	int rc = 0;

	while (p < end && json_space(*p))
		p++;
	if (p >= end || *p != '[') {
		snprintf(err, errsize, "not a list of series (graphite-web's format=json)");
		return -EPROTO;
	}
	for (p++;; p++) {
		struct json_object *item;
		const char *e;

		while (p < end && json_space(*p))
			p++;
		if (p < end && *p == ']')
			break;
		if (p >= end || *p != '{' || !(e = value_end(p, end))) {
			snprintf(err, errsize, "a series that is not a complete JSON object");
			return -EPROTO;
		}
		if (!(item = parse_body(p, (size_t)(e - p), err, errsize)))
			return -EPROTO;
		rc = graphite_series(item, prefix, out);
		json_object_put(item);
		if (rc == -EPROTO)
			snprintf(err, errsize, "a series without its target or datapoints");
		else if (rc)
			snprintf(err, errsize, "out of memory");
		if (rc)
			return rc;
		for (p = e; p < end && json_space(*p); p++)
			;
		if (p < end && *p == ']')
			break;
		if (p >= end || *p != ',') {
			snprintf(err, errsize, "not a list of series (graphite-web's format=json)");
			return -EPROTO;
		}
	}
	return 0;
}
