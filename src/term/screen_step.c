/* screen_step.c - the step view: the grid of the current step (or its
 * cells on their way), the selected cell's lineage, the storage ribbon;
 * and the keys every lab view shares. */
#include "screen.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "print.h"
#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static void
screen_index_text(char *buf, size_t size, const int64_t *index, int rank)
{
	size_t used = (size_t)snprintf(buf, size, "[");

	for (int i = 0; i < rank && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? "," : "",
		                         (long long)index[i]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

/* Where label sits in step k as "[i,j,...]" and its storage offset, or
 * "not in view" when the step leaves the label out (a narrow, an index);
 * returns whether it is there. */
static bool
screen_where(const struct walk *w, int k, int64_t label, char *idx, size_t size, int64_t *off)
{
	int64_t index[LAYOUT_MAX_RANK];

	if (!walk_find(w, k, label, index, off)) {
		snprintf(idx, size, "%s", text_get("ui.notinview", "not in view"));
		return false;
	}
	screen_index_text(idx, size, index, w->steps[k].view.rank);
	return true;
}

/* The steps [*from, *to) a lineage of rows lines lists out of n, the
 * current one among them: rows in all, a line saying how many are left
 * out standing for each end that is cut. */
static void
screen_lineage_window(int step, int n, int rows, int *from, int *to)
{
	int shown = rows - 2;   /* steps listed when both ends are cut */

	if (shown < 1)
		shown = 1;
	*from = step - shown / 2;
	if (*from <= 1) {
		*from = 0;
		*to = rows - 1;
	} else if (*from + shown >= n - 1) {
		*to = n;
		*from = n - (rows - 1);
	} else {
		*to = *from + shown;
	}
}

/* The line in place of count steps a short lineage leaves out: one line. */
static int
screen_lineage_more(const struct tui *t, int y, int x, int w, int count, const char *fmt)
{
	char buf[128];

	snprintf(buf, sizeof buf, fmt, paint_glyphs(t)->vdots, count, count == 1 ? "" : "s");
	paint_put(y, x + 2, w - 2, A_NORMAL, 0, buf);
	return 1;
}

/* The selected cell's index at every step, the current one marked; a
 * lineage shorter than the walk lists the steps around the current one. */
static void
screen_lineage_draw(const struct tui *t, int y, int x, int w)
{
	const struct lab *lab = &t->lab;
	const struct walk *wk = lab_walk(lab);
	int64_t head, off;
	char buf[256], idx[128];

	int rows = lab->frame.lineage_h - 3, from = 0, to = wk->nsteps;

	walk_label_origin(wk, lab->selected, NULL, NULL, &head);
	lab_words_label(lab, buf, sizeof buf);
	paint_put(y, x, w, A_BOLD, paint_head_pair(t, head), buf);
	y++;
	if (lab->frame.lineage_h > 0 && rows < wk->nsteps)
		screen_lineage_window(lab->step, wk->nsteps, rows, &from, &to);
	if (from > 0)
		y += screen_lineage_more(t, y, x, w, from, text_fmt("ui.lineage.earlier",
		                         "%s %d earlier step%s (Left shows them)"));
	for (int k = from; k < to; k++, y++) {
		bool cur = k == lab->step;

		char name[64];

		lab_words_pad(name, sizeof name, facts_step_word(wk, k), lab_words_step_width(wk));
		if (screen_where(wk, k, lab->selected, idx, sizeof idx, &off))
			snprintf(buf, sizeof buf, "%s %s %-14s @%lld", cur ? paint_glyphs(t)->marker : " ",
			         name, idx, (long long)off);
		else
			snprintf(buf, sizeof buf, "%s %s %s", cur ? paint_glyphs(t)->marker : " ", name, idx);
		paint_put(y, x, w, cur ? A_BOLD : A_NORMAL, 0, buf);
	}
	if (to < wk->nsteps)
		y += screen_lineage_more(t, y, x, w, wk->nsteps - to,
		                         text_fmt("ui.lineage.later",
		                                  "%s %d later step%s (Right shows them)"));
	if (screen_where(wk, lab->step, lab->selected, idx, sizeof idx, &off))
		snprintf(buf, sizeof buf, text_fmt("ui.here", "here at %s, storage offset %lld"), idx,
		         (long long)off);
	else
		snprintf(buf, sizeof buf, "%s", idx);
	paint_put(y + 1, x, w, A_NORMAL, 0, buf);
}

/* The lineage in two lines, for screens where the grid needs the room. */
static void
screen_lineage_compact_draw(const struct tui *t, int y, int x, int w)
{
	const struct lab *lab = &t->lab;
	const struct walk *wk = lab_walk(lab);
	int64_t head, off;
	char buf[256], idx[128];
	int cx = x;
	bool here = screen_where(wk, lab->step, lab->selected, idx, sizeof idx, &off);

	walk_label_origin(wk, lab->selected, NULL, NULL, &head);
	lab_words_label(lab, buf, sizeof buf);
	cx += paint_put(y, cx, w, A_BOLD, paint_head_pair(t, head), buf);
	if (here)
		snprintf(buf, sizeof buf, text_fmt("ui.here", "here at %s, storage offset %lld"), idx,
		         (long long)off);
	else
		snprintf(buf, sizeof buf, "%s", idx);
	cx += 2;
	paint_put(y, cx, w - (cx - x), A_NORMAL, 0, buf);
	cx = x;
	for (int k = 0; k < wk->nsteps && cx < x + w; k++) {
		screen_where(wk, k, lab->selected, idx, sizeof idx, &off);
		if (k)
			cx += paint_put(y + 1, cx, w - (cx - x), A_NORMAL, 0, paint_glyphs(t)->step_sep);
		cx += paint_put(y + 1, cx, w - (cx - x), k == lab->step ? A_REVERSE | A_BOLD : A_NORMAL,
		                0, idx);
	}
}

/* What the marks on the grid mean: a head-mate and a position-mate of the
 * selection, each drawn as the grid marks it, then in words. */
static void
screen_legend_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;
	const struct scene_item *mate[2] = { NULL, NULL }, *sel = NULL;
	int y = f->legend_y;

	for (size_t i = 0; i < lab->scene.n; i++) {
		const struct scene_item *it = &lab->scene.items[i];

		if (it->style != SCENE_CELL)
			continue;
		if (it->mark & SCENE_MARK_SELECTED)
			sel = it;
		else if ((it->mark & SCENE_MARK_HEADMATE) && mate[0] == NULL)
			mate[0] = it;
		else if ((it->mark & SCENE_MARK_POSMATE) && !(it->mark & SCENE_MARK_HEADMATE) &&
		         mate[1] == NULL)
			mate[1] = it;
	}
	for (int m = 0; m < 2 && sel; m++) {
		char buf[200];
		const char *p = sel->text;
		int w;

		if (mate[m] == NULL)
			continue;
		while (*p == ' ')
			p++;
		snprintf(buf, sizeof buf, m == 0 ? text_fmt("ui.legend.head", "same position and head as %s")
		                                 : text_fmt("ui.legend.pos", "same position, other head"), p);
		w = paint_mark_swatch(t, mate[m], y, f->legend_x + 2);
		paint_put(y, f->legend_x + 2 + w + 1, f->legend_w - w - 3, A_NORMAL, 0, buf);
		y++;
	}
}

/* The storage ribbon under the grid: the slots the step reads, in order. */
static void
screen_ribbon_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;
	const struct walk *wk = lab_walk(lab);
	const struct walk_step *s = &wk->steps[lab->step];
	char buf[256], strides[200];

	print_format_strides(strides, sizeof strides, s);
	snprintf(buf, sizeof buf, text_fmt("ui.ribbon", "storage %d%s  strides %s  offset %lld  %s"),
	         s->storage, s->storage ? text_get("ui.acopy", " (a copy)") : text_get("ui.xs", " (x's own)"),
	         strides, (long long)s->view.offset, screen_effect(wk, lab->step));
	if (scene_text_width(buf) > f->ribbon_w) {
		/* the effect is on the caption's code line too: drop it here
		 * rather than cut it, and mark any cut that is left */
		char fit[256];

		snprintf(fit, sizeof fit, text_fmt("ui.ribbon", "storage %d%s  strides %s  offset %lld  %s"),
		         s->storage, s->storage ? text_get("ui.acopy", " (a copy)") : text_get("ui.xs", " (x's own)"),
		         strides, (long long)s->view.offset, "");
		utf8_fit_ellipsis(buf, sizeof buf, fit, f->ribbon_w, !lab->utf8);
	}
	paint_put(f->ribbon_y, f->ribbon_x, f->ribbon_w, s->copied ? A_BOLD : A_NORMAL, 0, buf);
	if (f->ribbon_moving)
		paint_moves(t, &lab->ribbon_moves, &f->ribbon.clip);
	else
		paint_scene(t, &lab->ribbon, &f->ribbon, f->ribbon_cells);
}

