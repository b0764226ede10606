/* export_anim.c - the whole walk as an SVG picture that plays by itself
 * (walk.svg), or still at one step: the reel (reel.c) drawn with SMIL.
 *
 * Time runs step by step: slot s rests from s*P to s*P + hold, then its
 * glide plays the lab's frames 1 .. frames-1 evenly until (s+1)*P, where
 * the next slot rests; after the last slot the glide goes back to the
 * first, and the whole loops.  A cell moves in a straight line from one
 * of the lab's frames to the next, and jumps where the lab cuts; chrome
 * is shown exactly at the frames that draw it.  The step's header
 * changes when its glide starts, as the lab's caption does. */
#include "export_anim.h"
#include "export_format.h"

#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "palette.h"
#include "print.h"
#include "scene.h"
#include "svg.h"
#include "text.h"
#include "utf8.h"

/* text_fmt checks a translation asks for the English conversions */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define ANIM_MARGIN 32.0
#define ANIM_MIN_WIDTH 720.0
#define ANIM_CAP_LINES 6        /* caption lines kept, at most */
#define ANIM_EPS 0.0001         /* of the loop: how long a cut's jump takes */

/* ------------------------------------------------------------ colours --- */

static void
anim_hex(char *buf, int color, const char *dflt)
{
	struct palette_rgb c;

	if (color < 0) {
		snprintf(buf, 8, "%s", dflt);
		return;
	}
	c = palette_xterm(color);
	snprintf(buf, 8, "#%02x%02x%02x", c.r, c.g, c.b);
}

/* The page colours of theme name (NULL: default): the lab's 256-colour
 * numbers as xterm draws them, on a white page unless the theme brings
 * its own screen. */
static void
anim_colors(struct export_anim_colors *col, const char *name)
{
	int i = theme_find(name ? name : "default");
	const struct theme *th = &theme_table[i < 0 ? 0 : i];
	const struct theme_colors *c = &th->c256;

	memset(col, 0, sizeof *col);
	col->dark = th->color && c->screen_bg >= 0 &&
	            palette_luminance(palette_xterm(c->screen_bg)) < 0.2;
	col->bold = th->cell_attr == THEME_ATTR_BOLD;
	anim_hex(col->bg, th->color ? c->screen_bg : -1, "#ffffff");
	anim_hex(col->fg, th->color ? c->screen_fg : -1, "#1f2937");
	snprintf(col->muted, 8, "%s", col->dark ? "#c8c8c8" : "#4b5563");
	anim_hex(col->dim, th->color ? c->dim : -1, col->muted);
	anim_hex(col->accent, th->color ? c->accent : -1, col->fg);
	anim_hex(col->wrong, th->color ? c->wrong : -1, "#111111");
	snprintf(col->code_bg, 8, "%s", col->dark ? "#262626" : "#f1f3f6");
	anim_hex(col->sel_fg, th->color ? c->select_fg : -1, "#ffffff");
	anim_hex(col->sel_bg, th->color ? c->select_bg : -1, "#111111");
	for (int h = 0; h < THEME_NHEAD; h++) {
		anim_hex(col->head_bg[h], th->color ? c->cell_bg[h] : -1, col->dark ? "#000000" : "#ffffff");
		anim_hex(col->head_fg[h], th->color ? c->cell_fg[h] : -1, col->fg);
		if (!th->color)
			snprintf(col->head_edge[h], 8, "%s", col->fg);
		else
			svg_mix(col->head_edge[h], 8, (unsigned)strtoul(col->head_bg[h] + 1, NULL, 16),
			        col->dark ? 0.45 : -0.45);
	}
}

static int
anim_hc(int64_t head)
{
	return head < 0 ? 0 : (int)(head % THEME_NHEAD);
}

/* ------------------------------------------------------------- timing --- */

/* When key (slot s, frame f) starts, in seconds. */
static double
anim_key_time(const struct export_anim *a, int key)
{
	int s = key / a->r.frames, f = key % a->r.frames;

	return s * a->step_s + (f == 0 ? 0 : a->hold_s + f * (a->step_s - a->hold_s) / a->r.frames);
}

static double
anim_total(const struct export_anim *a)
{
	return a->r.nslots * a->step_s;
}

