/* reading.h - the lesson's two pictures of the attention pass as scenes
 * (pure data, drawn by print_scene or the lab): where each head reads from
 * one query position, and what zeroing one head's context does to the
 * output. */
#ifndef HEADLAB_READING_H
#define HEADLAB_READING_H

#include <stdbool.h>

#include "attention.h"
#include "scene.h"

struct reading_opts {
	bool utf8;              /* block glyphs for the bars; '#' otherwise */
	int bar_width;          /* columns of a full bar (weight 1) */
	int max_rows;           /* positions listed per head before eliding */
};

/* Defaults: ASCII, 20-column bars, 8 positions per head. */
void reading_opts_default(struct reading_opts *o);

/* The weights row of query position t (batch b) in every head: one line
 * per position s read, with a bar and the weight to 6 decimals; masked
 * positions say so.  More than max_rows positions: the largest weights,
 * in order of s, and a line counting the rest.  sc is reset first. */
void reading_build(struct scene *sc, struct attention *a, int64_t b, int64_t t,
                   const struct reading_opts *o);

/* Head ablation at (b, t): every output feature i with its value, its
 * value with head's context zeroed and the change; more than max_rows
 * features: the largest changes, in order of i. */
void reading_build_ablation(struct scene *sc, struct attention *a, int64_t head, int64_t b,
                            int64_t t, const struct reading_opts *o);

#endif
