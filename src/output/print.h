/* print.h - the non-interactive outputs: --print and --trace, as text or JSON. */
#ifndef HEADLAB_PRINT_H
#define HEADLAB_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "bugs.h"
#include "index.h"
#include "scene.h"
#include "walk.h"

struct print_opts {
	bool color;             /* ANSI colours for head groups */
	bool utf8;              /* box-drawing and ellipsis glyphs */
	int width;              /* columns to lay panels out in */
	bool view3d;            /* --view 3d: each step as a block (print3d.c) */
};

/* One-line description of the walk: "x = arange(12).reshape(1, 3, 4), ..." */
void print_walk_summary(char *buf, size_t size, const struct walk *w);

/* The caption-file key of what step k did ("effect.view", "effect.copy"...). */
const char *print_step_effect_key(const struct walk *w, int k);

/* What step k did to the data, in a few words ("view: no data moved"). */
const char *print_step_effect(const struct walk *w, int k);

/* Strides of step k as "(12, 4, 1)". */
void print_format_strides(char *buf, size_t size, const struct walk_step *s);

/* Draw a scene as text lines to out, each line prefixed by indent spaces. */
void print_scene(FILE *out, const struct scene *sc, int indent, bool color);

void print_walk_text(FILE *out, const struct walk *w, const struct print_opts *opts);

/* --print --view 3d: after step k's header, its block (scene3d) and a line
 * on what it shows; a drawing wider than opts->width is not printed but
 * said to be too wide. */
void print_step_3d(FILE *out, const struct walk *w, int k, const struct print_opts *opts);
void print_walk_json(FILE *out, const struct walk *w);
void print_trace_text(FILE *out, const struct walk *w, int64_t label);
void print_trace_json(FILE *out, const struct walk *w, int64_t label);

/* --index: the cells r picks from step k, as PyTorch prints a tensor
 * ("tensor([4, 5])") with a line on its shape, or as one JSON object.
 * Results over 1000 cells are elided like numpy, so any size prints fast. */
void print_index_text(FILE *out, const struct walk *w, int k, const struct index_result *r);
void print_index_json(FILE *out, const struct walk *w, int k, const char *expr,
                      const struct index_result *r);

/* The three lines of an --index error: "headlab: --index 'EXPR': why", the
 * expression, and a caret under the byte the error is about. */
void print_index_error(FILE *out, const char *expr, const struct index_error *e);

#endif
