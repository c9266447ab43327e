#include "flame/flame.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xml.h"
#include "util/mathx.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define FLAME_PAD_STR STR(FLAME_PAD)

void flame_init(struct flame *f)
{
	memset(f, 0, sizeof(*f));
}

static void node_release(struct flame_node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		node_release(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

void flame_release(struct flame *f)
{
	node_release(&f->root);
	memset(f, 0, sizeof(*f));
}

/* The child of n named name[0..len), inserted in name order if new; NULL on ENOMEM. */
static struct flame_node *child(struct flame_node *n, const char *name, size_t len)
{
	size_t lo = 0, hi = n->nkids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *k = n->kids[mid].name;
		int c = strncmp(k, name, len);

		if (c == 0 && k[len] != '\0')
			c = 1; /* name is a prefix of the kid's: the kid sorts after */
		if (c == 0)
			return &n->kids[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (n->nkids == n->cap) {
		size_t cap = n->cap ? n->cap * 2 : 4;
		struct flame_node *k = realloc(n->kids, cap * sizeof(*k));

		if (!k)
			return NULL;
		n->kids = k;
		n->cap = cap;
	}
	char *copy = strndup(name, len);

	if (!copy)
		return NULL;
	memmove(&n->kids[lo + 1], &n->kids[lo], (n->nkids - lo) * sizeof(*n->kids));
	memset(&n->kids[lo], 0, sizeof(*n->kids));
	n->kids[lo].name = copy;
	n->nkids++;
	return &n->kids[lo];
}

int flame_add(struct flame *f, const char *stack, size_t len, uint64_t count)
{
	struct flame_node *n = &f->root;
	unsigned depth = 0;
	size_t i = 0;

	/* Check first, so a bad line adds nothing. */
	for (size_t j = 0; j <= len; j++)
		if ((j == len || stack[j] == ';') && (j == 0 || stack[j - 1] == ';'))
			return -EINVAL;
	n->value += count;
	while (i < len) {
		const char *end = memchr(stack + i, ';', len - i);
		size_t l = end ? (size_t)(end - (stack + i)) : len - i;

		n = child(n, stack + i, l);
		if (!n)
			return -ENOMEM;
		n->value += count;
		depth++;
		i += l + 1;
	}
	if (depth > f->max_depth)
		f->max_depth = depth;
	return 0;
}

/* Parses one folded line (no newline); -EINVAL when malformed. */
static int add_line(struct flame *f, const char *s, size_t len)
{
	size_t sp;
	uint64_t count = 0;

	while (len && (s[len - 1] == '\r' || s[len - 1] == ' '))
		len--;
	if (!len)
		return 1; /* blank: nothing */
	for (sp = len; sp > 0 && s[sp - 1] != ' '; sp--)
		;
	if (sp == 0 || sp == len)
		return -EINVAL;
	for (size_t i = sp; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || count > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		count = count * 10 + (uint64_t)(s[i] - '0');
	}
	return flame_add(f, s, sp - 1, count);
}

int flame_add_folded(struct flame *f, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (text + i)) : len - i;
		int err = add_line(f, text + i, l);

		if (err == -ENOMEM)
			return err;
		if (err < 0)
			f->bad_lines++;
		i += l + 1;
	}
	return 0;
}

/* v with two decimals, whatever the locale. */
static void put_fixed2(FILE *out, double v)
{
	long long c = util_llround(v * 100);

	if (c < 0) {
		fputc('-', out);
		c = -c;
	}
	fprintf(out, "%lld.%02lld", c / 100, c % 100);
}

static uint32_t name_hash(const char *s, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void put_fill(FILE *out, const char *name, enum flame_palette p, bool root)
{
	size_t l = strlen(name);
	bool kernel = l > 4 && !strcmp(name + l - 4, "_[k]");
	unsigned a = name_hash(name, 1) % 256, b = name_hash(name, 2) % 256, r, g, bl;

	if (root) {
		r = g = bl = 200;
	} else if (p == FLAME_COLD) {
		r = 40 + a * 50 / 255;
		g = kernel ? 160 + b * 50 / 255 : 90 + b * 110 / 255;
		bl = kernel ? 150 + a * 40 / 255 : 200 + b * 55 / 255;
	} else if (kernel) {
		r = 230 + a * 25 / 255;
		g = 130 + b * 60 / 255;
		bl = 40 + a * 40 / 255;
	} else {
		r = 205 + a * 50 / 255;
		g = b * 210 / 255;
		bl = a * 55 / 255;
	}
	fprintf(out, "rgb(%u,%u,%u)", r, g, bl);
}

/* Bytes of the first n characters of s (invalid bytes count as one). */
static size_t utf8_prefix(const char *s, size_t n)
{
	size_t i = 0, len = strlen(s);

	while (n-- && i < len) {
		size_t k = utf8_seq_len((const unsigned char *)s + i, len - i);

		i += k ? k : 1;
	}
	return i;
}

static size_t utf8_chars(const char *s)
{
	size_t i = 0, c = 0, len = strlen(s);

	for (; i < len; c++) {
		size_t k = utf8_seq_len((const unsigned char *)s + i, len - i);

		i += k ? k : 1;
	}
	return c;
}

/* The label a frame w px wide shows: all of name, a prefix and "..", or nothing. */
static void put_label(FILE *out, const char *name, double w)
{
	double fit = (w - 6) / 7.0; /* 12 px monospace-ish glyphs, 3 px margins */
	size_t chars = utf8_chars(name);

	if (fit >= (double)chars)
		xml_puts_escaped(out, name);
	else if (fit >= 3) {
		xml_put_escaped(out, name, utf8_prefix(name, (size_t)fit - 2));
		fputs("..", out);
	}
}

struct render {
	FILE *out;
	const struct flame_style *st;
	double scale; /* px per unit of value */
	unsigned max_depth;
	uint64_t total;
};

static void put_frame(const struct render *r, const struct flame_node *n, const char *name,
		      unsigned depth, double x, bool root)
{
	FILE *out = r->out;
	double w = (double)n->value * r->scale;
	double y = FLAME_TOP + (double)(r->max_depth - depth) * FLAME_FRAME_H;

	fputs("<g class=\"f\"><title>", out);
	xml_puts_escaped(out, name);
	fprintf(out, " (%" PRIu64 " %s, ", n->value, r->st->unit ? r->st->unit : "samples");
	put_fixed2(out, r->total ? 100.0 * (double)n->value / (double)r->total : 0);
	fputs("%)</title><rect x=\"", out);
	put_fixed2(out, x);
	fprintf(out, "\" y=\"%.0f\" width=\"", y);
	put_fixed2(out, w);
	fprintf(out, "\" height=\"%d\" fill=\"", FLAME_FRAME_H - 1);
	put_fill(out, name, r->st->palette, root);
	fputs("\" rx=\"2\"/><text x=\"", out);
	put_fixed2(out, x + 3);
	fprintf(out, "\" y=\"%.0f\">", y + FLAME_FRAME_H - 4);
	put_label(out, name, w);
	fputs("</text></g>\n", out);
}

static void put_tree(const struct render *r, const struct flame_node *n, const char *name,
		     unsigned depth, double x)
{
	if ((double)n->value * r->scale < FLAME_MIN_WIDTH)
		return;
	put_frame(r, n, name, depth, x, depth == 0);
	for (size_t i = 0; i < n->nkids; i++) {
		put_tree(r, &n->kids[i], n->kids[i].name, depth + 1, x);
		x += (double)n->kids[i].value * r->scale;
	}
}

/*
 * The inline script: click a frame to zoom (its ancestors stretch to the
 * whole width, dimmed; frames outside it hide), "Reset zoom" or Escape to
 * undo, hover for the details line, Search (or Ctrl-F) for a regular
 * expression whose matches turn magenta with their share of the total.
 */
static const char flame_js[] =
    "(function () {\n"
    "var svg = document.documentElement, W = +svg.getAttribute('width'), PAD = " FLAME_PAD_STR ";\n"
    "var frames = [], details = document.getElementById('details');\n"
    "var matched = document.getElementById('matched'), unzoom = "
    "document.getElementById('unzoom');\n"
    "var EPS = 0.05;\n"
    "function label(f, w) {\n"
    "  var fit = Math.floor((w - 6) / 7), s = f.name;\n"
    "  if (s.length > fit) s = fit >= 3 ? s.substring(0, fit - 2) + '..' : '';\n"
    "  f.t.textContent = s;\n"
    "}\n"
    "function zoom(z) {\n"
    "  var x0 = z ? z.x : PAD, k = z ? (W - 2 * PAD) / z.w : 1;\n"
    "  frames.forEach(function (f) {\n"
    "    var show = true, nx = f.x, nw = f.w, anc = false;\n"
    "    if (z && f.y > z.y + EPS) {\n"
    "      anc = true;\n"
    "      show = f.x <= z.x + EPS && f.x + f.w >= z.x + z.w - EPS;\n"
    "      nx = PAD; nw = W - 2 * PAD;\n"
    "    } else if (z) {\n"
    "      show = f.x >= z.x - EPS && f.x + f.w <= z.x + z.w + EPS;\n"
    "      nx = PAD + (f.x - x0) * k; nw = f.w * k;\n"
    "    }\n"
    "    f.g.style.display = show ? '' : 'none';\n"
    "    if (!show) return;\n"
    "    f.r.setAttribute('x', nx.toFixed(2)); f.r.setAttribute('width', nw.toFixed(2));\n"
    "    f.t.setAttribute('x', (nx + 3).toFixed(2)); f.g.style.opacity = anc ? 0.55 : 1;\n"
    "    label(f, nw);\n"
    "  });\n"
    "  unzoom.style.display = z ? '' : 'none';\n"
    "}\n"
    "function search() {\n"
    "  var term = window.prompt('Search frames (regular expression):', '');\n"
    "  var re = null, iv = [], sum = 0, end = -1;\n"
    "  if (term === null) return;\n"
    "  if (term !== '') {\n"
    "    try { re = new RegExp(term); } catch (e) { matched.textContent = 'Bad expression'; "
    "return; }\n"
    "  }\n"
    "  frames.forEach(function (f) {\n"
    "    var m = re !== null && re.test(f.name);\n"
    "    f.r.setAttribute('fill', m ? 'rgb(225,0,225)' : f.fill);\n"
    "    if (m) iv.push([f.x, f.x + f.w]);\n"
    "  });\n"
    "  iv.sort(function (a, b) { return a[0] - b[0]; });\n"
    "  iv.forEach(function (i) {\n"
    "    if (i[1] <= end) return;\n"
    "    sum += i[1] - Math.max(i[0], end); end = i[1];\n"
    "  });\n"
    "  matched.textContent = re ? 'Matched: ' + (100 * sum / (W - 2 * PAD)).toFixed(1) + '%' : "
    "'';\n"
    "}\n"
    "var gs = document.getElementById('frames').getElementsByTagName('g');\n"
    "for (var i = 0; i < gs.length; i++) {\n"
    "  var g = gs[i], r = g.getElementsByTagName('rect')[0];\n"
    "  var tt = g.getElementsByTagName('title')[0].textContent;\n"
    "  var f = { g: g, r: r, t: g.getElementsByTagName('text')[0], tip: tt,\n"
    "    name: tt.substring(0, tt.lastIndexOf(' (')), fill: r.getAttribute('fill'),\n"
    "    x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width') };\n"
    "  frames.push(f);\n"
    "  g.addEventListener('click', zoom.bind(null, f));\n"
    "  g.addEventListener('mouseover', function () { details.textContent = this.tip; }.bind(f));\n"
    "  g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
    "}\n"
    "unzoom.addEventListener('click', function () { zoom(null); });\n"
    "document.getElementById('search').addEventListener('click', search);\n"
    "window.addEventListener('keydown', function (e) {\n"
    "  if (e.key === 'Escape') zoom(null);\n"
    "  if ((e.ctrlKey || e.metaKey) && e.key === 'f') { e.preventDefault(); search(); }\n"
    "});\n"
    "})();\n";

/* The length of the next line of at most max bytes of s, broken after a space if it must be. */
static size_t note_line_len(const char *s, size_t max, size_t *skip)
{
	size_t n = strcspn(s, "\n"), cut;

	*skip = s[n] == '\n';
	if (n <= max)
		return n;
	for (cut = max; cut > 0 && s[cut] != ' '; cut--)
		;
	if (!cut)
		cut = max;
	*skip = s[cut] == ' ';
	return cut;
}

/*
 * Writes the note (or, with out NULL, only counts its lines), wrapped to
 * the width, from y0 down; returns the number of lines.
 */
static unsigned put_note(FILE *out, const char *note, unsigned width, unsigned y0)
{
	size_t max = (size_t)((width - 2 * FLAME_PAD) / FLAME_CHAR_W), len, skip;
	unsigned lines = 0;

	for (const char *p = note; p && *p; p += len + skip) {
		len = note_line_len(p, max, &skip);
		if (!len && !skip)
			break;
		if (out) {
			fprintf(out,
				"<text class=\"note\" x=\"%d\" y=\"%u\" xml:space=\"preserve\">",
				FLAME_PAD, y0 + lines * FLAME_NOTE_LINE);
			xml_put_escaped(out, p, len);
			fputs("</text>\n", out);
		}
		lines++;
	}
	return lines;
}

int flame_write_svg(FILE *out, const struct flame *f, const struct flame_style *st)
{
	unsigned width = st->width ? st->width : FLAME_WIDTH_DEFAULT;
	unsigned graph_h = FLAME_TOP + (f->max_depth + 1) * FLAME_FRAME_H + FLAME_BOTTOM;
	unsigned note_lines = put_note(NULL, st->note, width, 0);
	unsigned height = graph_h + note_lines * FLAME_NOTE_LINE + (note_lines ? 8 : 0);
	struct render r = { out, st, 0, f->max_depth, f->root.value };

	if (f->root.value)
		r.scale = (double)(width - 2 * FLAME_PAD) / (double)f->root.value;
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" "
		"height=\"%u\" viewBox=\"0 0 %u %u\">\n",
		width, height, width, height);
	fputs("<style>\n"
	      "text { font-family: monospace; font-size: 12px; fill: rgb(0,0,0); }\n"
	      "#frames g { cursor: pointer; }\n"
	      "#frames g:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
	      "#frames text { pointer-events: none; }\n"
	      ".button { cursor: pointer; fill: rgb(0,0,160); }\n"
	      ".button:hover { text-decoration: underline; }\n"
	      ".note { fill: rgb(90,90,90); }\n"
	      "</style>\n",
	      out);
	fprintf(out,
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(248,248,240)\"/>\n",
		width, height);
	fprintf(out, "<text x=\"%u\" y=\"20\" text-anchor=\"middle\" style=\"font-size:16px\">",
		width / 2);
	xml_puts_escaped(out, st->title ? st->title : "Flame graph");
	fputs("</text>\n", out);
	if (st->subtitle) {
		fprintf(out, "<text x=\"%u\" y=\"38\" text-anchor=\"middle\">", width / 2);
		xml_puts_escaped(out, st->subtitle);
		fputs("</text>\n", out);
	}
	fprintf(out,
		"<text id=\"unzoom\" class=\"button\" x=\"%d\" y=\"20\" style=\"display:none\">"
		"Reset zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%u\" y=\"20\" "
		"text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%u\" text-anchor=\"end\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
		FLAME_PAD, width - FLAME_PAD, width - FLAME_PAD, graph_h - 12, FLAME_PAD,
		graph_h - 12);
	put_note(out, st->note, width, graph_h + 6);
	fputs("<g id=\"frames\">\n", out);
	if (f->root.value)
		put_tree(&r, &f->root, "all", 0, FLAME_PAD);
	fputs("</g>\n<script type=\"text/ecmascript\"><![CDATA[\n", out);
	fputs(flame_js, out);
	fputs("]]></script>\n</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
