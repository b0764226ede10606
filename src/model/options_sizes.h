/* options_sizes.h - the numbers and sizes of the command line (a whole
 * number, --shape, --heads, the head counts that divide a width), shared
 * with the lab's : prompt so that both accept and refuse the same input
 * with the same message.  Below options.c: nothing here knows the option
 * table or struct options. */
#ifndef HEADLAB_OPTIONS_SIZES_H
#define HEADLAB_OPTIONS_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* Why a number was refused; --shape and --heads say each in words of
 * their own (their keys), the other options with options_number's. */
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

/* The checks of --shape and --heads.  Each returns 0, or 2 with a one-line
 * message in err (unsanitised: the argument is quoted as typed), and the
 * same in the interface's language in said (message.h; said may be NULL).
 * max is the most sizes allowed (3 for the lesson's B,T,D, which also
 * requires exactly 3); shape has room for LAYOUT_MAX_RANK sizes. */
int options_parse_shape(const char *arg, int max, int64_t *shape, int *rank, char *err, size_t errsize,
                        char *said, size_t saidsize);
int options_parse_heads(const char *arg, int64_t *heads, char *err, size_t errsize, char *said,
                        size_t saidsize);
/* 0 when heads divides width; else 2 and "width W is not divisible by H
 * heads (try ...)" with the nearest head counts that do. */
int options_check_heads(int64_t width, int64_t heads, char *err, size_t errsize, char *said,
                        size_t saidsize);

#endif
