/* screen_step.c - the step view: the grid of the current step (or its
 * cells on their way), the selected cell's lineage, the storage ribbon;
 * and the keys every lab view shares. */
#include "screen.h"

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

static void
screen_label_words(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = lab_walk(lab);
	int64_t b, pos, head;

	walk_label_origin(w, lab->selected, &b, &pos, &head);
	snprintf(buf, size, text_fmt("ui.label", "label %lld: position %lld, head %lld"),
	         (long long)lab->selected, (long long)pos, (long long)head);
	if (w->batch > 1)
		snprintf(buf + strlen(buf), size - strlen(buf), text_fmt("ui.batch", ", batch %lld"),
		         (long long)b);
}

/* The selected cell's index at every step, the current one marked. */
static void
screen_lineage_draw(const struct tui *t, int y, int x, int w)
{
	const struct lab *lab = &t->lab;
	const struct walk *wk = lab_walk(lab);
	int64_t head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];

	walk_label_origin(wk, lab->selected, NULL, NULL, &head);
	screen_label_words(lab, buf, sizeof buf);
	paint_put(y, x, w, A_BOLD, paint_head_pair(t, head), buf);
	y++;
	for (int k = 0; k < wk->nsteps; k++, y++) {
		bool cur = k == lab->step;

		char name[64];

		walk_find(wk, k, lab->selected, index, &off);
		screen_index_text(idx, sizeof idx, index, wk->steps[k].view.rank);
		lab_words_pad(name, sizeof name, lab_words_step(wk, k), lab_words_step_width(wk));
		snprintf(buf, sizeof buf, "%s %s %-14s @%lld", cur ? paint_glyphs(t)->marker : " ",
		         name, idx, (long long)off);
		paint_put(y, x, w, cur ? A_BOLD : A_NORMAL, 0, buf);
	}
	walk_find(wk, lab->step, lab->selected, index, &off);
	screen_index_text(idx, sizeof idx, index, wk->steps[lab->step].view.rank);
	snprintf(buf, sizeof buf, text_fmt("ui.here", "here at %s, storage offset %lld"), idx,
	         (long long)off);
	paint_put(y + 1, x, w, A_NORMAL, 0, buf);
}

/* The lineage in two lines, for screens where the grid needs the room. */
static void
screen_lineage_compact_draw(const struct tui *t, int y, int x, int w)
{
	const struct lab *lab = &t->lab;
	const struct walk *wk = lab_walk(lab);
	int64_t head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];
	int cx = x;

	walk_label_origin(wk, lab->selected, NULL, NULL, &head);
	walk_find(wk, lab->step, lab->selected, index, &off);
	screen_index_text(idx, sizeof idx, index, wk->steps[lab->step].view.rank);
	screen_label_words(lab, buf, sizeof buf);
	cx += paint_put(y, cx, w, A_BOLD, paint_head_pair(t, head), buf);
	snprintf(buf, sizeof buf, text_fmt("ui.here", "here at %s, storage offset %lld"), idx,
	         (long long)off);
	cx += 2;
	paint_put(y, cx, w - (cx - x), A_NORMAL, 0, buf);
	cx = x;
	for (int k = 0; k < wk->nsteps && cx < x + w; k++) {
		walk_find(wk, k, lab->selected, index, &off);
		screen_index_text(idx, sizeof idx, index, wk->steps[k].view.rank);
		if (k)
			cx += paint_put(y + 1, cx, w - (cx - x), A_NORMAL, 0, paint_glyphs(t)->step_sep);
		cx += paint_put(y + 1, cx, w - (cx - x), k == lab->step ? A_REVERSE | A_BOLD : A_NORMAL,
		                0, idx);
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
	paint_scene(t, &lab->ribbon, &f->ribbon, f->ribbon_cells);
	if (f->ribbon_moving)
		paint_moves(t, &lab->ribbon_moves, &f->ribbon.clip, false);
}

void
screen_step_body_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;

	paint_scene(t, &lab->scene, &f->main, !lab->animating);
	if (lab->animating)
		paint_moves(t, &lab->anim, &f->main.clip, true);
	if (f->lineage_w > 0 && !f->lineage_compact)
		screen_lineage_draw(t, f->lineage_y, f->lineage_x, f->lineage_w);
	if (f->ribbon_w > 0)
		screen_ribbon_draw(t);
	if (f->lineage_w > 0 && f->lineage_compact)
		screen_lineage_compact_draw(t, f->lineage_y, f->lineage_x, f->lineage_w);
}

static void
screen_step_draw(const struct tui *t)
{
	if (t->lab.play_secs <= 0)
		screen_caption_draw(t);
	if (t->lab.frame.draw_main)
		screen_step_body_draw(t);
}

int
screen_lab_key(struct tui *t, const struct keys_event *ev)
{
	enum lab_action a;

	if (ev->key >= '0' && ev->key <= '9') {
		lab_digit(&t->lab, ev->key - '0');
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	a = keys_action(KEYS_LAB, ev->key);
	if (a == LAB_CLICK) {
		t->lab.click_y = ev->y;
		t->lab.click_x = ev->x;
	}
	if (a == LAB_REDRAW)
		clearok(curscr, TRUE);
	lab_act(&t->lab, a);
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_step = { "step", screen_step_draw, screen_lab_key };
