/* pattern.h - einops rearrange patterns, turned into walks.
 *
 * "b t (h d) -> b h t d" is parsed with einops' grammar (axis names,
 * parenthesised groups on either side, unit axes 1 and (), and ... for any
 * run of axes; no reductions or repeats) and decomposed the way einops
 * runs it: a reshape that ungroups x, one permute, a reshape that groups.
 * Every refusal says what is wrong and where, as a byte span of the text
 * it came from, so a command line or a prompt can put a caret under it. */
#ifndef HEADLAB_PATTERN_H
#define HEADLAB_PATTERN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "message.h"
#include "walk.h"

#define PATTERN_MAX_SIZES 16    /* --axis NAME=SIZE given to one pattern */

/* A size fixed from outside the pattern (--axis h=2). */
struct pattern_size {
	char name[WALK_NAME_MAX];
	int64_t size;
	const char *arg;        /* the NAME=SIZE text it came from, for errors; may be NULL */
};

/* Why a pattern or an --axis was refused, and where. */
struct pattern_error {
	char message[256];      /* one line, no trailing newline: the command line's English */
	char said[MESSAGE_SAID_MAX]; /* the same in the interface's language (message.h) */
	const char *text;       /* what pos points into (the pattern or an --axis argument);
	                         * NULL when the error has no place */
	const char *echo;       /* printed before text when it is echoed: "" or "--axis " */
	int pos;                /* byte offset of the problem in text (may equal its length) */
	int len;                /* bytes the problem spans, at least 1 */
};

/* Parse "NAME=SIZE" (as given to --axis); false with err filled in. */
bool pattern_parse_size(const char *arg, struct pattern_size *out, struct pattern_error *err);

/* Build the walk of pattern applied to x = arange(prod(shape)).reshape(shape):
 * input, then the ungroup reshape, the permute and the group reshape, each
 * left out when it would change nothing.  sizes fixes axes whose size
 * cannot be read off the shape.  The walk is WALK_CUSTOM, kind_name
 * "rearrange", summary the pattern, coloured by the result's head-like axis
 * (h, H, head or heads), else the first axis split out of a group of x,
 * else the result's first axis.  false with err filled in; w is then
 * unspecified. */
bool pattern_walk(struct walk *w, const char *pattern, int rank, const int64_t *shape,
                  const struct pattern_size *sizes, int nsizes, struct pattern_error *err);

/* Print err as three lines: prefix and message; the text it points into,
 * indented two columns; a caret under the problem.  Only the first line
 * when the error has no place. */
void pattern_error_print(FILE *out, const char *prefix, const struct pattern_error *err);

#endif
