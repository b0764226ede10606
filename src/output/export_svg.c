/* export_svg.c - a step as a standalone SVG 1.1 picture (.svg) for slides
 * and print: the header with the step's facts and caption, the grid's
 * panels as cards with every cell placed at its scene line and column,
 * head colours with a fill pattern and border dash so colour is never the
 * only cue, and a legend. */
#include "export_format.h"

#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "utf8.h"

#define SVG_MARGIN 36           /* px around everything */
#define SVG_CW 14               /* px per scene column */
#define SVG_LH 38               /* px per scene line */
#define SVG_FONT 21             /* px, the grid's monospace text */
#define SVG_MIN_WIDTH 800

/* The non-colour cue of a head, for black-and-white print: a fill pattern
 * and a border dash, cycling through different counts so that two heads
 * rarely share both. */
#define SVG_NPATTERNS 8

static const char *const svg_pattern_names[SVG_NPATTERNS] = {
	"solid", "diagonal stripes", "dots", "horizontal stripes", "cross-hatch",
	"vertical stripes", "back-diagonal stripes", "grid",
};

static int
svg_pattern(int64_t head)
{
	return head < 0 ? 0 : (int)(head % SVG_NPATTERNS);
}

/* The fill pattern of head: its tint, with the head's texture on top. */
static void
svg_def_pattern(FILE *out, int64_t head)
{
	static const char *const texture[SVG_NPATTERNS] = {
		"",
		"<path d='M0 0V8' stroke-width='2.6'/>",
		"<circle cx='4' cy='4' r='1.7' stroke='none' fill-opacity='0.5'/>",
		"<path d='M0 4H8' stroke-width='2'/>",
		"<path d='M0 0V8M0 4H8' stroke-width='1.6'/>",
		"<path d='M4 0V8' stroke-width='2.2'/>",
		"<path d='M0 0V8' stroke-width='2.6'/>",
		"<path d='M0 0V8M0 0H8' stroke-width='1.3'/>",
	};
	static const char *const turn[SVG_NPATTERNS] = {
		"", " patternTransform='rotate(45)'", "", "", " patternTransform='rotate(45)'", "",
		" patternTransform='rotate(-45)'", "",
	};
	unsigned rgb = svg_head_rgb(head);
	int p = svg_pattern(head);
	char tint[8], hex[8];

	svg_mix(tint, sizeof tint, rgb, 0.62);
	svg_mix(hex, sizeof hex, rgb, 0);
	fprintf(out, "<pattern id='head%lld' patternUnits='userSpaceOnUse' width='8' height='8'%s>"
	        "<rect width='8' height='8' fill='%s'/>", (long long)head, turn[p], tint);
	if (p != 0)
		fprintf(out, "<g stroke='%s' fill='%s' stroke-opacity='0.5'>%s</g>", hex, hex,
		        texture[p]);
	fputs("</pattern>\n", out);
}

/* A cell box with its label: the number bold, the head letter after it. */
static void
svg_cell(FILE *out, double x, double y, double wpx, double hpx, int64_t head,
         const char *text, bool selected, int font)
{
	char trimmed[48], dark[8], edge[8];
	size_t digits;

	svg_mix(dark, sizeof dark, svg_head_rgb(head), -0.55);
	svg_mix(edge, sizeof edge, svg_head_rgb(head), 0);
	export_trim(trimmed, sizeof trimmed, text);
	digits = strspn(trimmed, "0123456789");
	fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' rx='5' ", x, y, wpx, hpx);
	if (head >= 0)
		fprintf(out, "fill='url(#head%lld)' ", (long long)head);
	else
		fputs("fill='#ffffff' ", out); /* a cell of no head: no colour to claim */
	fprintf(out, "stroke='%s' stroke-width='%s' stroke-dasharray='%s'/>\n",
	        selected ? "#111111" : edge, selected ? "4" : "2.2",
	        selected ? "none" : svg_head_dash(head));
	fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='%d' fill='%s'>"
	        "<tspan font-weight='bold'>%.*s</tspan>", x + wpx / 2, y + hpx / 2 + font * 0.36,
	        font, dark, (int)digits, trimmed);
	if (trimmed[digits])
		fprintf(out, "<tspan font-size='%d'>%s</tspan>", font * 4 / 5, trimmed + digits);
	fputs("</text>\n", out);
}

/* The first len bytes of s as a line of text with its baseline at (x, y). */
static void
svg_text(FILE *out, double x, double y, const char *attrs, const char *s, size_t len)
{
	fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, y, attrs);
	svg_xmln(out, s, len);
	fputs("</text>\n", out);
}

