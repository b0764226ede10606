/* scene3d.c - a step as a block of labelled boxes in oblique projection.
 *
 * Everything is first painted into a character canvas, back to front: the
 * layers from the deepest to the front one, each filling its face so that
 * nothing behind shows through, then the axis names where the canvas is
 * still blank, then the depth edges in whatever blank is left.  The items
 * are read back from the canvas, so they never overlap, and a label that
 * anything was painted over is counted in s3->covered. */
#include "scene3d.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One column of one line of the canvas. */
struct scene3d_px {
	char glyph[5];          /* UTF-8; "" where nothing is painted */
	unsigned char style;    /* enum scene_style of what is painted */
	int owner;              /* 1 + index of the label painted here, or 0 */
	bool cont;              /* covered by the wide glyph to its left ("...") */
};

/* A labelled box, kept until the canvas is read back. */
struct scene3d_box {
	int y, x, w, h;
	int face_y, face_x;     /* its layer's frame, top left */
	int64_t label, head;
	unsigned mark;
};

/* The glyphs of a UTF-8 or an ASCII drawing. */
struct scene3d_glyphs {
	const char *h, *v, *tl, *tr, *bl, *br, *tee_down, *tee_up, *depth;
	const char *row_gap, *col_gap, *layer_gap;
};

static const struct scene3d_glyphs scene3d_utf8 = {
	"\u2500", "\u2502", "\u250c", "\u2510", "\u2514", "\u2518", "\u252c", "\u2534", "\u2571",
	"\u22ee", "\u2026", "\u22f0",
};

static const struct scene3d_glyphs scene3d_ascii = {
	"-", "|", "+", "+", "+", "+", "+", "+", "/", ":", "...", "...",
};

struct scene3d_ctx {
	struct scene3d *s3;
	const struct walk *w;
	int k;
	const struct scene_opts *opts;
	const struct scene3d_glyphs *g;
	int64_t pick[SCENE3D_NROLES][SCENE_MAX_PICK]; /* indices shown per role, -1 gaps */
	int npick[SCENE3D_NROLES];
	int numw, tagw, cw;     /* label digits, head-tag letters, label text width */
	int colx[SCENE_MAX_PICK]; /* a column's interior start, from the face's left */
	int colw[SCENE_MAX_PICK];
	int face_w, face_h;     /* a layer's frame */
	int face_y, face_x;     /* the frame of the layer being drawn, top left */
	int rowh;               /* lines per row of boxes: a box's height */
	int off[SCENE_MAX_PICK]; /* each layer's offset up and right from the front one */
	int margin;             /* columns left of the front face: row numbers */
	int top;                /* line of the front face's top */
	int block_w;            /* columns of one block, with its names */
	struct scene3d_px *px;
	int ch, cwid;           /* canvas lines and columns */
	bool narrow;            /* elide the across axis whatever the cell count */
	struct scene3d_box *boxes;
	size_t nboxes, capboxes;
	bool oom;
};

bool
scene3d_plan(const struct walk_step *s, int turn, int *axis)
{
	int r = s->view.rank, t;

	for (int i = 0; i < SCENE3D_NROLES; i++)
		axis[i] = -1;
	if (r < 1 || r > 4)
		return false;
	axis[SCENE3D_ACROSS] = r - 1;
	if (r == 2) {
		axis[SCENE3D_DOWN] = 0;
	} else if (r == 3 && strcasecmp(s->axes[0], "B") == 0) {
		axis[SCENE3D_BATCH] = 0;
		axis[SCENE3D_DOWN] = 1;
	} else if (r >= 3) {
		axis[SCENE3D_BATCH] = r == 4 ? 0 : -1;
		axis[SCENE3D_DOWN] = r - 3;
		axis[SCENE3D_DEPTH] = r - 2;
	}
	t = ((turn % SCENE3D_TURNS) + SCENE3D_TURNS) % SCENE3D_TURNS;
	if (t != 0) {
		int other = t == 1 ? SCENE3D_ACROSS : SCENE3D_DOWN, tmp = axis[SCENE3D_DEPTH];

		axis[SCENE3D_DEPTH] = axis[other];
		axis[other] = tmp;
		if (axis[SCENE3D_ACROSS] < 0) {
			/* a slab seen from the side: its one column is the depth */
			axis[SCENE3D_ACROSS] = axis[SCENE3D_DEPTH];
			axis[SCENE3D_DEPTH] = -1;
		}
	}
	return true;
}

