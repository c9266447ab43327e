/*
 * The page: one HTML document with everything inline (uPlot's script and
 * style, the page's own, the data as JSON). A Content-Security-Policy of
 * default-src 'none' lets the inline code run and forbids any fetch, so the
 * page works offline and cannot leak. Untrusted text (host, group, device
 * and interface names, finding sentences) reaches the page only as JSON
 * strings the script puts into textContent; the JSON is escaped so that no
 * string can close the <script> element that holds it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "util/json.h"
#include "util/xml.h"

#include "plot_assets.h"

void plot_json_for_script(FILE *out, const char *json, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)json[i];

		if (c == '<')
			fputs("\\u003c", out);
		else if (c == '>')
			fputs("\\u003e", out);
		else if (c == '&')
			fputs("\\u0026", out);
		else if (c == 0xe2 && i + 2 < len && (unsigned char)json[i + 1] == 0x80 &&
			 ((unsigned char)json[i + 2] == 0xa8 ||
			  (unsigned char)json[i + 2] == 0xa9)) {
			fputs((unsigned char)json[i + 2] == 0xa8 ? "\\u2028" : "\\u2029", out);
			i += 2;
		} else
			fputc(c, out);
	}
}

static void json_num(struct json_writer *w, double v, int decimals)
{
	if (isnan(v))
		json_null(w);
	else
		json_double(w, v, decimals);
}

static void write_chart(struct json_writer *w, const struct plot_chart *c)
{
	json_object_begin(w);
	json_kv_string(w, "id", c->id);
	json_kv_string(w, "title", c->title);
	json_kv_string(w, "unit", c->unit);
	json_kv_uint(w, "raw_points", c->raw_points);
	if (c->note)
		json_kv_string(w, "note", c->note);
	json_key(w, "ts");
	json_array_begin(w);
	for (size_t i = 0; i < c->n; i++)
		json_double(w, c->ts[i], 3);
	json_end(w);
	json_key(w, "series");
	json_array_begin(w);
	for (size_t i = 0; i < c->ns; i++) {
		json_object_begin(w);
		json_kv_string(w, "label", c->s[i].label);
		json_kv_string(w, "entity", c->s[i].entity ? c->s[i].entity : c->s[i].label);
		json_kv_uint(w, "part", c->s[i].part);
		json_key(w, "v");
		json_array_begin(w);
		for (size_t j = 0; j < c->n; j++)
			json_num(w, c->s[i].v[j], 2);
		json_end(w);
		json_end(w);
	}
	json_end(w);
	json_end(w);
}

static void write_data(FILE *out, const struct plot_doc *d)
{
	struct json_writer w;

	json_init(&w, out, false);
	json_object_begin(&w);
	json_key(&w, "meta");
	json_object_begin(&w);
	for (size_t i = 0; i + 1 < d->nmeta; i += 2)
		json_kv_string(&w, d->meta[i], d->meta[i + 1]);
	json_end(&w);
	json_key(&w, "charts");
	json_array_begin(&w);
	for (size_t i = 0; i < d->ncharts; i++)
		write_chart(&w, &d->charts[i]);
	json_end(&w);
	json_key(&w, "findings");
	json_array_begin(&w);
	for (size_t i = 0; i < d->nfindings; i++) {
		const struct plot_finding *f = &d->findings[i];

		json_object_begin(&w);
		json_kv_double(&w, "start", f->start, 3);
		json_kv_double(&w, "end", f->end, 3);
		json_kv_string(&w, "severity", f->severity);
		json_kv_string(&w, "rule", f->rule);
		json_kv_string(&w, "subject", f->subject);
		json_kv_string(&w, "sentence", f->sentence);
		json_kv_uint(&w, "windows", f->windows);
		json_end(&w);
	}
	json_end(&w);
	json_finish(&w);
}

static const char *meta_value(const struct plot_doc *d, const char *key)
{
	for (size_t i = 0; i + 1 < d->nmeta; i += 2)
		if (!strcmp(d->meta[i], key))
			return d->meta[i + 1];
	return NULL;
}

#define PUT(out, a) fwrite((a), 1, sizeof(a), (out))

int plot_write_html(FILE *out, const struct plot_doc *d)
{
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);
	const char *host = meta_value(d, "hostname");

	if (!mem)
		return -ENOMEM;
	write_data(mem, d);
	if (fclose(mem)) {
		free(json);
		return -ENOMEM;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"triage plot\">\n<title>triage record",
	      out);
	if (host) {
		fputs(" of ", out);
		xml_puts_escaped(out, host);
	}
	fputs("</title>\n<!--\nThis page inlines uPlot " UPLOT_VERSION
	      " (https://github.com/leeoniya/uPlot), under this licence:\n\n",
	      out);
	PUT(out, asset_LICENSE);
	fputs("-->\n<style>\n", out);
	PUT(out, asset_uPlot_min_css);
	fputs("\n</style>\n<style>\n", out);
	PUT(out, asset_page_css);
	fputs("</style>\n</head>\n<body>\n<header id=\"head\"></header>\n"
	      "<section id=\"findings\"></section>\n<main id=\"charts\"></main>\n"
	      "<script type=\"application/json\" id=\"triage-data\">",
	      out);
	plot_json_for_script(out, json, len);
	free(json);
	fputs("</script>\n<script>\n", out);
	PUT(out, asset_uPlot_iife_min_js);
	fputs("\n</script>\n<script>\n", out);
	PUT(out, asset_page_js);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