/* A discrete visibility animation for what is on at the keys on[] says
 * (nothing when it never changes).  What goes off goes off as a cell's
 * jump to key k starts (ANIM_EPS before it), what comes on once the jump
 * is over: a cell is never seen on its way between two places. */
static void
anim_visibility(FILE *out, const struct export_anim *a, const unsigned char *on)
{
	double total = anim_total(a);
	bool changes = false;

	for (int k = 1; k < a->r.nkeys && !changes; k++)
		changes = on[k] != on[0];
	if (!changes)
		return;
	fputs("<animate attributeName='visibility' calcMode='discrete' repeatCount='indefinite' "
	      "dur='", out);
	fprintf(out, "%gs' keyTimes='0", total);
	for (int k = 1; k < a->r.nkeys; k++)
		if (on[k] != on[k - 1])
			fprintf(out, ";%.5f", anim_key_time(a, k) / total - (on[k] ? 0 : ANIM_EPS));
	fprintf(out, "' values='%s", on[0] ? "visible" : "hidden");
	for (int k = 1; k < a->r.nkeys; k++)
		if (on[k] != on[k - 1])
			fprintf(out, ";%s", on[k] ? "visible" : "hidden");
	fputs("'/>", out);
}

/* ------------------------------------------------------------ drawing --- */

static void
anim_text(FILE *out, double x, double y, const char *attrs, const char *s, size_t len)
{
	fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, y, attrs);
	svg_xmln(out, s, len);
	fputs("</text>\n", out);
}

/* The strokes a box-drawing glyph makes in its column: up, down, left,
 * right, and the two diagonals; 0 for a glyph that is not one. */
enum { ANIM_U = 1, ANIM_D = 2, ANIM_L = 4, ANIM_R = 8, ANIM_RISE = 16, ANIM_FALL = 32 };

static unsigned
anim_glyph_strokes(uint32_t c)
{
	switch (c) {
	case 0x2502: case '|': return ANIM_U | ANIM_D;
	case 0x2500: case '-': return ANIM_L | ANIM_R;
	case 0x250c: return ANIM_R | ANIM_D;
	case 0x2510: return ANIM_L | ANIM_D;
	case 0x2514: return ANIM_U | ANIM_R;
	case 0x2518: return ANIM_U | ANIM_L;
	case 0x251c: return ANIM_U | ANIM_D | ANIM_R;
	case 0x2524: return ANIM_U | ANIM_D | ANIM_L;
	case 0x252c: return ANIM_L | ANIM_R | ANIM_D;
	case 0x2534: return ANIM_L | ANIM_R | ANIM_U;
	case 0x253c: case '+': return ANIM_U | ANIM_D | ANIM_L | ANIM_R;
	case 0x2571: case '/': return ANIM_RISE;
	case 0x2572: case '\\': return ANIM_FALL;
	default: return 0;
	}
}

/* A piece of chrome at its place: box-drawing glyphs as strokes, the rest
 * as text (right-aligned when the scene pads it on the left). */
