/* options.h - the command line, parsed into a plain struct (no I/O here, so
 * the parser can be tested and fuzzed on its own). */
#ifndef HEADLAB_OPTIONS_H
#define HEADLAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk.h"

enum options_color { OPTIONS_COLOR_AUTO, OPTIONS_COLOR_ALWAYS, OPTIONS_COLOR_NEVER };

enum options_mode {
	OPTIONS_LAB,            /* the interactive lab */
	OPTIONS_PRINT,
	OPTIONS_TRACE,
	OPTIONS_INDEX,          /* --index: evaluate an expression on one step */
	OPTIONS_HELP,
	OPTIONS_VERSION,
};

struct options {
	enum options_mode mode;
	int64_t shape[3];       /* B, T, D */
	int64_t heads;
	enum walk_kind walk;     /* WALK_LESSON, or the bug --wrong chose */
	bool json;
	bool mouse;
	enum options_color color;
	int64_t trace;          /* OPTIONS_TRACE: the label to follow */
	const char *index;      /* OPTIONS_INDEX: the expression, as typed (in argv) */
	const char *at;         /* OPTIONS_INDEX: the step --at named, or NULL */
	const char *lang;       /* --lang: "en" or "zh"; NULL: from the locale */
	const char *theme;      /* --theme name; NULL: default */
	int zoom;               /* --zoom 1..4; 0: default */
	double play;            /* --play: seconds per step; 0: not playing */
};

/* Parse argv.  Returns 0, or 2 with a one-line message (without the
 * "headlab: " prefix) in err.  Reorders argv as getopt_long does. */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize);

/* Usage text for --help. */
extern const char options_usage[];

#endif