/* The width in px s is estimated to take at font px, em per column. */
static double
svg_text_px(const char *s, int font, double em)
{
	return utf8_width(s) * font * em;
}

/* "head 1 (diagonal stripes)": what a legend entry says of head. */
static void
svg_legend_entry(char *buf, size_t size, const struct walk *w, int64_t head)
{
	snprintf(buf, size, "%s %lld (%s)", export_head_noun(w), (long long)head,
	         svg_pattern_names[svg_pattern(head)]);
}

/* Rows the legend wraps to after its first, in a picture width px wide;
 * the same arithmetic as svg_legend. */
static int
svg_legend_rows(const struct walk *w, const int64_t *heads, int nheads, double width)
{
	double x = SVG_MARGIN;
	int rows = 0;
	char buf[160];

	for (int i = 0; i < nheads; i++) {
		double tw;

		svg_legend_entry(buf, sizeof buf, w, heads[i]);
		tw = svg_text_px(buf, 16, 0.56);
		if (x > SVG_MARGIN && x + 52 + tw > width - SVG_MARGIN) {
			x = SVG_MARGIN;
			rows++;
		}
		x += 52 + tw + 28;
	}
	return rows;
}

/* The facts line: shape and strides in monospace, what the step did in
 * words; "not contiguous" and a copy stand out.  part 0 is both halves,
 * 1 and 2 the halves alone (for two lines). */