static void
anim_chrome_item(FILE *out, const struct export_anim *a, const struct scene_item *it)
{
	double x = a->grid_x + (it->x - a->r.x0) * a->cw, top = a->grid_y + (it->y - a->r.y0) * a->lh;
	double base = top + a->lh / 2 + a->font * 0.36;
	const char *s = it->text;
	size_t len = strlen(s), i = 0;
	char trimmed[48];
	const char *fill;
	bool strokes = false;
	int col = 0;

	while (i < len) {
		uint32_t c;
		size_t n = utf8_decode(s + i, len - i, &c);
		unsigned st = anim_glyph_strokes(c);
		double cx = x + (col + 0.5) * a->cw, cy = top + a->lh / 2;
		double l = x + col * a->cw, r = l + a->cw;

		if (st && !strokes) {
			fprintf(out, "<path fill='none' stroke='%s' stroke-width='2' d='", a->col.dim);
			strokes = true;
		}
		if (st & ANIM_U) fprintf(out, "M%.1f %.1fV%.1f", cx, cy, top);
		if (st & ANIM_D) fprintf(out, "M%.1f %.1fV%.1f", cx, cy, top + a->lh);
		if (st & ANIM_L) fprintf(out, "M%.1f %.1fH%.1f", cx, cy, l);
		if (st & ANIM_R) fprintf(out, "M%.1f %.1fH%.1f", cx, cy, r);
		if (st & ANIM_RISE) fprintf(out, "M%.1f %.1fL%.1f %.1f", l, top + a->lh, r, top);
		if (st & ANIM_FALL) fprintf(out, "M%.1f %.1fL%.1f %.1f", l, top, r, top + a->lh);
		i += n;
		col++;
	}
	if (strokes) {
		fputs("'/>\n", out);
		return;
	}
	export_trim(trimmed, sizeof trimmed, s);
	if (trimmed[0] == '\0')
		return;
	fill = it->style == SCENE_PLAIN || it->style == SCENE_ELLIPSIS ? a->col.muted : a->col.fg;
	if (it->style == SCENE_ELLIPSIS)
		fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' fill='%s'>",
		        x + it->width * a->cw / 2, base, fill);
	else if (s[0] == ' ')
		fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='end' fill='%s'>",
		        x + it->width * a->cw, base, fill);
	else
		fprintf(out, "<text x='%.1f' y='%.1f' fill='%s'%s>", x, base, fill,
		        it->style == SCENE_TITLE || it->style == SCENE_AXIS ? " font-weight='bold'" : "");
	svg_xml(out, trimmed);
	fputs("</text>\n", out);
}

/* The chrome, grouped by the keys it is drawn at, each group shown and
 * hidden together (still >= 0: only what slot still draws at rest). */
static void
anim_chrome(FILE *out, const struct export_anim *a, int still)
{
	const struct reel *r = &a->r;
	size_t *order = malloc((r->nchrome + 1) * sizeof *order);
	bool *done = calloc(r->nchrome + 1, 1);

	if (order == NULL || done == NULL) {
		free(order);
		free(done);
		return;
	}
	fputs("<g class='chrome'>\n", out);
	for (size_t i = 0; i < r->nchrome; i++) {
		size_t n = 0;

		if (done[i])
			continue;
		for (size_t j = i; j < r->nchrome; j++)
			if (!done[j] && memcmp(r->chrome[j].on, r->chrome[i].on, (size_t)r->nkeys) == 0) {
				order[n++] = j;
				done[j] = true;
			}
		if (still >= 0) {
			if (!r->chrome[i].on[(size_t)still * (size_t)r->frames])
				continue;
			fputs("<g>\n", out);
		} else {
			fprintf(out, "<g visibility='%s'>", r->chrome[i].on[0] ? "visible" : "hidden");
			anim_visibility(out, a, r->chrome[i].on);
			fputc('\n', out);
		}
		for (size_t j = 0; j < n; j++)
			anim_chrome_item(out, a, &r->chrome[order[j]].it);
		fputs("</g>\n", out);
	}
	fputs("</g>\n", out);
	free(order);
	free(done);
}

/* Where cell c is at key k in px, relative to the grid's origin; its
 * first drawn place when it is not drawn at k. */
static void
anim_cell_px(const struct export_anim *a, const struct reel_cell *c, int k, double *x, double *y)
{
	int key = k;

	for (int i = 0; i < a->r.nkeys && c->y[key] == REEL_ABSENT; i++)
		key = (key + 1) % a->r.nkeys;
	*x = (c->x[key] - a->r.x0) * a->cw;
	*y = (c->y[key] - a->r.y0) * a->lh;
}

/* The travel of cell c: through its place at every key, resting during
 * each slot's hold, jumping where its lane's glide cuts. */
