/* options.h - the command line, parsed into a plain struct (no I/O here, so
 * the parser can be tested and fuzzed on its own). */
#ifndef HEADLAB_OPTIONS_H
#define HEADLAB_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "layout.h"
#include "walk.h"

#define OPTIONS_MAX_AXIS 16     /* --axis options kept */

enum options_color { OPTIONS_COLOR_AUTO, OPTIONS_COLOR_ALWAYS, OPTIONS_COLOR_NEVER };

enum options_mode {
	OPTIONS_LAB,            /* the interactive lab */
	OPTIONS_PRINT,
	OPTIONS_EXPORT,         /* --export DIR: every step as files */
	OPTIONS_TRACE,
	OPTIONS_INDEX,          /* --index: evaluate an expression on one step */
	OPTIONS_QUIZ,           /* --quiz --json: print the questions and answers */
	OPTIONS_EXPLAIN,        /* --explain: how one cell of the attention pass was computed */
	OPTIONS_CHECK,          /* --code CODE --check: the verdict on the code */
	OPTIONS_HELP,
	OPTIONS_VERSION,
};

struct options {
	enum options_mode mode;
	int64_t shape[LAYOUT_MAX_RANK]; /* B, T, D for the lesson; any rank for a pattern */
	int shape_rank;         /* sizes --shape gave; 0: not given (shape holds 1, 3, 4) */
	int64_t heads;
	bool heads_set;         /* --heads was given (patterns and some presets refuse it) */
	const char *pattern;    /* --rearrange PATTERN, or NULL */
	const char *preset;     /* --preset NAME (a known one), or NULL */
	const char *axis[OPTIONS_MAX_AXIS]; /* --axis NAME=SIZE as typed, checked with the walk */
	int naxis;
	const char *let[OPTIONS_MAX_AXIS]; /* --let NAME=SIZE as typed, for --code */
	const char *config;     /* --config: a model's config.json for --code's sizes, or NULL */
	int nlet;
	enum walk_kind walk;     /* WALK_LESSON, or the bug --wrong chose */
	bool json;
	bool mouse;
	enum options_color color;
	int64_t trace;          /* OPTIONS_TRACE: the label to follow */
	const char *export_dir; /* OPTIONS_EXPORT: the directory, as typed (in argv) */
	int64_t select;         /* --select: the label walk.svg and index.html light at every
	                         * step (with --export), or -1 */
	const char *index;      /* OPTIONS_INDEX: the expression, as typed (in argv) */
	const char *at;         /* OPTIONS_INDEX: the step --at named, or NULL */
	bool quiz;              /* --quiz: the lab asks questions (with --json: print them) */
	uint64_t seed;          /* --seed: the quiz's questions */
	bool seed_set;          /* --seed was given; else a new seed each run */
	int count;              /* --count: how many questions */
	const char *lang;       /* --lang: "en" or "zh"; NULL: from the locale */
	const char *theme;      /* --theme name; NULL: default */
	int zoom;               /* --zoom 1..6; 0: default */
	int slow;               /* --slow 1..20: the lab's glide this many times as slow; 0: default */
	double play;            /* --play: seconds per step; 0: not playing */
	bool attention;         /* --attention (or --explain): the forward pass, seeded by seed */
	bool fused;             /* --fused: its q, k, v from one c_attn = nn.Linear(D, 3D) */
	const char *explain;    /* OPTIONS_EXPLAIN: the cell expression, as typed (in argv) */
	const char *code;       /* --code: a line of PyTorch, as typed (in argv), or NULL */
	bool check;             /* --check: say whether the code splits or merges right */
	bool view3d;            /* --view 3d: steps drawn as a block (scene3d), not a grid */
	/* recordings: --keys, --size, --record (the lab only) */
	const char *keys;       /* --keys: a key script (keyscript.h), checked */
	int size_w, size_h;     /* --size WxH with no terminal; 0: 80x24 */
	const char *record;     /* --record FILE: an asciicast v2 file, or NULL */
};

/* Parse argv.  Returns 0, or 2 with a one-line message (without the
 * "headlab: " prefix) in err.  Reorders argv as getopt_long does. */
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize);

/* The usage text of --help, every option from the same table the parser
 * reads, no line over 80 columns. */
void options_print_usage(FILE *out);

#endif