static void
svg_facts(FILE *out, double x, double y, const struct facts *f, int part)
{
	static const char warn[] = "font-weight='bold' fill='#b45309'";
	bool noncontig = strcmp(f->contiguity, "contiguous") != 0;
	bool copy = strncmp(f->effect, "copy", 4) == 0;

	fprintf(out, "<text x='%.1f' y='%.1f' font-size='17' fill='#374151' xml:space='preserve'>",
	        x, y);
	if (part != 2) {
		fprintf(out, "<tspan font-family=\"%s\">", svg_font_mono);
		svg_xml(out, f->shape);
		fputs("</tspan><tspan fill='#9ca3af'> \u00b7 </tspan>strides ", out);
		fprintf(out, "<tspan font-family=\"%s\">", svg_font_mono);
		svg_xml(out, f->strides);
		fputs("</tspan>", out);
	}
	if (part == 0)
		fputs("<tspan fill='#9ca3af'> \u00b7 </tspan>", out);
	if (part != 1) {
		fprintf(out, "<tspan %s>%s</tspan><tspan fill='#9ca3af'> \u00b7 </tspan>",
		        noncontig ? warn : "", f->contiguity);
		fprintf(out, "<tspan %s>", copy ? warn : "");
		svg_xml(out, f->effect);
		fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
}


/* Where everything of a step's picture goes, worked out before a byte is
 * written: the picture's size comes first in the file. */
struct svg_frame {
	int64_t *heads;         /* the heads of the scene's cells, sorted */
	int nheads_all, nheads; /* all of them; those named in the legend */
	const char *caps[24];   /* the caption's lines ... */
	size_t caplen[24];      /* ... and their lengths in bytes */
	int ncap;
	bool two_facts;         /* the facts take two lines */
	double width, height, code_w, grid_top; /* px */
};

/* Lay out step c's picture in fr; false when memory ran out. */
static bool
svg_layout(struct svg_frame *fr, const struct export_step_ctx *c)
{
	const struct facts *f = c->f;
	double inner, facts_w, y;
	int cols;

	memset(fr, 0, sizeof *fr);
	fr->heads = export_heads(c->sc, &fr->nheads_all);
	if (fr->heads == NULL)
		return false;
	fr->nheads = fr->nheads_all < EXPORT_LEGEND_MAX ? fr->nheads_all : EXPORT_LEGEND_MAX;
	fr->code_w = svg_text_px(c->w->steps[c->k].code, 20, 0.61) + 30;
	fr->width = 2 * SVG_MARGIN + c->sc->width * SVG_CW + 16;
	if (fr->width < SVG_MIN_WIDTH)
		fr->width = SVG_MIN_WIDTH;
	if (fr->width < 2 * SVG_MARGIN + fr->code_w)
		fr->width = 2 * SVG_MARGIN + fr->code_w;
	inner = fr->width - 2 * SVG_MARGIN;

	/* the facts on one line when they fit, else two */
	facts_w = svg_text_px(f->shape, 17, 0.61) + svg_text_px(f->strides, 17, 0.61) +
	          svg_text_px(f->effect, 17, 0.56) + svg_text_px(f->contiguity, 17, 0.56) +
	          17 * 0.56 * 18;
	fr->two_facts = facts_w > inner;
	/* the caption wrapped to the width at a generous average glyph width */
	cols = (int)(inner / (19 * 0.56));
	for (const char *p = f->caption; *p && fr->ncap < (int)(sizeof fr->caps / sizeof fr->caps[0]);) {
		const char *next;

		fr->caps[fr->ncap] = p;
		fr->caplen[fr->ncap] = utf8_wrap(p, cols, &next);
		fr->ncap++;
		p = next;
	}
	y = SVG_MARGIN + 18 + 42 + 54 + (fr->two_facts ? 2 : 1) * 26 + 8;
	if (fr->ncap)
		y += fr->ncap * 28 + 12;
	fr->grid_top = y + 10;
	fr->height = fr->grid_top + c->sc->height * SVG_LH + 20;
	if (fr->nheads)
		fr->height += 52 + 42 * svg_legend_rows(c->w, fr->heads, fr->nheads, fr->width);
	fr->height += 42 + SVG_MARGIN - 12 + (c->sc->elided ? 24 : 0);
	return true;
}

/* The document's start, the head patterns, and the header: step, title,
 * code, facts and caption. */
static void
svg_header(const struct svg_frame *fr, const struct export_step_ctx *c)
{
	const struct facts *f = c->f;
	const struct walk_step *s = &c->w->steps[c->k];
	FILE *out = c->out;
	char stepno[64];
	double y;

	fprintf(out, "<?xml version='1.0' encoding='UTF-8'?>\n"
	        "<svg xmlns='http://www.w3.org/2000/svg' version='1.1' width='%.0f' height='%.0f' "
	        "viewBox='0 0 %.0f %.0f'>\n<title>", fr->width, fr->height, fr->width, fr->height);
	svg_xml(out, f->heading);
	fputs(": ", out);
	svg_xml(out, s->code);
	fputs("</title>\n<desc>", out);
	svg_xml(out, f->caption[0] ? f->caption : f->summary);
	fputs("</desc>\n<defs>\n", out);
	for (int i = 0; i < fr->nheads_all; i++)
		svg_def_pattern(out, fr->heads[i]);
	fputs("</defs>\n<rect width='100%' height='100%' fill='#ffffff'/>\n", out);

	fprintf(out, "<g font-family=\"%s\">\n", svg_font_sans);
	y = SVG_MARGIN;
	snprintf(stepno, sizeof stepno, "STEP %d OF %d", c->k + 1, c->w->nsteps);
	svg_text(out, SVG_MARGIN, y + 14, "font-size='15' font-weight='bold' fill='#6b7280' "
	         "letter-spacing='1.5'", stepno, strlen(stepno));
	y += 18;
	svg_text(out, SVG_MARGIN, y + 32, "font-size='30' font-weight='bold' fill='#111827'",
	         f->title, strlen(f->title));
	y += 42;
	fprintf(out, "<rect x='%d' y='%.1f' width='%.1f' height='40' rx='7' fill='#f1f3f6' "
	        "stroke='#d5dae1'/>\n", SVG_MARGIN, y + 2, fr->code_w);
	fprintf(out, "<text x='%.1f' y='%.1f' font-family=\"%s\" font-size='20' fill='#0b3d66'>",
	        SVG_MARGIN + 15.0, y + 29, svg_font_mono);
	svg_xml(out, s->code);
	fputs("</text>\n", out);
	y += 54;
	if (fr->two_facts) {
		svg_facts(out, SVG_MARGIN, y + 18, f, 1);
		svg_facts(out, SVG_MARGIN, y + 44, f, 2);
	} else {
		svg_facts(out, SVG_MARGIN, y + 18, f, 0);
	}
	y += (fr->two_facts ? 2 : 1) * 26 + 8;
	for (int i = 0; i < fr->ncap; i++)
		svg_text(out, SVG_MARGIN, y + 22 + i * 28, "font-size='19' fill='#1f2937'", fr->caps[i],
		         fr->caplen[i]);
	fputs("</g>\n", out);
}

/* One item of the grid that is not a cell or a rule: a title, an axis
 * name, an index or an ellipsis, at its place (x, base). */
static void
svg_word(FILE *out, const struct scene_item *it, double x, double base)
{
	char trimmed[48];
	const char *attrs;

	export_trim(trimmed, sizeof trimmed, it->text);
	if (trimmed[0] == '\0')
		return;
	switch (it->style) {
	case SCENE_TITLE: attrs = "font-weight='bold' fill='#1f2937'"; break;
	case SCENE_AXIS: attrs = "font-weight='bold' fill='#4b5563'"; break;
	case SCENE_ELLIPSIS: attrs = "font-weight='bold' fill='#6b7280'"; break;
	default: attrs = "fill='#8a919c'"; break;
	}
	if (it->style == SCENE_ELLIPSIS)
		fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' %s>",
		        x + it->width * SVG_CW / 2.0, base, attrs);
	else if (it->text[0] == ' ')    /* right-aligned in the text: keep it so */
		fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='end' %s>",
		        x + it->width * SVG_CW, base, attrs);
	else
		fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, base, attrs);
	svg_xml(out, trimmed);
	fputs("</text>\n", out);
}