static void
anim_cell_motion(FILE *out, const struct export_anim *a, const struct reel_cell *c)
{
	const struct reel *r = &a->r;
	double total = anim_total(a), *t, *px, *py;
	size_t n = 0, cap = (size_t)r->nkeys * 3 + 4, kept = 0;
	bool moves = false;

	if (r->nkeys <= 0 || r->frames <= 0)
		return;
	t = malloc(cap * sizeof *t);
	px = malloc(cap * sizeof *px);
	py = malloc(cap * sizeof *py);
	if (t == NULL || px == NULL || py == NULL)
		goto out;
	for (int k = 0; k <= r->nkeys; k++) {
		int key = k % r->nkeys, s = k / r->frames, f = k % r->frames;
		double x, y, when = k == r->nkeys ? total : anim_key_time(a, k);

		anim_cell_px(a, c, key, &x, &y);
		/* a cut: stay until the frame that shows the new place; a 3D
		 * glide does so at every frame, as the lab draws it: its boxes
		 * pass one another, and only the frames say which one shows */
		if (n > 0 && f > 0 && (r->cut[s][c->lane] || r->view3d) &&
		    (x != px[n - 1] || y != py[n - 1])) {
			t[n] = when - ANIM_EPS * total;
			px[n] = px[n - 1];
			py[n] = py[n - 1];
			n++;
		}
		t[n] = when;
		px[n] = x;
		py[n] = y;
		n++;
		if (f == 0 && k < r->nkeys) {   /* the rest */
			t[n] = when + a->hold_s;
			px[n] = x;
			py[n] = y;
			n++;
		}
	}
	/* a point between two equal neighbours says nothing */
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && i + 1 < n && px[i] == px[i - 1] && py[i] == py[i - 1] &&
		    px[i] == px[i + 1] && py[i] == py[i + 1])
			continue;
		t[kept] = t[i];
		px[kept] = px[i];
		py[kept] = py[i];
		moves = moves || px[kept] != px[0] || py[kept] != py[0];
		kept++;
	}
	if (!moves)
		goto out;
	fprintf(out, "<animateTransform attributeName='transform' type='translate' "
	        "calcMode='linear' repeatCount='indefinite' dur='%gs' keyTimes='", total);
	for (size_t i = 0; i < kept; i++)
		fprintf(out, "%s%.5f", i ? ";" : "", i + 1 == kept ? 1.0 : t[i] / total);
	fputs("' values='", out);
	for (size_t i = 0; i < kept; i++)
		fprintf(out, "%s%.1f %.1f", i ? ";" : "", px[i], py[i]);
	fputs("'/>", out);
out:
	free(t);
	free(px);
	free(py);
}

/* Where label sits at slot s of cell c's lane, as "[0, 1, 0]". */
static void
anim_cell_index(char *buf, size_t size, const struct export_anim *a, const struct reel_cell *c,
                int s)
{
	const struct reel_lane *ln = &a->r.lane[c->lane];
	int64_t index[LAYOUT_MAX_RANK];
	int k = ln->step[s];
	char list[160];

	if (!walk_find(ln->w, k, c->label, index, NULL)) {
		snprintf(buf, size, "-");
		return;
	}
	walk_format_list(list, sizeof list, index, ln->w->steps[k].view.rank);
	snprintf(buf, size, "[%s]", list);
}

/* One cell: a group that travels, with its box, its label and head
 * letter, the ring a page lights it with, and its misplaced mark. */
