/* export_svg3d.c - the 3D block of a step as an SVG picture for slides.
 *
 * The picture is the block as the terminal draws it (scene3d), each
 * column and line of the text drawing a fixed number of pixels, so a slide
 * and the lab agree on where every box is.  The faces become filled slabs,
 * the depth edges lines behind them, the boxes rounded rectangles in their
 * head's colour with a border dash per head, so that black-and-white print
 * still tells the heads apart (and every box carries its head letter). */
#include "export_svg3d.h"

#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "scene3d.h"
#include "svg.h"
#include "text.h"
#include "utf8.h"

#define SVG3D_CW 15.0           /* px per text column */
#define SVG3D_LH 32.0           /* px per text line */
#define SVG3D_FONT 19           /* px, labels and names */
#define SVG3D_MARGIN 40.0
#define SVG3D_MIN_WIDTH 760.0
#define SVG3D_SLAB 7.0          /* px of a face's visible thickness */

/* head's colour mixed toward white (amount > 0) or black (< 0), "#rrggbb";
 * grey when there is no head to claim a colour */
static void
svg3d_color(char *buf, size_t size, int64_t head, double amount)
{
	svg_mix(buf, size, head < 0 ? 0x808080 : svg_head_rgb(head), amount);
}

static void
svg3d_text(FILE *out, double x, double y, const char *attrs, const char *s, size_t len)
{
	fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, y, attrs);
	svg_xmln(out, s, len);
	fputs("</text>\n", out);
}

/* The header: step, title, code, shape and strides, the caption, what the
 * block shows.  Returns the y below it. */
static double
svg3d_header(FILE *out, const struct walk *w, int k, const struct export_opts *o,
             const struct scene3d *s3, double width, bool draw)
{
	const struct walk_step *s = &w->steps[k];
	char buf[1024], shape[200], strides[200];
	double y = SVG3D_MARGIN;
	int cols = (int)((width - 2 * SVG3D_MARGIN) / (18 * 0.56));

	if (draw) {
		snprintf(buf, sizeof buf, "STEP %d OF %d \u00b7 3D", k + 1, w->nsteps);
		svg3d_text(out, SVG3D_MARGIN, y + 14, "font-size='15' font-weight='bold' "
		           "fill='#6b7280' letter-spacing='1.5'", buf, strlen(buf));
		if (s->group)
			snprintf(buf, sizeof buf, "%s \u00b7 %s", s->group, s->title);
		else
			snprintf(buf, sizeof buf, "input");
		svg3d_text(out, SVG3D_MARGIN, y + 50, "font-size='30' font-weight='bold' "
		           "fill='#111827'", buf, strlen(buf));
		fprintf(out, "<text x='%.1f' y='%.1f' font-family=\"%s\" font-size='20' "
		        "fill='#0b3d66'>", SVG3D_MARGIN, y + 86, svg_font_mono);
		svg_xml(out, s->code);
		fputs("</text>\n", out);
		scene_format_shape(s, shape, sizeof shape);
		print_format_strides(strides, sizeof strides, s);
		snprintf(buf, sizeof buf, "%s \u00b7 strides %s \u00b7 %s \u00b7 %s", shape, strides,
		         layout_is_contiguous(&s->view) ? "contiguous" : "not contiguous",
		         print_step_effect(w, k));
		svg3d_text(out, SVG3D_MARGIN, y + 116, "font-size='17' fill='#374151'", buf,
		           strlen(buf));
	}
	y += 130;
	buf[0] = '\0';
	if (o->caption) {
		snprintf(buf, sizeof buf, "%s", o->caption);
	} else if (o->captions) {
		char key[96];

		snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
		text_format(buf, sizeof buf, key, "", w);
	}
	for (const char *p = buf; *p;) {
		const char *next;
		size_t n = utf8_wrap(p, cols, &next);

		if (draw)
			svg3d_text(out, SVG3D_MARGIN, y + 18, "font-size='18' fill='#1f2937'", p, n);
		y += 26;
		p = next;
	}
	if (draw)
		svg3d_text(out, SVG3D_MARGIN, y + 22, "font-size='16' font-style='italic' "
		           "fill='#4b5563'", s3->caption, strlen(s3->caption));
	return y + 44;
}

/* A face: a slab with its top and right sides showing, then its frame.
 * A block of one layer shows its whole depth: the back outline two columns
 * behind, as the text drawing has it. */