/* A grid cut at the top or the bottom: the panel's headers kept over the
 * rows (frame.head), and a ⋮ left of the first and last rows shown when
 * more lie above or below. */
static void
screen_step_cut_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;
	const struct lab_rect *g = &f->grid;
	const char *more = lab->utf8 ? "\u22ee" : ":";

	if (f->head_h > 0) {
		paint_fill(g->y, g->x, g->w, f->head_h, A_NORMAL, 0);
		paint_scene(t, &lab->scene, &f->head, false);
	}
	if (g->x < 1 || g->h <= 0)
		return;
	if (f->head_h > 0 || lab->scroll_y > 0)
		paint_put(g->y + f->head_h, g->x - 1, 1, A_BOLD, 0, more);
	if (lab->scroll_y + g->h < lab->scene.height)
		paint_put(g->y + g->h - 1, g->x - 1, 1, A_BOLD, 0, more);
}

void
screen_step_body_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;

	if (f->block) {
		screen_3d_draw(t);
	} else if (lab->glide.moving) {
		/* while a move is on, its frame is the whole picture: never the new
		 * scene's chrome over cells still on their way */
		paint_moves(t, &lab->glide.plan, &f->main.clip);
	} else {
		paint_scene(t, &lab->scene, &f->main, true);
		screen_step_cut_draw(t);
	}
	if (f->lineage_w > 0 && !f->lineage_compact)
		screen_lineage_draw(t, f->lineage_y, f->lineage_x, f->lineage_w);
	if (f->legend_w > 0)
		screen_legend_draw(t);
	if (f->ribbon_w > 0)
		screen_ribbon_draw(t);
	if (f->lineage_w > 0 && f->lineage_compact)
		screen_lineage_compact_draw(t, f->lineage_y, f->lineage_x, f->lineage_w);
}

static void
screen_step_draw(const struct tui *t)
{
	screen_caption_draw(t);  /* in presenter mode the code and shape only */
	if (t->lab.frame.draw_main)
		screen_step_body_draw(t);
}

int
screen_lab_key(struct tui *t, const struct keys_event *ev)
{
	/* a digit is typed towards a label, unless it is a key of its own
	 * (3) and nothing is typed yet */
	if (ev->key >= '0' && ev->key <= '9' &&
	    (t->lab.typed[0] != '\0' || keys_action(KEYS_LAB, ev->key) == LAB_NONE)) {
		lab_digit(&t->lab, ev->key - '0');
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	return screen_act(t, ev, keys_action(KEYS_LAB, ev->key));
}

int
screen_act(struct tui *t, const struct keys_event *ev, enum lab_action a)
{
	if (a == LAB_CLICK) {
		t->lab.click_y = ev->y;
		t->lab.click_x = ev->x;
	}
	if (a == LAB_REDRAW)
		clearok(curscr, TRUE);
	lab_act(&t->lab, a);
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_step = { "step", screen_step_draw, screen_lab_key, NULL, NULL };