static void
anim_cell(FILE *out, const struct export_anim *a, const struct reel_cell *c, int still)
{
	const struct reel *r = &a->r;
	int hc = anim_hc(c->head), key = still >= 0 ? still * r->frames : 0;
	double x, y, w = c->width * a->cw + 6, h = c->height * a->lh - 8;
	char trimmed[48];
	unsigned char on[WALK_MAX_STEPS * REEL_FRAMES] = { 0 };
	size_t digits;
	bool wrong = false, shown = c->y[key] != REEL_ABSENT, varies = false;
	const char *fill = c->selected ? a->col.sel_bg : a->col.head_bg[hc];
	const char *ink = c->selected ? a->col.sel_fg : a->col.head_fg[hc];

	for (int k = 0; k < r->nkeys; k++) {
		on[k] = (unsigned char)(c->y[k] != REEL_ABSENT);
		wrong = wrong || c->wrong[k];
		varies = varies || on[k] != on[0];
	}
	if (still >= 0 && !shown)
		return;
	anim_cell_px(a, c, key, &x, &y);
	fprintf(out, "<g class='cell%s' data-label='%lld' data-lane='%d' data-head='%lld' data-at='",
	        c->selected ? " sel" : "", (long long)c->label, c->lane, (long long)c->head);
	for (int s = 0; s < r->nslots; s++) {
		char where[200];

		anim_cell_index(where, sizeof where, a, c, s);
		fprintf(out, "%s%s", s ? "|" : "", where);
	}
	fprintf(out, "' transform='translate(%.1f %.1f)'", x, y);
	if (a->focusable)
		fprintf(out, " tabindex='0' role='button' aria-label='%lld'", (long long)c->label);
	if (still < 0 && varies)
		fprintf(out, " visibility='%s'", on[0] ? "visible" : "hidden");
	fputs(">", out);
	if (still < 0) {
		anim_cell_motion(out, a, c);
		if (varies)
			anim_visibility(out, a, on);
	}
	fprintf(out, "\n<rect class='ring' x='-9' y='-2' width='%.1f' height='%.1f' rx='8' fill='none' "
	        "stroke='%s' stroke-width='4' visibility='hidden'/>", w + 12, h + 12, a->col.fg);
	fprintf(out, "<rect x='-3' y='4' width='%.1f' height='%.1f' rx='5' fill='%s' stroke='%s' "
	        "stroke-width='%s' stroke-dasharray='%s'/>", w, h, fill,
	        c->selected ? a->col.fg : a->col.head_edge[hc], c->selected ? "4" : "2.2",
	        c->selected ? "none" : svg_head_dash(c->head));
	export_trim(trimmed, sizeof trimmed, c->text);
	digits = strspn(trimmed, "0123456789");
	fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' fill='%s'%s>"
	        "<tspan font-weight='bold'>%.*s</tspan>", w / 2 - 3, 4 + h / 2 + a->font * 0.36, ink,
	        c->selected ? " text-decoration='underline'" : "", (int)digits, trimmed);
	if (trimmed[digits])
		fprintf(out, "<tspan font-size='%d'>%s</tspan>", a->font * 4 / 5, trimmed + digits);
	fputs("</text>", out);
	if (wrong && (still < 0 || c->wrong[key])) {
		unsigned char mark[WALK_MAX_STEPS * REEL_FRAMES] = { 0 };

		for (int k = 0; k < r->nkeys; k++)
			mark[k] = c->wrong[k];
		fprintf(out, "<g class='wrong' visibility='%s'>",
		        still >= 0 || c->wrong[0] ? "visible" : "hidden");
		if (still < 0)
			anim_visibility(out, a, mark);
		/* the cross on a halo of the page's colour reads on any head's fill */
		fprintf(out, "<rect x='-6' y='1' width='%.1f' height='%.1f' rx='7' fill='none' stroke='%s' "
		        "stroke-width='3' stroke-dasharray='5 3'/><text x='%.1f' y='%.1f' "
		        "font-size='%d' font-weight='bold' fill='%s' stroke='%s' stroke-width='3' "
		        "paint-order='stroke'>\u2717</text></g>", w + 6, h + 6, a->col.wrong, w - 11,
		        4 + a->font * 0.66, a->font * 3 / 4, a->col.wrong, a->col.bg);
	}
	fputs("</g>\n", out);
}

/* ------------------------------------------------------------- header --- */

const char *
export_anim_step_name(const struct walk *w, int k)
{
	if (w->steps[k].op == WALK_OP_INPUT)
		return text_get("step.group.input", "input");
	return facts_step_word(w, k);
}

/* The step's header lines of lane l at slot s: code and shape. */
static void
anim_lane_head(FILE *out, const struct export_anim *a, int l, int s, double x, double y,
               bool titled)
{
	const struct reel_lane *ln = &a->r.lane[l];
	const struct walk *w = ln->w;
	int k = ln->step[s];
	struct facts *f = malloc(sizeof *f);
	char buf[600];

	if (f == NULL)
		return;
	facts_step(f, w, k, a->o->utf8, NULL, false);
	if (titled) {
		if (ln->bug)
			snprintf(buf, sizeof buf, text_fmt("web.wrong", "wrong: %s"), w->kind_name);
		else
			snprintf(buf, sizeof buf, "%s", text_get("web.right", "right"));
		anim_text(out, x, y, "font-size='18' font-weight='bold'", buf, strlen(buf));
		y += 26;
	}
	fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='34' rx='6' fill='%s'/>\n", x - 2,
	        y + 4, utf8_width(w->steps[k].code) * 20 * 0.61 + 24, a->col.code_bg);
	fprintf(out, "<text x='%.1f' y='%.1f' font-family=\"%s\" font-size='20' fill='%s'>", x + 10,
	        y + 28, svg_font_mono, a->col.accent);
	svg_xml(out, w->steps[k].code);
	fputs("</text>\n", out);
	/* beside another walk the shape and the strides take a line each */
	snprintf(buf, sizeof buf, titled ? "%s" : "%s \u00b7 ", f->shape);
	if (titled) {
		anim_text(out, x, y + 62, "font-size='17'", buf, strlen(buf));
		buf[0] = '\0';
	}
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s %s \u00b7 %s",
	         text_get("ui.strides", "strides"), f->strides,
	         layout_is_contiguous(&w->steps[k].view) ? text_get("ui.contiguous", "contiguous")
	                                                 : text_get("ui.noncontiguous", "not contiguous"));
	anim_text(out, x, y + (titled ? 88 : 62), "font-size='17'", buf, strlen(buf));
	if (!titled) {
		snprintf(buf, sizeof buf, "%s", text_get(facts_effect_key(w, k), facts_effect(w, k)));
		anim_text(out, x, y + 88, "font-size='17'", buf, strlen(buf));
	}
	free(f);
}

