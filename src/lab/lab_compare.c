/* lab_compare.c - v: the previous step and the current one side by side,
 * a part of the lab: its key, its layout and its zoom. */
#include "lab.h"

#include "lab_layout.h"

/* v opens it, and closes it again. */
static bool
lab_compare_open(struct lab *lab, enum lab_action a)
{
	if (a != LAB_VIEW_COMPARE)
		return false;
	lab->mode = lab->mode == LAB_MODE_COMPARE ? LAB_MODE_STEP : LAB_MODE_COMPARE;
	return true;
}

/* The caption, then the step before on the left and this one on the right. */
static void
lab_compare_layout(struct lab *lab, int cols, int top, int bottom)
{
	const struct walk *w = lab_walk(lab);
	int k = lab->step, prev = k > 0 ? k - 1 : 0, width = (cols - 5) / 2;

	top = lab_layout_caption(lab, top);
	lab_build_scene(lab, &lab->other, w, prev, width);
	lab_build_scene(lab, &lab->scene, w, k, width);
	lab_layout_pair(lab, top + 1, bottom);
}

static int
lab_compare_zoom_fit(struct lab *lab, int cols, int lines, bool every_step)
{
	const struct walk *w = lab_walk(lab);

	(void)every_step;       /* the pair at this step */
	return lab_layout_pair_zoom(lab, cols, lines, lab_compare_layout, w,
	                            lab->step > 0 ? lab->step - 1 : 0, w, lab->step);
}

const struct lab_part lab_compare_part = {
	.name = "compare",
	.mode = LAB_MODE_COMPARE,
	.open = lab_compare_open,
	.layout = lab_compare_layout,
	.zoom_fit = lab_compare_zoom_fit,
};