static void
svg3d_face(FILE *out, const struct scene3d_face *f, double ox, double oy, bool alone)
{
	double x0 = ox + (f->x + 0.5) * SVG3D_CW, y0 = oy + (f->y + 0.5) * SVG3D_LH;
	double x1 = ox + (f->x + f->w - 0.5) * SVG3D_CW, y1 = oy + (f->y + f->h - 0.5) * SVG3D_LH;
	double d = SVG3D_SLAB;

	if (alone) {
		double dx = 2 * SVG3D_CW, dy = -2 * SVG3D_LH;

		fprintf(out, "<path d='M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f "
		        "%.1fZ' fill='#dfe3e8' stroke='#9aa1ab' stroke-width='1.5'/>\n", x0, y0,
		        x0 + dx, y0 + dy, x1 + dx, y0 + dy, x1 + dx, y1 + dy, x1, y1, x1, y0);
		d = 0;
	}
	if (d > 0)
		fprintf(out, "<path d='M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ' "
	        "fill='#dfe3e8' stroke='#9aa1ab' stroke-width='1.5'/>\n", x0, y0, x0 + d, y0 - d,
	        x1 + d, y0 - d, x1 + d, y1 - d, x1, y1, x1, y0);
	fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='#f6f7f9' "
	        "stroke='#6b7280' stroke-width='2'/>\n", x0, y0, x1 - x0, y1 - y0);
}

/* A labelled box: the number bold, the head letter after it. */
static void
svg3d_cell(FILE *out, const struct scene_item *it, double ox, double oy, int64_t selected)
{
	double x = ox + it->x * SVG3D_CW + 2, y = oy + it->y * SVG3D_LH + 3;
	double w = it->width * SVG3D_CW - 4, h = SVG3D_LH - 6;
	char tint[8], edge[8], dark[8], text[48];
	const char *p = it->text;
	size_t len, digits;
	bool sel = it->label == selected;

	svg3d_color(tint, sizeof tint, it->head, 0.62);
	svg3d_color(edge, sizeof edge, it->head, 0);
	svg3d_color(dark, sizeof dark, it->head, -0.55);
	while (*p == ' ')
		p++;
	len = strlen(p);
	while (len > 0 && p[len - 1] == ' ')
		len--;
	snprintf(text, sizeof text, "%.*s", (int)len, p);
	digits = strspn(text, "0123456789?");
	fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' rx='4' fill='%s' "
	        "stroke='%s' stroke-width='%s' stroke-dasharray='%s'/>\n", x, y, w, h,
	        it->head < 0 ? "#ffffff" : tint, sel ? "#111111" : edge, sel ? "4" : "2",
	        sel || it->head < 0 ? "none"
	                            : svg_head_dash(it->head));
	fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' fill='%s'>"
	        "<tspan font-weight='bold'>%.*s</tspan>", x + w / 2, y + h / 2 + SVG3D_FONT * 0.36,
	        dark, (int)digits, text);
	if (text[digits]) {
		fprintf(out, "<tspan font-size='%d'>", SVG3D_FONT * 4 / 5);
		svg_xml(out, text + digits);
		fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
}

/* The drawing at (ox, oy): edges, then faces from the back, the boxes and
 * the names and markers of the text drawing. */