static int
scene3d_digits(int64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static struct scene3d_px *
scene3d_at(struct scene3d_ctx *c, int y, int x)
{
	if (y < 0 || x < 0 || y >= c->ch || x >= c->cwid)
		return NULL;
	return &c->px[(size_t)y * (size_t)c->cwid + (size_t)x];
}

/* Paint one glyph over whatever is there. */
static void
scene3d_put(struct scene3d_ctx *c, int y, int x, const char *glyph, enum scene_style style)
{
	struct scene3d_px *p = scene3d_at(c, y, x);
	size_t n;

	if (p == NULL)
		return;
	/* snprintf's "%s" cut, without its cost (it runs for every pixel) */
	n = strlen(glyph);
	if (n >= sizeof p->glyph)
		n = sizeof p->glyph - 1;
	memcpy(p->glyph, glyph, n);
	p->glyph[n] = '\0';
	p->style = (unsigned char)style;
	p->owner = 0;
	p->cont = false;
}

/* Paint a glyph that may be wider than a column ("..."): the columns it
 * covers are marked taken. */
static void
scene3d_put_wide(struct scene3d_ctx *c, int y, int x, const char *glyph, enum scene_style style)
{
	int n = scene_text_width(glyph);

	scene3d_put(c, y, x, glyph, style);
	for (int i = 1; i < n; i++) {
		struct scene3d_px *p = scene3d_at(c, y, x + i);

		if (p) {
			scene3d_put(c, y, x + i, "", style);
			p->cont = true;
		}
	}
}

/* Paint one byte of a name: printable ASCII as it is, anything else '?'
 * (names are ASCII by construction; this keeps a column a byte). */
static void
scene3d_put_char(struct scene3d_ctx *c, int y, int x, char ch, enum scene_style style)
{
	char b[2] = { '?', '\0' };

	if (ch >= 0x20 && ch < 0x7f)
		b[0] = ch;
	scene3d_put(c, y, x, b, style);
}

static bool
scene3d_blank(struct scene3d_ctx *c, int y, int x)
{
	const struct scene3d_px *p = scene3d_at(c, y, x);

	return p != NULL && p->glyph[0] == '\0' && !p->cont;
}

/* Paint ASCII text at (y, x) if every column it needs is blank; other bytes
 * (names are ASCII by construction) are shown as '?'.  false when it did
 * not fit. */
static bool
scene3d_text(struct scene3d_ctx *c, int y, int x, const char *text, enum scene_style style)
{
	int n = (int)strlen(text);

	for (int i = 0; i < n; i++)
		if (!scene3d_blank(c, y, x + i))
			return false;
	for (int i = 0; i < n; i++)
		scene3d_put_char(c, y, x + i, text[i], style);
	return true;
}

/* "T=3": an axis name and its size. */
static void
scene3d_axis_name(const struct scene3d_ctx *c, int role, char *buf, size_t size)
{
	const struct walk_step *s = &c->w->steps[c->k];
	int a = c->s3->axis[role];

	snprintf(buf, size, "%s=%lld", s->axes[a], (long long)s->view.shape[a]);
}

/* The marks of the box of label, as the grid view gives them. */
static unsigned
scene3d_marks(const struct scene3d_ctx *c, int64_t label)
{
	const struct scene_opts *o = c->opts;
	int64_t b, t, h, sb, st, sh;
	unsigned mark = 0;

	if (o->lit && o->lit(o->lit_ctx, label))
		mark |= SCENE_MARK_LIT;
	if (o->selected < 0 || o->selected >= walk_numel(c->w))
		return mark;
	if (label == o->selected)
		return mark | SCENE_MARK_SELECTED;
	if (o->hide_labels)
		return mark;
	walk_label_origin(c->w, label, &b, &t, &h);
	walk_label_origin(c->w, o->selected, &sb, &st, &sh);
	if (b == sb && t == st)
		mark |= h == sh ? SCENE_MARK_HEADMATE : SCENE_MARK_POSMATE;
	return mark;
}

/* Paint the box of the cell at index, its label at (y, x). */
static void
scene3d_cell(struct scene3d_ctx *c, int y, int x, const int64_t *index)
{
	int64_t label = walk_label_at(c->w, c->k, index), b, t, h;
	struct scene3d_box *box;

	if (c->nboxes == c->capboxes) {
		size_t cap = c->capboxes ? c->capboxes * 2 : 64;
		struct scene3d_box *nb = realloc(c->boxes, cap * sizeof *nb);

		if (nb == NULL) {
			c->oom = true;
			return;
		}
		c->boxes = nb;
		c->capboxes = cap;
	}
	walk_label_origin(c->w, label, &b, &t, &h);
	box = &c->boxes[c->nboxes++];
	*box = (struct scene3d_box){ .y = y, .x = x, .w = c->cw + 2, .h = c->rowh, .face_y = c->face_y,
	                             .face_x = c->face_x, .label = label,
	                             .head = c->opts->hide_labels ? -1 : h,
	                             .mark = scene3d_marks(c, label) };
	for (int i = 0; i < box->w * box->h; i++) {
		struct scene3d_px *p = scene3d_at(c, y + i / box->w, x + i % box->w);

		if (p) {
			p->glyph[0] = ' ';
			p->glyph[1] = '\0';
			p->style = SCENE_CELL;
			p->owner = (int)c->nboxes;
		}
	}
}

/* A layer's face: blank inside, framed, a box per shown cell; the layer's
 * index sits in its top edge. */
static void
scene3d_face(struct scene3d_ctx *c, int y0, int x0, int64_t *index, const char *title)
{
	const struct scene3d_glyphs *g = c->g;
	int nrows = c->npick[SCENE3D_DOWN], ncols = c->npick[SCENE3D_ACROSS];
	const int *axis = c->s3->axis;

	c->face_y = y0;
	c->face_x = x0;
	for (int y = y0; y < y0 + c->face_h; y++)
		for (int x = x0; x < x0 + c->face_w; x++)
			scene3d_put(c, y, x, " ", SCENE_PLAIN);
	for (int x = x0 + 1; x < x0 + c->face_w - 1; x++) {
		scene3d_put(c, y0, x, g->h, SCENE_RULE);
		scene3d_put(c, y0 + c->face_h - 1, x, g->h, SCENE_RULE);
	}
	for (int y = y0 + 1; y < y0 + c->face_h - 1; y++) {
		scene3d_put(c, y, x0, g->v, SCENE_RULE);
		scene3d_put(c, y, x0 + c->face_w - 1, g->v, SCENE_RULE);
	}
	scene3d_put(c, y0, x0, g->tl, SCENE_RULE);
	scene3d_put(c, y0, x0 + c->face_w - 1, g->tr, SCENE_RULE);
	scene3d_put(c, y0 + c->face_h - 1, x0, g->bl, SCENE_RULE);
	scene3d_put(c, y0 + c->face_h - 1, x0 + c->face_w - 1, g->br, SCENE_RULE);
	for (int i = 0; i < ncols; i++) {
		int x = x0 + c->colx[i];

		if (i + 1 < ncols) {
			int sep = x + c->colw[i];

			scene3d_put(c, y0, sep, g->tee_down, SCENE_RULE);
			scene3d_put(c, y0 + c->face_h - 1, sep, g->tee_up, SCENE_RULE);
			for (int y = y0 + 1; y < y0 + c->face_h - 1; y++)
				scene3d_put(c, y, sep, g->v, SCENE_RULE);
		}
		for (int r = 0; r < nrows; r++) {
			int y = y0 + 1 + r * c->rowh;
			int64_t ri = c->pick[SCENE3D_DOWN][r], ci = c->pick[SCENE3D_ACROSS][i];

			if (ci < 0 || ri < 0) {
				const char *gap = ci < 0 ? g->col_gap : g->row_gap;
				int gx = x + (c->colw[i] - scene_text_width(gap)) / 2;

				if (ci >= 0)
					gx = x + c->numw; /* under the label's last digit */
				scene3d_put_wide(c, y, gx, gap, SCENE_ELLIPSIS);
				continue;
			}
			if (axis[SCENE3D_DOWN] >= 0)
				index[axis[SCENE3D_DOWN]] = ri;
			index[axis[SCENE3D_ACROSS]] = ci;
			scene3d_cell(c, y, x, index);
		}
	}
	if (title && (int)strlen(title) + 3 <= c->face_w)
		for (int i = 0; title[i]; i++)
			scene3d_put_char(c, y0, x0 + 2 + i, title[i], SCENE_TITLE);
}

static void
scene3d_add_edge(struct scene3d_ctx *c, int y0, int x0, int y1, int x1)
{
	struct scene3d *s3 = c->s3;
	struct scene3d_edge *e = realloc(s3->edges, (s3->nedges + 1) * sizeof *e);

	if (e == NULL) {
		c->oom = true;
		return;
	}
	s3->edges = e;
	e[s3->nedges++] = (struct scene3d_edge){ y0, x0, y1, x1 };
}

static void
scene3d_add_face(struct scene3d_ctx *c, int y, int x, int64_t batch, int64_t depth, int slot)
{
	struct scene3d *s3 = c->s3;
	struct scene3d_face *f = realloc(s3->faces, (s3->nfaces + 1) * sizeof *f);

	if (f == NULL) {
		c->oom = true;
		return;
	}
	s3->faces = f;
	f[s3->nfaces++] = (struct scene3d_face){ y, x, c->face_h, c->face_w, batch, depth, slot };
}

/* The back outline of a one-layer block, two columns behind its face, and
 * the three depth edges that join them. */
static void
scene3d_thickness(struct scene3d_ctx *c, int y, int x)
{
	const struct scene3d_glyphs *g = c->g;
	int w = c->face_w, h = c->face_h;

	scene3d_add_edge(c, y, x, y - 2, x + 2);
	scene3d_add_edge(c, y, x + w - 1, y - 2, x + w + 1);
	scene3d_add_edge(c, y + h - 1, x + w - 1, y + h - 3, x + w + 1);
	for (int i = x + 3; i < x + w + 1; i++)
		scene3d_put(c, y - 2, i, g->h, SCENE_RULE);
	scene3d_put(c, y - 2, x + 2, g->tl, SCENE_RULE);
	scene3d_put(c, y - 2, x + w + 1, g->tr, SCENE_RULE);
	for (int i = y - 1; i < y + h - 3; i++)
		scene3d_put(c, i, x + w + 1, g->v, SCENE_RULE);
	scene3d_put(c, y + h - 3, x + w + 1, g->br, SCENE_RULE);
}

/* The line of row r's label, from its face's top: the middle of its boxes. */
static int
scene3d_row_line(const struct scene3d_ctx *c, int r)
{
	return 1 + r * c->rowh + (c->rowh - 1) / 2;
}

/* Names around the front face of a block: each row named on the left by
 * its axis and index ("H 0", as the grid names its rows) beside the face's
 * left edge, the down axis's size under them on the line of the face's
 * bottom edge (above them it would sit by the depth edge leaving the
 * face's corner, and read as naming the depth), column numbers and the
 * across axis under the face, the depth axis by the first depth edge on
 * the right, the batch above. */
static void
scene3d_names(struct scene3d_ctx *c, int x0, int64_t batch)
{
	const int *axis = c->s3->axis;
	int xf = x0 + c->margin, yf = c->top, s = c->s3->slot_step, y, x;
	char buf[64];

	if (axis[SCENE3D_DOWN] >= 0) {
		scene3d_axis_name(c, SCENE3D_DOWN, buf, sizeof buf);
		scene3d_text(c, yf + c->face_h - 1, xf - 1 - (int)strlen(buf), buf, SCENE_AXIS);
		for (int r = 0; r < c->npick[SCENE3D_DOWN]; r++) {
			int64_t v = c->pick[SCENE3D_DOWN][r];

			if (v < 0)
				continue;
			snprintf(buf, sizeof buf, "%s %lld", c->w->steps[c->k].axes[axis[SCENE3D_DOWN]],
			         (long long)v);
			scene3d_text(c, yf + scene3d_row_line(c, r), xf - 1 - (int)strlen(buf), buf,
			             SCENE_PLAIN);
		}
	}
	x = xf;
	for (int i = 0; i < c->npick[SCENE3D_ACROSS]; i++) {
		int64_t v = c->pick[SCENE3D_ACROSS][i];

		if (v < 0)
			continue;
		snprintf(buf, sizeof buf, "%lld", (long long)v);
		x = xf + c->colx[i] + 1 + c->numw - (int)strlen(buf);
		scene3d_text(c, yf + c->face_h, x, buf, SCENE_PLAIN);
		x += (int)strlen(buf);
	}
	scene3d_axis_name(c, SCENE3D_ACROSS, buf, sizeof buf);
	scene3d_text(c, yf + c->face_h, x + 3, buf, SCENE_AXIS);
	if (axis[SCENE3D_DEPTH] >= 0) {
		scene3d_axis_name(c, SCENE3D_DEPTH, buf, sizeof buf);
		y = yf + c->face_h - 1 - (s > 1 ? s / 2 : c->face_h / 2);
		x = xf + c->face_w - 1 + (s > 1 ? s / 2 : 0) + 2;
		scene3d_text(c, y, x, buf, SCENE_AXIS);
	}
	if (axis[SCENE3D_BATCH] >= 0 && c->w->steps[c->k].view.shape[axis[SCENE3D_BATCH]] > 1) {
		snprintf(buf, sizeof buf, "%s %lld", c->w->steps[c->k].axes[axis[SCENE3D_BATCH]],
		         (long long)batch);
		scene3d_text(c, 0, x0, buf, SCENE_TITLE);
	}
}

/* The row numbers of the layers behind the front one, each left of its
 * row past the depth edge that leaves the layer's corner (a blank between),
 * where that place is free: a back layer's rows are named as the front's. */
static void
scene3d_back_rows(struct scene3d_ctx *c, int xf, int yf)
{
	char buf[32];

	if (c->s3->axis[SCENE3D_DOWN] < 0)
		return;
	for (int j = 1; j < c->npick[SCENE3D_DEPTH]; j++) {
		int y = yf - c->off[j], x = xf + c->off[j];

		if (c->pick[SCENE3D_DEPTH][j] < 0)
			continue;
		for (int r = 0; r < c->npick[SCENE3D_DOWN]; r++) {
			int64_t v = c->pick[SCENE3D_DOWN][r];
			int n, line = scene3d_row_line(c, r);

			if (v < 0)
				continue;
			n = snprintf(buf, sizeof buf, "%lld", (long long)v);
			/* the edge stands at x - line on this line */
			if (x - 1 - line - n >= 0)
				scene3d_text(c, y + line, x - 1 - line - n, buf, SCENE_PLAIN);
		}
	}
}

/* One block (one batch index) with its left edge at column x0: the layers
 * from the back, the depth edges between them, the names. */
static void
scene3d_block(struct scene3d_ctx *c, int x0, int64_t batch)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const int *axis = c->s3->axis;
	int nlay = c->npick[SCENE3D_DEPTH];
	int xf = x0 + c->margin, yf = c->top;
	int64_t index[LAYOUT_MAX_RANK] = { 0 };
	char title[64];

	if (axis[SCENE3D_BATCH] >= 0)
		index[axis[SCENE3D_BATCH]] = batch;
	for (int j = nlay - 1; j >= 0; j--) {
		int64_t d = c->pick[SCENE3D_DEPTH][j];
		int y = yf - c->off[j], x = xf + c->off[j];

		scene3d_add_face(c, y, x, batch, d, j);
		if (d < 0) {
			/* an elided run: a marker in the two lines between the faces */
			scene3d_put_wide(c, y + 1, x + c->face_w / 2, c->g->layer_gap, SCENE_ELLIPSIS);
			continue;
		}
		title[0] = '\0';
		if (axis[SCENE3D_DEPTH] >= 0) {
			index[axis[SCENE3D_DEPTH]] = d;
			snprintf(title, sizeof title, "%s %lld", s->axes[axis[SCENE3D_DEPTH]],
			         (long long)d);
		}
		scene3d_face(c, y, x, index, title);
	}
	if (nlay == 1)
		scene3d_thickness(c, yf, xf);
	for (int j = 0, next; j + 1 < nlay; j = next) {
		int y = yf - c->off[j], x = xf + c->off[j], st;

		next = c->pick[SCENE3D_DEPTH][j + 1] < 0 ? j + 2 : j + 1;
		st = c->off[next] - c->off[j];
		scene3d_add_edge(c, y, x, y - st, x + st);
		scene3d_add_edge(c, y, x + c->face_w - 1, y - st, x + c->face_w - 1 + st);
		scene3d_add_edge(c, y + c->face_h - 1, x + c->face_w - 1, y + c->face_h - 1 - st,
		                 x + c->face_w - 1 + st);
	}
	scene3d_names(c, x0, batch);
	scene3d_back_rows(c, xf, yf);
}

