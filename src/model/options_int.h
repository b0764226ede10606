/* options_int.h - what options.c and options_sizes.c share. */
#ifndef HEADLAB_OPTIONS_INT_H
#define HEADLAB_OPTIONS_INT_H

#include <stdint.h>
#include <stddef.h>

#include "options.h"

/* Why a number was refused; --shape and --heads say each in words of
 * their own (their keys), the other options with options_why's. */
enum options_reason {
	OPTIONS_NUMBER_OK,
	OPTIONS_NUMBER_MIN,     /* below 1 */
	OPTIONS_NUMBER_EMPTY,
	OPTIONS_NUMBER_NOT_WHOLE,
	OPTIONS_NUMBER_LARGE,
};


/* A whole decimal number into *out, or why not. */
enum options_reason options_read_number(const char *s, int64_t *out);

/* A whole decimal number; NULL on success, else the reason in words. */
const char *options_number(const char *s, int64_t *out);

/* Parse --shape into o: exactly 3 sizes (B,T,D) when max is 3, else 1 to
 * max; 0, or 2 with the refusal in err (and said, in the interface's
 * language, when not NULL). */
int options_shape(struct options *o, const char *arg, int max, char *err, size_t errsize,
                  char *said, size_t saidsize);

#endif
