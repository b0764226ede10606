/* lab_attention_types.h - the attention pass's state in the lab: the
 * selection, the side panel, and the frame its layout
 * (lab_attention_layout.c) places for the screens to paint. */
#ifndef HEADLAB_LAB_ATTENTION_TYPES_H
#define HEADLAB_LAB_ATTENTION_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "attention.h"
#include "explain.h"
#include "lab_frame.h"
#include "scene.h"

#define LAB_ATTENTION_SOURCES 3 /* grids of the steps the selection reads, and
                                 * the weight matrix whose rows made it */
#define LAB_ATTENTION_TERMS 8   /* terms listed, at most: the largest, in order */
/* From this size of the pass's area up, the reading picture is the
 * centre of the screen, under the grids and across it; below, it sits
 * beside the terms. */
#define LAB_ATTENTION_CENTRE_COLS 100
#define LAB_ATTENTION_CENTRE_LINES 28

/* What the panel beside the terms shows. */
enum lab_attention_side {
	LAB_ATTENTION_SIDE_READING,  /* each head's weights row at the query position */
	LAB_ATTENTION_SIDE_ABLATION, /* x: one head's context zeroed, the output's changes */
	LAB_ATTENTION_SIDE_OPENING, /* o: the lesson's opening question, as a plot */
};

/* The zoom the grids last grew to by themselves, and for what room. */
struct lab_attention_fit {
	int step, cols, y, h;
	int zoom;               /* -1: nothing kept yet */
	int nsrc, dropped;      /* the grids it reads shown and left out at it */
};

struct lab_attention {
	struct attention a;
	int step;               /* enum attention_tensor, below ATTENTION_NSTEPS */
	int64_t sel[4];         /* the selected cell's index in step */
	/* the selection in the lesson's words, carried from step to step */
	int64_t b, t, h, j, s;  /* batch, query position, head, feature in head, position read */
	enum lab_attention_side side;
	int64_t ablate;         /* the head x zeroes */
	struct explain e;       /* how the selected cell was computed */
	bool have_e;
	int listed[LAB_ATTENTION_TERMS]; /* the terms listed: the largest |product|s, in order */
	int nlisted;

	/* the frame, as lab_attention_layout() placed it */
	int heading_y;          /* code, shape, strides; caption under it */
	int caption_y, caption_lines;
	struct scene grid;      /* the current step */
	struct lab_place grid_at;
	bool show_grid;
	int grid_hidden;        /* the grid's lines cut off at the area's foot; 0 none */
	struct scene src[LAB_ATTENTION_SOURCES]; /* steps the selection reads */
	enum attention_tensor src_t[LAB_ATTENTION_SOURCES];
	struct lab_place src_at[LAB_ATTENTION_SOURCES];
	int title_y[LAB_ATTENTION_SOURCES], title_x[LAB_ATTENTION_SOURCES];
	int nsrc;               /* source grids that fit */
	int concat_y;           /* merged: the concatenation line; -1 none */
	struct lab_rect terms;  /* the selected cell's terms; h 0 none */
	struct lab_rect side_box; /* the reading, ablation or opening panel; h 0 none */
	int big_y;              /* the selected cell and its value in block lettering,
	                         * 3 lines (lab_attention_big); -1 none */
	struct scene side_scene; /* reading or ablation */
	struct lab_place side_at;
	int64_t nlit;           /* cells lit in the visible grids */
	int zoom;               /* the grids' zoom (print_attention_scene) as laid out */
	int zoom_asked;         /* the zoom + and - asked for; -1: the largest that fits */
	struct lab_attention_fit fit; /* the largest that fitted, for the next layout */
	int src_dropped;        /* source grids left out for want of room */
	int dropped_y;          /* the line saying so; -1 none */
};

#endif
