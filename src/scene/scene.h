/* scene.h - one step of a walk laid out as positioned, styled text.
 *
 * The scene is pure data: the text printer, the JSON printer's elision and
 * the curses lab all draw from it, so what --print shows is what the lab
 * shows.  Coordinates are in terminal columns from the scene's top left. */
#ifndef HEADLAB_SCENE_H
#define HEADLAB_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk.h"

enum scene_style {
	SCENE_PLAIN,            /* row and column numbers */
	SCENE_AXIS,             /* axis names */
	SCENE_TITLE,            /* panel titles and head-group headers */
	SCENE_RULE,             /* separators between head groups */
	SCENE_ELLIPSIS,         /* where elided cells would be */
	SCENE_CELL,             /* a labelled cell */
	SCENE_SCORE,            /* a score-table entry a query may read */
	SCENE_MASKED,           /* a score-table entry the causal mask forbids */
	SCENE_BAR,              /* a bar whose visible length is a value (a weight);
	                         * head says whose: drawn solid in a colour that
	                         * stands apart from the screen, never a cell's text colour */
};

enum scene_mark {
	SCENE_MARK_SELECTED = 1 << 0,
	SCENE_MARK_HEADMATE = 1 << 1, /* same batch, position and head as the selection */
	SCENE_MARK_POSMATE = 1 << 2,  /* same batch and position, another head */
	SCENE_MARK_WRONG = 1 << 3,    /* differs from the compared walk's cell here */
	SCENE_MARK_LIT = 1 << 4,      /* picked by the opts' highlight */
};

/* Most indices shown along one axis: a whole axis of a step small enough
 * not to elide (at most 1000 cells), or the edges and focus of an elided one. */
#define SCENE_MAX_PICK 1024
#define SCENE_MAX_EDGE 9        /* cells kept at each end of an elided axis, at most */

struct scene_item {
	int y, x;               /* top-left, in columns */
	int width;              /* columns the item takes (a cell's box) */
	int height;             /* lines the item takes: 1 but for zoomed cells */
	enum scene_style style;
	int64_t label;          /* SCENE_CELL: the label shown */
	int64_t head;           /* SCENE_CELL: the head the label came from (its colour) */
	int group;              /* SCENE_TITLE/SCENE_RULE: head of the group it frames, or -1 */
	unsigned mark;          /* SCENE_CELL: enum scene_mark bits */
	int panel_y, panel_x;   /* SCENE_CELL: top-left of the panel it is in */
	char text[40];          /* UTF-8 */
};

struct scene_opts {
	bool utf8;              /* box-drawing and ellipsis glyphs; ASCII otherwise */
	int width;              /* columns to flow side-by-side panels into */
	int edge;               /* cells kept at each end of an elided axis */
	int64_t elide_over;     /* elide when the step has more cells than this */
	bool has_focus;         /* keep focus (an index in the step) in view */
	int64_t focus[LAYOUT_MAX_RANK];
	int64_t selected;       /* selected label, or -1 */
	int cell_pad;           /* extra columns in each cell box (zoom) */
	int cell_h;             /* lines per cell box (zoom); rows then get a gap line */
	const struct walk *compare; /* mark cells whose label differs from this walk's */
	int compare_step;       /* ... at the same index of this step (same shape only) */
	bool (*lit)(const void *ctx, int64_t label); /* SCENE_MARK_LIT when true */
	bool (*wrong)(const void *ctx, int64_t label); /* SCENE_MARK_WRONG when true (a quiz's
	                                                 * answer that missed); NULL none */
	const void *lit_ctx;    /* what lit and wrong are asked with */
	bool hide_labels;       /* cells drawn as "?" without head letter or colour */
	const char *ribbon_title; /* the ribbon's row names; NULL: English */
	const char *ribbon_slot;
};

struct scene {
	struct scene_item *items;
	size_t n, cap;
	int height, width;      /* extent of all items */
	bool elided;            /* some cells are not shown */
	bool oom;               /* an allocation failed; the scene is incomplete */
	double scale;           /* a heat map of scores: the |value| a full shade
	                         * stands for; 0 for any other scene */
};

/* Defaults for opts: ASCII, 80 columns, numpy's elision (3 edge cells over
 * 1000 cells), no focus, nothing selected. */
void scene_opts_default(struct scene_opts *opts);

/* Lay out step k of w into sc (which is reset first). */
void scene_build(struct scene *sc, const struct walk *w, int k,
                 const struct scene_opts *opts);

/* The flat storage step k reads, one row of labels in slot order, elided
 * around the selected label's slot, with the slot numbers under it. */
void scene_build_ribbon(struct scene *sc, const struct walk *w, int k,
                        const struct scene_opts *opts);

/* The [B,H,T,T] score tables of a lesson walk for batch 0: one panel per
 * head, rows are query positions, columns the positions read; entries the
 * causal mask forbids are SCENE_MASKED. */
void scene_build_scores(struct scene *sc, const struct walk *w,
                        const struct scene_opts *opts);

void scene_free(struct scene *sc);

/* The cell item at column x of line y, or NULL. */
const struct scene_item *scene_cell_at(const struct scene *sc, int y, int x);

/* The cell item showing label, or NULL. */
const struct scene_item *scene_find_label(const struct scene *sc, int64_t label);

/* The nearest cell from from in direction (dy, dx), one of them zero; NULL
 * when there is none that way. */
const struct scene_item *scene_neighbour(const struct scene *sc,
                                         const struct scene_item *from, int dy,
                                         int dx);

/* Indices shown along an axis of size n: all of them, or the first and last
 * edge and the neighbourhood of focus (if focus >= 0), with -1 where a run is
 * left out.  Returns the count written to out (at most 2*edge+5). */
int scene_axis_pick(int64_t n, int edge, bool elide, int64_t focus, int64_t *out);

/* The head tag printed after a label: a, b, ..., z, aa, ab, ... */
void scene_head_tag(int64_t head, char *buf, size_t size);

/* "[B,T,D] = [1, 3, 4]" */
void scene_format_shape(const struct walk_step *s, char *buf, size_t size);

/* Append an item to sc: zeroed, nothing selected (label, head and group
 * -1), one line high; NULL (and sc->oom) when memory runs out. */
struct scene_item *scene_item_new(struct scene *sc);

/* Append one item of text (cut to fit the item) at (y, x), growing sc's
 * extent; NULL (and sc->oom) when memory runs out. */
struct scene_item *scene_item_add(struct scene *sc, int y, int x, enum scene_style style, const char *text);

/* Append a copy of it placed at (y, x), growing sc's extent; false (and
 * sc->oom) when memory runs out. */
bool scene_item_copy(struct scene *sc, const struct scene_item *it, int y, int x);

/* Display width of a UTF-8 string in columns: utf8_width, under the name
 * the lab calls. */
int scene_text_width(const char *s);

#endif
