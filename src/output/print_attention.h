/* print_attention.h - --print and --print --json of the attention pass:
 * every step's numbers, elided numpy-style when large, computed only where
 * they are shown. */
#ifndef HEADLAB_PRINT_ATTENTION_H
#define HEADLAB_PRINT_ATTENTION_H

#include <stdio.h>

#include "attention.h"
#include "print.h"
#include "scene.h"

/* Steps with more cells than this are elided, keeping EDGE at each end of
 * every axis (numpy's threshold and edge items). */
#define PRINT_ATTENTION_ELIDE_OVER 1000
#define PRINT_ATTENTION_EDGE 3

/* Every step as a header (code, shape, strides, contiguity, what it did)
 * and a grid of values to 4 significant digits. */
void print_attention_text(FILE *out, struct attention *a, const struct print_opts *opts);

/* One JSON object: seed, shape, heads, parameters (the four weights,
 * [out, in]) and steps (name, op, code, axes, shape, strides, contiguous,
 * copied, values); "..." where elided, "-inf" for masked scores. */
void print_attention_json(FILE *out, struct attention *a);

/* Tensor t's grid as --print draws it, for the lab: width columns to flow
 * panels into, focus (an index, or NULL) kept in view when elided (only
 * its panel when one_panel), every cell (masked ones too) labelled with
 * its row-major index in t.  At zoom z (0, as --print, to
 * PRINT_ATTENTION_ZOOM_MAX, for a large screen) every cell is 2z columns
 * wider and, from 2, rows have a blank line between them. */
#define PRINT_ATTENTION_ZOOM_MAX 3
void print_attention_scene(struct scene *sc, struct attention *a, enum attention_tensor t, bool utf8,
                           int width, const int64_t *focus, bool one_panel, int zoom);

/* A value as JSON: "%.17g", or the strings "-inf", "inf", "nan". */
void print_attention_number(FILE *out, double v);

#endif
