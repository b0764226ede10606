/* scene.c - lay out one step of a walk as panels of labelled cells.
 *
 * A step is drawn by the meaning of its axes: the last axis runs across, the
 * one before it runs down, and [.., H, d] is drawn as H groups of d columns.
 * Outer axes become panels: the innermost of them side by side (wrapping to
 * the width), the others stacked.  Long axes are elided numpy-style. */
#include "scene.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "utf8.h"
#include "text.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#include "bugs.h"

#define SCENE_MAX_COLUMNS 2048  /* a whole axis of a small step, or an elided grid */

/* How a step's axes map onto the screen. */
struct scene_plan {
	int row_axis;           /* runs down; -1 for rank 1 */
	int col_axis;           /* runs across */
	int group_axis;         /* H in [.., H, d]: column groups; -1 if none */
	int64_t group_size;     /* D grouped by head width: d; 0 if not */
	int npanel;
	int panel_axes[LAYOUT_MAX_RANK];
};

/* One column of a panel: which cell index it shows, or a gap. */
struct scene_column {
	bool gap;
	int64_t group;          /* head group of the column, -1 if ungrouped */
	int64_t group_index;    /* index along group_axis */
	int64_t index;          /* index along col_axis */
	int x;                  /* column of the cell text within the panel */
};

struct scene_ctx {
	struct scene *sc;
	const struct walk *w;
	int k;
	const struct scene_opts *opts;
	struct scene_plan plan;
	bool elide;
	int numw, tagw, cw;     /* label digits, tag letters, cell box width */
	int cell_h, pitch;      /* lines per cell box, and per row of cells */
	const char *rule, *hgap, *vgap, *dot;
	int gapw;
	struct scene_column cols[SCENE_MAX_COLUMNS];
	int ncols;
	int64_t rows[SCENE_MAX_PICK];
	int nrows;
	int row_label_w;        /* columns before the first rule */
	int panel_w, panel_h, header_h;
	int panel_step;         /* columns from one side-by-side panel to the next: the
	                         * panel or its title ("b 0 · c 0 · h 0"), if wider */
};

void
scene_opts_default(struct scene_opts *opts)
{
	memset(opts, 0, sizeof *opts);
	opts->width = 80;
	opts->edge = 3;
	opts->elide_over = 1000;
	opts->selected = -1;
	opts->cell_h = 1;
}

void
scene_free(struct scene *sc)
{
	free(sc->items);
	memset(sc, 0, sizeof *sc);
}

int
scene_text_width(const char *s)
{
	return utf8_width(s);
}

