/* The report's two renderers: plain text (a terminal or a file) and JSON. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "report/schema.h"
#include "util/json.h"
#include "util/text.h"

static void iso_time(time_t t, char *buf, size_t size)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%lld", (long long)t);
}

/* ---- plain ---- */

struct paint {
	const char *bold, *red, *yellow, *cyan, *dim, *off;
};

static void paint_init(struct paint *p, bool color)
{
	p->bold = color ? "\033[1m" : "";
	p->red = color ? "\033[1;31m" : "";
	p->yellow = color ? "\033[1;33m" : "";
	p->cyan = color ? "\033[36m" : "";
	p->dim = color ? "\033[2m" : "";
	p->off = color ? "\033[0m" : "";
}

static const char *sev_color(const struct paint *p, enum report_sev s)
{
	return s == SEV_CRITICAL ? p->red : s == SEV_WARNING ? p->yellow : p->cyan;
}

static void plain_finding(FILE *out, const struct rp_finding *x, const struct paint *p)
{
	char label[RP_COMM_MAX + RP_CGROUP_MAX + 2 * RP_MOUNT_MAX + 64];

	fprintf(out, "  %s%-8s%s %s%s%s", sev_color(p, x->sev), report_sev_name(x->sev), p->off,
		p->bold, report_kind_name(x->kind), p->off);
	report_subject_label(&x->subject, REPORT_LABEL_WORDS, label, sizeof(label));
	fputc(' ', out);
	text_put_safe(out, label);
	fputs("\n    ", out);
	text_put_safe(out, x->summary);
	if (x->next[0] && x->lead[0]) { /* "... Profile it:" then the command */
		fputc(' ', out);
		text_put_safe(out, x->lead);
		fputc(':', out);
	}
	fputc('\n', out);
	if (x->next[0]) {
		fprintf(out, "    %s$%s ", p->bold, p->off);
		text_put_safe(out, x->next);
		fputc('\n', out);
	}
	for (int i = 0; i < x->ndetails; i++) {
		fputs("      ", out);
		text_put_safe(out, x->details[i]);
		fputc('\n', out);
	}
	fprintf(out, "    %sevidence:", p->dim);
	for (int i = 0; i < x->nev; i++)
		fprintf(out, "%s %s=%.1f%s%s", i ? "," : "", x->ev[i].metric, x->ev[i].value,
			x->ev[i].unit[0] && x->ev[i].unit[0] != '%' ? " " : "", x->ev[i].unit);
	fprintf(out, "%s\n", p->off);
}

void report_render_plain(FILE *out, const struct report_data *d, const struct report_findings *f,
			 const struct report_style *st)
{
	struct paint p;
	char start[32];

	paint_init(&p, st->color);
	iso_time(d->start, start, sizeof(start));
	fprintf(out, "%s", p.bold);
	text_put_safe(out, f->headline);
	fprintf(out, "%s\n", p.off);
	fputs("host ", out);
	text_put_safe(out, d->hostname);
	fprintf(out, ", Linux ");
	text_put_safe(out, d->release);
	fprintf(out, ", %d CPUs; window %s, %.1f s\n", d->ncpu, start, d->seconds);
	if (f->n)
		fprintf(out, "\n%sFindings%s\n", p.bold, p.off);
	for (size_t i = 0; i < f->n; i++)
		plain_finding(out, &f->f[i], &p);
	if (f->nchecked)
		fprintf(out, "\n%sChecked, fine%s\n", p.bold, p.off);
	for (size_t i = 0; i < f->nchecked; i++) {
		fprintf(out, "  %-10s ", f->checked[i].resource);
		text_put_safe(out, f->checked[i].summary);
		fputc('\n', out);
	}
	if (d->nskipped)
		fprintf(out, "\n%sSkipped%s\n", p.bold, p.off);
	for (size_t i = 0; i < d->nskipped; i++) {
		fprintf(out, "  %-10s ", d->skipped[i].what);
		text_put_safe(out, d->skipped[i].why);
		fputc('\n', out);
	}
}

/* ---- JSON (docs/report.md) ---- */

