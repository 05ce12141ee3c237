// SPDX-License-Identifier: GPL-2.0
/*
 * pc_write_svg(): one event's stacks as an interactive flame graph, or
 * inverted as an icicle graph of callers, in one self-contained SVG file
 * that a browser opens directly.
 *
 * Every stack of the event becomes a path of keys: its thread's command,
 * then its frames outermost first (inverted: the leaf first and the
 * command last, as flamegraph.pl --inverted over stackcollapse-perf's
 * lines). A key is the rank of the frame's label in name order, so the
 * sorted paths are the merged tree in pre-order with its siblings sorted
 * by name, and one pass over them makes the nodes, each with its summed
 * samples and weight and the weight to its left. The nodes at least
 * FG_MIN_PX wide are written in that pre-order as <g class="f"> elements
 * (a <title> for the tooltip, a <rect>, a <text> label cut to fit); the
 * others are only counted. The embedded script does the status line,
 * click to zoom and the regex search, reading all it needs from those
 * elements, so no name of the profile is ever inside the script.
 *
 * Colours: warm (red to yellow by name, kernel functions orange) for
 * functions, grey for the root and the commands. A wall-clock profile
 * (report --wall) has stacks off the CPU too: every node also sums the
 * weight of its off-CPU paths (data-off), and one whose weight is all
 * off the CPU is cold, light blue (a kernel function's teal), under the
 * reason, "[blocked]" deep blue or "[preempted]" purple; a node with
 * time on and off the CPU stays warm. A differential profile (p->diff,
 * perf-counter diff) has the new recording's widths; every node also
 * sums the baseline's samples of its paths (data-base) and is coloured
 * by the z score of its share's change (data-z, see fg_z()): grey for
 * |z| < FG_Z, red where it grew, blue where it shrank, deeper up to
 * |z| = FG_Z_DEEP.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "profile.h"

#define FG_WIDTH	1200	/* px, of the image */
#define FG_XPAD		10	/* px, left and right of the frames */
#define FG_FRAME_H	16	/* px, a level of the tree */
#define FG_FONT		12	/* px */
#define FG_FONT_W	0.59	/* the average glyph width, in font sizes */
#define FG_MIN_PX	0.1	/* narrower frames are not drawn */
#define FG_TOP		44	/* px above the frames: title, controls */
#define FG_BOTTOM	40	/* px below: the status line and the note */
#define FG_TITLE_MAX	100	/* characters of the command in the title */
#define FG_NONE		UINT32_MAX
#define FG_Z		3.0	/* |z| from which a change is coloured */
#define FG_Z_DEEP	10.0	/* the deepest colour from here */

enum fg_kind { FG_ROOT, FG_COMM, FG_USER, FG_KERNEL };

static const char *const fg_kind_name[] = {
	[FG_ROOT] = "root",
	[FG_COMM] = "comm",
	[FG_USER] = "user",
	[FG_KERNEL] = "kernel",
};

/* What a node shows: a frame of the profile, or a thread's command. */
struct fg_label {
	const char *text;
	const char *dso;	/* or NULL */
	enum fg_kind kind;
	int off_cpu;		/* PC_FRAME_BLOCKED, _PREEMPTED, or 0 */
	uint32_t rank;		/* equal labels have equal ranks */
};

/* A stack of the event as the keys of its nodes below the root. */
struct fg_path {
	const uint32_t *key;
	uint32_t n;
	uint64_t samples, weight;
	uint64_t off;		/* @weight if the stack is off the CPU */
	uint64_t base;		/* a diff's: the baseline's samples */
};

struct fg_node {
	uint64_t x;		/* the weight to its left */
	uint64_t samples, weight;
	uint64_t off;		/* of @weight, off the CPU */
	uint64_t base;		/* a diff's: the baseline's samples */
	uint32_t label;		/* index into fg.label, FG_NONE for root */
	uint32_t depth;		/* 0 for the root */
};

struct fg {
	struct fg_label *label;	/* the frames, then the threads */
	char **own;		/* the label texts made here */
	uint32_t nr_label;
	uint32_t *rep;		/* a rank's first label */
	struct fg_path *path;
	uint32_t nr_path;
	uint32_t *key;
	struct fg_node *node;
	size_t nr_node, alloc_node;
	uint64_t total;
	uint32_t max_depth;	/* of the drawn nodes */
	size_t elided;
	double scale;		/* px per unit of weight */
	int has_off;		/* a stack of the event is off the CPU */
	int diff;		/* p->diff: coloured by z */
	uint64_t base_total, new_total;	/* a diff's samples of each */
	size_t gone;		/* a diff's frames only in the baseline */
};

/*
 * The script. It runs from the root element's onload, finds the frames
 * in document order (pre-order: a frame's descendants are the frames
 * after it that are deeper than it) and keeps their first geometry.
 */
