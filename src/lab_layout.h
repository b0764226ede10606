/* lab_layout.h - where each part of the lab's screen goes at a given
 * terminal size, worked out before anything is painted and without a
 * terminal: regions, the scenes they show, the zoom that fits, the scroll
 * that keeps the selection in view, and the cells' moves.  Painting then
 * only reads the frame; clicks are tested against it. */
#ifndef HEADLAB_LAB_LAYOUT_H
#define HEADLAB_LAB_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define LAB_LINEAGE_W 38        /* the lineage panel beside the grid */
#define LAB_NUMBERS_H 9         /* the numbers panel over the bottom lines */
#define LAB_LEGEND_H 2          /* the marks' legend under the lineage */

struct lab;

/* A screen rectangle; h or w 0 when empty. */
struct lab_rect {
	int y, x, h, w;
};

/* A scene drawn with its origin at (y, x), cut to clip. */
struct lab_place {
	int y, x;
	struct lab_rect clip;
};

/* Lines of presenter mode's big code and shape: the code's lettering, a
 * blank, the shape's, the strides in text, a blank. */
#define LAB_PLAY_BIG_LINES 9
/* The smallest screen that draws them. */
#define LAB_PLAY_BIG_COLS 100
#define LAB_PLAY_BIG_ROWS 40

struct lab_frame {
	int cols, lines;        /* the terminal the frame was laid out for */
	bool small;             /* below LAB_MIN_COLSxLAB_MIN_LINES: only a notice */
	int bottom;             /* the body ends above this line */
	struct lab_rect play;   /* presenter mode's caption box; h 0 when none */
	int caption_y;          /* caption, code and shape lines; -1 when none */
	int caption_lines;      /* lines the caption wraps into */
	bool play_big;          /* presenter mode on a large screen: code and shape in
	                         * the big lettering (LAB_PLAY_BIG_LINES from caption_y) */
	int text_y;             /* the bug line, the scores' or the quiz's text */
	int text_lines;         /* lines of it */

	/* the main scene: the one keys move in and the mouse clicks */
	struct lab_rect grid;   /* its viewport; w 0 when nothing is clickable */
	struct lab_place main;
	bool draw_main;         /* a scene is shown at main */
	struct lab_place other; /* compare and bug views: the left scene; scores */
	bool draw_other;
	int title_y, title_x, title_w;     /* the left (or upper) heading of a pair */
	int title2_y, title2_x, title2_w;  /* the right (or lower) heading */

	/* step view: lineage and storage ribbon */
	int lineage_y, lineage_x, lineage_w; /* lineage_w 0 when not shown */
	bool lineage_compact;   /* two lines instead of one per step */
	int legend_y, legend_x, legend_w; /* what the marks mean; w 0 when not shown */
	int ribbon_y, ribbon_x, ribbon_w; /* header line, scene under it; w 0 none */
	struct lab_place ribbon;
	bool ribbon_cells;      /* the ribbon's cells stand still */
	bool ribbon_moving;     /* a copy's labels slide (ribbon_moves) */

	/* step view in 3D (lab_3d.c) */
	bool block;             /* the body is the current step's 3D block */
	bool block_fits;        /* it fits its room; else a notice says what it needs */
	int block_caption_y;    /* the line saying what the block shows */
	int block_need_w, block_need_h; /* the block's size, for the notice */
};

/* Lay out the whole screen for cols x lines: builds the scenes, picks the
 * zoom when it is automatic, scrolls to the selection and plans moves. */
void lab_layout(struct lab *lab, int cols, int lines);

/* The zoom that fits the current step whole at cols x lines, from the
 * largest down (the = key). */
void lab_layout_zoom_fit(struct lab *lab, int cols, int lines);

/* For the 3D step view (lab_3d.c): scroll the viewport (frame.grid) just
 * enough to show the selected cell; the storage ribbon, its header line at
 * y and its slots under it, w columns wide. */
void lab_layout_follow(struct lab *lab);
void lab_layout_ribbon(struct lab *lab, int y, int x, int w);

/* Bytes of s that go on the first line when it is wrapped at cols
 * columns: after a space, or beside a wide (CJK) character, never before
 * closing punctuation nor inside a character; at least one character. */
size_t lab_layout_wrap_cut(const char *s, int cols);

/* Lines s takes when wrapped at cols columns, at most maxlines. */
int lab_layout_wrap_lines(const char *s, int cols, int maxlines);

/* Whether two rectangles share a cell. */
bool lab_rect_overlap(const struct lab_rect *a, const struct lab_rect *b);

#endif
