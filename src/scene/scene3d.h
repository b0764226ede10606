/* scene3d.h - one step of a walk drawn as a block in oblique projection.
 *
 * Two of the step's axes lie in the plane of the screen (one runs down, one
 * across) and a third recedes up and to the right: every index along it is
 * a layer, a framed face of cells, and the layers are exploded along the
 * diagonal so that no face hides a label of the one behind it.  A fourth,
 * outer axis (the batch) puts blocks side by side, or is left out of the
 * picture when it has size 1.
 *
 * The result is a struct scene like the grid view's (SCENE_CELL items with
 * label, head and mark; the frames, depth edges and axis names as
 * SCENE_RULE, SCENE_AXIS, SCENE_PLAIN, SCENE_TITLE and SCENE_ELLIPSIS
 * items), so print_scene, anim_plan and the lab's painter draw it as they
 * are.  No two items overlap, and nothing is drawn over a label.  The faces
 * and depth edges are also given as geometry, for the SVG export. */
#ifndef HEADLAB_SCENE3D_H
#define HEADLAB_SCENE3D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"
#include "walk.h"

/* Where a step's axis goes in the picture. */
enum scene3d_role {
	SCENE3D_BATCH,          /* blocks side by side; not drawn when of size 1 */
	SCENE3D_DOWN,           /* rows of a face */
	SCENE3D_DEPTH,          /* layers, receding up and to the right */
	SCENE3D_ACROSS,         /* columns of a face */
	SCENE3D_NROLES,
};

/* Turns of the block: which of the three drawn axes recedes.  0 is the
 * lesson's view; 1 swaps the depth and across axes (the heads seen from the
 * side), 2 swaps depth and down. */
#define SCENE3D_TURNS 3

/* Steps of more cells than this are elided (numpy-style, scene_axis_pick),
 * even when the grid view would show them whole: a block is less dense. */
#define SCENE3D_ELIDE_OVER 64

/* The tallest box, in lines. */
#define SCENE3D_ROWH_MAX 5

/* One layer of one block: a framed face, or the marker of an elided run of
 * layers (depth -1).  Slot 0 is the front layer, at the bottom left. */
struct scene3d_face {
	int y, x, h, w;         /* the frame, in lines and columns */
	int64_t batch;          /* index along the batch axis (0 when there is none) */
	int64_t depth;          /* index along the depth axis, 0 when there is none;
	                         * -1 for an elided run: only a marker, no frame */
	int slot;               /* 0 at the front, then one per layer behind it */
};

/* A depth edge: a corner of a face and the same corner of the layer behind
 * (or of the block's back outline for a one-layer block).  The text glyphs
 * are drawn only where no face is, so an edge never crosses a label. */
struct scene3d_edge {
	int y0, x0;             /* the front corner */
	int y1, x1;             /* the corner behind, up and to the right */
};

struct scene3d {
	struct scene sc;        /* the drawing: cells and chrome, as the grid's scene */
	int axis[SCENE3D_NROLES]; /* the step's axis in each role, or -1 */
	int turn;               /* 0..SCENE3D_TURNS-1, as asked */
	int slot_step;          /* lines (and columns) from a layer to the one behind;
	                         * 2 in a block of one layer: to its back outline */
	struct scene3d_face *faces;
	size_t nfaces;
	struct scene3d_edge *edges;
	size_t nedges;
	char caption[320];      /* what the picture shows: roles, a dropped batch axis,
	                         * how many indices of each elided axis are shown */
	int covered;            /* labels something was drawn over: 0, or a bug */
	bool unsupported;       /* a rank above 4: nothing drawn, caption says so */
	bool narrowed;          /* the across axis was elided to keep within the width */
};

/* The role of each of step s's axes under turn (taken modulo
 * SCENE3D_TURNS): the last axis across, the one before it down (rank 2),
 * [B,T,D] as a T x D slab with B outside, and rank 4 [B,X,Y,Z] as X down,
 * Y in depth, Z across.  axis[role] is -1 for an unused role; false (all
 * -1) for a rank above 4. */
bool scene3d_plan(const struct walk_step *s, int turn, int *axis);

/* Lay out step k of w into s3 (reset first; zero it before the first use).
 * From opts it takes utf8, edge, elide_over, has_focus/focus, selected, lit,
 * hide_labels, cell_pad and cell_h (lines per box, 1 to SCENE3D_ROWH_MAX), and width: a block wider than that has its
 * across axis elided too.  It may still be wider (batches side by side,
 * layers of many columns): compare s3->sc.width with the room. */
void scene3d_build(struct scene3d *s3, const struct walk *w, int k,
                   const struct scene_opts *opts, int turn);

void scene3d_free(struct scene3d *s3);

#endif