static int
scene_digits(int64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void
scene_head_tag(int64_t head, char *buf, size_t size)
{
	char tmp[16];
	int n = 0;

	/* bijective base 26: a..z, aa..zz, aaa.. */
	head++;
	while (head > 0 && n < (int)sizeof tmp) {
		head--;
		tmp[n++] = (char)('a' + head % 26);
		head /= 26;
	}
	if (size == 0)
		return;
	for (int i = 0; i < n && (size_t)i + 1 < size; i++)
		buf[i] = tmp[n - 1 - i];
	buf[(size_t)n < size ? (size_t)n : size - 1] = '\0';
}

void
scene_format_shape(const struct walk_step *s, char *buf, size_t size)
{
	char names[64] = "", sizes[160];
	size_t used = 0;

	for (int i = 0; i < s->view.rank && used < sizeof names; i++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
		                         i ? "," : "", s->axes[i]);
	walk_format_list(sizes, sizeof sizes, s->view.shape, s->view.rank);
	snprintf(buf, size, "[%s] = [%s]", names, sizes);
}

int
scene_axis_pick(int64_t n, int edge, bool elide, int64_t focus, int64_t *out)
{
	int64_t keep[SCENE_MAX_PICK];
	int nk = 0, count = 0;

	if (edge < 1)
		edge = 1;
	if (edge > SCENE_MAX_EDGE)
		edge = SCENE_MAX_EDGE;
	if (!elide || n <= 2 * (int64_t)edge + 1) {
		/* small enough to show whole; callers elide anything large */
		for (int64_t i = 0; i < n && i < SCENE_MAX_PICK; i++)
			out[count++] = i;
		return count;
	}
	for (int i = 0; i < edge; i++)
		keep[nk++] = i;
	if (focus >= 0 && focus < n)
		for (int64_t i = focus - 1; i <= focus + 1; i++)
			if (i >= edge && i < n - edge)
				keep[nk++] = i;
	for (int i = edge; i > 0; i--)
		keep[nk++] = n - i;
	for (int i = 0; i < nk; i++) {
		if (i > 0 && keep[i] != keep[i - 1] + 1)
			out[count++] = -1;
		out[count++] = keep[i];
	}
	return count;
}

struct scene_item *
scene_item_new(struct scene *sc)
{
	struct scene_item *it;

	if (sc->n == sc->cap) {
		size_t cap = sc->cap ? sc->cap * 2 : 256;
		struct scene_item *items = realloc(sc->items, cap * sizeof *items);

		if (items == NULL) {
			sc->oom = true;
			return NULL;
		}
		sc->items = items;
		sc->cap = cap;
	}
	it = &sc->items[sc->n++];
	memset(it, 0, sizeof *it);
	it->label = -1;
	it->head = -1;
	it->group = -1;
	it->height = 1;
	return it;
}

struct scene_item *
scene_item_add(struct scene *sc, int y, int x, enum scene_style style, const char *text)
{
	struct scene_item *it = scene_item_new(sc);
	size_t n;

	if (it == NULL)
		return NULL;
	it->y = y;
	it->x = x;
	it->style = style;
	/* snprintf's "%s" cut, without its cost (it runs for every cell) */
	n = strlen(text);
	if (n >= sizeof it->text)
		n = sizeof it->text - 1;
	memcpy(it->text, text, n);
	it->text[n] = '\0';
	it->width = scene_text_width(it->text);
	if (y + 1 > sc->height)
		sc->height = y + 1;
	if (x + it->width > sc->width)
		sc->width = x + it->width;
	return it;
}

bool
scene_item_copy(struct scene *sc, const struct scene_item *it, int y, int x)
{
	struct scene_item *n = scene_item_new(sc);

	if (n == NULL)
		return false;
	*n = *it;
	n->y = y;
	n->x = x;
	if (y + it->height > sc->height)
		sc->height = y + it->height;
	if (x + it->width > sc->width)
		sc->width = x + it->width;
	return true;
}

static struct scene_item *
scene_add(struct scene_ctx *c, int y, int x, enum scene_style style, const char *text)
{
	return scene_item_add(c->sc, y, x, style, text);
}

static void
scene_plan_step(struct scene_ctx *c)
{
	const struct walk_step *s = &c->w->steps[c->k];
	struct scene_plan *p = &c->plan;
	int r = s->view.rank, first;

	memset(p, 0, sizeof *p);
	p->col_axis = r - 1;
	p->group_axis = -1;
	p->row_axis = r - 2;
	if (r >= 3 && strcasecmp(s->axes[r - 2], "H") == 0 && strcmp(s->axes[r - 1], "d") == 0) {
		p->group_axis = r - 2;
		p->row_axis = r - 3;
	}
	if (strcmp(s->axes[r - 1], "D") == 0)
		p->group_size = c->w->head_width;
	first = p->row_axis >= 0 ? p->row_axis : p->group_axis >= 0 ? p->group_axis : p->col_axis;
	for (int i = 0; i < first; i++)
		p->panel_axes[p->npanel++] = i;
}

static int64_t
scene_focus(const struct scene_ctx *c, int axis)
{
	return c->opts->has_focus && axis >= 0 ? c->opts->focus[axis] : -1;
}

/* Work out the columns, rows and sizes every panel of the step shares. */
static void
scene_measure(struct scene_ctx *c)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const struct scene_plan *p = &c->plan;
	int64_t inner[SCENE_MAX_PICK], outer[SCENE_MAX_PICK];
	int ninner, nouter = 1, x, rows_n;
	char tag[16];
	int64_t prev_group = -2;

	/* H groups of d columns multiply: keep fewer of each when eliding */
	ninner = scene_axis_pick(s->view.shape[p->col_axis],
	                         p->group_axis >= 0 ? 1 : c->opts->edge, c->elide,
	                         scene_focus(c, p->col_axis), inner);
	if (p->group_axis >= 0)
		nouter = scene_axis_pick(s->view.shape[p->group_axis],
		                         c->opts->edge > 2 ? 2 : c->opts->edge, c->elide,
		                         scene_focus(c, p->group_axis), outer);
	else
		outer[0] = 0;
	c->ncols = 0;
	for (int g = 0; g < nouter && c->ncols < SCENE_MAX_COLUMNS; g++) {
		if (outer[g] < 0) {
			c->cols[c->ncols++] = (struct scene_column){ .gap = true, .group = -1 };
			continue;
		}
		for (int i = 0; i < ninner && c->ncols < SCENE_MAX_COLUMNS; i++) {
			struct scene_column *col = &c->cols[c->ncols++];

			memset(col, 0, sizeof *col);
			col->gap = inner[i] < 0;
			col->index = inner[i];
			col->group_index = outer[g];
			if (p->group_axis >= 0)
				col->group = outer[g];
			else if (p->group_size > 0 && !col->gap)
				col->group = inner[i] / p->group_size;
			else
				col->group = -1;
		}
	}
	if (p->row_axis >= 0) {
		c->nrows = scene_axis_pick(s->view.shape[p->row_axis], c->opts->edge,
		                           c->elide, scene_focus(c, p->row_axis), c->rows);
		rows_n = (int)strlen(s->axes[p->row_axis]) + 1 +
		         scene_digits(s->view.shape[p->row_axis] - 1);
	} else {
		c->nrows = 1;
		c->rows[0] = 0;
		rows_n = 0;
	}
	c->numw = scene_digits(walk_numel(c->w) - 1);
	if (c->numw < 2)
		c->numw = 2;
	scene_head_tag(c->w->heads - 1, tag, sizeof tag);
	c->tagw = (int)strlen(tag);
	c->cw = c->numw + c->tagw + c->opts->cell_pad;
	c->cell_h = c->opts->cell_h > 1 ? c->opts->cell_h : 1;
	c->pitch = c->cell_h > 1 ? c->cell_h + 1 : 1;
	c->row_label_w = rows_n;
	if ((int)strlen(s->axes[p->col_axis]) > c->row_label_w)
		c->row_label_w = (int)strlen(s->axes[p->col_axis]);

	/* "T 0 │  0a  1a │  2b  3b │": rule, then " cell" per column, a
	 * rule between head groups and one at the end */
	x = c->row_label_w + 1 + 1;
	for (int i = 0; i < c->ncols; i++) {
		struct scene_column *col = &c->cols[i];

		if (col->gap) {
			x += 1;
			col->x = x;
			x += c->gapw;
			continue;
		}
		if (prev_group != -2 && col->group != prev_group)
			x += 2;
		prev_group = col->group;
		x += 1;
		col->x = x;
		x += c->cw;
	}
	c->panel_w = x + 2;
	c->panel_step = 0;
	for (int i = 0; i < p->npanel; i++) {
		int a = p->panel_axes[i];

		c->panel_step += (i ? scene_text_width(c->dot) : 0) + (int)strlen(s->axes[a]) + 1 +
		                 scene_digits(s->view.shape[a] - 1);
	}
	if (c->panel_step < c->panel_w)
		c->panel_step = c->panel_w;
	/* A panelled step always has the head-group line (blank when it has no
	 * column groups), so that [B,T,H,d] and [B,H,T,d] put their rows on
	 * the same lines and a step between them moves cells only sideways. */
	c->header_h = (c->plan.npanel > 0) +
	              (p->group_axis >= 0 || p->group_size > 0 || c->plan.npanel > 0) + 1;
	c->panel_h = c->header_h + c->nrows * c->pitch;
}