static const char *const fg_script[] = {
"\"use strict\";\n",
"var svg, details, matched, unzoomBtn, searchBtn;\n",
"var nodes = [], W, XPAD = 10, FONT = 12, FW = 0.59, total, unit;\n",
"var diff, baseTotal, newTotal;\n",
"var lastTerm = \"\", searching = false;\n",
"function init() {\n",
"	var gs, i, g, r;\n",
"	svg = document.documentElement;\n",
"	details = document.getElementById(\"details\");\n",
"	matched = document.getElementById(\"matched\");\n",
"	unzoomBtn = document.getElementById(\"unzoom\");\n",
"	searchBtn = document.getElementById(\"search\");\n",
"	W = parseFloat(svg.getAttribute(\"width\"));\n",
"	total = parseFloat(svg.getAttribute(\"data-total\"));\n",
"	unit = svg.getAttribute(\"data-unit\");\n",
"	diff = svg.getAttribute(\"data-diff\") === \"1\";\n",
"	baseTotal = parseFloat(svg.getAttribute(\"data-base-total\"));\n",
"	newTotal = parseFloat(svg.getAttribute(\"data-new-total\"));\n",
"	gs = document.getElementById(\"frames\").children;\n",
"	for (i = 0; i < gs.length; i++) {\n",
"		g = gs[i];\n",
"		r = g.querySelector(\"rect\");\n",
"		g.fgIndex = i;\n",
"		nodes.push({ g: g, rect: r, text: g.querySelector(\"text\"),\n",
"			name: g.querySelector(\"title\").textContent\n",
"				.split(\"\\n\")[0],\n",
"			x: parseFloat(r.getAttribute(\"x\")),\n",
"			w: parseFloat(r.getAttribute(\"width\")),\n",
"			depth: parseInt(g.getAttribute(\"data-depth\"), 10),\n",
"			samples: g.getAttribute(\"data-samples\"),\n",
"			weight: parseFloat(g.getAttribute(\"data-weight\")),\n",
"			off: parseFloat(g.getAttribute(\"data-off\")) || 0,\n",
"			base: parseFloat(g.getAttribute(\"data-base\")) || 0,\n",
"			z: g.getAttribute(\"data-z\"),\n",
"			fill: r.getAttribute(\"fill\") });\n",
"	}\n",
"	var fr = document.getElementById(\"frames\");\n",
"	fr.addEventListener(\"click\", onClick);\n",
"	fr.addEventListener(\"mouseover\", onOver);\n",
"	fr.addEventListener(\"mouseout\", onOut);\n",
"	unzoomBtn.addEventListener(\"click\", unzoom);\n",
"	searchBtn.addEventListener(\"click\", function () {\n",
"		if (searching)\n",
"			resetSearch();\n",
"		else\n",
"			search();\n",
"	});\n",
"	window.addEventListener(\"keydown\", onKey);\n",
"	svg.setAttribute(\"data-ready\", \"1\");\n",
"}\n",
"function frameOf(e) {\n",
"	var t = e.target;\n",
"	while (t && t.getAttribute) {\n",
"		if (t.classList && t.classList.contains(\"f\"))\n",
"			return nodes[t.fgIndex];\n",
"		t = t.parentNode;\n",
"	}\n",
"	return null;\n",
"}\n",
"function share(x, t) {\n",
"	return t > 0 ? 100 * x / t : 0;\n",
"}\n",
"function pct(w) {\n",
"	return share(w, total).toFixed(2);\n",
"}\n",
"function diffOf(n) {\n",
"	var a = share(n.base, baseTotal), b = share(n.samples, newTotal);\n",
"	var d = (b - a).toFixed(2);\n",
"	return \"baseline \" + a.toFixed(2) + \"%, new \" + b.toFixed(2) +\n",
"		\"%, \" + (b >= a ? \"+\" : \"\") + d + \" points, z \" +\n",
"		(n.z.charAt(0) === \"-\" ? \"\" : \"+\") + n.z;\n",
"}\n",
"function onOver(e) {\n",
"	var n = frameOf(e), s;\n",
"	if (!n)\n",
"		return;\n",
"	s = \"Function: \" + n.name + \" (\";\n",
"	if (diff) {\n",
"		s += diffOf(n);\n",
"	} else {\n",
"		s += n.samples + \" samples, \" + n.weight + \" \" + unit +\n",
"			\", \" + pct(n.weight) + \"%\";\n",
"		if (n.off > 0)\n",
"			s += \", \" + share(n.off, n.weight).toFixed(2) +\n",
"				\"% off-CPU\";\n",
"	}\n",
"	details.textContent = s + \")\";\n",
"}\n",
"function onOut() {\n",
"	details.textContent = \" \";\n",
"}\n",
"function fit(n, w) {\n",
"	var c = Math.floor((w - 3) / (FONT * FW)), s = n.name;\n",
"	if (c < 3)\n",
"		s = \"\";\n",
"	else if (s.length > c)\n",
"		s = s.substring(0, c - 2) + \"..\";\n",
"	n.text.textContent = s;\n",
"}\n",
"function place(n, x, w) {\n",
"	n.rect.setAttribute(\"x\", x.toFixed(2));\n",
"	n.rect.setAttribute(\"width\", w.toFixed(2));\n",
"	n.text.setAttribute(\"x\", (x + 3).toFixed(2));\n",
"	fit(n, w);\n",
"}\n",
"function show(n, how) {\n",
"	n.g.classList.remove(\"hide\");\n",
"	n.g.classList.remove(\"parent\");\n",
"	if (how)\n",
"		n.g.classList.add(how);\n",
"}\n",
"function zoom(i) {\n",
"	var z = nodes[i], sc = (W - 2 * XPAD) / z.w, d = z.depth, j, n;\n",
"	if (d === 0 || !(z.w > 0)) {\n",
"		unzoom();\n",
"		return;\n",
"	}\n",
"	for (j = 0; j < nodes.length; j++)\n",
"		show(nodes[j], \"hide\");\n",
"	for (j = i - 1; j >= 0 && d > 0; j--) {\n",
"		n = nodes[j];\n",
"		if (n.depth < d) {\n",
"			d = n.depth;\n",
"			show(n, \"parent\");\n",
"			place(n, XPAD, W - 2 * XPAD);\n",
"		}\n",
"	}\n",
"	for (j = i; j < nodes.length; j++) {\n",
"		n = nodes[j];\n",
"		if (j > i && n.depth <= z.depth)\n",
"			break;\n",
"		show(n, null);\n",
"		place(n, XPAD + (n.x - z.x) * sc, n.w * sc);\n",
"	}\n",
"	unzoomBtn.classList.remove(\"hide\");\n",
"}\n",
"function unzoom() {\n",
"	var j, n;\n",
"	for (j = 0; j < nodes.length; j++) {\n",
"		n = nodes[j];\n",
"		show(n, null);\n",
"		place(n, n.x, n.w);\n",
"	}\n",
"	unzoomBtn.classList.add(\"hide\");\n",
"}\n",
"function onClick(e) {\n",
"	var n = frameOf(e);\n",
"	if (n)\n",
"		zoom(n.g.fgIndex);\n",
"}\n",
"function resetSearch() {\n",
"	var j;\n",
"	for (j = 0; j < nodes.length; j++)\n",
"		nodes[j].rect.setAttribute(\"fill\", nodes[j].fill);\n",
"	matched.textContent = \" \";\n",
"	searchBtn.textContent = \"Search\";\n",
"	searching = false;\n",
"}\n",
"function highlight(re) {\n",
"	var j, k, n, sum = 0, end = -1;\n",
"	for (j = 0; j < nodes.length; j++) {\n",
"		n = nodes[j];\n",
"		if (!re.test(n.name)) {\n",
"			n.rect.setAttribute(\"fill\", n.fill);\n",
"			continue;\n",
"		}\n",
"		n.rect.setAttribute(\"fill\", \"rgb(230,0,230)\");\n",
"		if (j <= end)\n",
"			continue;\n",
"		sum += n.weight;\n",
"		for (k = j + 1; k < nodes.length; k++)\n",
"			if (nodes[k].depth <= n.depth)\n",
"				break;\n",
"		end = k - 1;\n",
"	}\n",
"	matched.textContent = \"Matched: \" + pct(sum) + \"%\";\n",
"	searchBtn.textContent = \"Reset Search\";\n",
"	searching = true;\n",
"}\n",
"function search() {\n",
"	var s = window.prompt(\"Search frames (regular expression):\",\n",
"			      lastTerm), re;\n",
"	if (s === null || s === \"\")\n",
"		return;\n",
"	try {\n",
"		re = new RegExp(s);\n",
"	} catch (err) {\n",
"		window.alert(\"Bad regular expression: \" + err.message);\n",
"		return;\n",
"	}\n",
"	lastTerm = s;\n",
"	highlight(re);\n",
"}\n",
"function onKey(e) {\n",
"	if (e.key === \"F3\" || ((e.ctrlKey || e.metaKey) &&\n",
"				(e.key === \"f\" || e.key === \"F\"))) {\n",
"		e.preventDefault();\n",
"		search();\n",
"	} else if (e.key === \"Escape\") {\n",
"		unzoom();\n",
"		resetSearch();\n",
"	}\n",
"}\n",
NULL
};

