/* lab_attention.h - the lab's attention pass (A, --attention): the
 * controller's actions, its words and where its parts go, without a
 * terminal; its state is lab_attention_types.h's.  The numbers come from
 * attention.c, computed only where a grid, the selection or a panel shows
 * them; screen_attention.c paints. */
#ifndef HEADLAB_LAB_ATTENTION_H
#define HEADLAB_LAB_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attention.h"
#include "lab.h"
#include "lab_attention_types.h"
#include "lab_layout.h"

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
