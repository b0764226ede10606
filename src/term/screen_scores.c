/* screen_scores.c - s: the [B,H,T,T] score tables, one per head. */
#include "screen.h"

static void
screen_scores_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	char buf[400];

	lab_scores_text(lab, buf, sizeof buf);
	paint_wrap(lab->frame.text_y, 1, COLS - 2, lab->frame.text_lines, A_NORMAL, 0, buf);
	paint_scene(t, &lab->other, &lab->frame.other, true);
}

const struct screen screen_scores = { "scores", screen_scores_draw, screen_lab_key, NULL, NULL };