static void
scene_cell(struct scene_ctx *c, int y, int x, int y0, int x0, const int64_t *index)
{
	const struct walk *w = c->w;
	int64_t label = walk_label_at(w, c->k, index);
	int64_t b, t, h, sb, st, sh;
	char text[40], tag[16];
	struct scene_item *it;

	walk_label_origin(w, label, &b, &t, &h);
	scene_head_tag(h, tag, sizeof tag);
	if (c->opts->hide_labels)
		/* a question's layout: the cell is there, what it holds is not */
		snprintf(text, sizeof text, "%*s%-*s", c->numw, "?", c->tagw, "");
	else
		snprintf(text, sizeof text, "%*lld%-*s", c->numw, (long long)label, c->tagw, tag);
	it = scene_add(c, y, x, SCENE_CELL, text);
	if (it == NULL)
		return;
	it->label = label;
	it->head = c->opts->hide_labels ? -1 : h;
	it->panel_y = y0;
	it->panel_x = x0;
	it->width = c->cw;
	it->height = c->cell_h;
	if (y + c->cell_h > c->sc->height)
		c->sc->height = y + c->cell_h;
	if (x + c->cw > c->sc->width)
		c->sc->width = x + c->cw;
	if (c->opts->lit && c->opts->lit(c->opts->lit_ctx, label))
		it->mark |= SCENE_MARK_LIT;
	if (c->opts->wrong && c->opts->wrong(c->opts->lit_ctx, label))
		it->mark |= SCENE_MARK_WRONG;
	if (c->opts->compare && c->opts->compare_step < c->opts->compare->nsteps &&
	    bugs_cell_differs(w, c->k, c->opts->compare, c->opts->compare_step, index))
		it->mark |= SCENE_MARK_WRONG;
	if (c->opts->hide_labels) {
		if (label == c->opts->selected)
			it->mark |= SCENE_MARK_SELECTED;
	} else if (c->opts->selected >= 0 && c->opts->selected < walk_numel(w)) {
		walk_label_origin(w, c->opts->selected, &sb, &st, &sh);
		if (label == c->opts->selected)
			it->mark |= SCENE_MARK_SELECTED;
		else if (b == sb && t == st && h == sh)
			it->mark |= SCENE_MARK_HEADMATE;
		else if (b == sb && t == st)
			it->mark |= SCENE_MARK_POSMATE;
	}
}

