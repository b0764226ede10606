/* reading.h - the lesson's two pictures of the attention pass as scenes
 * (pure data, drawn by print_scene or the lab): where each head reads from
 * one query position, and what zeroing one head's context does to the
 * output. */
#ifndef HEADLAB_READING_H
#define HEADLAB_READING_H

#include <stdbool.h>
#include <stddef.h>

#include "attention.h"
#include "scene.h"

struct reading_opts {
	bool utf8;              /* block glyphs for the bars; '#' otherwise */
	int bar_width;          /* columns of a full bar (weight 1) */
	int max_rows;           /* positions listed per head before eliding */
	int across;             /* heads side by side in a band; 1: one under the other */
	int thick;              /* side by side: lines a position takes, its bar on all
	                         * but the last (a gap) when more than 1 */
	int width;              /* the ablation's map: columns it may take */
};

/* Defaults: ASCII, 20-column bars, 8 positions per head, heads one under
 * the other. */
void reading_opts_default(struct reading_opts *o);

/* The weights row of query position t (batch b) in every head: one line
 * per position s read, with a bar and the weight (reading_value); the
 * positions the causal mask forbids drawn as a hatch and named.  With
 * o->across > 1 the heads stand side by side, o->across to a band, each
 * reading_across_width() columns wide.  More than max_rows positions: the largest weights,
 * in order of s, and a line counting the rest.  sc is reset first. */
void reading_build(struct scene *sc, struct attention *a, int64_t b, int64_t t,
                   const struct reading_opts *o);

/* A heat map's shade (the lab's scores, masked and weights grids, the
 * ablation's changes): a number's size as level 0 to 4 of |v| / max (max
 * 1 for weights, the largest |score| shown for scores), rounded; NaN and
 * infinities are level 0. */
int reading_shade(double v, double max);

/* The glyph of a level: blank, light, medium, dark shade, full block
 * (UTF-8) or ' ', '.', ':', '*', '#'; level -1 (the mask's -inf) a cross,
 * U+2573 or 'x'. */
const char *reading_shade_glyph(int level, bool utf8);

/* Columns one head takes side by side (its gap after it included). */
int reading_across_width(const struct attention *a, const struct reading_opts *o);

/* A weight at display precision, in buf: 6 decimals, "<1e-4" for a
 * weight above 0 that would print as 0.0000xx; returns buf. */
const char *reading_value(char *buf, size_t size, double w);

/* A number on the diverging scale, in buf (width columns, the number
 * right-aligned between two shade columns): the shade of |v| / max
 * (reading_shade) left of it when v < 0, right of it when v > 0, none
 * near 0; -inf between two crosses; |v| under 1e-4 written "≈0" ("~0"). */
void reading_diverging(char *buf, size_t size, double v, double max, int width, bool utf8);

/* The columns reading_diverging() needs for v at the least. */
int reading_diverging_width(double v, bool utf8);

/* Head ablation: a heat map of the output's change when head's context
 * is zeroed, output without it minus output with it, at every position
 * (rows) and feature (columns) of batch b on the diverging scale against
 * the largest change shown, the query position t's row marked; more than
 * o->max_rows positions or more features than o->width columns hold: both ends (and t's
 * neighbourhood) with the rest elided; under it the scale.  Each cell's
 * label is t' * D + i. */
void reading_build_ablation(struct scene *sc, struct attention *a, int64_t head, int64_t b,
                            int64_t t, const struct reading_opts *o);

/* The weight matrix behind a cell of q, k, v or their heads (r, from
 * attention_weight_rows): q_proj.weight [D, D] (k's, v's), or with
 * --fused c_attn.weight [3D, D], as a grid of its values, its head's rows
 * r->first .. r->first + r->count - 1 lit (SCENE_CELL, SCENE_MARK_LIT, in
 * the head's colour) and no other row, the cell's own row marked; at most
 * room lines (the head's rows kept over the others) and width columns,
 * what is left out marked.  Each cell's label is row * D + column. */
void reading_build_weight(struct scene *sc, struct attention *a, const struct attention_rows *r, int room,
                          int width, bool utf8);

#endif