/* Append to the caption, cut at its end. */
static void __attribute__((format(printf, 2, 3)))
scene3d_say(struct scene3d *s3, const char *fmt, ...)
{
	size_t used = strlen(s3->caption);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s3->caption + used, sizeof s3->caption - used, fmt, ap);
	va_end(ap);
}

/* Which indices of each role are shown, and the caption that says so. */
static void
scene3d_pick(struct scene3d_ctx *c)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const struct scene_opts *o = c->opts;
	struct scene3d *s3 = c->s3;
	int64_t numel = layout_numel(&s->view), over = o->elide_over;
	int batch = s3->axis[SCENE3D_BATCH];
	bool elide;
	static const char *const where[SCENE3D_NROLES] = {
		"side by side", "down", "in depth", "across",
	};

	if (over > SCENE3D_ELIDE_OVER || over <= 0)
		over = SCENE3D_ELIDE_OVER;
	elide = numel > over;
	for (int i = 0; i < s->view.rank; i++)
		elide |= s->view.shape[i] > SCENE_MAX_PICK;
	s3->sc.elided = false;
	s3->caption[0] = '\0';
	for (int r = 0; r < SCENE3D_NROLES; r++) {
		int a = s3->axis[r];
		int edge = r == SCENE3D_DOWN || r == SCENE3D_ACROSS ? o->edge : 1;
		int64_t focus = a >= 0 && o->has_focus ? o->focus[a] : -1;

		if (a < 0) {
			c->pick[r][0] = 0;
			c->npick[r] = 1;
			continue;
		}
		c->npick[r] = scene_axis_pick(s->view.shape[a], edge,
		                              elide || (r == SCENE3D_ACROSS && c->narrow), focus,
		                              c->pick[r]);
		if (r != SCENE3D_BATCH || s->view.shape[a] > 1)
			scene3d_say(s3, "%s%s %s", s3->caption[0] ? ", " : "", s->axes[a], where[r]);
	}
	if (batch >= 0 && s->view.shape[batch] == 1)
		scene3d_say(s3, "; %s=1 not drawn", s->axes[batch]);
	for (int r = 0; r < SCENE3D_NROLES; r++) {
		int a = s3->axis[r], shown = 0;

		if (a < 0)
			continue;
		for (int i = 0; i < c->npick[r]; i++)
			shown += c->pick[r][i] >= 0;
		if (shown == s->view.shape[a])
			continue;
		scene3d_say(s3, "%s %s %d of %lld", s3->sc.elided ? "," : "; shown:", s->axes[a],
		            shown, (long long)s->view.shape[a]);
		s3->sc.elided = true;
	}
}

