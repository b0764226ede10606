/* reel.h - a walk's animation laid out as a timeline, for a figure that
 * plays without the lab: every step's scene at rest and the lab's own
 * frames of each glide between two steps (anim_plan and anim_frame, or
 * anim3d_frame for the block), read back per cell and per piece of chrome.
 *
 * A reel has slots (the steps, in order, then back to the first) and one
 * or two lanes side by side: the walk, or for a bug the right walk on the
 * left and the bug's on the right, the shorter one waiting at its last
 * step, the bug's misplaced cells marked in the last slot.  Key
 * s * frames + f is frame f of the glide that leaves slot s (f = 0: slot
 * s at rest), so every key is a frame the lab would paint.  Pure data: no
 * file is written here (export_anim.c draws a reel). */
#ifndef HEADLAB_REEL_H
#define HEADLAB_REEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bugs.h"
#include "scene.h"
#include "scene3d.h"
#include "walk.h"

#define REEL_FRAMES 12          /* frames of a glide: the lab's LAB_ANIM_FRAMES */
#define REEL_LANES 2
#define REEL_GAP 6              /* columns between two lanes */
#define REEL_ABSENT INT32_MIN   /* a cell's y at a key where it is not drawn */

struct reel_lane {
	const struct walk *w;   /* borrowed: the walk, or the reel's own right walk */
	int step[WALK_MAX_STEPS]; /* the step of w each slot shows */
	int dx;                 /* columns from the picture's left to the lane's */
	bool bug;               /* the bug's lane: its cells may be marked misplaced */
};

/* One labelled cell of one lane, followed through every key. */
struct reel_cell {
	int lane;
	int64_t label, head;
	char text[40];          /* as the scene draws it: "4a" with its padding */
	int width, height;      /* columns and lines of its box */
	bool selected;
	int *y, *x;             /* per key: where it is; y REEL_ABSENT: not drawn */
	unsigned char *wrong;   /* per key: marked as misplaced (SCENE_MARK_WRONG) */
};

/* One piece of chrome (a title, an axis name, a number, a rule, an
 * ellipsis) and the keys whose frame draws it. */
struct reel_chrome {
	struct scene_item it;   /* placed in picture columns and lines */
	int lane;
	unsigned char *on;      /* per key: drawn */
};

struct reel {
	bool view3d;            /* the steps as 3D blocks */
	int nlanes;
	struct reel_lane lane[REEL_LANES];
	struct bugs_diff *diff; /* a bug's reel: the right walk it is held against */
	int nslots, frames, nkeys;
	bool cut[WALK_MAX_STEPS][REEL_LANES]; /* the glide leaving slot s cuts halfway */
	/* the glide leaving slot s passes boxes in front of one another (a 3D
	 * depth glide): its cells jump from frame to frame, as the lab draws
	 * them, and a box some nearer box overlaps is left out of that frame */
	bool depth[WALK_MAX_STEPS][REEL_LANES];
	struct reel_cell *cells; /* by lane, then label */
	size_t ncells;
	struct reel_chrome *chrome;
	size_t nchrome;
	int y0, x0;             /* the top left of everything drawn at any key */
	int height, width;      /* lines and columns from there */
	bool elided;            /* some step leaves cells out */
};

/* The reel of walk w: its steps, or for a bug (w->kind >= WALK_BUG) the
 * right walk beside it; each step's scene built with so (its selected
 * label is marked at every step), as blocks when view3d.  false when
 * memory ran out (r is then empty). */
bool reel_build(struct reel *r, const struct walk *w, const struct scene_opts *so, bool view3d);

void reel_free(struct reel *r);

/* The cell of label in lane, or NULL. */
const struct reel_cell *reel_find(const struct reel *r, int lane, int64_t label);

#endif