static void json_subject(struct json_writer *w, const struct rp_subject *s)
{
	json_key(w, report_json_key(RJ_SUBJECT));
	json_object_begin(w);
	if (s->pid)
		json_kv_int(w, report_json_key(RJ_PID), s->pid);
	if (s->exited)
		json_kv_bool(w, report_json_key(RJ_EXITED), true);
	if (s->tid)
		json_kv_int(w, report_json_key(RJ_TID), s->tid);
	if (s->comm[0])
		json_kv_string(w, report_json_key(RJ_COMM), s->comm);
	if (s->cgroup[0])
		json_kv_string(w, report_json_key(RJ_CGROUP), s->cgroup);
	if (s->mount[0])
		json_kv_string(w, report_json_key(RJ_MOUNT), s->mount);
	if (s->device[0])
		json_kv_string(w, report_json_key(RJ_DEVICE), s->device);
	if (s->fstype[0])
		json_kv_string(w, report_json_key(RJ_FSTYPE), s->fstype);
	if (s->iface[0])
		json_kv_string(w, report_json_key(RJ_INTERFACE), s->iface);
	if (s->cpu >= 0)
		json_kv_int(w, report_json_key(RJ_CPU), s->cpu);
	if (s->npids) {
		json_key(w, report_json_key(RJ_PIDS));
		json_array_begin(w);
		for (size_t i = 0; i < s->npids; i++)
			json_int(w, s->pids[i]);
		json_end(w);
	}
	if (s->nhogs) {
		json_key(w, report_json_key(RJ_HOGS));
		json_array_begin(w);
		for (size_t i = 0; i < s->nhogs; i++)
			json_int(w, s->hogs[i]);
		json_end(w);
	}
	json_end(w);
}

/* Figures as data: [{"metric", "value", "unit"}] (a finding's evidence, a checked line's figures).
 */
static void json_evidence(struct json_writer *w, const char *key, const struct rp_evidence *ev,
			  int n)
{
	json_key(w, key);
	json_array_begin(w);
	for (int i = 0; i < n; i++) {
		json_object_begin(w);
		json_kv_string(w, report_json_key(RJ_METRIC), ev[i].metric);
		json_kv_double(w, report_json_key(RJ_VALUE), ev[i].value, 2);
		json_kv_string(w, report_json_key(RJ_UNIT), ev[i].unit);
		json_end(w);
	}
	json_end(w);
}

static void json_finding(struct json_writer *w, const struct rp_finding *x)
{
	json_object_begin(w);
	json_kv_string(w, report_json_key(RJ_KIND), report_kind_name(x->kind));
	json_kv_string(w, report_json_key(RJ_SEVERITY), report_sev_name(x->sev));
	json_subject(w, &x->subject);
	json_kv_string(w, report_json_key(RJ_SUMMARY), x->summary);
	json_evidence(w, report_json_key(RJ_EVIDENCE), x->ev, x->nev);
	json_key(w, report_json_key(RJ_NEXT));
	if (x->next[0])
		json_string(w, x->next);
	else
		json_null(w);
	if (x->ndetails) {
		json_key(w, report_json_key(RJ_DETAILS));
		json_array_begin(w);
		for (int i = 0; i < x->ndetails; i++)
			json_string(w, x->details[i]);
		json_end(w);
	}
	json_end(w);
}

static void json_header(struct json_writer *w, const struct report_data *d)
{
	char t[32];

	json_key(w, report_json_key(RJ_HOST));
	json_object_begin(w);
	json_kv_string(w, report_json_key(RJ_HOSTNAME), d->hostname);
	json_kv_int(w, report_json_key(RJ_CPUS), d->ncpu);
	json_end(w);
	json_key(w, report_json_key(RJ_KERNEL));
	json_object_begin(w);
	json_kv_string(w, report_json_key(RJ_RELEASE), d->release);
	if (d->version[0])
		json_kv_string(w, report_json_key(RJ_VERSION), d->version);
	json_end(w);
	json_key(w, report_json_key(RJ_WINDOW));
	json_object_begin(w);
	iso_time(d->start, t, sizeof(t));
	json_kv_string(w, report_json_key(RJ_START), t);
	iso_time(d->end, t, sizeof(t));
	json_kv_string(w, report_json_key(RJ_END), t);
	json_kv_double(w, report_json_key(RJ_SECONDS), d->seconds, 2);
	json_end(w);
}

void report_render_json(struct json_writer *w, const struct report_data *d,
			const struct report_findings *f)
{
	json_object_begin(w);
	json_header(w, d);
	json_kv_string(w, report_json_key(RJ_HEADLINE), f->headline);
	json_key(w, report_json_key(RJ_FINDINGS));
	json_array_begin(w);
	for (size_t i = 0; i < f->n; i++)
		json_finding(w, &f->f[i]);
	json_end(w);
	json_key(w, report_json_key(RJ_CHECKED));
	json_array_begin(w);
	for (size_t i = 0; i < f->nchecked; i++) {
		json_object_begin(w);
		json_kv_string(w, report_json_key(RJ_RESOURCE), f->checked[i].resource);
		json_kv_string(w, report_json_key(RJ_CHECKED_SUMMARY), f->checked[i].summary);
		json_evidence(w, report_json_key(RJ_FIGURES), f->checked[i].fig,
			      f->checked[i].nfig);
		json_end(w);
	}
	json_end(w);
	json_key(w, report_json_key(RJ_SKIPPED));
	json_array_begin(w);
	for (size_t i = 0; i < d->nskipped; i++) {
		json_object_begin(w);
		json_kv_string(w, report_json_key(RJ_WHAT), d->skipped[i].what);
		json_kv_string(w, report_json_key(RJ_WHY), d->skipped[i].why);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}
