/* options_sizes.c - the numbers and sizes of the command line: a whole
 * number, --shape, --heads and the head counts that divide a width; the
 * lab's prompts check what is typed there with the same functions. */
#include "options_sizes.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "message.h"
#include "text.h"
#include "utf8.h"

static const char *const options_why[] = {
	NULL, "must be at least 1", "is empty", "is not a whole number", "is too large",
};

/* A whole decimal number into *out, or why not. */
enum options_reason
options_read_number(const char *s, int64_t *out)
{
	int64_t v = 0;
	const char *p = s;

	assert(s != NULL);      /* getopt_long's optarg for an option that takes one */
	if (*p == '-' && p[1] >= '0' && p[1] <= '9')
		return OPTIONS_NUMBER_MIN;
	if (*p == '+')
		p++;
	if (*p == '\0')
		return OPTIONS_NUMBER_EMPTY;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return OPTIONS_NUMBER_NOT_WHOLE;
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return OPTIONS_NUMBER_LARGE;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return OPTIONS_NUMBER_OK;
}

/* A whole decimal number; 0 on success, else a reason. */
const char *
options_number(const char *s, int64_t *out)
{
	return options_why[options_read_number(s, out)];
}

/* Refuse size name of --shape arg for why; max 3 is the lesson's B,T,D. */
static void
options_shape_size(const char *arg, const char *name, enum options_reason why, int max, char *err,
                   size_t errsize, char *said, size_t saidsize)
{
	if (max == 3 && why == OPTIONS_NUMBER_MIN)
		message_say(err, errsize, said, saidsize, "msg.shape.min3", "--shape '%s': size %s must be "
		            "at least 1 (want B,T,D such as 1,3,4)", arg, name);
	else if (max == 3 && why == OPTIONS_NUMBER_EMPTY)
		message_say(err, errsize, said, saidsize, "msg.shape.empty3", "--shape '%s': size %s is "
		            "empty (want B,T,D such as 1,3,4)", arg, name);
	else if (max == 3 && why == OPTIONS_NUMBER_LARGE)
		message_say(err, errsize, said, saidsize, "msg.shape.large3", "--shape '%s': size %s is "
		            "too large (want B,T,D such as 1,3,4)", arg, name);
	else if (max == 3)
		message_say(err, errsize, said, saidsize, "msg.shape.notwhole3", "--shape '%s': size %s is not a whole "
		            "number (want B,T,D such as 1,3,4)", arg, name);
	else if (why == OPTIONS_NUMBER_MIN)
		message_say(err, errsize, said, saidsize, "msg.shape.min", "--shape '%s': size %s must be "
		            "at least 1 (want sizes such as 2,3,4)", arg, name);
	else if (why == OPTIONS_NUMBER_EMPTY)
		message_say(err, errsize, said, saidsize, "msg.shape.empty", "--shape '%s': size %s is "
		            "empty (want sizes such as 2,3,4)", arg, name);
	else if (why == OPTIONS_NUMBER_LARGE)
		message_say(err, errsize, said, saidsize, "msg.shape.large", "--shape '%s': size %s is "
		            "too large (want sizes such as 2,3,4)", arg, name);
	else
		message_say(err, errsize, said, saidsize, "msg.shape.notwhole", "--shape '%s': size %s is not a whole "
		            "number (want sizes such as 2,3,4)", arg, name);
}

/* Parse --shape: exactly 3 sizes (B,T,D) for the lesson's walk, 1 to
 * LAYOUT_MAX_RANK for a pattern or a preset (which checks its own rank). */