/* The background, and the style of the text and of the frames */
static const char fg_defs[] =
	"<defs><linearGradient id=\"background\" x1=\"0\" x2=\"0\"\n"
	" y1=\"0\" y2=\"1\"><stop stop-color=\"#eeeeee\" offset=\"5%\"/>\n"
	"<stop stop-color=\"#eeeeb0\" offset=\"95%\"/></linearGradient>\n"
	"</defs>\n<style type=\"text/css\">\n"
	"text { font-family: Verdana, sans-serif; font-size: 12px;"
	" fill: rgb(0,0,0); }\n"
	"text.lt { fill: rgb(255,255,255); }\n"
	"#title { text-anchor: middle; font-size: 17px; }\n"
	"#search, #matched { text-anchor: end; }\n"
	"#note { font-size: 10px; fill: rgb(100,100,100); }\n"
	"#unzoom, #search, .f { cursor: pointer; }\n"
	".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
	".f text { pointer-events: none; }\n"
	".hide { display: none; }\n"
	".parent { opacity: 0.5; }\n"
	"</style>\n";

/*
 * The character at @s: return its length in bytes and set *@c to it,
 * or to '?' when it cannot be in an XML document (a control character,
 * U+FFFE, U+FFFF) or is not UTF-8 (pc_utf8_char()), taking one byte
 * then.
 */