/* The panel's title: the axes it stands for and their indices ("B 0 · H 1"). */
static void
scene_panel_title(struct scene_ctx *c, int y, int x0, const int64_t *index)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const struct scene_plan *p = &c->plan;
	char buf[96];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->npanel && used < sizeof buf; i++) {
		int a = p->panel_axes[i];

		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %lld",
		                         i ? c->dot : "", s->axes[a], (long long)index[a]);
	}
	scene_add(c, y, x0, SCENE_TITLE, buf);
}

/* Each run of columns of one head group named above it (not on a
 * question's layout: which head a column feeds is what it asks); where a
 * name does not fit, its number alone, and the line says what it counts. */
static void
scene_panel_groups(struct scene_ctx *c, int y, int x0)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const struct scene_plan *p = &c->plan;
	bool bare = false;      /* some head's title is its number alone */
	char buf[96];

	for (int i = 0; i < c->ncols; i++) {
		struct scene_item *it;
		int j = i, room;
		bool seen = false;

		for (int k = 0; k < i; k++)
			if (!c->cols[k].gap && c->cols[k].group == c->cols[i].group)
				seen = true;
		if (c->cols[i].gap || seen)
			continue;
		/* the run spans gaps inside the group, up to its last column */
		for (int k = i + 1; k < c->ncols; k++)
			if (!c->cols[k].gap && c->cols[k].group == c->cols[i].group)
				j = k;
		room = c->cols[j].x + c->cw - c->cols[i].x;
		if (p->group_axis >= 0)
			snprintf(buf, sizeof buf, "%s %lld", s->axes[p->group_axis],
			         (long long)c->cols[i].group);
		else
			snprintf(buf, sizeof buf, text_fmt("ui.head", "head %lld"), (long long)c->cols[i].group);
		if (scene_text_width(buf) > room) {
			snprintf(buf, sizeof buf, "%lld", (long long)c->cols[i].group);
			bare = p->group_axis < 0;
		}
		it = scene_add(c, y, x0 + c->cols[i].x, SCENE_TITLE, buf);
		if (it)
			it->group = (int)c->cols[i].group;
	}
	if (bare && c->ncols > 0) {
		/* numbers alone: the line says what they count, right under the
		 * row labels as the axis name under it is, or up to a blank
		 * before the first number */
		const char *word = text_get("ui.head.row", "head");
		int w = scene_text_width(word), at = w > c->row_label_w ? w : c->row_label_w;

		if (at <= c->cols[0].x - 1) {
			snprintf(buf, sizeof buf, "%*s%s", at - w, "", word);
			scene_add(c, y, x0, SCENE_AXIS, buf);
		}
	}
}

