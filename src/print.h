/* print.h - the non-interactive outputs: --print and --trace, as text or JSON. */
#ifndef HEADLAB_PRINT_H
#define HEADLAB_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "scene.h"
#include "walk.h"

struct print_opts {
	bool color;             /* ANSI colours for head groups */
	bool utf8;              /* box-drawing and ellipsis glyphs */
	int width;              /* columns to lay panels out in */
};

/* One-line description of the walk: "x = arange(12).reshape(1, 3, 4), ..." */
void print_walk_summary(char *buf, size_t size, const struct walk *w);

/* What step k did to the data, in a few words ("view: no data moved"). */
const char *print_step_effect(const struct walk *w, int k);

/* Strides of step k as "(12, 4, 1)". */
void print_format_strides(char *buf, size_t size, const struct walk_step *s);

/* Draw a scene as text lines to out, each line prefixed by indent spaces. */
void print_scene(FILE *out, const struct scene *sc, int indent, bool color);

void print_walk_text(FILE *out, const struct walk *w, const struct print_opts *opts);
void print_walk_json(FILE *out, const struct walk *w);
void print_trace_text(FILE *out, const struct walk *w, int64_t label);
void print_trace_json(FILE *out, const struct walk *w, int64_t label);

#endif