static size_t fg_char(const unsigned char *s, uint32_t *c)
{
	int n = pc_utf8_char((const char *)s, c);

	if (!n || *c < 0x20 || *c == 0x7f || *c == 0xfffe || *c == 0xffff) {
		*c = '?';
		return n ? n : 1;
	}
	return n;
}

static size_t fg_strlen(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = 0;
	uint32_t c;

	while (*u) {
		u += fg_char(u, &c);
		n++;
	}
	return n;
}

/*
 * @s as XML character data (or an attribute value): at most @max
 * characters of it, a longer string cut to @max - 2 and "..".
 */
static void fg_puts(FILE *f, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, len;
	uint32_t c;

	if (fg_strlen(s) > max) {
		if (max < 3)
			return;
		max -= 2;
	} else {
		max = SIZE_MAX;
	}
	for (n = 0; *u && n < max; n++) {
		len = fg_char(u, &c);
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if (c < 0x80)
				putc(c, f);
			else
				fwrite(u, 1, len, f);
		}
		u += len;
	}
	if (max != SIZE_MAX && *u)
		fputs("..", f);
}

/* FNV-1a, for colours that stay the same from one run to the next */
static uint32_t fg_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (s && *s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* @a to @b by @t (0 to 1) */
static unsigned int fg_mix(unsigned int a, unsigned int b, double t)
{
	return (unsigned int)(a + ((double)b - a) * t + 0.5);
}

/* @v moved by @d, within 0 to 255 */
static unsigned int fg_shade(unsigned int v, int d)
{
	int x = (int)v + d;

	return x < 0 ? 0 : x > 255 ? 255 : x;
}

/*
 * The z score of the change of @n's share of samples, the baseline's
 * against the new recording's: diff's own test (pc_diff_z()), so that
 * a frame's colour and the table's flag agree.
 */
static double fg_z(const struct fg *g, const struct fg_node *n)
{
	double z = pc_diff_z(n->base, g->base_total, n->samples,
			     g->new_total);

	/* never "-0.00" */
	return isfinite(z) && fabs(z) >= 0.005 ? z : 0;
}

/*
 * A diff's node: grey when |z| is under FG_Z, else red (grew) or blue
 * (shrank) from light to deep at FG_Z_DEEP; the hash shades it a
 * little, to tell neighbours apart. Return: its text is to be light.
 */
static int fg_diff_colour(double z, uint32_t h, unsigned int rgb[3])
{
	static const unsigned int red[2][3] = {
		{ 250, 180, 170 }, { 195, 25, 20 } };
	static const unsigned int blue[2][3] = {
		{ 175, 195, 248 }, { 30, 70, 195 } };
	const unsigned int (*c)[3] = z > 0 ? red : blue;
	int d = (int)(h % 11) - 5, i;
	double t;

	if (fabs(z) < FG_Z) {
		rgb[0] = rgb[1] = rgb[2] = 211 + h % 17;
		return 0;
	}
	t = (fabs(z) - FG_Z) / (FG_Z_DEEP - FG_Z);
	if (t > 1)
		t = 1;
	for (i = 0; i < 3; i++)
		rgb[i] = fg_shade(fg_mix(c[0][i], c[1][i], t), d);
	/* perceived brightness: black text on the light, white on deep */
	return 299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] < 110000;
}

/*
 * @n's fill; return whether its text is to be light (on the deep
 * colours of the off-CPU reasons and of large changes).
 */