int
options_parse_shape(const char *arg, int max, int64_t *shape, int *rank, char *err, size_t errsize,
                    char *said, size_t saidsize)
{
	const char *p = arg;
	static const char *const names[3] = { "B", "T", "D" };
	int64_t cells = 1;
	int n = 0;

	if (max < 1 || max > LAYOUT_MAX_RANK)
		max = LAYOUT_MAX_RANK;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char field[32], name[16];
		enum options_reason why;

		if (n == max) {
			if (max == 3)
				message_say(err, errsize, said, saidsize, "msg.shape.more3", "--shape '%s' has "
				            "more than 3 sizes (want B,T,D such as 1,3,4)", arg);
			else
				message_say(err, errsize, said, saidsize, "msg.shape.more", "--shape '%s' has "
				            "more than %d sizes (headlab handles rank 1 to %d)", arg, max, max);
			return 2;
		}
		if (max == 3)
			snprintf(name, sizeof name, "%s", names[n]);
		else
			snprintf(name, sizeof name, "%d", n + 1);
		if (len >= sizeof field) {
			options_shape_size(arg, name, OPTIONS_NUMBER_LARGE, max, err, errsize, said, saidsize);
			return 2;
		}
		memcpy(field, p, len);
		field[len] = '\0';
		why = options_read_number(field, &shape[n]);
		if (why == OPTIONS_NUMBER_OK && shape[n] < 1)
			why = OPTIONS_NUMBER_MIN;
		if (why != OPTIONS_NUMBER_OK) {
			options_shape_size(arg, name, why, max, err, errsize, said, saidsize);
			return 2;
		}
		n++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (max == 3 && n != 3) {
		if (n == 1)
			message_say(err, errsize, said, saidsize, "msg.shape.count1", "--shape '%s' has %d "
			            "size, want 3: B,T,D such as 1,3,4", arg, n);
		else
			message_say(err, errsize, said, saidsize, "msg.shape.count", "--shape '%s' has %d "
			            "sizes, want 3: B,T,D such as 1,3,4", arg, n);
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (!layout_mul(cells, shape[i], &cells)) {
			if (max == 3)
				message_say(err, errsize, said, saidsize, "msg.shape.big", "--shape '%s' has "
				            "more cells than a 64-bit count holds (B*T*D must stay below "
				            "2^63)", arg);
			else
				message_say(err, errsize, said, saidsize, "msg.shape.big.any", "--shape '%s' has "
				            "more cells than a 64-bit count holds (their product must stay "
				            "below 2^63)", arg);
			return 2;
		}
	*rank = n;
	return 0;
}

/* "try 1, 2 or 4": the head counts that divide width, or the nearest
 * ones, the last joined with the word or. */
static void
options_divisors(int64_t width, int64_t heads, const char *or, char *buf, size_t size)
{
	int64_t found[64];
	int n = 0;
	size_t used = 0;

	if (width <= 1000000) {
		for (int64_t h = 1; h <= width && n < 64; h++)
			if (width % h == 0)
				found[n++] = h;
	}
	if (n == 0 || n > 8) {
		int64_t below = 0, above = 0;

		n = 0;
		for (int64_t h = heads - 1; h >= 1 && heads - h < 1000000; h--)
			if (width % h == 0) {
				below = h;
				break;
			}
		for (int64_t h = heads + 1; h <= width && h - heads < 1000000; h++)
			if (width % h == 0) {
				above = h;
				break;
			}
		if (below == 0)
			below = 1;
		found[n++] = below;
		if (above)
			found[n++] = above;
	}
	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s%s%lld",
		                         i == 0 ? "" : i + 1 == n ? " " : ", ",
		                         i > 0 && i + 1 == n ? or : "", i > 0 && i + 1 == n ? " " : "",
		                         (long long)found[i]);
}

/* ------------------------------------- the checks the lab shares --- */

int
options_parse_heads(const char *arg, int64_t *heads, char *err, size_t errsize, char *said,
                    size_t saidsize)
{
	int64_t h = 0;
	enum options_reason why = options_read_number(arg, &h);

	if (why == OPTIONS_NUMBER_OK && h < 1)
		why = OPTIONS_NUMBER_MIN;
	if (why == OPTIONS_NUMBER_MIN)
		message_say(err, errsize, said, saidsize, "msg.heads.min", "--heads '%s' must be at least 1 "
		            "(want a head count such as 2)", arg);
	else if (why == OPTIONS_NUMBER_EMPTY)
		message_say(err, errsize, said, saidsize, "msg.heads.empty", "--heads '%s' is empty (want a "
		            "head count such as 2)", arg);
	else if (why == OPTIONS_NUMBER_LARGE)
		message_say(err, errsize, said, saidsize, "msg.heads.large", "--heads '%s' is too large "
		            "(want a head count such as 2)", arg);
	else if (why == OPTIONS_NUMBER_NOT_WHOLE)
		message_say(err, errsize, said, saidsize, "msg.heads.notwhole", "--heads '%s' is not a whole number (want "
		            "a head count such as 2)", arg);
	if (why != OPTIONS_NUMBER_OK)
		return 2;
	*heads = h;
	return 0;
}

int
options_check_heads(int64_t width, int64_t heads, char *err, size_t errsize, char *said,
                    size_t saidsize)
{
	char try[200], scratch[8];

	if (heads >= 1 && width % heads == 0)
		return 0;
	/* 1 head divides every width: the count is always plural here */
	options_divisors(width, heads, "or", try, sizeof try);
	message_say(err, errsize, NULL, 0, "msg.heads.notdiv",
	            "width %lld is not divisible by %lld heads (try %s)", (long long)width,
	            (long long)heads, try);
	if (said) {
		/* the list's last "or" is said in the interface's language too */
		options_divisors(width, heads, text_get("ui.or", "or"), try, sizeof try);
		message_say(scratch, sizeof scratch, said, saidsize, "msg.heads.notdiv",
		            "width %lld is not divisible by %lld heads (try %s)", (long long)width,
		            (long long)heads, try);
	}
	return 2;
}