/* The column header: the axis name, then each column's index. */
static void
scene_panel_columns(struct scene_ctx *c, int y, int x0)
{
	const struct walk_step *s = &c->w->steps[c->k];
	char buf[96];

	snprintf(buf, sizeof buf, "%*s", c->row_label_w, s->axes[c->plan.col_axis]);
	scene_add(c, y, x0, SCENE_AXIS, buf);
	for (int i = 0; i < c->ncols; i++) {
		const struct scene_column *col = &c->cols[i];

		if (col->gap) {
			scene_add(c, y, x0 + col->x, SCENE_ELLIPSIS, c->hgap);
			continue;
		}
		snprintf(buf, sizeof buf, "%*lld", c->numw + c->opts->cell_pad / 2, (long long)col->index);
		scene_add(c, y, x0 + col->x, SCENE_PLAIN, buf);
	}
}

/* A rule down column x0 + x for the lines of row r at y (into the gap below
 * it too, but for the last row); group >= 0: the rule before that group. */
static void
scene_panel_rule(struct scene_ctx *c, int r, int y, int x, int64_t group)
{
	for (int line = 0; line < c->pitch; line++)
		if (line < c->cell_h || r + 1 < c->nrows) {
			struct scene_item *it = scene_add(c, y + line, x, SCENE_RULE, c->rule);

			if (it && group >= 0)
				it->group = (int)group;
		}
}

/* Row r of the panel at line y: its label, the rules and its cells
 * (index is filled in as each cell is reached). */
static void
scene_panel_row(struct scene_ctx *c, int r, int y, int y0, int x0, int64_t *index)
{
	const struct walk_step *s = &c->w->steps[c->k];
	const struct scene_plan *p = &c->plan;
	int64_t prev_group = -2;
	int mid = y + (c->cell_h - 1) / 2;
	char buf[96];

	if (c->rows[r] < 0) {
		scene_add(c, mid, x0 + c->row_label_w - 1, SCENE_ELLIPSIS, c->vgap);
		scene_add(c, mid, x0 + c->cols[0].x + c->cw - c->tagw - 1, SCENE_ELLIPSIS, c->vgap);
		return;
	}
	if (p->row_axis >= 0) {
		int nw = c->row_label_w - (int)strlen(s->axes[p->row_axis]) - 1;

		snprintf(buf, sizeof buf, "%s", s->axes[p->row_axis]);
		scene_add(c, mid, x0, SCENE_AXIS, buf);
		snprintf(buf, sizeof buf, "%*lld", nw, (long long)c->rows[r]);
		scene_add(c, mid, x0 + c->row_label_w - nw, SCENE_PLAIN, buf);
		index[p->row_axis] = c->rows[r];
	}
	scene_panel_rule(c, r, y, x0 + c->row_label_w + 1, -1);
	for (int i = 0; i < c->ncols; i++) {
		const struct scene_column *col = &c->cols[i];

		if (col->gap) {
			scene_add(c, mid, x0 + col->x, SCENE_ELLIPSIS, c->hgap);
			continue;
		}
		if (prev_group != -2 && col->group != prev_group)
			scene_panel_rule(c, r, y, x0 + col->x - 2, col->group);
		prev_group = col->group;
		if (p->group_axis >= 0)
			index[p->group_axis] = col->group_index;
		index[p->col_axis] = col->index;
		scene_cell(c, y, x0 + col->x, y0, x0, index);
	}
	scene_panel_rule(c, r, y, x0 + c->panel_w - 1, -1);
}

/* Draw one panel with its top-left at (y0, x0); index holds the panel axes. */
static void
scene_panel(struct scene_ctx *c, int y0, int x0, int64_t *index)
{
	const struct scene_plan *p = &c->plan;
	bool grouped = p->group_axis >= 0 || p->group_size > 0;
	int y = y0;

	if (p->npanel > 0)
		scene_panel_title(c, y++, x0, index);
	if (grouped && !c->opts->hide_labels)
		scene_panel_groups(c, y, x0);
	if (grouped || p->npanel > 0)
		y++;    /* the head-group line, blank without groups (see header_h) */
	scene_panel_columns(c, y++, x0);
	for (int r = 0; r < c->nrows; r++, y += c->pitch)
		scene_panel_row(c, r, y, y0, x0, index);
}

