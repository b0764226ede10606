/* lab_frame.h - where things go on the lab's screen: the rectangles and
 * the frame that lab_layout() fills for a terminal size, and that the
 * painters and the hit tests read. */
#ifndef HEADLAB_LAB_FRAME_H
#define HEADLAB_LAB_FRAME_H

#include <stdbool.h>

#define LAB_LINEAGE_W 38        /* the lineage panel beside the grid */
#define LAB_LINEAGE_MIN 6       /* lines of a lineage beside the grid, at the least */
#define LAB_NUMBERS_H 9         /* the numbers panel over the bottom lines */
#define LAB_LEGEND_H 2          /* the marks' legend under the lineage */

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
/* Lines of the selected label's title in the lettering under them (its
 * three lines and a blank), from a screen of LAB_PLAY_TITLE_ROWS lines:
 * on a shorter one the grid needs them. */
#define LAB_PLAY_TITLE_LINES 4
#define LAB_PLAY_TITLE_ROWS 50

/* Columns a character of the lettering takes (its dots and a blank). */
#define LAB_PLAY_LETTER_W 4
/* The box of n lines of lettering: a border, the lines with a blank
 * between two, a border. */
static inline int lab_play_box_h(int n) { return 2 + 4 * n - 1; }

struct lab_frame {
	int cols, lines;        /* the terminal the frame was laid out for */
	bool small;             /* below LAB_MIN_COLSxLAB_MIN_LINES: only a notice */
	int bottom;             /* the body ends above this line */
	struct lab_rect play;   /* presenter mode's caption box; h 0 when none */
	int play_caption_big;   /* lines of lettering the caption wraps into in the
	                         * box (LAB_PLAY_LETTER_W columns a character); 0 text */
	int caption_y;          /* caption, code and shape lines; -1 when none */
	int caption_lines;      /* lines the caption wraps into */
	bool play_big;          /* presenter mode on a large screen: code and shape in
	                         * the big lettering (LAB_PLAY_BIG_LINES from caption_y) */
	bool play_title;        /* and the selected label's title under them
	                         * (LAB_PLAY_TITLE_LINES more) */
	int text_y;             /* the bug line, the scores' or the quiz's text */
	int text_lines;         /* lines of it */

	/* the main scene: the one keys move in and the mouse clicks */
	struct lab_rect grid;   /* its viewport; w 0 when nothing is clickable */
	struct lab_place main;
	bool draw_main;         /* a scene is shown at main */
	/* a grid cut at the top: its panel's headers, kept over the rows at
	 * grid.y (head_h lines, 0 when not kept), drawn from the scene at head */
	int head_h;
	struct lab_place head;
	struct lab_place other; /* compare and bug views: the left scene; scores */
	bool draw_other;
	int title_y, title_x, title_w;     /* the left (or upper) heading of a pair */
	int title2_y, title2_x, title2_w;  /* the right (or lower) heading */

	/* step view: lineage and storage ribbon */
	int lineage_y, lineage_x, lineage_w; /* lineage_w 0 when not shown */
	bool lineage_compact;   /* two lines instead of one per step */
	int lineage_h;          /* lines it may take: fewer than one per step shows the
	                         * steps around the current one and says how many more */
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
	int block_zoom;         /* the zoom the block is drawn at: the lab's, or the
	                         * largest below it that fits (lab_3d_layout) */
};

#endif
