/* lab_attention_int.h - what lab_attention.c and its layout
 * (lab_attention_layout.c) share, inside the lab only: the controller
 * lays out the heading and caption and hands the rest of the area on. */
#ifndef HEADLAB_LAB_ATTENTION_INT_H
#define HEADLAB_LAB_ATTENTION_INT_H

#include <stdint.h>

#include "attention.h"

struct lab;

/* Row-major index of ix in in's shape (in->rank axes): the label a grid
 * gives the cell. */
static inline int64_t
la_flat(const struct attention_info *in, const int64_t *ix)
{
	int64_t flat = 0;

	for (int k = 0; k < in->rank; k++)
		flat = flat * in->shape[k] + ix[k];
	return flat;
}

/* Lay out lines y..bottom-1, under the heading and caption: the grids,
 * the terms (need_terms lines of lab_attention_term_line() wanted) and
 * the side panel, or on a large screen the reading picture across it. */
void lab_attention_layout_body(struct lab *lab, int cols, int y, int bottom, int need_terms);

#endif
