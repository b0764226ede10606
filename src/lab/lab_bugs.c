/* lab_bugs.c - b: the bug lab, a part of the lab: a bug of the bug table
 * beside the right split at the lab's shape, then the next bug at each b,
 * then back to the step view.  Its state is its own (lab->bugs); the lab
 * reaches it only through its row, lab_bugs_part. */
#include "lab_bugs.h"

#include <stdio.h>
#include <stdlib.h>

#include "bugs.h"
#include "lab_layout.h"
#include "text.h"

bool
lab_set_bug(struct lab *lab, enum walk_kind kind)
{
	const struct walk *w = &lab->walk;
	struct lab_bugs *b = lab->bugs;
	struct bugs_diff d;

	if (b == NULL && (b = lab->bugs = calloc(1, sizeof *b)) == NULL) {
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.bugs.nomem", "out of memory: the bug lab cannot open"));
		return false;
	}
	walk_build(&b->walk, kind, w->batch, w->positions, w->width, w->heads);
	bugs_compare(&b->walk, &d);
	b->right = d.right;
	b->right_step = d.right_step;
	b->same_shape = d.same_shape;
	lab->mode = LAB_MODE_BUGS;
	return true;
}

/* b: the bug lab on the walk's own bug (or the table's first), then the
 * next bug of the bug table each time, then back to the step view. */
static bool
lab_bugs_open(struct lab *lab, enum lab_action a)
{
	enum walk_kind next;

	if (a != LAB_VIEW_BUGS)
		return false;
	if (lab->walk.kind == WALK_CUSTOM)
		return true;
	if (lab->mode != LAB_MODE_BUGS) {
		lab_set_bug(lab, bugs_get(lab->walk.kind) ? lab->walk.kind : bugs_next(WALK_LESSON));
		return true;
	}
	next = bugs_next(lab->bugs->walk.kind);
	if (next == WALK_LESSON)
		lab->mode = LAB_MODE_STEP;
	else
		lab_set_bug(lab, next);
	return true;
}

/* A new walk: the bug lab follows its shape, or closes without heads. */
static void
lab_bugs_walk_changed(struct lab *lab)
{
	if (lab->walk.kind == WALK_CUSTOM || !lab_set_bug(lab, lab->bugs->walk.kind))
		lab->mode = LAB_MODE_STEP;
}

/* The step bar marks the right walk's heads (or merge) beside the bug. */
static int
lab_bugs_bar_step(const struct lab *lab)
{
	if (lab->bugs->right.nsteps > 0)
		return walk_bug_compare_step(&lab->bugs->right, lab->bugs->walk.kind);
	return lab->step;
}

/* The bug's words and its effect over the pair: the right walk's step on
 * the left, the bug's last step (cells out of place marked) on the right. */
static void
lab_bugs_layout(struct lab *lab, int cols, int top, int bottom)
{
	const struct lab_bugs *b = lab->bugs;
	int kr = b->right_step, kb = b->walk.nsteps - 1;
	int width = (cols - 5) / 2;
	struct scene_opts so;

	lab_build_scene(lab, &lab->other, &b->right, kr, width);
	lab_scene_opts(lab, &so, width);
	so.has_focus = walk_find(&b->walk, kb, lab->selected, so.focus, NULL);
	so.compare = &b->right;
	so.compare_step = kr;
	scene_build(&lab->scene, &b->walk, kb, &so);
	lab->frame.text_y = top;
	lab->frame.text_lines = 3;      /* the bug's words and its effect, wrapped */
	lab_layout_pair(lab, top + 4, bottom);
}

static int
lab_bugs_zoom_fit(struct lab *lab, int cols, int lines, bool every_step)
{
	const struct lab_bugs *b = lab->bugs;

	(void)every_step;       /* one step of each walk is shown */
	return lab_layout_pair_zoom(lab, cols, lines, lab_bugs_layout, &b->right,
	                            walk_bug_compare_step(&b->right, b->walk.kind), &b->walk,
	                            b->walk.nsteps - 1);
}

static void
lab_bugs_free(struct lab *lab)
{
	free(lab->bugs);
	lab->bugs = NULL;
}

const struct lab_part lab_bugs_part = {
	.name = "bugs",
	.mode = LAB_MODE_BUGS,
	.still = true,
	.open = lab_bugs_open,
	.walk_changed = lab_bugs_walk_changed,
	.bar_step = lab_bugs_bar_step,
	.free = lab_bugs_free,
	.layout = lab_bugs_layout,
	.zoom_fit = lab_bugs_zoom_fit,
};
