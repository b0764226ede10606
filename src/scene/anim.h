/* anim.h - the frames between two scenes, each one a true picture.
 *
 * Pure arithmetic: the terminal layer only paints the frame scenes.  A
 * frame holds every cell exactly once, never over another cell or over
 * chrome (titles, axis headers, row and column numbers, rules), and shows
 * only chrome that is true for the cells next to it: the row header on a
 * cell's line and the column number above it say where that cell is in the
 * old layout or in the new one.  Chrome both layouts agree on stays put,
 * cells both layouts put in the same place never move, and where no honest
 * motion exists (cells would cross, cells appear or vanish) the frames cut
 * from the old picture to the new one halfway.
 *
 * A painter keeps the old scene and where it stood on the screen, builds
 * the new one, then per frame:
 *
 *	anim_plan(&a, &old, old_y, old_x, &new, new_y, new_x, FRAMES);
 *	anim_frame(&a, f, &frame);      // f = 0 .. FRAMES
 *	for each item of frame: draw it at (item.y, item.x), clipped
 *	anim_free(&a);                  // before either scene changes
 *
 * Planning again whenever either scene is rebuilt is cheap (a few ms for a
 * thousand cells). */
#ifndef HEADLAB_ANIM_H
#define HEADLAB_ANIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"

/* How the cells travel. */
enum anim_path {
	ANIM_PATH_STRAIGHT,     /* all at once on eased straight lines */
	ANIM_PATH_ACROSS_FIRST, /* first along the lines, then up or down */
	ANIM_PATH_DOWN_FIRST,   /* first up or down, then along the lines */
	ANIM_PATH_DETOUR,       /* along its line to column xm, up or down, along again */
	ANIM_PATH_STAGED,       /* in turns, each cell on one of the above */
	ANIM_PATH_CUT,          /* no motion: the old picture, then the new one */
	ANIM_PATH_DEPTH,        /* 3D only (anim3d_plan): all at once on straight lines,
	                         * boxes passing in front of and behind each other */
};

struct anim_move {
	const struct scene_item *from; /* the cell in the old scene */
	const struct scene_item *to;   /* the cell where it lands (its text and marks) */
	int y0, x0;                    /* where it starts, in screen coordinates */
	int y1, x1;                    /* where it lands */
	enum anim_path path;           /* how it travels ... */
	int start, end;                /* ... between these frames */
	int xm;                        /* ANIM_PATH_DETOUR: the column it changes lines in */
	/* what the headers beside it may say: its row header (axis name and
	 * number), column number, head-group title and panel title in the old
	 * and in the new layout, or NULL */
	const char *row_axis[2], *row_num[2], *col[2], *group[2], *panel[2];
};

/* A piece of chrome of either scene, placed on the screen. */
struct anim_chrome {
	const struct scene_item *it;
	int y, x;
	unsigned side;          /* 1: in the old scene, 2: in the new one, 3: both */
	int role;               /* row header, column number, other (anim.c) */
};

struct anim {
	const struct scene *from, *to; /* borrowed: must outlive the plan */
	int from_dy, from_dx, to_dy, to_dx;
	int frames;             /* frame count the path was checked for */
	enum anim_path path;
	struct anim_move *moves; /* sorted by label */
	size_t n;
	struct anim_chrome *chrome; /* sorted by line, then column */
	size_t nchrome;
	int line0, nlines;      /* the lines the chrome spans ... */
	size_t *line_at;        /* ... and where each starts in chrome */
};

/* Plan the frames from scene from (its items offset by (from_dy, from_dx)
 * on the screen) to scene to (offset by (to_dy, to_dx)) in frames steps:
 * pair cells by label and find paths on which no two cells are ever on
 * top of each other: one path for all, else cells in turns, else a cut.  Both scenes are
 * borrowed until anim_free.  false when out of memory. */
bool anim_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
               const struct scene *to, int to_dy, int to_dx, int frames);

void anim_free(struct anim *a);

/* Frame f (0: the old scene as it was, a->frames or more: the new one) as
 * a complete scene in screen coordinates, cells and chrome, to be painted
 * item by item with no offset.  out is reset first; false when out of
 * memory. */
bool anim_frame(const struct anim *a, int f, struct scene *out);

/* Where move m is at frame f of frames on its eased path. */
void anim_at(const struct anim_move *m, int f, int frames, int *y, int *x);

#endif