static int fg_colour(const struct fg *g, const struct fg_node *n,
		     unsigned int rgb[3])
{
	const struct fg_label *l = NULL;
	uint32_t h, hd;

	if (n->label != FG_NONE)
		l = &g->label[n->label];
	h = l ? fg_hash(l->text) : 0;
	if (g->diff)
		return fg_diff_colour(fg_z(g, n), h, rgb);
	if (!l) {
		rgb[0] = rgb[1] = rgb[2] = 200;
		return 0;
	}
	if (l->off_cpu == PC_FRAME_BLOCKED) {		/* deep blue */
		rgb[0] = 30;
		rgb[1] = 60;
		rgb[2] = 190;
		return 1;
	}
	if (l->off_cpu == PC_FRAME_PREEMPTED) {		/* purple */
		rgb[0] = 125;
		rgb[1] = 55;
		rgb[2] = 175;
		return 1;
	}
	if (l->kind != FG_COMM && n->weight && n->off == n->weight) {
		if (l->kind == FG_KERNEL) {		/* teal */
			rgb[0] = 50 + h % 30;
			rgb[1] = 180 + (h >> 8) % 30;
			rgb[2] = 175 + (h >> 16) % 30;
		} else {				/* light blue */
			rgb[0] = 90 + h % 40;
			rgb[1] = 145 + (h >> 8) % 40;
			rgb[2] = 225 + (h >> 16) % 31;
		}
		return 0;
	}
	switch (l->kind) {
	case FG_COMM:
		rgb[0] = rgb[1] = rgb[2] = 165 + h % 30;
		break;
	case FG_KERNEL:		/* orange */
		rgb[0] = 235 + h % 21;
		rgb[1] = 115 + (h >> 8) % 45;
		rgb[2] = 40 + (h >> 16) % 40;
		break;
	default:
		/* red, red-orange or yellow, the one of the dso, not orange */
		hd = fg_hash(l->dso) % 3;
		rgb[0] = 205 + h % 51;
		rgb[1] = (hd == 2 ? 165 : hd * 55) + (h >> 8) % 45;
		rgb[2] = (h >> 16) % 50;
	}
	return 0;
}

/* The label of a frame that has no name: "[file]" (pc_frame_label()). */
static char *fg_noname(const struct pc_frame *fr)
{
	char buf[PC_FRAME_LABEL_MAX];

	return strdup(pc_frame_label(fr, buf, sizeof(buf)));
}

static int fg_label_cmp(const void *a, const void *b)
{
	const struct fg_label *l = *(const struct fg_label * const *)a;
	const struct fg_label *m = *(const struct fg_label * const *)b;
	int r = strcmp(l->text, m->text);

	if (r)
		return r;
	if (l->kind != m->kind)
		return l->kind < m->kind ? -1 : 1;
	return strcmp(l->dso ? l->dso : "", m->dso ? m->dso : "");
}

/* The labels of the frames and threads, ranked in name order. */
static int fg_labels(struct fg *g, const struct pc_profile *p)
{
	struct fg_label **ord, *l;
	uint32_t i, rank = 0;

	g->nr_label = p->nr_frame + p->nr_thread;
	if (g->nr_label < p->nr_frame) {
		errno = ENOMEM;
		return -1;
	}
	g->label = calloc(g->nr_label ? g->nr_label : 1, sizeof(*g->label));
	g->own = calloc(p->nr_frame ? p->nr_frame : 1, sizeof(*g->own));
	g->rep = calloc(g->nr_label ? g->nr_label : 1, sizeof(*g->rep));
	ord = calloc(g->nr_label ? g->nr_label : 1, sizeof(*ord));
	if (!g->label || !g->own || !g->rep || !ord)
		goto nomem;
	for (i = 0; i < p->nr_frame; i++) {
		const struct pc_frame *fr = &p->frame[i];

		l = &g->label[i];
		l->dso = fr->dso;
		l->kind = fr->kernel ? FG_KERNEL : FG_USER;
		l->off_cpu = fr->off_cpu;
		if (fr->name && fr->name[0]) {
			l->text = fr->name;
		} else {
			g->own[i] = fg_noname(fr);
			if (!g->own[i])
				goto nomem;
			l->text = g->own[i];
		}
	}
	for (i = 0; i < p->nr_thread; i++) {
		l = &g->label[p->nr_frame + i];
		l->text = p->thread[i].comm ? p->thread[i].comm : "[unknown]";
		l->kind = FG_COMM;
	}
	for (i = 0; i < g->nr_label; i++)
		ord[i] = &g->label[i];
	qsort(ord, g->nr_label, sizeof(*ord), fg_label_cmp);
	for (i = 0; i < g->nr_label; i++) {
		if (!i || fg_label_cmp(&ord[i - 1], &ord[i])) {
			rank += !!i;
			g->rep[rank] = ord[i] - g->label;
		}
		ord[i]->rank = rank;
	}
	free(ord);
	return 0;
nomem:
	free(ord);
	errno = ENOMEM;
	return -1;
}