/* Columns of a face, the frame's size, the margins and the canvas. */
static bool
scene3d_measure(struct scene3d_ctx *c)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const int *axis = c->s3->axis;
	int x = 1, nlay = c->npick[SCENE3D_DEPTH], nb = c->npick[SCENE3D_BATCH], st, right;
	char tag[16], buf[64];
	int64_t last_head;
	bool batch_row = axis[SCENE3D_BATCH] >= 0 && s->view.shape[axis[SCENE3D_BATCH]] > 1;

	c->numw = scene3d_digits(walk_numel(c->w) - 1);
	/* room for the longest head letter: the walk's heads, or what the last
	 * label's origin says for walks built step by step */
	walk_label_origin(c->w, walk_numel(c->w) - 1, NULL, NULL, &last_head);
	scene_head_tag(last_head > c->w->heads - 1 ? last_head : c->w->heads - 1, tag, sizeof tag);
	c->tagw = (int)strlen(tag);
	c->cw = c->numw + c->tagw + (c->opts->cell_pad > 0 ? c->opts->cell_pad : 0);
	for (int i = 0; i < c->npick[SCENE3D_ACROSS]; i++) {
		c->colx[i] = x;
		c->colw[i] = c->pick[SCENE3D_ACROSS][i] < 0 ? scene_text_width(c->g->col_gap) + 2
		                                             : c->cw + 2;
		x += c->colw[i] + 1;
	}
	c->face_w = x;
	c->rowh = c->opts->cell_h > 1 ? c->opts->cell_h : 1;
	if (c->rowh > SCENE3D_ROWH_MAX)
		c->rowh = SCENE3D_ROWH_MAX;
	c->face_h = c->npick[SCENE3D_DOWN] * c->rowh + 2;
	st = c->s3->slot_step = nlay > 1 ? c->face_h : 2;
	c->margin = 1;
	if (axis[SCENE3D_DOWN] >= 0) {
		/* "T=3" under the rows' labels "T 0" ... "T 2" */
		int label = (int)strlen(s->axes[axis[SCENE3D_DOWN]]) + 1 +
		            scene3d_digits(s->view.shape[axis[SCENE3D_DOWN]] - 1);

		scene3d_axis_name(c, SCENE3D_DOWN, buf, sizeof buf);
		c->margin = (int)strlen(buf) + 1;
		if (label + 1 > c->margin)
			c->margin = label + 1;
	}
	/* a layer's step back: a face's height; an elided run between two
	 * layers (never two runs in a row) adds two lines for its marker */
	c->off[0] = 0;
	for (int j = 1; j < nlay; j++)
		c->off[j] = c->off[j - 1] + (c->pick[SCENE3D_DEPTH][j] < 0 ? 2 : st);
	c->top = batch_row + (nlay > 1 ? c->off[nlay - 1] : 2);
	right = c->margin + c->face_w + (nlay > 1 ? c->off[nlay - 1] : 2);
	scene3d_axis_name(c, SCENE3D_ACROSS, buf, sizeof buf);
	if (c->margin + c->face_w + 3 + (int)strlen(buf) > right)
		right = c->margin + c->face_w + 3 + (int)strlen(buf);
	if (axis[SCENE3D_DEPTH] >= 0) {
		scene3d_axis_name(c, SCENE3D_DEPTH, buf, sizeof buf);
		int end = c->margin + c->face_w + 1 + (nlay > 1 ? st / 2 : 1) + (int)strlen(buf);

		if (end > right)
			right = end;
	}
	c->block_w = right;
	c->ch = c->top + c->face_h + 1;
	c->cwid = nb * c->block_w + (nb - 1) * 3;
	if ((size_t)c->ch * (size_t)c->cwid > 4u << 20)
		return false;   /* cannot happen for elided steps; a guard */
	c->px = calloc((size_t)c->ch * (size_t)c->cwid, sizeof *c->px);
	return c->px != NULL;
}

