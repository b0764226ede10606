/* screen_compare.c - v: the step before and the current step side by
 * side (or one above the other), each under a heading. */
#include "screen.h"

#include <stdio.h>

#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
screen_pair_draw(const struct tui *t, const char *left, const char *right)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;

	char fit[400];

	/* a heading too long for its half ends in an ellipsis, never mid-word */
	utf8_fit_ellipsis(fit, sizeof fit, left, f->title_w, !lab->utf8);
	paint_put(f->title_y, f->title_x, f->title_w, A_BOLD, paint_accent(t), fit);
	utf8_fit_ellipsis(fit, sizeof fit, right, f->title2_w, !lab->utf8);
	paint_put(f->title2_y, f->title2_x, f->title2_w, A_BOLD, paint_accent(t), fit);
	paint_scene(t, &lab->other, &f->other, true);
	paint_scene(t, &lab->scene, &f->main, true);
}

static void
screen_compare_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct walk *w = lab_walk(lab);
	int k = lab->step, prev = k > 0 ? k - 1 : 0;
	char left[200], right[200];

	screen_caption_draw(t);
	snprintf(left, sizeof left, "%s %d: %s", text_fmt("ui.before", "before, step"), prev + 1,
	         w->steps[prev].code);
	snprintf(right, sizeof right, "%s %d: %s", text_fmt("ui.after", "after, step"), k + 1,
	         w->steps[k].code);
	screen_pair_draw(t, left, right);
}

const struct screen screen_compare = { "compare", screen_compare_draw, screen_lab_key, NULL, NULL };
