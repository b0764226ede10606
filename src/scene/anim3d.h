/* anim3d.h - the frames of a glide between two 3D blocks (scene3d), each
 * one a whole picture of the block's room in screen coordinates, built
 * without a terminal so that the frames the lab paints can be checked one
 * by one.  The painter draws the frame's items as they are. */
#ifndef HEADLAB_ANIM3D_H
#define HEADLAB_ANIM3D_H

#include <stdbool.h>

#include "anim.h"
#include "scene.h"

/* Frame f (0 .. a->frames) of the glide a, planned (anim_plan) from the
 * old block as it stood on the screen to the new one where it stands now.
 * Frame 0 is the old picture and a->frames the new one, item for item; a
 * cut shows the old one, then the new one.  In transit: the cells on
 * their paths, and of the chrome only what both blocks draw alike in the
 * same place, no cell covers, and tells no cell anything neither block
 * tells it.  out is reset first; false when out of memory. */
bool anim3d_frame(const struct anim *a, int f, struct scene *out);

/* The block sc at rest, placed at (dy, dx): out is reset first. */
bool anim3d_still(const struct scene *sc, int dy, int dx, struct scene *out);

#endif