void
scene_build(struct scene *sc, const struct walk *w, int k, const struct scene_opts *opts)
{
	struct scene_ctx *c = calloc(1, sizeof *c);
	const struct walk_step *s = &w->steps[k];
	int64_t picks[LAYOUT_MAX_RANK][SCENE_MAX_PICK];
	int npick[LAYOUT_MAX_RANK], pos[LAYOUT_MAX_RANK];
	int64_t index[LAYOUT_MAX_RANK] = { 0 };
	int nv, npanel, y = 0;

	sc->n = 0;
	sc->height = sc->width = 0;
	sc->elided = false;
	sc->oom = false;
	if (c == NULL) {
		sc->oom = true;
		return;
	}
	c->sc = sc;
	c->w = w;
	c->k = k;
	c->opts = opts;
	/* beyond a few thousand cells nothing could be read anyway */
	c->elide = layout_numel(&s->view) > opts->elide_over ||
	           layout_numel(&s->view) > 4096;
	for (int i = 0; i < s->view.rank; i++)
		if (s->view.shape[i] > SCENE_MAX_PICK)
			c->elide = true; /* an axis too long to show whole */
	sc->elided = c->elide;
	c->rule = opts->utf8 ? "\u2502" : "|";
	c->hgap = opts->utf8 ? "\u2026" : "...";
	c->vgap = opts->utf8 ? "\u22ee" : ":";
	c->dot = opts->utf8 ? " \u00b7 " : ", ";
	c->gapw = opts->utf8 ? 1 : 3;
	scene_plan_step(c);
	scene_measure(c);
	npanel = c->plan.npanel;        /* fixed from here on */
	assert(npanel >= 0 && npanel <= LAYOUT_MAX_RANK);

	for (int i = 0; i < npanel; i++) {
		int a = c->plan.panel_axes[i];

		npick[i] = scene_axis_pick(s->view.shape[a], opts->edge, c->elide,
		                           scene_focus(c, a), picks[i]);
		pos[i] = 0;
	}
	/* The innermost panel axis flows across (unless it is the batch,
	 * which always stacks); the others stack blocks. */
	nv = npanel;
	if (nv > 0 && strcasecmp(s->axes[c->plan.panel_axes[nv - 1]], "B") != 0)
		nv--;
	for (;;) {
		bool gap = false, first_of_gap = true;

		for (int i = 0; i < nv; i++) {
			if (picks[i][pos[i]] < 0) {
				gap = true;
				for (int j = i + 1; j < nv; j++)
					if (pos[j] != 0)
						first_of_gap = false;
				break;
			}
			index[c->plan.panel_axes[i]] = picks[i][pos[i]];
		}
		if (gap) {
			if (first_of_gap)
				scene_add(c, y++, 0, SCENE_ELLIPSIS, c->vgap);
		} else {
			int x = 0, line_h = 0;
			bool across = nv < npanel;
			int nh = across ? npick[nv] : 1;

			for (int h = 0; h < nh; h++) {
				if (across) {
					int64_t v = picks[nv][h];

					if (v < 0) {
						scene_add(c, y + c->header_h, x, SCENE_ELLIPSIS, c->hgap);
						x += c->gapw + 3;
						continue;
					}
					index[c->plan.panel_axes[nv]] = v;
				}
				if (x > 0 && x + c->panel_step > opts->width) {
					y += line_h + 1;
					x = 0;
				}
				scene_panel(c, y, x, index);
				x += c->panel_step + 3;
				if (c->panel_h > line_h)
					line_h = c->panel_h;
			}
			y += line_h + 1;
		}
		/* advance the odometer over the stacked axes */
		int i = nv - 1;

		while (i >= 0 && ++pos[i] == npick[i])
			pos[i--] = 0;
		if (i < 0)
			break;
	}
	free(c);
}

const struct scene_item *
scene_cell_at(const struct scene *sc, int y, int x)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_CELL && y >= it->y && y < it->y + it->height &&
		    x >= it->x - 1 && x < it->x + it->width)
			return it;
	}
	return NULL;
}

const struct scene_item *
scene_find_label(const struct scene *sc, int64_t label)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && sc->items[i].label == label)
			return &sc->items[i];
	return NULL;
}

