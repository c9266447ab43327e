/*
 * The fleet's findings, the report's way: one block per kind naming its
 * hosts and subjects, then each host's next command; as plain text or as
 * JSON through the one writer (util/json.c). Hosts and subjects come from
 * the store (process names are attacker-controlled): plain text passes
 * them through text_sanitize, commands get them shell-quoted.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "fleet/fleet.h"
#include "report/kinds.h"
#include "report/report.h"
#include "util/json.h"
#include "util/text.h"
#include "util/mathx.h"

/* Entries named on a kind's line, and next commands listed, before "and N more". */
#define FLEET_SHOW 10

static const struct report_kind_row *row_of(const char *rule)
{
	for (int k = 0; k < RK_COUNT; k++) {
		const struct report_kind_row *r = report_kind_row((enum report_kind)k);

		if (r && !strcmp(r->name, rule))
			return r;
	}
	return NULL;
}

const char *fleet_figure_unit(const char *rule)
{
	const struct report_kind_row *r = row_of(rule);

	return r ? r->figure_unit : "";
}

/* s for a shell: as it is when every byte is plain, else in single quotes. */
static void shell_quote(const char *s, char *buf, size_t size)
{
	size_t o = 0;
	bool plain = s[0] != '\0';

	for (const char *p = s; *p; p++)
		plain &= (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
			 (*p >= '0' && *p <= '9') || strchr("_./:@%+=,-", *p);
	if (plain) {
		text_copy(buf, size, s);
		return;
	}
	if (size < 3) {
		buf[0] = '\0';
		return;
	}
	buf[o++] = '\'';
	for (const char *p = s; *p && o + 5 < size; p++) {
		if (*p == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *p;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

void fleet_next_command(const char *rule, const char *subject, char *buf, size_t size)
{
	const struct report_kind_row *r = row_of(rule);
	const char *t = r ? r->fleet_next : NULL;
	char q[FLEET_NAME_MAX * 4 + 8];
	size_t o = 0;

	if (!strcmp(rule, FLEET_STOPPED))
		t = "systemctl status triage-collect";
	/* no process to find: the system as a whole (fd-exhaustion of fs.file-max) */
	if (t && strstr(t, "{pid}") && !strcmp(subject, "host"))
		t = "triage report -d 10";
	if (!t || !size) {
		if (size)
			buf[0] = '\0';
		return;
	}
	shell_quote(subject, q, sizeof(q));
	while (*t && o + 1 < size) {
		int n = 0;

		if (!strncmp(t, "{subject}", 9)) {
			n = snprintf(buf + o, size - o, "%s", q);
			t += 9;
		} else if (!strncmp(t, "{pid}", 5)) {
			n = snprintf(buf + o, size - o, "\"$(pgrep -xo %s)\"", q);
			t += 5;
		} else {
			buf[o++] = *t++;
			continue;
		}
		if (n < 0 || (size_t)n >= size - o) {
			o = size - 1;
			break;
		}
		o += (size_t)n;
	}
	buf[o] = '\0';
}

static const char *sev_word(int sev)
{
	return sev >= 3 ? "critical" : sev == 2 ? "warning" : "info";
}

/* "15:02:11" (UTC), or the whole date when asked. */
static const char *utc_clock(double t, bool date, char *buf, size_t size)
{
	time_t s = (time_t)util_floor(t);
	struct tm tm;

	if (!isfinite(t) || !gmtime_r(&s, &tm) ||
	    !strftime(buf, size, date ? "%Y-%m-%d %H:%M:%S UTC" : "%H:%M:%S", &tm))
		snprintf(buf, size, "?");
	return buf;
}

static void put_figure(FILE *out, const char *rule, double v, bool peak)
{
	if (isnan(v))
		return;
	fprintf(out, " (%s%.*f%s)", peak ? "peak " : "", fabs(v) < 10 && v != util_floor(v) ? 1 : 0,
		v, fleet_figure_unit(rule));
}

static void put_stopped(FILE *out, const struct fleet_result *r, const struct fleet_entry *e)
{
	char a[32], b[32];

	if (r->o->range) {
		for (size_t k = 0; k < e->nspans; k++)
			fprintf(out, "%s%s-%s", k ? ", " : " (no samples ",
				utc_clock(e->spans[k].start, false, a, sizeof(a)),
				e->spans[k].open ? ""
						 : utc_clock(e->spans[k].end, false, b, sizeof(b)));
		fputs(e->nspans ? ")" : "", out);
		return;
	}
	if (isnan(e->last_seen))
		fprintf(out, " (no sample in the last %d s%s)",
			r->o->store == FLEET_GRAPHITE ? FLEET_GRAPHITE_LOOKBACK_S
						      : FLEET_LOOKBACK_S,
			e->up_zero ? "; up == 0" : "");
	else
		fprintf(out, " (last sample %s, %.0f s before%s)",
			utc_clock(e->last_seen, false, a, sizeof(a)), r->o->at - e->last_seen,
			e->up_zero ? "; up == 0" : "");
}

/* "relay on web-1 (94%), web-2 (91%); nginx on web-3 (88%)", at most FLEET_SHOW entries. */
static void put_entries(FILE *out, const struct fleet_result *r, const struct fleet_group *g)
{
	bool stopped = !strcmp(g->rule, FLEET_STOPPED);
	size_t shown = 0;
	char done[FLEET_SHOW];

	memset(done, 0, sizeof(done));
	for (size_t i = 0; i < g->n && i < FLEET_SHOW; i++) {
		const char *subj = g->e[i].subject;
		bool host_level = stopped || !strcmp(subj, "host"), first = true;

		if (done[i])
			continue;
		fputs(shown ? "; " : " ", out);
		if (!host_level) {
			text_put_safe(out, subj);
			fputs(" on ", out);
		}
		/* the same subject on other hosts joins this one's list */
		for (size_t k = i; k < g->n && k < FLEET_SHOW; k++) {
			if (done[k] || strcmp(g->e[k].subject, subj))
				continue;
			done[k] = 1;
			fputs(first ? "" : ", ", out);
			text_put_safe(out, g->e[k].host);
			if (stopped)
				put_stopped(out, r, &g->e[k]);
			else
				put_figure(out, g->rule, g->e[k].value, r->o->range);
			first = false;
			shown++;
		}
	}
	if (g->n > FLEET_SHOW)
		fprintf(out, "; and %zu more", g->n - FLEET_SHOW);
	fputc('\n', out);
}

static void put_spans(FILE *out, const struct fleet_entry *e)
{
	char a[32], b[32];

	fputs("  ", out);
	if (strcmp(e->subject, "host")) {
		text_put_safe(out, e->subject);
		fputs(" on ", out);
	}
	text_put_safe(out, e->host);
	fputs(":", out);
	for (size_t k = 0; k < e->nspans; k++)
		fprintf(out, "%s %s-%s", k ? "," : "",
			utc_clock(e->spans[k].start, false, a, sizeof(a)),
			e->spans[k].open ? "(still at the end)"
					 : utc_clock(e->spans[k].end, false, b, sizeof(b)));
	fputc('\n', out);
}

static void put_group(FILE *out, const struct fleet_result *r, const struct fleet_group *g)
{
	bool stopped = !strcmp(g->rule, FLEET_STOPPED);
	char cmd[1024];

	fprintf(out, "\n%s %s on %zu of %zu host%s:", stopped ? "critical" : sev_word(g->sev),
		g->rule, g->nhosts, r->nhosts, r->nhosts == 1 ? "" : "s");
	put_entries(out, r, g);
	for (size_t i = 0; r->o->range && !stopped && i < g->n && i < FLEET_SHOW; i++)
		put_spans(out, &g->e[i]);
	for (size_t i = 0; i < g->n && i < FLEET_SHOW; i++) {
		fleet_next_command(g->rule, g->e[i].subject, cmd, sizeof(cmd));
		if (!cmd[0])
			continue;
		fputs("  next on ", out);
		text_put_safe(out, g->e[i].host);
		fputs(": ", out);
		text_put_safe(out, cmd);
		fputc('\n', out);
	}
	if (g->n > FLEET_SHOW)
		fprintf(out, "  ... %zu more (--json lists every one)\n", g->n - FLEET_SHOW);
}

int fleet_render_plain(const struct fleet_result *r, FILE *out)
{
	const struct fleet_opts *o = r->o;
	char a[40], b[40];

	fprintf(out, "triage fleet: %zu host%s in %s ", r->nhosts, r->nhosts == 1 ? "" : "s",
		o->store == FLEET_PROMETHEUS ? "Prometheus" : "Graphite");
	text_put_safe(out, o->url);
	if (o->range)
		fprintf(out, " from %s to %s", utc_clock(o->from, true, a, sizeof(a)),
			utc_clock(o->to, true, b, sizeof(b)));
	else
		fprintf(out, " at %s", utc_clock(o->at, true, a, sizeof(a)));
	fprintf(out, ": %zu with findings, %zu stopped reporting.\n", r->nwith_findings,
		r->nstopped);
	if (!r->ng)
		fprintf(out, "\nNo findings%s.\n",
			r->nhosts ? " on any host" : ": no host reported");
	for (size_t i = 0; i < r->ng; i++)
		put_group(out, r, &r->g[i]);
	return ferror(out) ? -EIO : 0;
}

static void json_entry(struct json_writer *w, const struct fleet_result *r,
		       const struct fleet_group *g, const struct fleet_entry *e)
{
	char cmd[1024];

	json_object_begin(w);
	json_kv_string(w, "host", e->host);
	json_kv_string(w, "subject", e->subject);
	json_kv_string(w, "severity", sev_word(e->sev));
	json_kv_double(w, "value", e->value, 2);
	json_kv_string(w, "unit", fleet_figure_unit(g->rule));
	fleet_next_command(g->rule, e->subject, cmd, sizeof(cmd));
	json_kv_string(w, "next", cmd);
	if (!strcmp(g->rule, FLEET_STOPPED)) {
		json_kv_double(w, "last_seen", e->last_seen, 3);
		json_kv_bool(w, "up_zero", e->up_zero);
	}
	json_key(w, "spans");
	json_array_begin(w);
	for (size_t k = 0; k < e->nspans; k++) {
		json_object_begin(w);
		json_kv_double(w, "start", e->spans[k].start, 3);
		json_kv_double(w, "end", e->spans[k].end, 3);
		json_kv_bool(w, "open", e->spans[k].open);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}

int fleet_render_json(const struct fleet_result *r, FILE *out, bool pretty)
{
	const struct fleet_opts *o = r->o;
	struct json_writer w;

	json_init(&w, out, pretty);
	json_object_begin(&w);
	json_kv_string(&w, "store", o->store == FLEET_PROMETHEUS ? "prometheus" : "graphite");
	json_kv_string(&w, "url", o->url);
	if (o->range) {
		json_kv_double(&w, "from", o->from, 3);
		json_kv_double(&w, "to", o->to, 3);
	} else {
		json_kv_double(&w, "at", o->at, 3);
	}
	json_kv_double(&w, "interval", o->interval, 3);
	json_kv_uint(&w, "hosts", r->nhosts);
	json_kv_uint(&w, "hosts_with_findings", r->nwith_findings);
	json_kv_uint(&w, "hosts_stopped", r->nstopped);
	json_key(&w, "findings");
	json_array_begin(&w);
	for (size_t i = 0; i < r->ng; i++) {
		const struct fleet_group *g = &r->g[i];

		json_object_begin(&w);
		json_kv_string(&w, "kind", g->rule);
		json_kv_string(&w, "severity", sev_word(g->sev));
		json_kv_uint(&w, "hosts", g->nhosts);
		json_key(&w, "entries");
		json_array_begin(&w);
		for (size_t k = 0; k < g->n; k++)
			json_entry(&w, r, g, &g->e[k]);
		json_end(&w);
		json_end(&w);
	}
	json_end(&w);
	json_finish(&w);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}
