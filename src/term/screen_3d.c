/* screen_3d.c - the step view's body in 3D: the line saying what the
 * block shows, then the block as lab_3d_layout() placed it, or the frame
 * of its glide that lab_3d_frame() builds.  Paints, changes nothing. */
#include "screen.h"

#include <stdio.h>


/* What the block needs when it cannot be drawn whole, and the way out,
 * in the lines the layout kept for it. */
static void
screen_3d_notice(const struct tui *t)
{
	const struct lab_frame *f = &t->lab.frame;
	char buf[400];

	lab_3d_notice(&t->lab, buf, sizeof buf);
	paint_wrap(f->grid.y, f->grid.x, f->grid.w, f->grid.h > 0 ? f->grid.h : 1, A_BOLD,
	           paint_accent(t), buf);
}

void
screen_3d_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;
	struct scene frame = { 0 };
	struct lab_place at = { 0, 0, f->main.clip };
	char buf[400], caption[320];

	lab_3d_line(lab, caption, sizeof caption);
	snprintf(buf, sizeof buf, "3D: %s", caption);
	paint_put(f->block_caption_y, 1, f->cols - 2, A_NORMAL, paint_pair(t, PAINT_PAIR_DIM), buf);
	if (!f->block_fits) {
		screen_3d_notice(t);
		return;
	}
	/* the whole picture of this frame, in screen coordinates: the block
	 * at rest, or a frame of its glide (lab_3d_frame) */
	if (lab_3d_frame(lab, &frame))
		paint_scene(t, &frame, &at, true);
	scene_free(&frame);
}