/* The grid: panel cards, rules, cells, then the words around them. */
static void
svg_grid(const struct svg_frame *fr, const struct export_step_ctx *c)
{
	const struct export_grid *g = c->g;
	const struct scene *sc = c->sc;
	FILE *out = c->out;
	double top0 = fr->grid_top;

	fprintf(out, "<g font-family=\"%s\" font-size='%d'>\n", svg_font_mono, SVG_FONT);
	for (size_t j = 0; j < g->nbox; j++) {
		const struct export_box *b = &g->boxes[j];
		const struct scene_item *t = export_grid_at(g, b->y0, b->x0, SCENE_TITLE);
		int x1 = b->x1;

		if (t && t->x + t->width > x1)
			x1 = t->x + t->width;
		fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' rx='10' fill='#f6f7f9' "
		        "stroke='#e2e5ea'/>\n", SVG_MARGIN + b->x0 * SVG_CW - 12.0,
		        top0 + b->y0 * SVG_LH - 4.0, (x1 - b->x0) * SVG_CW + 22.0,
		        (b->y1 - b->y0) * SVG_LH + 8.0);
	}
	fputs("<path fill='none' stroke='#9aa1ab' stroke-width='2' d='", out);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_RULE)
			fprintf(out, "M%.1f %.1fv%d", SVG_MARGIN + it->x * SVG_CW + SVG_CW / 2.0,
			        top0 + it->y * SVG_LH, SVG_LH);
	}
	fputs("'/>\n", out);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		double x = SVG_MARGIN + it->x * SVG_CW, top = top0 + it->y * SVG_LH;

		if (it->style == SCENE_CELL)
			svg_cell(out, x - 3, top + 4, it->width * SVG_CW + 6.0,
			         it->height * SVG_LH - 8.0, it->head, it->text,
			         it->label == c->o->selected, SVG_FONT);
		else if (it->style != SCENE_RULE)
			svg_word(out, it, x, top + SVG_LH / 2.0 + SVG_FONT * 0.36);
	}
	fputs("</g>\n", out);
}

/* The legend: every head's box, letter and cue, in rows; then the walk. */
static void
svg_legend(const struct svg_frame *fr, const struct export_step_ctx *c)
{
	const struct facts *f = c->f;
	FILE *out = c->out;
	double y = fr->grid_top + c->sc->height * SVG_LH + 20;
	char tag[16], buf[160];

	fprintf(out, "<g font-family=\"%s\" font-size='16' fill='#374151'>\n", svg_font_sans);
	if (fr->nheads) {
		double x = SVG_MARGIN;

		for (int i = 0; i < fr->nheads; i++) {
			double tw;

			svg_legend_entry(buf, sizeof buf, c->w, fr->heads[i]);
			tw = svg_text_px(buf, 16, 0.56);
			if (x > SVG_MARGIN && x + 52 + tw > fr->width - SVG_MARGIN) {
				x = SVG_MARGIN;
				y += 42;
			}
			scene_head_tag(fr->heads[i], tag, sizeof tag);
			svg_cell(out, x, y, 42, 30, fr->heads[i], tag, false, 18);
			svg_text(out, x + 52, y + 21, "", buf, strlen(buf));
			x += 52 + tw + 28;
		}
		if (fr->nheads < fr->nheads_all)
			svg_text(out, x, y + 21, "", "\u2026", strlen("\u2026"));
		y += 52;
	}
	if (c->sc->elided) {
		static const char note[] = "\u2026 and \u22ee mark cells left out";

		svg_text(out, SVG_MARGIN, y + 14, "font-size='15' fill='#6b7280'", note, strlen(note));
		y += 24;
	}
	svg_text(out, SVG_MARGIN, y + 14, "font-size='15' fill='#6b7280'", f->summary,
	         strlen(f->summary));
	if (f->what[0])
		svg_text(out, SVG_MARGIN, y + 35, "font-size='15' fill='#6b7280'", f->what,
		         strlen(f->what));
	fputs("</g>\n", out);
}

bool
export_svg_render(const struct export_step_ctx *c)
{
	struct svg_frame fr;

	if (!svg_layout(&fr, c))
		return false;
	svg_header(&fr, c);
	svg_grid(&fr, c);
	svg_legend(&fr, c);
	fputs("</svg>\n", c->out);
	free(fr.heads);
	return true;
}
