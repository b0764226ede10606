/* screen_attention.c - A, --attention: the forward pass's numbers, the
 * selected cell and the cells it reads, its terms, and where each head
 * reads (or one head ablated, or the opening question) beside them. */
#include "screen.h"

#include <stdio.h>
#include <string.h>

#include "lab_attention.h"
#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Its own title and step bar: the pass's shape and seed, its 15 steps. */
static void
screen_attention_chrome_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_attention *la = lab->attn;
	char buf[512], right[32];
	int start, end, x, n;

	if (la == NULL)
		return;
	snprintf(buf, sizeof buf, text_fmt("attn.title", "headlab  attention  x[%lld,%lld,%lld] %s H=%lld, d=%lld  seed %u"),
	         (long long)la->a.batch, (long long)la->a.positions, (long long)la->a.width,
	         lab->utf8 ? "\u2192" : "->", (long long)la->a.heads, (long long)la->a.head_width,
	         la->a.seed);
	/* the step, then a blank drawn bold as the title is */
	n = snprintf(right, sizeof right - 1, text_fmt("ui.title.step", "step %d/%d"), la->step + 1,
	             ATTENTION_NSTEPS);
	n = n < 0 ? 0 : n > (int)sizeof right - 2 ? (int)sizeof right - 2 : n;
	right[n] = ' ';
	right[n + 1] = '\0';
	paint_text(0, 1, COLS - utf8_width(right) - 2, A_BOLD, 0, buf);
	paint_put(0, COLS - utf8_width(right), utf8_width(right), A_BOLD, 0, right);
	lab_attention_steps(lab, buf, sizeof buf, COLS - 2, &start, &end);
	x = 1 + paint_put(1, 1, start, A_NORMAL, 0, buf);
	if (end > start) {
		char cur[64];

		snprintf(cur, sizeof cur, "%.*s", end - start, buf + start);
		x += paint_put(1, x, COLS - x - 1, A_REVERSE | A_BOLD, 0, cur);
		paint_text(1, x, COLS - x - 1, A_NORMAL, 0, buf + end);
	}
}

/* The terms of the selected cell, in the box the frame gave them. */
static void
screen_attention_terms(const struct tui *t, const struct lab_rect *r)
{
	char buf[300];

	for (int i = 0; i < r->h; i++) {
		if (!lab_attention_term_line(&t->lab, i, r->w, buf, sizeof buf))
			break;
		paint_text(r->y + i, r->x, r->w, i == 0 ? A_BOLD : A_NORMAL, 0, buf);
	}
}

static void
screen_attention_side(const struct tui *t)
{
	const struct lab_attention *la = t->lab.attn;
	const struct lab_rect *r = &la->side_box;
	char buf[200];

	if (la->side != LAB_ATTENTION_SIDE_OPENING) {
		paint_scene(t, &la->side_scene, &la->side_at, true);
		return;
	}
	for (int i = 0; i < r->h; i++) {
		if (!lab_attention_opening_line(i, t->lab.utf8, buf, sizeof buf))
			break;
		paint_text(r->y + i, r->x, r->w, i == 0 ? A_BOLD : A_NORMAL, 0, buf);
	}
}

static void
screen_attention_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_attention *la = lab->attn;
	char buf[1024];
	int x;

	if (la == NULL)
		return;
	lab_attention_heading(lab, buf, sizeof buf);
	x = (int)strcspn(buf, " ");
	paint_put(la->heading_y, 1, x, A_BOLD, paint_accent(t), buf);
	paint_text(la->heading_y, 1 + x, COLS - 2 - x, A_NORMAL, 0, buf + x);
	lab_attention_caption(lab, buf, sizeof buf);
	paint_wrap(la->caption_y, 1, COLS - 2, la->caption_lines, A_NORMAL, 0, buf);
	if (la->show_grid) {
		int end = la->nsrc > 0 && la->title_y[0] == la->grid_at.clip.y - 1 ? la->title_x[0] - 2 : COLS - 1;

		x = 1 + paint_text(la->grid_at.clip.y - 1, 1, COLS - 2, A_BOLD, 0,
		                   attention_name((enum attention_tensor)la->step));
		lab_attention_legend(lab, (enum attention_tensor)la->step, end - x - 2, buf, sizeof buf);
		if (buf[0] && end - x - 2 > 8)
			paint_text(la->grid_at.clip.y - 1, x + 2, end - x - 2, A_NORMAL, 0, buf);
		paint_scene(t, &la->grid, &la->grid_at, true);
		if (la->grid_hidden > 0) {
			snprintf(buf, sizeof buf, text_fmt("attn.hidden", "%s %s: %d of its %d lines shown; the "
			         "selection (h j k l) brings the others in, a taller terminal shows all"),
			         t->lab.utf8 ? "\u22ee" : ":",
			         attention_name((enum attention_tensor)la->step), la->grid_at.clip.h, la->grid.height);
			if (utf8_width(buf) > COLS - 2)
				snprintf(buf, sizeof buf, text_fmt("attn.hidden.short", "%s %s: %d of %d lines, "
				         "h j k l show the rest"), t->lab.utf8 ? "\u22ee" : ":",
				         attention_name((enum attention_tensor)la->step), la->grid_at.clip.h,
				         la->grid.height);
			paint_text(la->grid_at.clip.y + la->grid_at.clip.h, 1, COLS - 2, A_NORMAL,
			           paint_pair(t, PAINT_PAIR_DIM), buf);
		}
	}
	for (int i = 0; i < la->nsrc; i++) {
		lab_attention_source_title(lab, i, buf, sizeof buf);
		paint_text(la->title_y[i], la->title_x[i], COLS - la->title_x[i] - 1, A_BOLD,
		          paint_accent(t), buf);
		paint_scene(t, &la->src[i], &la->src_at[i], true);
	}
	if (la->dropped_y >= 0) {
		lab_attention_dropped(lab, buf, sizeof buf);
		paint_text(la->dropped_y, 1, COLS - 2, A_NORMAL, paint_pair(t, PAINT_PAIR_DIM), buf);
	}
	if (la->concat_y >= 0) {
		for (int i = 0; i < 2; i++) {
			lab_attention_concat(lab, i, buf, sizeof buf);
			paint_text(la->concat_y + i, 1, COLS - 2, A_BOLD, 0, buf);
		}
	}
	if (la->big_y >= 0) {
		lab_attention_big(lab, COLS - 2, buf, sizeof buf);
		paint_lettering(t, la->big_y, 1, COLS - 2, 0, buf);
	}
	if (la->terms.h > 0)
		screen_attention_terms(t, &la->terms);
	if (la->side_box.h > 0)
		screen_attention_side(t);
}

static int
screen_attention_key(struct tui *t, const struct keys_event *ev)
{
	return screen_act(t, ev, keys_action(KEYS_LAB, ev->key));
}

/* The shared status line, with the pass's own keys as its hint. */
static void
screen_attention_status_draw(const struct tui *t)
{
	char hint[256];

	snprintf(hint, sizeof hint, text_fmt("attn.hint", "%s step  hjkl %s select  x zero a "
	         "head  o one head or two?  A leave  q quit"), paint_glyphs(t)->arrows,
	         paint_glyphs(t)->updown);
	screen_status_hint_draw(t, hint);
}

const struct screen screen_attention = { "attention", screen_attention_draw, screen_attention_key,
                                          screen_attention_status_draw, screen_attention_chrome_draw };
