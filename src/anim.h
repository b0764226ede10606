/* anim.h - cells travelling from their place in one scene to their place
 * in the next.  Pure arithmetic: the terminal layer only draws the frames. */
#ifndef HEADLAB_ANIM_H
#define HEADLAB_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"

struct anim_move {
	const struct scene_item *to;   /* the cell where it lands (its text and marks) */
	int y0, x0;                    /* where it starts, in screen coordinates */
	int y1, x1;                    /* where it lands */
	bool appears;                  /* not shown in the old scene: fades in at the end */
};

struct anim {
	struct anim_move *moves;
	size_t n;
};

/* Pair the cells of from and to by label.  Each scene's items are offset
 * by (dy, dx) to put them on the screen.  false when out of memory. */
bool anim_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
               const struct scene *to, int to_dy, int to_dx);

void anim_free(struct anim *a);

/* Where move m is at frame f of frames (0: the start, frames: the end),
 * on an eased straight path. */
void anim_at(const struct anim_move *m, int f, int frames, int *y, int *x);

#endif