const struct scene_item *
scene_neighbour(const struct scene *sc, const struct scene_item *from, int dy, int dx)
{
	const struct scene_item *best = NULL;
	long best_cost = 0;

	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		long along, across, cost;

		if (it->style != SCENE_CELL || it == from)
			continue;
		if (dx != 0) {
			if (it->y != from->y || (it->x - from->x) * dx <= 0)
				continue;
			along = labs((long)(it->x - from->x));
			across = 0;
		} else {
			if ((it->y - from->y) * dy <= 0)
				continue;
			along = labs((long)(it->y - from->y));
			across = labs((long)(it->x - from->x));
		}
		/* nearest line first, then nearest column on it */
		cost = along * 100000 + across;
		if (best == NULL || cost < best_cost) {
			best = it;
			best_cost = cost;
		}
	}
	return best;
}

void
scene_build_ribbon(struct scene *sc, const struct walk *w, int k, const struct scene_opts *opts)
{
	struct scene_ctx *c = calloc(1, sizeof *c);
	const struct walk_step *s = &w->steps[k];
	int64_t n = walk_storage_numel(w, s->storage), pick[SCENE_MAX_PICK], focus = -1;
	int np, edge, x, label_w;
	char buf[64], tag[16];

	sc->n = 0;
	sc->height = sc->width = 0;
	sc->elided = false;
	sc->oom = c == NULL;
	if (c == NULL)
		return;
	c->sc = sc;
	c->w = w;
	c->k = k;
	c->opts = opts;
	/* slot numbers and labels share the column: the wider of the two */
	c->numw = scene_digits((n > walk_numel(w) ? n : walk_numel(w)) - 1);
	if (c->numw < 2)
		c->numw = 2;
	scene_head_tag(w->heads - 1, tag, sizeof tag);
	c->tagw = (int)strlen(tag);
	c->cw = c->numw + c->tagw;
	if (opts->selected >= 0 && opts->selected < n)
		focus = walk_storage_slot(w, s->storage, opts->selected);
	/* as many slots as the width holds: label, then the edges */
	label_w = 8;
	edge = (opts->width - label_w - 4) / (c->cw + 1);
	edge = (edge - 5) / 2;
	if (edge < 1)
		edge = 1;
	if (edge > SCENE_MAX_EDGE)
		edge = SCENE_MAX_EDGE;
	/* the whole storage when it fits the width */
	/* the whole storage when it fits the width; compared by division, as
	 * n * (cw + 1) overflows for storages near 2^63 slots */
	sc->elided = n > 2 * (int64_t)edge + 1 &&
	             n > ((int64_t)opts->width - label_w - 4) / (c->cw + 1);
	np = scene_axis_pick(n, edge, sc->elided, focus, pick);
	snprintf(buf, sizeof buf, "%s", opts->ribbon_title ? opts->ribbon_title : "storage");
	label_w = scene_text_width(buf) + 1 > label_w ? scene_text_width(buf) + 1 : label_w;
	scene_add(c, 0, 0, SCENE_AXIS, buf);
	snprintf(buf, sizeof buf, "%s", opts->ribbon_slot ? opts->ribbon_slot : "slot");
	scene_add(c, 1, label_w - 1 - scene_text_width(buf), SCENE_PLAIN, buf);
	x = label_w;
	scene_add(c, 0, x, SCENE_RULE, opts->utf8 ? "\u2502" : "|");
	for (int i = 0; i < np; i++) {
		struct scene_item *it;
		int64_t label, b, t, h;

		x += 1;
		if (pick[i] < 0) {
			scene_add(c, 0, x, SCENE_ELLIPSIS, opts->utf8 ? "\u2026" : "...");
			x += opts->utf8 ? 1 : 3;
			continue;
		}
		label = walk_storage_label(w, s->storage, pick[i]);
		walk_label_origin(w, label, &b, &t, &h);
		scene_head_tag(h, tag, sizeof tag);
		snprintf(buf, sizeof buf, "%*lld%-*s", c->numw, (long long)label, c->tagw, tag);
		it = scene_add(c, 0, x, SCENE_CELL, buf);
		if (it) {
			it->label = label;
			it->head = h;
			if (label == opts->selected)
				it->mark |= SCENE_MARK_SELECTED;
			if (opts->lit && opts->lit(opts->lit_ctx, label))
				it->mark |= SCENE_MARK_LIT;
		}
		snprintf(buf, sizeof buf, "%*lld", c->numw, (long long)pick[i]);
		scene_add(c, 1, x, SCENE_PLAIN, buf);
		x += c->cw;
	}
	scene_add(c, 0, x + 1, SCENE_RULE, opts->utf8 ? "\u2502" : "|");
	free(c);
}

