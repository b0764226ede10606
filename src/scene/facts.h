/* facts.h - what headlab states about a walk and each of its steps: the
 * summary of the walk, a step's heading, shape, strides, contiguity, what
 * it did to the data, and its caption.  --print, the exported files and
 * the lab say these the same way because they all take them from here. */
#ifndef HEADLAB_FACTS_H
#define HEADLAB_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "walk.h"

/* What every output says about one step, in English as --print. */
struct facts {
	char heading[160];      /* "step 2 of 6 · split_heads · reshape" */
	char title[120];        /* "split_heads · reshape", or "input" */
	char shape[200];        /* "[B,T,H,d] = [1, 3, 2, 2]" */
	char strides[200];      /* "(12, 4, 2, 1)" */
	const char *contiguity; /* "contiguous" or "not contiguous" */
	const char *effect;     /* "view: no data moved" ... */
	char summary[256];      /* the walk: "x = arange(12)..., 2 heads ..." */
	char what[200];         /* what the walk does, or "" when summary says it */
	char caption[1024];     /* "" when none; sanitised for a terminal */
};

/* One line on the walk: "x = arange(12).reshape(1, 3, 4), 2 heads of
 * width d = 2: split_heads, then merge_heads". */
void facts_walk_summary(char *buf, size_t size, const struct walk *w);
/* The same in the language loaded (text.h): the lesson's, a bug's and a
 * preset's summary from their captions; code and patterns as written. */
void facts_walk_title(char *buf, size_t size, const struct walk *w);

/* The caption-file key of what step k did ("effect.view", "effect.copy"...). */
const char *facts_effect_key(const struct walk *w, int k);

/* What step k did to the data, in a few words ("view: no data moved"). */
const char *facts_effect(const struct walk *w, int k);

/* Strides of a step as "(12, 4, 1)". */
void facts_strides(char *buf, size_t size, const struct walk_step *s);

/* Everything above for step k of w.  utf8 chooses " · " over " - " as the
 * separator; the caption is caption when not NULL, else the loaded caption
 * file's for this step when captions is true, else "".  The summary is
 * split in two (summary, then what) when it names what the walk does. */
void facts_step(struct facts *f, const struct walk *w, int k, bool utf8, const char *caption,
                bool captions);

/* The heading with the step's code, then shape, strides, contiguity and
 * effect on one line of at most width columns (on two when they do not
 * fit), each line indented as --print does. */
void facts_print_head(FILE *out, const struct facts *f, const char *code, int width);

/* What the step bar, the lineage and the exported walk call step k of w,
 * in the interface's language: its name where its PyTorch title alone would
 * not tell it from another step (the lesson transposes twice), else its
 * title. */
const char *facts_step_word(const struct walk *w, int k);

/* A step group's name (split_heads, a code walk's "code", ...) in the
 * interface's language. */
const char *facts_group_word(const char *group);

#endif