/* Add an item for the text of n glyphs from canvas column x of line y. */
static struct scene_item *
scene3d_item(struct scene3d_ctx *c, int y, int x, int n, enum scene_style style)
{
	struct scene *sc = &c->s3->sc;
	struct scene_item *it;
	size_t used = 0;

	it = scene_item_new(sc);
	if (it == NULL) {
		c->oom = true;
		return NULL;
	}
	it->y = y;
	it->x = x;
	it->style = style;
	for (int i = 0; i < n; i++) {
		const struct scene3d_px *p = scene3d_at(c, y, x + i);
		size_t len = p ? strlen(p->glyph) : 0;
		const char *gl = p ? p->glyph : "";

		if (used + len < sizeof it->text) {
			memcpy(it->text + used, gl, len);
			used += len;
		}
	}
	it->text[used] = '\0';
	it->width = scene_text_width(it->text);
	return it;
}

/* Read the canvas back as items: each intact label once, the rest as runs
 * of one style. */
static void
scene3d_read(struct scene3d_ctx *c)
{
	int *seen = calloc(c->nboxes + 1, sizeof *seen);

	if (seen == NULL) {
		c->oom = true;
		return;
	}
	for (size_t b = 0; b < c->nboxes; b++) {
		const struct scene3d_box *box = &c->boxes[b];
		bool whole = true;

		for (int i = 0; i < box->w * box->h; i++) {
			const struct scene3d_px *p = scene3d_at(c, box->y + i / box->w, box->x + i % box->w);

			whole &= p != NULL && p->owner == (int)b + 1;
		}
		seen[b] = whole;
		c->s3->covered += !whole;
	}
	for (int y = 0; y < c->ch; y++) {
		for (int x = 0; x < c->cwid;) {
			const struct scene3d_px *p = scene3d_at(c, y, x);
			int n = 1;

			if (p == NULL)
				break;
			if (p->owner > 0) {
				const struct scene3d_box *box = &c->boxes[p->owner - 1];
				struct scene_item *it;

				if (seen[p->owner - 1] && box->x == x && box->y == y &&
				    (it = scene3d_item(c, y, x, 0, SCENE_CELL)) != NULL) {
					snprintf(it->text, sizeof it->text, " %*lld", c->numw,
					         (long long)box->label);
					if (c->opts->hide_labels)
						snprintf(it->text, sizeof it->text, " %*s", c->numw, "?");
					else
						scene_head_tag(box->head, it->text + strlen(it->text),
						               sizeof it->text - strlen(it->text));
					/* spaces to the box's right edge: the item is its face;
					 * never wider than the box (the text is ASCII) */
					for (size_t len = strlen(it->text);
					     (int)len < box->w && len + 1 < sizeof it->text; len++)
						memcpy(it->text + len, " ", 2);
					if ((int)strlen(it->text) > box->w)
						it->text[box->w] = '\0';
					it->width = box->w;
					it->height = box->h;
					it->label = box->label;
					it->head = box->head;
					it->mark = box->mark;
					it->panel_y = box->face_y; /* the depth a glide draws it at */
					it->panel_x = box->face_x;
					n = box->w;
				}
				x += n;
				continue;
			}
			if (p->glyph[0] == '\0' || strcmp(p->glyph, " ") == 0) {
				x++;
				continue;
			}
			/* a run of one style, up to 12 glyphs, spaces inside names kept */
			while (n < 12 && x + n < c->cwid) {
				const struct scene3d_px *q = scene3d_at(c, y, x + n);

				if (q == NULL || q->owner || q->style != p->style || q->glyph[0] == '\0')
					break;
				if (strcmp(q->glyph, " ") == 0) {
					const struct scene3d_px *r = scene3d_at(c, y, x + n + 1);

					if (r == NULL || r->owner || r->style != p->style ||
					    r->glyph[0] == '\0' || strcmp(r->glyph, " ") == 0)
						break;
				}
				n++;
			}
			scene3d_item(c, y, x, n, (enum scene_style)p->style);
			x += n;
		}
	}
	free(seen);
}