static void
svg3d_block(FILE *out, const struct scene3d *s3, double ox, double oy, int64_t selected)
{
	fputs("<path fill='none' stroke='#9aa1ab' stroke-width='2' stroke-dasharray='6 4' d='", out);
	for (size_t i = 0; i < s3->nedges; i++) {
		const struct scene3d_edge *e = &s3->edges[i];

		fprintf(out, "M%.1f %.1fL%.1f %.1f", ox + (e->x0 + 0.5) * SVG3D_CW,
		        oy + (e->y0 + 0.5) * SVG3D_LH, ox + (e->x1 + 0.5) * SVG3D_CW,
		        oy + (e->y1 + 0.5) * SVG3D_LH);
	}
	fputs("'/>\n", out);
	/* faces are listed back to front within each block */
	for (size_t i = 0; i < s3->nfaces; i++)
		if (s3->faces[i].depth >= 0)
			svg3d_face(out, &s3->faces[i], ox, oy, s3->slot_step == 2);
	fprintf(out, "<g font-family=\"%s\" font-size='%d'>\n", svg_font_mono, SVG3D_FONT);
	for (size_t i = 0; i < s3->sc.n; i++) {
		const struct scene_item *it = &s3->sc.items[i];
		double x = ox + it->x * SVG3D_CW, base = oy + it->y * SVG3D_LH + SVG3D_LH / 2 +
		                                         SVG3D_FONT * 0.36;
		const char *attrs = "fill='#6b7280'";

		if (it->style == SCENE_CELL) {
			svg3d_cell(out, it, ox, oy, selected);
			continue;
		}
		if (it->style == SCENE_RULE)
			continue;       /* the frames and edges are drawn above */
		if (it->style == SCENE_AXIS)
			attrs = "font-weight='bold' fill='#1f2937'";
		else if (it->style == SCENE_TITLE)
			attrs = "font-weight='bold' fill='#1f2937' stroke='#ffffff' stroke-width='5' "
			        "paint-order='stroke'";
		fprintf(out, "<text x='%.1f' y='%.1f' textLength='%.1f' %s>", x, base,
		        it->width * SVG3D_CW * 0.92, attrs);
		svg_xml(out, it->text);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

bool
export_svg3d_render(FILE *out, const struct walk *w, int k, const struct export_opts *o)
{
	struct scene3d s3 = { 0 };
	struct scene_opts so;
	double width, height, top, foot;
	char buf[512];
	int cols, lines = 0;

	scene_opts_default(&so);
	so.utf8 = o->utf8;      /* UTF-8 glyphs only where the locale measures them */
	so.selected = o->selected;
	so.width = 160;         /* a long row elided past 160 columns (2400 px) */
	scene3d_build(&s3, w, k, &so, 0);
	if (s3.sc.oom) {
		scene3d_free(&s3);
		return false;
	}
	width = 2 * SVG3D_MARGIN + s3.sc.width * SVG3D_CW + SVG3D_SLAB;
	if (width < SVG3D_MIN_WIDTH)
		width = SVG3D_MIN_WIDTH;
	top = svg3d_header(out, w, k, o, &s3, width, false);
	/* the walk at the foot, wrapped to the width */
	print_walk_summary(buf, sizeof buf, w);
	cols = (int)((width - 2 * SVG3D_MARGIN) / (15 * 0.56));
	for (const char *p = buf, *next; *p; p = next, lines++)
		utf8_wrap(p, cols, &next);
	foot = top + s3.sc.height * SVG3D_LH + 50 + (s3.sc.elided ? 24 : 0);
	height = foot + 22.0 * lines + SVG3D_MARGIN;
	fprintf(out, "<?xml version='1.0' encoding='UTF-8'?>\n"
	        "<svg xmlns='http://www.w3.org/2000/svg' version='1.1' width='%.0f' height='%.0f' "
	        "viewBox='0 0 %.0f %.0f'>\n<title>", width, height, width, height);
	fprintf(out, "step %d of %d, in 3D: ", k + 1, w->nsteps);
	svg_xml(out, w->steps[k].code);
	fputs("</title>\n<desc>", out);
	svg_xml(out, s3.caption);
	fputs("</desc>\n<rect width='100%' height='100%' fill='#ffffff'/>\n", out);
	fprintf(out, "<g font-family=\"%s\">\n", svg_font_sans);
	svg3d_header(out, w, k, o, &s3, width, true);
	fputs("</g>\n", out);
	if (s3.unsupported)
		svg3d_text(out, SVG3D_MARGIN, top + 20, "font-size='18' fill='#b45309'",
		           "not drawn: try the grid view", strlen("not drawn: try the grid view"));
	else
		svg3d_block(out, &s3, SVG3D_MARGIN, top, o->selected);
	fprintf(out, "<g font-family=\"%s\">\n", svg_font_sans);
	lines = 0;
	if (s3.sc.elided)
		svg3d_text(out, SVG3D_MARGIN, foot - 24, "font-size='15' fill='#6b7280'",
		           "\u2026 \u22ee \u22f0 mark cells left out",
		           strlen("\u2026 \u22ee \u22f0 mark cells left out"));
	for (const char *p = buf; *p; lines++) {
		const char *next;
		size_t n = utf8_wrap(p, cols, &next);

		svg3d_text(out, SVG3D_MARGIN, foot + 22.0 * lines, "font-size='15' fill='#6b7280'", p,
		           n);
		p = next;
	}
	fputs("</g>\n</svg>\n", out);
	scene3d_free(&s3);
	return !ferror(out);
}