static int fg_path_cmp(const void *a, const void *b)
{
	const struct fg_path *p = a, *q = b;
	uint32_t i, n = p->n < q->n ? p->n : q->n;

	for (i = 0; i < n; i++)
		if (p->key[i] != q->key[i])
			return p->key[i] < q->key[i] ? -1 : 1;
	/* a path goes after its extensions: callees left, self time right */
	if (p->n == q->n)
		return 0;
	return p->n > q->n ? -1 : 1;
}

/* The event's stacks as paths of label ranks, sorted. */
static int fg_paths(struct fg *g, const struct pc_profile *p, uint32_t event,
		    int inverted, uint32_t *max_n)
{
	size_t nr_key = 0, k = 0;
	uint32_t i, j, n;

	*max_n = 0;
	for (i = 0; i < p->nr_stack; i++) {
		const struct pc_stack *s = &p->stack[i];

		if (s->event != event)
			continue;
		if (s->thread >= p->nr_thread || !s->nr || s->nr == UINT32_MAX) {
			errno = EINVAL;
			return -1;
		}
		for (j = 0; j < s->nr; j++) {
			if (s->frame[j] >= p->nr_frame) {
				errno = EINVAL;
				return -1;
			}
		}
		if (nr_key > SIZE_MAX / sizeof(*g->key) - s->nr - 1) {
			errno = ENOMEM;
			return -1;
		}
		nr_key += s->nr + 1;
		g->nr_path++;
	}
	g->path = calloc(g->nr_path ? g->nr_path : 1, sizeof(*g->path));
	g->key = malloc((nr_key ? nr_key : 1) * sizeof(*g->key));
	if (!g->path || !g->key) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0, n = 0; i < p->nr_stack; i++) {
		const struct pc_stack *s = &p->stack[i];
		uint32_t comm = g->label[p->nr_frame + s->thread].rank;
		uint32_t *key = g->key + k;

		if (s->event != event)
			continue;
		for (j = 0; j < s->nr; j++) {
			uint32_t fr = inverted ? s->frame[s->nr - 1 - j] :
						 s->frame[j];

			key[inverted ? j : j + 1] = g->label[fr].rank;
		}
		key[inverted ? s->nr : 0] = comm;
		g->path[n].key = key;
		g->path[n].n = s->nr + 1;
		g->path[n].samples = s->samples;
		g->path[n].weight = s->weight;
		if (pc_stack_off_cpu(p, s)) {
			g->path[n].off = s->weight;
			g->has_off = 1;
		}
		if (p->diff)
			g->path[n].base = s->base;
		if (s->nr + 1 > *max_n)
			*max_n = s->nr + 1;
		k += s->nr + 1;
		n++;
	}
	qsort(g->path, g->nr_path, sizeof(*g->path), fg_path_cmp);
	return 0;
}

static struct fg_node *fg_new_node(struct fg *g)
{
	struct fg_node *n;
	size_t a;

	if (g->nr_node == g->alloc_node) {
		a = g->alloc_node ? 2 * g->alloc_node : 256;
		if (a > SIZE_MAX / sizeof(*n))
			return NULL;
		n = realloc(g->node, a * sizeof(*n));
		if (!n)
			return NULL;
		g->node = n;
		g->alloc_node = a;
	}
	n = &g->node[g->nr_node++];
	memset(n, 0, sizeof(*n));
	return n;
}

/*
 * The tree, in pre-order: each path shares its first nodes with the
 * path before it, as long as their keys are the same, and adds the rest.
 */
static int fg_tree(struct fg *g, uint32_t max_n)
{
	const struct fg_path *prev = NULL, *pa;
	struct fg_node *n;
	uint64_t cum = 0;
	uint32_t *open;
	uint32_t i, d, l;

	open = calloc((size_t)max_n + 1, sizeof(*open));
	if (!open || !fg_new_node(g))
		goto nomem;
	g->node[0].label = FG_NONE;
	for (i = 0; i < g->nr_path; i++) {
		pa = &g->path[i];
		l = 0;
		while (prev && l < pa->n && l < prev->n &&
		       pa->key[l] == prev->key[l])
			l++;
		for (d = 0; d <= l; d++) {
			n = &g->node[d ? open[d] : 0];
			n->samples += pa->samples;
			n->weight += pa->weight;
			n->off += pa->off;
			n->base += pa->base;
		}
		for (d = l + 1; d <= pa->n; d++) {
			n = fg_new_node(g);
			if (!n)
				goto nomem;
			n->x = cum;
			n->samples = pa->samples;
			n->weight = pa->weight;
			n->off = pa->off;
			n->base = pa->base;
			n->label = g->rep[pa->key[d - 1]];
			n->depth = d;
			open[d] = g->nr_node - 1;
		}
		cum += pa->weight;
		prev = pa;
	}
	g->total = g->node[0].weight;
	free(open);
	return 0;
nomem:
	free(open);
	errno = ENOMEM;
	return -1;
}

