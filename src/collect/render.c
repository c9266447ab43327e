/*
 * Renderers of a metric set: Graphite plaintext ("path value ts\n") and
 * the Prometheus text formats. Process names are attacker-controlled, so
 * every label value goes through a sanitiser (Graphite) or an escaper
 * (Prometheus) before it reaches a line.
 */
#include "collect/model.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/text.h"

static bool graphite_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

void graphite_component(const char *in, char *out, size_t size)
{
	size_t o = 0;

	if (!size)
		return;
	for (; *in && o + 1 < size; in++)
		out[o++] = graphite_safe((unsigned char)*in) ? *in : '_';
	if (!o && size > 1)
		out[o++] = '_';
	out[o] = '\0';
}

/* Stable across runs and hosts (FNV-1a, 64 bits): the same name, the same suffix. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

#define NAME_MARK_LEN 17 /* "_" and 16 hex digits */

/* Whether s ends as a distinguishing suffix does: such a name gets one too. */
static bool has_mark(const char *s)
{
	size_t len = strlen(s);

	if (len < NAME_MARK_LEN || s[len - NAME_MARK_LEN] != '_')
		return false;
	for (size_t i = len - NAME_MARK_LEN + 1; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* shown + "_<hash of raw>", shown cut so the suffix always fits. */
static void add_mark(const char *raw, const char *shown, char *out, size_t size)
{
	int keep = size > NAME_MARK_LEN + 1 ? (int)(size - NAME_MARK_LEN - 1) : 0;

	snprintf(out, size, "%.*s_%016llx", keep, shown, (unsigned long long)name_hash(raw));
}

void graphite_label(const char *in, char *out, size_t size)
{
	char comp[COLLECT_LABEL_MAX];

	graphite_component(in, comp, sizeof(comp));
	if (strcmp(comp, in) || has_mark(in))
		add_mark(in, comp, out, size);
	else
		snprintf(out, size, "%s", comp);
}

void graphite_prefix(const char *in, char *out, size_t size)
{
	char part[COLLECT_LABEL_MAX];
	size_t o = 0;

	out[0] = '\0';
	while (*in) {
		size_t len = strcspn(in, ".");

		if (len) {
			char raw[COLLECT_LABEL_MAX];

			snprintf(raw, sizeof(raw), "%.*s", (int)len, in);
			graphite_component(raw, part, sizeof(part));
			o += (size_t)snprintf(out + o, o < size ? size - o : 0, "%s%s",
					      o ? "." : "", part);
		}
		in += len;
		if (*in == '.')
			in++;
	}
	if (!out[0])
		snprintf(out, size, "triage");
}

/* Writes the family's graphite template with the sample's sanitised label values. */
static void graphite_path(const struct metric_sample *s, FILE *f)
{
	const char *t = metric_families[s->id].graphite;
	char comp[COLLECT_LABEL_MAX];

	for (; *t; t++) {
		if (t[0] == '{' && (t[1] == '0' || t[1] == '1') && t[2] == '}') {
			graphite_label(s->lv[t[1] - '0'], comp, sizeof(comp));
			fputs(comp, f);
			t += 2;
		} else {
			fputc(*t, f);
		}
	}
}

long collect_render_graphite(const struct metric_set *m, const char *prefix, FILE *f)
{
	long lines = 0;

	for (size_t i = 0; i < m->n; i++) {
		if (!metric_families[m->s[i].id].graphite[0])
			continue;
		fprintf(f, "%s.", prefix);
		graphite_path(&m->s[i], f);
		fprintf(f, " %.15g %lld\n", m->s[i].value, (long long)m->timestamp);
		lines++;
	}
	return ferror(f) ? -EIO : lines;
}

void collect_prom_label_escape(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t o = 0;

	if (!size)
		return;
	while (*p) {
		char esc[5] = "";
		size_t n = utf8_seq_len(p, SIZE_MAX);

		if (*p == '\\' || *p == '"')
			snprintf(esc, sizeof(esc), "\\%c", *p);
		else if (*p == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (!n || *p < 0x20 || *p == 0x7f || (n == 2 && *p == 0xc2 && p[1] <= 0x9f))
			snprintf(esc, sizeof(esc), "?");
		else
			snprintf(esc, sizeof(esc), "%.*s", (int)n, (const char *)p);
		if (o + strlen(esc) + 1 > size)
			break;
		memcpy(out + o, esc, strlen(esc));
		o += strlen(esc);
		p += n ? n : 1;
	}
	out[o] = '\0';
}

/* A byte or sequence collect_prom_label_escape() turns into '?': the escape loses it. */
static bool prom_lossy(const char *in)
{
	for (const unsigned char *p = (const unsigned char *)in; *p;) {
		size_t n = utf8_seq_len(p, SIZE_MAX);

		if (*p == '?' || !n || (*p < 0x20 && *p != '\n') || *p == 0x7f ||
		    (n == 2 && *p == 0xc2 && p[1] <= 0x9f))
			return true;
		p += n;
	}
	return false;
}

void collect_prom_label_value(const char *in, char *out, size_t size)
{
	char esc[COLLECT_LABEL_MAX * 2 + 8];

	collect_prom_label_escape(in, esc, sizeof(esc));
	if (prom_lossy(in) || has_mark(in))
		add_mark(in, esc, out, size);
	else
		snprintf(out, size, "%s", esc);
}

static void prom_sample(const struct metric_sample *s, FILE *f)
{
	const struct metric_family *fam = &metric_families[s->id];
	char v[COLLECT_LABEL_MAX * 2 + 8];

	fputs(fam->name, f);
	for (int l = 0; l < COLLECT_MAX_LABELS && fam->labels[l][0]; l++) {
		collect_prom_label_value(s->lv[l], v, sizeof(v));
		fprintf(f, "%s%s=\"%s\"", l ? "," : "{", fam->labels[l], v);
	}
	fprintf(f, "%s %.15g\n", fam->labels[0][0] ? "}" : "", s->value);
}

/* OpenMetrics names a counter family without its _total suffix. */
static void prom_family_header(const struct metric_family *fam, bool om, FILE *f)
{
	size_t len = strlen(fam->name);
	bool counter = fam->type == METRIC_COUNTER;

	if (om && counter && len > 6 && !strcmp(fam->name + len - 6, "_total"))
		len -= 6;
	fprintf(f, "# HELP %.*s %s\n", (int)len, fam->name, fam->help);
	fprintf(f, "# TYPE %.*s %s\n", (int)len, fam->name, counter ? "counter" : "gauge");
}

int collect_render_prom(const struct metric_set *m, bool openmetrics, FILE *f)
{
	for (int id = 0; id < M_COUNT; id++) {
		bool header = false;

		for (size_t i = 0; i < m->n; i++) {
			if (m->s[i].id != (enum metric_id)id)
				continue;
			if (!header)
				prom_family_header(&metric_families[id], openmetrics, f);
			header = true;
			prom_sample(&m->s[i], f);
		}
	}
	if (openmetrics)
		fputs("# EOF\n", f);
	return ferror(f) ? -EIO : 0;
}

int collect_render_json(const struct metric_set *m, const char *prefix, FILE *f)
{
	struct json_writer w;

	json_init(&w, f, false);
	json_object_begin(&w);
	json_kv_int(&w, "timestamp", m->timestamp);
	json_kv_string(&w, "prefix", prefix);
	json_key(&w, "metrics");
	json_array_begin(&w);
	for (size_t i = 0; i < m->n; i++) {
		const struct metric_sample *s = &m->s[i];
		const struct metric_family *fam = &metric_families[s->id];
		char *path = NULL;
		size_t len = 0;
		FILE *pf = open_memstream(&path, &len);

		json_object_begin(&w);
		json_kv_string(&w, "name", fam->name);
		json_kv_string(&w, "type", fam->type == METRIC_COUNTER ? "counter" : "gauge");
		json_key(&w, "labels");
		json_object_begin(&w);
		for (int l = 0; l < COLLECT_MAX_LABELS && fam->labels[l][0]; l++)
			json_kv_string(&w, fam->labels[l], s->lv[l]);
		json_end(&w);
		if (pf && !fam->graphite[0]) {
			fclose(pf);
		} else if (pf) {
			fprintf(pf, "%s.", prefix);
			graphite_path(s, pf);
			if (!fclose(pf))
				json_kv_string(&w, "graphite", path);
		}
		free(path);
		json_kv_double(&w, "value", s->value, 6);
		json_end(&w);
	}
	json_finish(&w); /* ends the document with a newline */
	return ferror(f) ? -EIO : 0;
}