/* The caption of slot s: the walk's, or the bug's beside the right walk;
 * wrapped into lines[] (pointers into buf); returns the line count. */
static int
anim_caption(const struct export_anim *a, int s, char *buf, size_t size, const char **lines,
             size_t *lens)
{
	const struct reel_lane *ln = &a->r.lane[a->r.nlanes - 1];
	struct facts *f;
	int n = 0;

	buf[0] = '\0';
	if (!a->captions || !a->o->captions || (f = malloc(sizeof *f)) == NULL)
		return 0;
	facts_step(f, ln->w, ln->step[s], a->o->utf8, NULL, true);
	snprintf(buf, size, "%s", f->caption);
	free(f);
	for (const char *p = buf; *p && n < ANIM_CAP_LINES;) {
		const char *next;

		lines[n] = p;
		lens[n] = utf8_wrap(p, a->caption_cols, &next);
		n++;
		p = next;
	}
	return n;
}

/* The selected label's place at slot s: "label 4 at [0, 1, 0]". */
static void
anim_selected_line(char *buf, size_t size, const struct export_anim *a, int s)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int l = 0; l < a->r.nlanes && used < size; l++) {
		const struct reel_cell *c = reel_find(&a->r, l, a->o->selected);
		char where[200];

		if (c == NULL)
			continue;
		anim_cell_index(where, sizeof where, a, c, s);
		used += (size_t)snprintf(buf + used, size - used, "%s", used ? "   " : "");
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used,
			                         text_fmt("web.where", "label %lld at %s"),
			                         (long long)a->o->selected, where);
	}
}

/* Slot s's header: step, title, each lane's code and facts, the caption,
 * the selected label's place. */
static void
anim_header(FILE *out, const struct export_anim *a, int s)
{
	const struct reel *r = &a->r;
	const struct reel_lane *ln = &r->lane[r->nlanes - 1];
	const char *lines[ANIM_CAP_LINES];
	size_t lens[ANIM_CAP_LINES];
	char buf[1200], cap[1100];
	double y = ANIM_MARGIN;
	int k = ln->step[s], n;

	snprintf(buf, sizeof buf, text_fmt("web.step", "step %d of %d"), s + 1, r->nslots);
	if (r->nlanes == 1) {
		size_t used = strlen(buf);
		const struct walk_step *st = &ln->w->steps[k];

		snprintf(buf + used, sizeof buf - used, " \u00b7 %s%s%s",
		         st->group ? facts_group_word(st->group) : "", st->group ? " \u00b7 " : "",
		         export_anim_step_name(ln->w, k));
	}
	anim_text(out, ANIM_MARGIN, y + 16, "font-size='17' font-weight='bold' letter-spacing='1'",
	          buf, strlen(buf));
	y += 30;
	for (int l = 0; l < r->nlanes; l++)
		anim_lane_head(out, a, l, s, a->grid_x + (r->lane[l].dx - r->x0) * a->cw, y + (r->nlanes > 1 ? 18 : 0),
		               r->nlanes > 1);
	y += r->nlanes > 1 ? 26 + 18 + 100 : 100;
	n = anim_caption(a, s, cap, sizeof cap, lines, lens);
	for (int i = 0; i < n; i++)
		anim_text(out, ANIM_MARGIN, y + 20 + i * 27, "font-size='19'", lines[i], lens[i]);
	y += n * 27;
	if (a->o->selected >= 0) {
		anim_selected_line(buf, sizeof buf, a, s);
		anim_text(out, ANIM_MARGIN, y + 24, "font-size='17' font-weight='bold'", buf, strlen(buf));
	}
}