static int fg_drawn(const struct fg *g, const struct fg_node *n)
{
	return g->total && (double)n->weight * g->scale >= FG_MIN_PX;
}

/* How many characters of a label fit in a frame @w px wide. */
static size_t fg_fit(double w)
{
	double c = (w - 3) / (FG_FONT * FG_FONT_W);

	return c < 3 ? 0 : (size_t)c;
}

static double fg_share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* A diff's lines of a frame's tooltip: the shares, their change, z. */
static void fg_diff_title(FILE *f, const struct fg *g,
			  const struct fg_node *n, double z)
{
	double a = fg_share(n->base, g->base_total);
	double b = fg_share(n->samples, g->new_total);

	fprintf(f, "\nbaseline %.2f%% (%" PRIu64 " samples), new %.2f%%",
		a, n->base, b);
	fprintf(f, " (%" PRIu64 " samples)\n%+.2f points, z %+.2f", n->samples,
		b - a, z);
}

static void fg_frame(FILE *f, const struct fg *g, const struct fg_node *n,
		     const char *unit, int inverted, int height)
{
	const struct fg_label *l = NULL;
	const char *text = "all";
	unsigned int rgb[3];
	double x, w, y, z = 0;
	int light;

	if (n->label != FG_NONE) {
		l = &g->label[n->label];
		text = l->text;
	}
	x = FG_XPAD + (double)n->x * g->scale;
	w = (double)n->weight * g->scale;
	if (inverted)
		y = FG_TOP + (double)n->depth * FG_FRAME_H;
	else
		y = height - FG_BOTTOM - ((double)n->depth + 1) * FG_FRAME_H;
	light = fg_colour(g, n, rgb);
	if (g->diff)
		z = fg_z(g, n);

	fprintf(f, "<g class=\"f\" data-depth=\"%" PRIu32 "\"", n->depth);
	fprintf(f, " data-kind=\"%s\"", fg_kind_name[l ? l->kind : FG_ROOT]);
	fprintf(f, " data-samples=\"%" PRIu64 "\"", n->samples);
	fprintf(f, " data-weight=\"%" PRIu64 "\"", n->weight);
	if (g->has_off)
		fprintf(f, " data-off=\"%" PRIu64 "\"", n->off);
	if (g->diff)
		fprintf(f, " data-base=\"%" PRIu64 "\" data-z=\"%.2f\"", n->base,
			z);
	fputs("><title>", f);
	fg_puts(f, text, SIZE_MAX);
	if (l && l->kind == FG_COMM) {
		fputs("\ncommand", f);
	} else if (l && l->dso) {
		fputs("\nin ", f);
		fg_puts(f, l->dso, SIZE_MAX);
	}
	if (g->diff) {
		fg_diff_title(f, g, n, z);
	} else {
		fprintf(f, "\n%" PRIu64 " samples, %" PRIu64 " ", n->samples,
			n->weight);
		fg_puts(f, unit, SIZE_MAX);
		fprintf(f, ", %.2f%%", 100.0 * n->weight / g->total);
		if (n->off)
			fprintf(f, "\n%.2f%% off-CPU",
				fg_share(n->off, n->weight));
	}
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\"", x, y, w);
	fprintf(f, " height=\"%d\" rx=\"2\" ry=\"2\"", FG_FRAME_H - 1);
	fprintf(f, " fill=\"rgb(%u,%u,%u)\"/>\n", rgb[0], rgb[1], rgb[2]);
	fprintf(f, "<text%s x=\"%.2f\" y=\"%.1f\">", light ? " class=\"lt\"" : "",
		x + 3, y + FG_FONT - 0.5);
	fg_puts(f, text, fg_fit(w));
	fputs("</text></g>\n", f);
}

/* The line under the frames: the colours' legend, what is not drawn. */
static void fg_note(FILE *f, const struct fg *g)
{
	const char *sep = "";

	if (g->diff) {
		fprintf(f, "red: grew, blue: shrank, |z| &gt;= %.0f; widths: the new recording (%" PRIu64 " samples; the baseline's %" PRIu64 ").",
			FG_Z, g->new_total, g->base_total);
		sep = " ";
	} else if (g->has_off) {
		fputs("blue: off the CPU, [blocked] deep blue, [preempted] purple, kernel functions teal; warm: on the CPU (or on and off).",
		      f);
		sep = " ";
	}
	if (!g->total)
		fprintf(f, "%sNo samples of this event.", sep);
	else if (g->elided)
		fprintf(f, "%s%zu frame%s narrower than %.1f px not drawn.",
			sep, g->elided, g->elided == 1 ? "" : "s", FG_MIN_PX);
	if (g->gone)
		fprintf(f, "%s%zu frame%s only in the baseline not drawn.",
			sep, g->gone, g->gone == 1 ? "" : "s");
}