void
scene3d_free(struct scene3d *s3)
{
	scene_free(&s3->sc);
	free(s3->faces);
	free(s3->edges);
	memset(s3, 0, sizeof *s3);
}

void
scene3d_build(struct scene3d *s3, const struct walk *w, int k, const struct scene_opts *opts,
              int turn)
{
	struct scene3d_ctx *c = calloc(1, sizeof *c);
	const struct walk_step *s = &w->steps[k];

	s3->sc.n = 0;
	s3->sc.height = s3->sc.width = 0;
	s3->sc.elided = s3->sc.oom = false;
	s3->nfaces = s3->nedges = 0;
	s3->covered = 0;
	s3->turn = ((turn % SCENE3D_TURNS) + SCENE3D_TURNS) % SCENE3D_TURNS;
	s3->unsupported = !scene3d_plan(s, turn, s3->axis);
	if (s3->unsupported) {
		snprintf(s3->caption, sizeof s3->caption,
		         "the 3D view draws ranks 1 to 4; this step has rank %d", s->view.rank);
		free(c);
		return;
	}
	if (c == NULL) {
		s3->sc.oom = true;
		return;
	}
	c->s3 = s3;
	c->w = w;
	c->k = k;
	c->opts = opts;
	c->g = opts->utf8 ? &scene3d_utf8 : &scene3d_ascii;
	scene3d_pick(c);
	s3->narrowed = false;
	if (scene3d_measure(c) && c->cwid > opts->width && !c->narrow) {
		/* a row too long for the width: elide the across axis too */
		c->narrow = s3->narrowed = true;
		free(c->px);
		scene3d_pick(c);
		scene3d_measure(c);
	}
	if (c->px == NULL) {
		s3->sc.oom = true;
		free(c);
		return;
	}
	for (int b = 0; b < c->npick[SCENE3D_BATCH]; b++) {
		int x0 = b * (c->block_w + 3);
		int64_t v = c->pick[SCENE3D_BATCH][b];

		if (v < 0) {
			scene3d_put_wide(c, c->top + c->face_h / 2, x0 + c->block_w / 2, c->g->col_gap,
			                 SCENE_ELLIPSIS);
			continue;
		}
		scene3d_block(c, x0, v);
	}
	/* depth edges last, and only through blank space */
	for (size_t i = 0; i < s3->nedges; i++) {
		const struct scene3d_edge *e = &s3->edges[i];

		for (int j = 1; j < e->y0 - e->y1; j++)
			if (scene3d_blank(c, e->y0 - j, e->x0 + j))
				scene3d_put(c, e->y0 - j, e->x0 + j, c->g->depth, SCENE_RULE);
	}
	scene3d_read(c);
	s3->sc.oom |= c->oom;
	s3->sc.height = c->ch;
	for (size_t i = 0; i < s3->sc.n; i++)
		if (s3->sc.items[i].x + s3->sc.items[i].width > s3->sc.width)
			s3->sc.width = s3->sc.items[i].x + s3->sc.items[i].width;
	free(c->px);
	free(c->boxes);
	free(c);
}