/* The headers, each shown from the start of the glide into its slot to
 * the start of the next one (still >= 0: slot still's alone). */
static void
anim_headers(FILE *out, const struct export_anim *a, int still)
{
	const struct reel *r = &a->r;
	unsigned char on[WALK_MAX_STEPS * REEL_FRAMES] = { 0 };

	fprintf(out, "<g class='heads' font-family=\"%s\" fill='%s'>\n", svg_font_sans, a->col.fg);
	for (int s = 0; s < r->nslots; s++) {
		if (still >= 0 && s != still)
			continue;
		/* keys of slot s's rest and of the glide into it */
		for (int k = 0; k < r->nkeys; k++) {
			int ks = k / r->frames, f = k % r->frames;

			on[k] = (f == 0 && ks == s) || (f > 0 && (ks + 1) % r->nslots == s);
		}
		fprintf(out, "<g class='step' data-slot='%d'", s);
		if (still < 0) {
			fprintf(out, " visibility='%s'>", on[0] ? "visible" : "hidden");
			anim_visibility(out, a, on);
		} else {
			fputs(">", out);
		}
		fputc('\n', out);
		anim_header(out, a, s);
		fputs("</g>\n", out);
	}
	fputs("</g>\n", out);
}

/* Every head of the picture with its letter and cue. */
static void
anim_legend(FILE *out, const struct export_anim *a)
{
	const struct reel *r = &a->r;
	double x = ANIM_MARGIN, y = a->height - ANIM_MARGIN - 30;
	int64_t seen[THEME_NHEAD];
	int nseen = 0;
	char tag[16], buf[64];

	fprintf(out, "<g class='legend' font-family=\"%s\" font-size='16' fill='%s'>\n", svg_font_sans,
	        a->col.fg);
	for (size_t i = 0; i < r->ncells && nseen < THEME_NHEAD; i++) {
		int64_t h = r->cells[i].head;
		bool dup = h < 0;
		double tw;

		for (int j = 0; j < nseen && !dup; j++)
			dup = seen[j] == h;
		if (dup)
			continue;
		seen[nseen++] = h;
		scene_head_tag(h, tag, sizeof tag);
		snprintf(buf, sizeof buf, text_fmt("web.head", "head %lld"), (long long)h);
		tw = utf8_width(buf) * 16 * 0.56;
		if (x + 52 + tw > a->width - ANIM_MARGIN)
			break;
		fprintf(out, "<rect x='%.1f' y='%.1f' width='40' height='28' rx='5' fill='%s' stroke='%s' "
		        "stroke-width='2.2' stroke-dasharray='%s'/>", x, y, a->col.head_bg[anim_hc(h)],
		        a->col.head_edge[anim_hc(h)], svg_head_dash(h));
		fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' font-family=\"%s\" "
		        "font-weight='bold' fill='%s'>", x + 20, y + 20, svg_font_mono,
		        a->col.head_fg[anim_hc(h)]);
		svg_xml(out, tag);
		fputs("</text>", out);
		anim_text(out, x + 48, y + 20, "", buf, strlen(buf));
		x += 48 + tw + 26;
	}
	fputs("</g>\n", out);
}

/* ------------------------------------------------------------- layout --- */