static void fg_write(FILE *f, const struct fg *g, const struct pc_profile *p,
		     uint32_t event, int inverted)
{
	const char *unit = p->event[event].unit ? p->event[event].unit :
						  "events";
	const char *name = p->event[event].name ? p->event[event].name : "?";
	int height = FG_TOP + (g->max_depth + 1) * FG_FRAME_H + FG_BOTTOM;
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n",
	      f);
	fputs("<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\"", f);
	fprintf(f, " width=\"%d\" height=\"%d\"", FG_WIDTH, height);
	fprintf(f, " viewBox=\"0 0 %d %d\"", FG_WIDTH, height);
	fprintf(f, " onload=\"init()\" data-inverted=\"%d\"", !!inverted);
	fprintf(f, " data-total=\"%" PRIu64 "\"", g->total);
	fprintf(f, " data-elided=\"%zu\" data-event=\"", g->elided);
	fg_puts(f, name, SIZE_MAX);
	fputs("\" data-unit=\"", f);
	fg_puts(f, unit, SIZE_MAX);
	fputs("\"", f);
	if (g->diff)
		fprintf(f, " data-diff=\"1\" data-base-total=\"%" PRIu64 "\" data-new-total=\"%" PRIu64 "\" data-gone=\"%zu\"",
			g->base_total, g->new_total, g->gone);
	fputs(">\n", f);
	fputs(fg_defs, f);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", f);
	for (i = 0; fg_script[i]; i++)
		fputs(fg_script[i], f);
	fputs("]]></script>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\"", FG_WIDTH);
	fprintf(f, " height=\"%d\" fill=\"url(#background)\"/>\n", height);
	fprintf(f, "<text id=\"title\" x=\"%d\" y=\"24\">%s%s Graph: ",
		FG_WIDTH / 2, g->diff ? "Differential " : "",
		inverted ? "Icicle" : "Flame");
	fg_puts(f, name, FG_TITLE_MAX);
	if (p->command) {
		fputs(", ", f);
		fg_puts(f, p->command, FG_TITLE_MAX);
	}
	fputs("</text>\n", f);
	fprintf(f, "<text id=\"unzoom\" class=\"hide\" x=\"%d\"", FG_XPAD);
	fputs(" y=\"24\">Reset Zoom</text>\n", f);
	fprintf(f, "<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n",
		FG_WIDTH - FG_XPAD);
	fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		FG_XPAD, height - 22);
	fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n",
		FG_WIDTH - FG_XPAD, height - 22);
	fprintf(f, "<text id=\"note\" x=\"%d\" y=\"%d\">", FG_XPAD,
		height - 6);
	fg_note(f, g);
	fputs("</text>\n<g id=\"frames\">\n", f);
	for (i = 0; i < g->nr_node && !ferror(f); i++)
		if (fg_drawn(g, &g->node[i]))
			fg_frame(f, g, &g->node[i], unit, inverted, height);
	fputs("</g>\n</svg>\n", f);
}

int pc_write_svg(const struct pc_profile *p, uint32_t event, int inverted,
		 FILE *f)
{
	struct fg g = { 0 };
	uint32_t max_n, i;
	size_t j;
	int ret = -1;

	if (event >= p->nr_event) {
		errno = EINVAL;
		return -1;
	}
	g.diff = !!p->diff;
	g.base_total = p->base_total;
	g.new_total = p->new_total;
	if (fg_labels(&g, p) || fg_paths(&g, p, event, inverted, &max_n) ||
	    fg_tree(&g, max_n))
		goto out;

	if (g.total)
		g.scale = (FG_WIDTH - 2 * FG_XPAD) / (double)g.total;
	for (j = 0; j < g.nr_node; j++) {
		if (fg_drawn(&g, &g.node[j])) {
			if (g.node[j].depth > g.max_depth)
				g.max_depth = g.node[j].depth;
		} else if (g.diff && !g.node[j].weight) {
			g.gone++;
		} else {
			g.elided++;
		}
	}
	if (!g.total)
		g.elided = g.gone = 0;

	errno = 0;
	fg_write(f, &g, p, event, inverted);
	if (fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		goto out;
	}
	ret = 0;
out:
	if (g.own)
		for (i = 0; i < p->nr_frame; i++)
			free(g.own[i]);
	free(g.own);
	free(g.label);
	free(g.rep);
	free(g.path);
	free(g.key);
	free(g.node);
	return ret;
}
