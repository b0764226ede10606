/* lab_attention.h - the lab's attention pass (A, --attention): the
 * controller's state and actions and where its parts go, without a
 * terminal.  The numbers come from attention.c, computed only where a grid,
 * the selection or a panel shows them; screen_attention.c paints. */
#ifndef HEADLAB_LAB_ATTENTION_H
#define HEADLAB_LAB_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attention.h"
#include "explain.h"
#include "lab.h"
#include "lab_layout.h"
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
	int zoom;               /* the grids' zoom (print_attention_scene_zoom) as laid out */
	int zoom_asked;         /* the zoom + and - asked for; -1: the largest that fits */
	struct lab_attention_fit fit; /* the largest that fitted, for the next layout */
	int src_dropped;        /* source grids left out for want of room */
	int dropped_y;          /* the line saying so; -1 none */
};

/* A toggles the pass: on, with the lab's shape, heads and seed (false and
 * a message in the status line when the pass cannot be built), or off. */
bool lab_attention_toggle(struct lab *lab);

/* An action in the attention pass; true when the screen changed. */
bool lab_attention_act(struct lab *lab, enum lab_action a);

/* Select index in step (the step becomes current); false, nothing
 * changed, when it is out of range. */
bool lab_attention_select(struct lab *lab, int step, const int64_t *index);

/* Lay out lines y..bottom-1 for cols columns: heading, grids (only their
 * shown cells computed), the lit reads, the terms and the side panel. */
void lab_attention_layout(struct lab *lab, int cols, int y, int bottom);

/* A click at (y, x): a cell of the grid or of a source grid selects it. */
void lab_attention_click(struct lab *lab, int y, int x);

void lab_attention_free(struct lab *lab);
/* The attention pass as a part of the lab: what it frees. */
extern const struct lab_part lab_attention_part;

/* The step bar's line: steps by name, the current one between marks
 * start..end (bytes of buf), windowed to cols columns. */
void lab_attention_steps(const struct lab *lab, char *buf, size_t size, int cols, int *start,
                         int *end);

/* The heading (code, shape, strides, what the step did) and caption. */
void lab_attention_heading(const struct lab *lab, char *buf, size_t size);
void lab_attention_caption(const struct lab *lab, char *buf, size_t size);

/* The title over source grid i: "reads q_heads", or for the weight
 * matrix the rows lit ("q_proj.weight: head 1's rows 2..3 lit"). */
void lab_attention_source_title(const struct lab *lab, int i, char *buf, size_t size);

/* The line under the grids when source grids found no room: which, and
 * what shows them. */
void lab_attention_dropped(const struct lab *lab, char *buf, size_t size);

/* The heat map's legend for tensor t's grid ("" for a grid that is no
 * heat map): what each shade means, and the mask's cross; for scores the
 * diverging scale as a bar from the largest negative shown through 0 to
 * the largest positive, shortened when longer than cols columns. */
void lab_attention_legend(const struct lab *lab, enum attention_tensor t, int cols, char *buf,
                          size_t size);

/* The selected cell and its value for the block lettering on a large
 * screen, "context[0,0,1,0] = 3.14148", in at most cols / 4 characters
 * (the value alone when the whole does not fit). */
void lab_attention_big(const struct lab *lab, int cols, char *buf, size_t size);

/* Line i of the terms panel at cols columns; false past the last. */
bool lab_attention_term_line(const struct lab *lab, int i, int cols, char *buf, size_t size);

/* merged, at the query position: line 0 "head 0 [a, b]  head 1 [c, d]",
 * line 1 "-> merged[b, t] = [a, b, c, d]: concatenated, not added"; ""
 * elsewhere. */
void lab_attention_concat(const struct lab *lab, int line, char *buf, size_t size);

/* Line i of the opening question's panel (a text plot); false past the
 * last.  utf8 picks the plot's glyphs. */
bool lab_attention_opening_line(int i, bool utf8, char *buf, size_t size);

#endif