bool
export_anim_begin(struct export_anim *a, const struct walk *w, const struct export_opts *o,
                  bool captions)
{
	struct scene_opts so;
	double caps = 0;

	memset(a, 0, sizeof *a);
	a->w = w;
	a->o = o;
	a->captions = captions;
	scene_opts_default(&so);
	so.utf8 = o->utf8;
	so.width = (o->width > 22 ? o->width : 22) - 2;
	so.selected = o->selected;
	if (w->kind >= WALK_BUG)        /* two walks side by side share the width */
		so.width = (so.width - REEL_GAP) / 2;
	if (!reel_build(&a->r, w, &so, o->view3d))
		return false;
	anim_colors(&a->col, o->theme);
	a->step_s = o->step_seconds > 0 ? o->step_seconds : EXPORT_ANIM_SECONDS;
	a->hold_s = a->step_s - (a->step_s * 0.4 < 1.2 ? a->step_s * 0.4 : 1.2);
	a->cw = o->view3d ? 15 : 14;
	a->lh = o->view3d ? 32 : 38;
	a->font = o->view3d ? 19 : 21;
	a->width = 2 * ANIM_MARGIN + a->r.width * a->cw + 16;
	if (a->width < ANIM_MIN_WIDTH)
		a->width = ANIM_MIN_WIDTH;
	a->caption_cols = (int)((a->width - 2 * ANIM_MARGIN) / (19 * 0.56));
	for (int s = 0; s < a->r.nslots; s++) {
		const char *lines[ANIM_CAP_LINES];
		size_t lens[ANIM_CAP_LINES];
		char cap[1100];
		int n = anim_caption(a, s, cap, sizeof cap, lines, lens);

		if (n > caps)
			caps = n;
	}
	a->head_h = 30 + (a->r.nlanes > 1 ? 26 + 18 + 100 : 100) + caps * 27 +
	            (o->selected >= 0 ? 34 : 0) + 16;
	a->grid_x = ANIM_MARGIN + 8;
	a->grid_y = ANIM_MARGIN + a->head_h;
	a->height = a->grid_y + a->r.height * a->lh + 24 + 30 + ANIM_MARGIN;
	return true;
}

void
export_anim_end(struct export_anim *a)
{
	reel_free(&a->r);
}

void
export_anim_draw(FILE *out, const struct export_anim *a, int still, bool inline_svg)
{
	const struct walk *w = a->w;
	char summary[256];

	if (!inline_svg)
		fputs("<?xml version='1.0' encoding='UTF-8'?>\n", out);
	fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' version='1.1' width='%.0f' height='%.0f' "
	        "viewBox='0 0 %.0f %.0f' class='headlab-walk' data-slots='%d' data-step-seconds='%g' "
	        "data-hold-seconds='%g' data-cw='%g' data-lh='%g' data-grid-x='%g' data-grid-y='%g' "
	        "data-x0='%d' data-y0='%d' role='img'>\n<title>",
	        a->width, a->height, a->width, a->height, a->r.nslots, a->step_s, a->hold_s, a->cw,
	        a->lh, a->grid_x, a->grid_y, a->r.x0, a->r.y0);
	facts_walk_title(summary, sizeof summary, w);
	svg_xml(out, summary);
	fputs("</title>\n<desc>", out);
	if (still < 0)
		snprintf(summary, sizeof summary, text_fmt("web.desc.loop", "The walk's %d steps in a "
		         "loop, %g s each: the labelled cells glide from one layout to the next on the "
		         "paths the headlab lab animates."), a->r.nslots, a->step_s);
	else
		snprintf(summary, sizeof summary, text_fmt("web.desc.still", "Step %d of %d at rest."),
		         still + 1, a->r.nslots);
	svg_xml(out, summary);
	fprintf(out, "</desc>\n<rect width='100%%' height='100%%' fill='%s'/>\n", a->col.bg);
	anim_headers(out, a, still);
	fprintf(out, "<g class='grid' font-family=\"%s\" font-size='%d'%s>\n", svg_font_mono, a->font,
	        a->col.bold ? " font-weight='bold'" : "");
	anim_chrome(out, a, still);
	fprintf(out, "<g class='cells' transform='translate(%g %g)'>\n", a->grid_x, a->grid_y);
	for (size_t i = 0; i < a->r.ncells; i++)
		anim_cell(out, a, &a->r.cells[i], still);
	fputs("</g>\n</g>\n", out);
	anim_legend(out, a);
	fputs("</svg>\n", out);
}

bool
export_anim_render(FILE *out, const struct walk *w, const struct export_opts *o)
{
	struct export_anim a;

	if (!export_anim_begin(&a, w, o, true))
		return false;
	export_anim_draw(out, &a, -1, false);
	export_anim_end(&a);
	return !ferror(out);
}
