/* lab_scores.c - s: the [B,H,T,T] score tables, a part of the lab: its
 * key, the paragraph over the tables and their layout.  Only the lesson's
 * walks have heads to score; the tables hold still. */
#include "lab.h"

#include <stdio.h>

#include "lab_layout.h"
#include "numbers.h"
#include "text.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
lab_scores_text(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = &lab->walk;
	struct numbers n;
	char count[64];

	numbers_compute(&n, w->batch, w->positions, w->width, w->heads);
	numbers_group(count, sizeof count, n.scores);
	snprintf(buf, size, text_fmt("ui.scores",
	         "Scores [B,H,T,T] = [%lld, %lld, %lld, %lld]: each head keeps its own T\u00d7T table, "
	         "%s entries in all. Rows are query positions, columns the positions read: two axes "
	         "of equal length and different meaning. %s marks what the causal mask forbids."),
	         (long long)w->batch, (long long)w->heads, (long long)w->positions,
	         (long long)w->positions, count, lab->utf8 ? "\u00d7" : "x");
}

/* s opens the tables on a walk with heads, and closes them again. */
static bool
lab_scores_open(struct lab *lab, enum lab_action a)
{
	if (a != LAB_VIEW_SCORES)
		return false;
	if (lab->walk.kind != WALK_CUSTOM)
		lab->mode = lab->mode == LAB_MODE_SCORES ? LAB_MODE_STEP : LAB_MODE_SCORES;
	return true;
}

/* A walk without heads has no tables: back to the step view. */
static void
lab_scores_walk_changed(struct lab *lab)
{
	if (lab->walk.kind == WALK_CUSTOM)
		lab->mode = LAB_MODE_STEP;
}

/* The paragraph, then the tables under it; nothing to click on. */
static void
lab_scores_layout(struct lab *lab, int cols, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	struct scene_opts so;
	char buf[400];

	lab_scores_text(lab, buf, sizeof buf);
	f->text_y = top;
	f->text_lines = lab_layout_wrap_lines(buf, cols - 2, f->lines >= 24 ? 4 : 3);
	top += f->text_lines + 1;
	lab_scene_opts(lab, &so, cols - 2);
	scene_build_scores(&lab->other, &lab->walk, &so);
	lab->scroll_y = lab->scroll_x = 0;
	f->other.y = top;
	f->other.x = 1;
	f->other.clip = lab_rect(top, 1, bottom - top, cols - 2);
	f->draw_other = true;
	f->grid = lab_rect(0, 0, 0, 0);
}

const struct lab_part lab_scores_part = {
	.name = "scores",
	.mode = LAB_MODE_SCORES,
	.still = true,
	.open = lab_scores_open,
	.walk_changed = lab_scores_walk_changed,
	.layout = lab_scores_layout,
};