void
scene_build_scores(struct scene *sc, const struct walk *w, const struct scene_opts *opts)
{
	struct scene_ctx *c = calloc(1, sizeof *c);
	int64_t heads[SCENE_MAX_PICK], rows[SCENE_MAX_PICK], cols[SCENE_MAX_PICK];
	int nh, nr, nc, numw, panel_w, x = 0, y = 0, line_h;
	char buf[96];
	struct scene_item *title;

	sc->n = 0;
	sc->height = sc->width = 0;
	sc->oom = c == NULL;
	if (c == NULL)
		return;
	c->sc = sc;
	c->w = w;
	c->opts = opts;
	sc->elided = w->positions > 2 * (int64_t)opts->edge + 1 || w->heads > 2 * (int64_t)opts->edge + 1;
	nh = scene_axis_pick(w->heads, opts->edge, sc->elided, -1, heads);
	nr = scene_axis_pick(w->positions, opts->edge, sc->elided, -1, rows);
	nc = nr;
	memcpy(cols, rows, sizeof cols);
	numw = scene_digits(w->positions - 1);
	if (numw < 2)
		numw = 2;
	if (numw > 20)
		numw = 20;
	/* "query 0 │ ..." rows; 8 columns of row label */
	panel_w = 8 + 2 + nc * (numw + 1) + 2;
	line_h = nr + 3;
	for (int i = 0; i < nh; i++) {
		if (heads[i] < 0) {
			scene_add(c, y + 2, x, SCENE_ELLIPSIS, opts->utf8 ? "\u2026" : "...");
			x += 5;
			continue;
		}
		if (x > 0 && x + panel_w > opts->width) {
			x = 0;
			y += line_h + 1;
		}
		snprintf(buf, sizeof buf, text_fmt("ui.head", "head %lld"), (long long)heads[i]);
		title = scene_add(c, y, x, SCENE_TITLE, buf);
		if (title)
			title->group = (int)heads[i];
		{
			const char *read = text_get("ui.scores.read", "read \u2192");
			int rw = utf8_width(read);

			snprintf(buf, sizeof buf, "%*s%s", rw < 8 ? 8 - rw : 0, "", read);
			scene_add(c, y + 1, x, SCENE_AXIS, buf);
		}
		for (int j = 0; j < nc; j++) {
			snprintf(buf, sizeof buf, "%*s", numw, "");
			if (cols[j] >= 0)
				snprintf(buf, sizeof buf, "%*lld", numw, (long long)cols[j]);
			else
				snprintf(buf, sizeof buf, "%*s", numw, opts->utf8 ? "\u2026" : ".");
			scene_add(c, y + 1, x + 10 + j * (numw + 1), SCENE_PLAIN, buf);
		}
		for (int r = 0; r < nr; r++) {
			int ly = y + 2 + r;

			if (rows[r] < 0) {
				scene_add(c, ly, x + 6, SCENE_ELLIPSIS, opts->utf8 ? "\u22ee" : ":");
				continue;
			}
			{
				const char *query = text_get("ui.scores.query", "query");
				int qw = utf8_width(query);

				snprintf(buf, sizeof buf, "%s%*s%*lld", query, qw < 6 ? 6 - qw : 1, "", numw,
				         (long long)rows[r]);
			}
			scene_add(c, ly, x, SCENE_AXIS, buf);
			scene_add(c, ly, x + 8 + numw - 2 + 1, SCENE_RULE, opts->utf8 ? "\u2502" : "|");
			for (int j = 0; j < nc; j++) {
				struct scene_item *it;
				bool masked = cols[j] > rows[r];

				if (cols[j] < 0) {
					scene_add(c, ly, x + 10 + j * (numw + 1) + numw - 1, SCENE_ELLIPSIS,
					          opts->utf8 ? "\u2026" : ".");
					continue;
				}
				/* one glyph, right-aligned under its column number */
				it = scene_add(c, ly, x + 10 + j * (numw + 1) + numw - 1,
				               masked ? SCENE_MASKED : SCENE_SCORE,
				               masked ? (opts->utf8 ? "\u00d7" : "x") : (opts->utf8 ? "\u25cf" : "o"));
				if (it)
					it->head = heads[i];
			}
		}
		x += panel_w + 3;
	}
	free(c);
}
