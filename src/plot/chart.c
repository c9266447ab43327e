/* Charts as arrays, downsampling and findings merging; see plot.h. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "util/grow.h"

int plot_chart_init(struct plot_chart *c, const char *id, const char *title, const char *unit)
{
	memset(c, 0, sizeof(*c));
	c->id = strdup(id);
	c->title = strdup(title);
	c->unit = strdup(unit);
	if (!c->id || !c->title || !c->unit) {
		plot_chart_release(c);
		return -ENOMEM;
	}
	return 0;
}

void plot_chart_release(struct plot_chart *c)
{
	for (size_t i = 0; i < c->ns; i++) {
		free(c->s[i].label);
		free(c->s[i].entity);
		free(c->s[i].v);
	}
	free(c->s);
	free(c->ts);
	free(c->note);
	free(c->id);
	free(c->title);
	free(c->unit);
	memset(c, 0, sizeof(*c));
}

/* Room for one more row in ts and every series. */
static int grow_rows(struct plot_chart *c)
{
	size_t cap = c->cap;

	if (util_grow(&c->ts, &cap, c->n + 1, sizeof(*c->ts)))
		return -ENOMEM;
	if (cap == c->cap)
		return 0;
	for (size_t i = 0; i < c->ns; i++) {
		double *v = realloc(c->s[i].v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM; /* series shorter than cap: cap stays, retried next time */
		c->s[i].v = v;
	}
	c->cap = cap;
	return 0;
}

static struct plot_series *find_series(struct plot_chart *c, int64_t key)
{
	for (size_t i = c->ns; i-- > 0;)
		if (c->s[i].key == key)
			return &c->s[i];
	return NULL;
}

static struct plot_series *new_series(struct plot_chart *c, int64_t key, const char *label)
{
	struct plot_series *s;

	if (util_grow(&c->s, &c->scap, c->ns + 1, sizeof(*c->s)))
		return NULL;
	s = &c->s[c->ns];
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->label = strdup(label ? label : "");
	s->v = malloc((c->cap ? c->cap : 1) * sizeof(*s->v));
	if (!s->label || !s->v) {
		free(s->label);
		free(s->v);
		return NULL;
	}
	for (size_t i = 0; i < c->n; i++)
		s->v[i] = NAN;
	c->ns++;
	return s;
}

int plot_chart_add(struct plot_chart *c, double ts, int64_t key, const char *label, double v)
{
	struct plot_series *s;

	if (c->n && ts < c->ts[c->n - 1])
		return -EINVAL;
	if (!c->n || ts > c->ts[c->n - 1]) {
		if (grow_rows(c))
			return -ENOMEM;
		c->ts[c->n] = ts;
		for (size_t i = 0; i < c->ns; i++)
			c->s[i].v[c->n] = NAN;
		c->n++;
		c->raw_points = c->n;
	}
	s = find_series(c, key);
	if (!s && isnan(v))
		return 0; /* a series begins with its first value */
	if (!s)
		s = new_series(c, key, label);
	if (!s)
		return -ENOMEM;
	s->v[c->n - 1] = v;
	return 0;
}

int plot_chart_tag(struct plot_chart *c, int64_t key, const char *entity, unsigned part)
{
	struct plot_series *s = find_series(c, key);

	if (!s)
		return 0;
	s->part = part;
	if (s->entity || !entity || !*entity)
		return 0;
	s->entity = strdup(entity);
	return s->entity ? 0 : -ENOMEM;
}

static int series_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct plot_series *)a)->key, y = ((const struct plot_series *)b)->key;

	return (x > y) - (x < y);
}

void plot_chart_sort(struct plot_chart *c)
{
	if (c->ns)
		qsort(c->s, c->ns, sizeof(*c->s), series_cmp);
}

/* Writes the bucket [lo, hi) of v as its min and max in time order at out[0..1]. */
static void bucket_extremes(const double *v, size_t lo, size_t hi, double *out)
{
	size_t imin = hi, imax = hi;

	for (size_t i = lo; i < hi; i++) {
		if (isnan(v[i]))
			continue;
		if (imin == hi || v[i] < v[imin])
			imin = i;
		if (imax == hi || v[i] > v[imax])
			imax = i;
	}
	if (imin == hi) {
		out[0] = out[1] = NAN;
		return;
	}
	out[0] = v[imin < imax ? imin : imax];
	out[1] = v[imin < imax ? imax : imin];
}

int plot_chart_downsample(struct plot_chart *c, size_t max_points)
{
	size_t buckets = max_points / 2, m = 0;

	if (c->n <= max_points || buckets == 0)
		return 0;
	/* In place: bucket b's output (2b, 2b+1) never passes its input start. */
	for (size_t b = 0; b < buckets; b++) {
		size_t lo = b * c->n / buckets, hi = (b + 1) * c->n / buckets;
		double ext[2];

		for (size_t i = 0; i < c->ns; i++) {
			bucket_extremes(c->s[i].v, lo, hi, ext);
			c->s[i].v[m] = ext[0];
			if (hi - lo > 1)
				c->s[i].v[m + 1] = ext[1];
		}
		c->ts[m] = c->ts[lo];
		if (hi - lo > 1)
			c->ts[m + 1] = c->ts[hi - 1];
		m += hi - lo > 1 ? 2 : 1;
	}
	c->n = m;
	return 0;
}

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

int plot_doc_add_finding(struct plot_doc *d, double start, double end, const char *severity,
			 const char *rule, const char *subject, const char *sentence)
{
	struct plot_finding *f;
	double gap = d->interval > 0 ? 1.5 * d->interval : 0;

	/* The last mark of the same kind, if this window continues it. */
	for (size_t i = d->nfindings; i-- > 0;) {
		f = &d->findings[i];
		if (!same(f->severity, severity) || !same(f->rule, rule) ||
		    !same(f->subject, subject))
			continue;
		if (start >= f->start && start <= f->end + gap) {
			if (end > f->end)
				f->end = end;
			f->windows++;
			return 0;
		}
		break;
	}
	if (util_grow(&d->findings, &d->fcap, d->nfindings + 1, sizeof(*d->findings)))
		return -ENOMEM;
	f = &d->findings[d->nfindings];
	memset(f, 0, sizeof(*f));
	f->start = start;
	f->end = end;
	f->windows = 1;
	f->severity = strdup(severity ? severity : "");
	f->rule = strdup(rule ? rule : "");
	f->subject = strdup(subject ? subject : "");
	f->sentence = strdup(sentence ? sentence : "");
	d->nfindings++;
	if (!f->severity || !f->rule || !f->subject || !f->sentence)
		return -ENOMEM; /* released with the doc */
	return 0;
}

void plot_doc_release(struct plot_doc *d)
{
	for (size_t i = 0; i < d->nmeta; i++)
		free(d->meta[i]);
	free(d->meta);
	for (size_t i = 0; i < d->ncharts; i++)
		plot_chart_release(&d->charts[i]);
	free(d->charts);
	for (size_t i = 0; i < d->nfindings; i++) {
		free(d->findings[i].severity);
		free(d->findings[i].rule);
		free(d->findings[i].subject);
		free(d->findings[i].sentence);
	}
	free(d->findings);
	memset(d, 0, sizeof(*d));
}
