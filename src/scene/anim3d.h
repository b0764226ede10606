/* anim3d.h - the frames of a glide between two 3D blocks (scene3d), each
 * one a whole picture of the block's room in screen coordinates, built
 * without a terminal so that the frames the lab paints can be checked one
 * by one.  The painter draws the frame's items as they are. */
#ifndef HEADLAB_ANIM3D_H
#define HEADLAB_ANIM3D_H

#include <stdbool.h>

#include "anim.h"
#include "scene.h"

/* Plan the glide between two blocks as anim_plan does; where it would
 * cut only because boxes would meet on their way, every box glides on its
 * straight line at once instead (ANIM_PATH_DEPTH), and each frame draws a
 * box nearer the viewer over the one behind it: the block's boxes carry
 * their layer's top left in panel_y and panel_x, and a box's depth is
 * its layer's line, taken along its path.  false when out of memory. */
bool anim3d_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
                 const struct scene *to, int to_dy, int to_dx, int frames);

/* Whether it, an item of a frame, is the visible part of a box whose
 * label is hidden behind a nearer box: blank, in the box's colour. */
bool anim3d_fragment(const struct scene_item *it);

/* Frame f (0 .. a->frames) of the glide a, planned (anim_plan) from the
 * old block as it stood on the screen to the new one where it stands now.
 * Frame 0 is the old picture and a->frames the new one, item for item; a
 * cut shows the old one, then the new one.  In transit: the cells on
 * their paths, and of the chrome only what both blocks draw alike in the
 * same place, no cell covers, and tells no cell anything neither block
 * tells it; on a depth glide a box behind a nearer one shows only its
 * uncovered part, blank (anim3d_fragment).  out is reset first; false when out of memory. */
bool anim3d_frame(const struct anim *a, int f, struct scene *out);

/* The block sc at rest, placed at (dy, dx): out is reset first. */
bool anim3d_still(const struct scene *sc, int dy, int dx, struct scene *out);

#endif
