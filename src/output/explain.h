/* explain.h - how one cell of the attention pass was computed: the cells
 * its formula reads, term by term, each term's product, and their sum.
 * The lab lights the reads and lists the terms; --explain prints them. */
#ifndef HEADLAB_EXPLAIN_H
#define HEADLAB_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "attention.h"

/* One cell a term reads. */
struct explain_read {
	enum attention_tensor t;
	int64_t index[4];
	double value;
};

/* A term: reads[first .. first+nreads) of the explanation, and what it
 * adds to the sum. */
struct explain_term {
	int first, nreads;
	double product;
};

struct explain {
	enum attention_tensor t;
	int64_t index[4];
	int rank;
	double value;           /* the cell's value; the terms' products sum to it */
	bool leaf;              /* input or a parameter: nothing was computed */
	bool masked;            /* a masked score: -inf, no terms */
	double divisor;         /* scores: sqrt(d), already applied to each product */
	double row_max, row_sum; /* weights: the softmax's max and sum of exp */
	struct explain_term *terms;
	int nterms;
	struct explain_read *reads;
	int nreads;
};

/* Parse EXPR, such as "context[0, 0, 1, 0]" (negative indices count from
 * the end as in PyTorch), into e's tensor and index.  false with a one-line
 * reason in err (control characters shown as '?'). */
bool explain_parse(const struct attention *a, const char *expr, struct explain *e, char *err,
                   size_t errsize);

/* Fill e's value, reads and terms for the cell e names; false when memory
 * runs out. */
bool explain_cell(struct attention *a, struct explain *e);

void explain_print_text(FILE *out, const struct attention *a, const struct explain *e);

/* {"expr","step","index","value","terms":[{"reads":[[step,index],...],
 * "values":[...],"product"}]}, with "divisor", "masked" or "softmax" where
 * they apply. */
void explain_print_json(FILE *out, const struct attention *a, const struct explain *e);

void explain_free(struct explain *e);

#endif
