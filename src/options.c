/* options.c - parse and check the command line; every refusal names the
 * problem and what would be right. */
#include "options.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyscript.h"
#include "layout.h"
#include "preset.h"

const char options_usage[] =
	"usage: headlab [options]\n"
	"Watch the cells of x = arange(B*T*D).reshape(B,T,D) move as multi-head\n"
	"attention splits the width D into H heads of width d = D/H and merges them.\n"
	"\n"
	"  -s, --shape B,T,D              input shape (default 1,3,4); with --rearrange 1 to 8\n"
	"                                 sizes, with --preset the preset's own\n"
	"  -H, --heads N                  number of heads (default 2); D must be divisible by N\n"
	"  -w, --wrong[=KIND]             a bug that keeps the shapes and scrambles the content:\n"
	"                                 no-transpose (default): x.reshape(B,H,T,d);\n"
	"                                 swap-batch: .transpose(0, 1) instead of (1, 2);\n"
	"                                 d-h: x.reshape(B,T,d,H).permute(0, 3, 1, 2);\n"
	"                                 merge-no-transpose: merge without the transpose back\n"
	"  -r, --rearrange PATTERN        an einops rearrange pattern instead of split/merge,\n"
	"                                 such as 'b t (h d) -> b h t d'\n"
	"  -a, --axis NAME=SIZE           size of a pattern axis that cannot be read off the\n"
	"                                 shape, such as h=2 (repeatable)\n"
	"      --preset NAME              a named walk: lesson (default); qkv (--shape B,T,3D);\n"
	"                                 batch-heads (B,H,T,d); gqa (B,Hkv,T,d, --heads for\n"
	"                                 query heads); vit (B,C,H,W, --axis p1= p2=)\n"
	"  -t, --trace VALUE              print where the cell labelled VALUE is at every step; exit\n"
	"  -p, --print                    print every step's grid as text; exit\n"
	"      --export DIR               write every step as text, ANSI text, Markdown and\n"
	"                                 SVG files in DIR (created if missing); exit\n"
	"      --index EXPR               print the cells a PyTorch basic index such as\n"
	"                                 '[0, 0, 1]' picks from one step; exit\n"
	"      --at STEP                  the step --index reads, by name or number (default:\n"
	"                                 swap, the heads; the last step of a --wrong walk)\n"
	"      --json                     with --trace, --print, --index or --quiz: JSON on stdout\n"
	"      --color=auto|always|never  colour head groups (also --colour); NO_COLOR in the\n"
	"                                 environment means never\n"
	"      --no-mouse                 the lab ignores the mouse\n"
	"      --play[=SECONDS]           presenter mode: step by itself every SECONDS (2), loop\n"
	"      --zoom N                   cell size in the lab, 1 to 4 (4: big digits)\n"
	"      --theme NAME               default, projector, colorblind or mono\n"
	"      --lang en|zh               captions in English or Chinese (default: from LANG)\n"
	"      --quiz                     predict, then see: questions about the split, scored\n"
	"      --seed N, --count N        the quiz's questions (same seed, same quiz) and how many\n"
	"      --keys 'KEY ...'           play keys, then exit: Right, 4, Enter, wait:1.5\n"
	"      --size WxH                 the lab's size with no terminal (default 80x24)\n"
	"      --record FILE              write the lab session as an asciicast v2 file\n"
	"  -h, --help                     this help, exit 0\n"
	"  -V, --version                  version and ncurses version, exit 0\n"
	"\n"
	"With no --trace, --print, --index or --export, headlab opens the interactive lab.\n"
	"Exit status: 0 success, 1 runtime failure, 2 usage error or bad input.\n";

enum { OPT_JSON = 256, OPT_EXPORT, OPT_COLOR, OPT_NO_MOUSE, OPT_LANG, OPT_THEME, OPT_ZOOM, OPT_PLAY, OPT_INDEX, OPT_AT,
       OPT_PRESET, OPT_QUIZ, OPT_SEED, OPT_COUNT,
       OPT_KEYS, OPT_SIZE, OPT_RECORD };

static const struct option options_long[] = {
	{ "shape", required_argument, NULL, 's' },
	{ "heads", required_argument, NULL, 'H' },
	{ "wrong", optional_argument, NULL, 'w' },
	{ "rearrange", required_argument, NULL, 'r' },
	{ "axis", required_argument, NULL, 'a' },
	{ "trace", required_argument, NULL, 't' },
	{ "print", no_argument, NULL, 'p' },
	{ "export", required_argument, NULL, OPT_EXPORT },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "at", required_argument, NULL, OPT_AT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "no-mouse", no_argument, NULL, OPT_NO_MOUSE },
	{ "lang", required_argument, NULL, OPT_LANG },
	{ "theme", required_argument, NULL, OPT_THEME },
	{ "zoom", required_argument, NULL, OPT_ZOOM },
	{ "play", optional_argument, NULL, OPT_PLAY },
	{ "preset", required_argument, NULL, OPT_PRESET },
	{ "quiz", no_argument, NULL, OPT_QUIZ },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "keys", required_argument, NULL, OPT_KEYS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Themes the lab knows; kept here so the parser needs no terminal code. */
static bool
options_theme_known(const char *name)
{
	static const char *const themes[] = { "default", "projector", "colorblind", "mono" };

	for (size_t i = 0; i < sizeof themes / sizeof themes[0]; i++)
		if (strcmp(themes[i], name) == 0)
			return true;
	return false;
}

/* Explain an option getopt_long refused: typed is the word as typed. */
static void
options_unknown(const char *typed, int optopt_char, char *err, size_t errsize)
{
	char name[64], matches[256] = "";
	const char *eq;
	size_t len;
	int n = 0, exact = -1;

	if (strncmp(typed, "--", 2) != 0) {
		if (optopt_char > 32 && optopt_char < 127)
			snprintf(err, errsize, "unknown option '-%c' (see 'headlab --help')", optopt_char);
		else
			snprintf(err, errsize, "unknown option '%.60s' (see 'headlab --help')", typed);
		return;
	}
	eq = strchr(typed, '=');
	len = eq ? (size_t)(eq - typed) : strlen(typed);
	snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), typed);
	for (const struct option *op = options_long; op->name; op++) {
		/* a prefix test: strncmp stops at the shorter string's end */
		/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
		if (strncmp(op->name, name + 2, strlen(name + 2)) != 0)
			continue;
		if (strcmp(op->name, name + 2) == 0)
			exact = (int)(op - options_long);
		snprintf(matches + strlen(matches), sizeof matches - strlen(matches), "%s--%s",
		         n++ ? ", " : "", op->name);
	}
	if (exact >= 0 || (n == 1 && eq))
		snprintf(err, errsize, "option '%s' takes no value (see 'headlab --help')", name);
	else if (n > 1)
		snprintf(err, errsize, "option '%s' is ambiguous: %s", name, matches);
	else
		snprintf(err, errsize, "unknown option '%s' (see 'headlab --help')", name);
}

/* A whole decimal number; 0 on success, else a reason. */
static const char *
options_number(const char *s, int64_t *out)
{
	int64_t v = 0;
	const char *p = s;

	assert(s != NULL);      /* getopt_long's optarg for an option that takes one */
	if (*p == '-' && p[1] >= '0' && p[1] <= '9')
		return "must be at least 1";
	if (*p == '+')
		p++;
	if (*p == '\0')
		return "is empty";
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return "is not a whole number";
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return "is too large";
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return NULL;
}

/* Parse --shape: exactly 3 sizes (B,T,D) for the lesson's walk, 1 to
 * LAYOUT_MAX_RANK for a pattern or a preset (which checks its own rank). */
static int
options_shape(struct options *o, const char *arg, int max, char *err, size_t errsize)
{
	const char *p = arg;
	static const char *const names[3] = { "B", "T", "D" };
	const char *want = max == 3 ? "want B,T,D such as 1,3,4" : "want sizes such as 2,3,4";
	int64_t cells = 1;
	int n = 0;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char field[32], name[16];
		const char *why;

		if (n == max) {
			if (max == 3)
				snprintf(err, errsize, "--shape '%s' has more than 3 sizes (%s)", arg, want);
			else
				snprintf(err, errsize, "--shape '%s' has more than %d sizes (headlab handles "
				         "rank 1 to %d)", arg, max, max);
			return 2;
		}
		if (max == 3)
			snprintf(name, sizeof name, "%s", names[n]);
		else
			snprintf(name, sizeof name, "%d", n + 1);
		if (len >= sizeof field) {
			snprintf(err, errsize, "--shape '%s': size %s is too large (%s)", arg, name, want);
			return 2;
		}
		memcpy(field, p, len);
		field[len] = '\0';
		why = options_number(field, &o->shape[n]);
		if (why == NULL && o->shape[n] < 1)
			why = "must be at least 1";
		if (why) {
			snprintf(err, errsize, "--shape '%s': size %s %s (%s)", arg, name, why, want);
			return 2;
		}
		n++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	if (max == 3 && n != 3) {
		snprintf(err, errsize, "--shape '%s' has %d size%s, want 3: B,T,D such as 1,3,4",
		         arg, n, n == 1 ? "" : "s");
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (!layout_mul(cells, o->shape[i], &cells)) {
			snprintf(err, errsize, "--shape '%s' has more cells than a 64-bit count holds "
			         "(%s must stay below 2^63)", arg, max == 3 ? "B*T*D" : "their product");
			return 2;
		}
	o->shape_rank = n;
	return 0;
}

/* "try 1, 2 or 4": the head counts that divide width, or the nearest ones. */
static void
options_divisors(int64_t width, int64_t heads, char *buf, size_t size)
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
		used += (size_t)snprintf(buf + used, size - used, "%s%lld",
		                         i == 0 ? "" : i + 1 == n ? " or " : ", ",
		                         (long long)found[i]);
}

/* --keys, --size and --record: recordings of the lab. */
static int
options_recording(struct options *o, int c, const char *arg, char *err, size_t errsize)
{
	struct keyscript ks;
	char *end;
	long w, h;

	switch (c) {
	case OPT_KEYS:
		if (keyscript_parse(&ks, arg, err, errsize))
			return 2;
		keyscript_free(&ks);
		o->keys = arg;
		return 0;
	case OPT_SIZE:
		errno = 0;
		w = strtol(arg, &end, 10);
		h = *end == 'x' && end[1] >= '0' && end[1] <= '9' ? strtol(end + 1, &end, 10) : -1;
		if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno || w < 1 || w > 1000 || h < 1 || h > 1000) {
			snprintf(err, errsize, "--size '%.40s' is not a terminal size (want WxH, 1 to 1000 "
			         "each, such as 80x24)", arg);
			return 2;
		}
		o->size_w = (int)w;
		o->size_h = (int)h;
		return 0;
	default:
		if (*arg == '\0') {
			snprintf(err, errsize, "--record needs a file name (such as --record lesson.cast)");
			return 2;
		}
		o->record = arg;
		return 0;
	}
}

/* The recording options go with the lab only. */
static int
options_recording_check(const struct options *o, char *err, size_t errsize)
{
	if ((o->keys || o->size_w || o->record) && o->mode != OPTIONS_LAB &&
	    o->mode != OPTIONS_HELP && o->mode != OPTIONS_VERSION) {
		snprintf(err, errsize, "--keys, --size and --record go with the lab (not with --print, "
		         "--trace, --index, --export or --quiz --json)");
		return 2;
	}
	return 0;
}

static int
options_parse_args(struct options *o, int argc, char **argv, char *err, size_t errsize)
{
	bool print = false, trace = false, help = false, version = false, lesson;
	const char *shape_arg = NULL;
	const char *no_color = getenv("NO_COLOR");
	int c;

	memset(o, 0, sizeof *o);
	o->shape[0] = 1;
	o->shape[1] = 3;
	o->shape[2] = 4;
	o->heads = 2;
	o->mouse = true;
	o->color = no_color && *no_color ? OPTIONS_COLOR_NEVER : OPTIONS_COLOR_AUTO;
	err[0] = '\0';
	opterr = 0;
	optind = 0;             /* glibc: restart scanning, also for repeated calls */
	/* getopt_long sets optarg for every option that takes a value; the
	 * analyzer keeps an optional value's NULL from one round to the next */
	/* NOLINTBEGIN(clang-analyzer-core.NullDereference,clang-analyzer-core.NonNullParamChecker) */
	while ((c = getopt_long(argc, argv, ":s:H:w::r:a:t:phV", options_long, NULL)) != -1) {
		const char *why;

		switch (c) {
		case 's':
			/* parsed after the loop: its rank depends on --rearrange */
			shape_arg = optarg;
			break;
		case 'H':
			why = options_number(optarg, &o->heads);
			if (why == NULL && o->heads < 1)
				why = "must be at least 1";
			if (why) {
				snprintf(err, errsize, "--heads '%s' %s (want a head count such as 2)",
				         optarg, why);
				return 2;
			}
			o->heads_set = true;
			break;
		case 'w':
			o->walk = WALK_WRONG;
			if (optarg && !walk_kind_parse(optarg, &o->walk)) {
				snprintf(err, errsize, "--wrong='%s' is not a known bug (known: no-transpose, "
				         "swap-batch, d-h, merge-no-transpose)", optarg);
				return 2;
			}
			break;
		case 'r':
			o->pattern = optarg;
			break;
		case 'a':
			/* NAME=SIZE is checked with the pattern, to point into both */
			if (o->naxis == OPTIONS_MAX_AXIS) {
				snprintf(err, errsize, "too many --axis options (at most %d)",
				         OPTIONS_MAX_AXIS);
				return 2;
			}
			o->axis[o->naxis++] = optarg;
			break;
		case OPT_QUIZ:
			o->quiz = true;
			break;
		case OPT_SEED: {
			int64_t v;

			why = options_number(optarg, &v);
			if (why && strcmp(why, "must be at least 1") == 0)
				why = "must be 0 or more";
			if (why) {
				snprintf(err, errsize, "--seed '%s' %s (want a whole number such as 7)", optarg, why);
				return 2;
			}
			o->seed = (uint64_t)v;
			o->seed_set = true;
			break;
		}
		case OPT_COUNT: {
			int64_t v;

			why = options_number(optarg, &v);
			if (why == NULL && (v < 1 || v > 64))
				why = "is not between 1 and 64";
			if (why) {
				snprintf(err, errsize, "--count '%s' %s (want a number of questions such as 7)",
				         optarg, why);
				return 2;
			}
			o->count = (int)v;
			break;
		}
		case OPT_PRESET:
			if (preset_find(optarg) == NULL) {
				char names[200];

				preset_names(names, sizeof names);
				snprintf(err, errsize, "--preset '%s' is not a preset (known: %s)", optarg,
				         names);
				return 2;
			}
			o->preset = optarg;
			break;
		case 't':
			why = options_number(optarg, &o->trace);
			if (why && strcmp(why, "must be at least 1") == 0)
				why = "must be a label from 0 up";
			if (why) {
				snprintf(err, errsize, "--trace '%s' %s (want a cell label such as 4)",
				         optarg, why);
				return 2;
			}
			trace = true;
			break;
		case 'p':
			print = true;
			break;
		case OPT_EXPORT:
			if (*optarg == '\0') {
				snprintf(err, errsize, "--export needs a directory name (such as --export slides)");
				return 2;
			}
			o->export_dir = optarg;
			break;
		case OPT_INDEX:
			/* parsed against the chosen step once the walk is built */
			o->index = optarg;
			break;
		case OPT_AT:
			o->at = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_COLOR:
			/* NO_COLOR in the environment means never, whatever the flag */
			if (strcmp(optarg, "auto") == 0 || strcmp(optarg, "always") == 0)
				o->color = no_color && *no_color ? OPTIONS_COLOR_NEVER
				         : optarg[1] == 'u' ? OPTIONS_COLOR_AUTO : OPTIONS_COLOR_ALWAYS;
			else if (strcmp(optarg, "never") == 0)
				o->color = OPTIONS_COLOR_NEVER;
			else {
				snprintf(err, errsize, "--color='%s' is not one of auto, always, never", optarg);
				return 2;
			}
			break;
		case OPT_NO_MOUSE:
			o->mouse = false;
			break;
		case OPT_LANG:
			if (strcmp(optarg, "en") != 0 && strcmp(optarg, "zh") != 0) {
				snprintf(err, errsize, "--lang '%s' is not a caption language (en or zh)", optarg);
				return 2;
			}
			o->lang = optarg;
			break;
		case OPT_THEME:
			if (!options_theme_known(optarg)) {
				snprintf(err, errsize, "--theme '%s' is not a theme (default, projector, "
				         "colorblind or mono)", optarg);
				return 2;
			}
			o->theme = optarg;
			break;
		case OPT_ZOOM: {
			int64_t z;

			why = options_number(optarg, &z);
			if (why == NULL && (z < 1 || z > 4))
				why = "is not between 1 and 4";
			if (why) {
				snprintf(err, errsize, "--zoom '%s' %s (want a cell size from 1 to 4)", optarg, why);
				return 2;
			}
			o->zoom = (int)z;
			break;
		}
		case OPT_PLAY: {
			char *end;

			o->play = 2.0;
			if (optarg) {
				errno = 0;
				o->play = strtod(optarg, &end);
				if (*optarg == '\0' || *end != '\0' || errno || !(o->play >= 0.2 && o->play <= 3600)) {
					snprintf(err, errsize, "--play='%s' is not a pause in seconds from 0.2 "
					         "to 3600 (such as --play=2)", optarg);
					return 2;
				}
			}
			break;
		}
		case OPT_KEYS: case OPT_SIZE: case OPT_RECORD:
			if (options_recording(o, c, optarg, err, errsize))
				return 2;
			break;
		case 'h':
			help = true;
			break;
		case 'V':
			version = true;
			break;
		case ':':
			/* argv[optind - 1] is the option as typed, long or short */
			snprintf(err, errsize, "option '%s' needs a value (see 'headlab --help')",
			         argv[optind - 1]);
			return 2;
		default:
			options_unknown(argv[optind - 1], optopt, err, errsize);
			return 2;
		}
	}
	/* NOLINTEND(clang-analyzer-core.NullDereference,clang-analyzer-core.NonNullParamChecker) */
	if (optind < argc) {
		snprintf(err, errsize, "unexpected argument '%s' (options start with -; see 'headlab --help')",
		         argv[optind]);
		return 2;
	}
	if (help) {
		o->mode = OPTIONS_HELP;
		return 0;
	}
	if (version) {
		o->mode = OPTIONS_VERSION;
		return 0;
	}
	if (print && trace) {
		snprintf(err, errsize, "--print and --trace do not go together (choose one)");
		return 2;
	}
	if (o->export_dir && (print || trace || o->index)) {
		snprintf(err, errsize, "--export and --%s do not go together (choose one)",
		         print ? "print" : trace ? "trace" : "index");
		return 2;
	}
	if (o->index && (print || trace)) {
		snprintf(err, errsize, "--index and --%s do not go together (choose one)",
		         print ? "print" : "trace");
		return 2;
	}
	if (o->at && !o->index) {
		snprintf(err, errsize, "--at goes with --index (as in --index '[0, 0, 1]' --at swap)");
		return 2;
	}
	if (o->json && !print && !trace && !o->index && !o->quiz) {
		snprintf(err, errsize, "--json goes with --trace or --print, or with --index or --quiz");
		return 2;
	}
	if (o->quiz && (print || trace || o->index || o->export_dir || o->pattern ||
	                (o->preset && strcmp(o->preset, "lesson") != 0))) {
		snprintf(err, errsize, "--quiz asks about the lesson's split (with --shape, --heads): "
		         "it does not go with --print, --trace, --index, --export, --rearrange or --preset");
		return 2;
	}
	if ((o->seed_set || o->count) && !o->quiz) {
		snprintf(err, errsize, "--seed and --count go with --quiz");
		return 2;
	}
	if (o->pattern && o->preset) {
		snprintf(err, errsize, "--rearrange and --preset do not go together (choose one)");
		return 2;
	}
	/* the lesson's walk wants B,T,D; patterns and presets any rank (the
	 * preset checks its own) and their checks come with the walk */
	lesson = o->pattern == NULL && (o->preset == NULL || strcmp(o->preset, "lesson") == 0);
	if (shape_arg && options_shape(o, shape_arg, lesson ? 3 : LAYOUT_MAX_RANK, err, errsize))
		return 2;
	if (o->naxis > 0 && o->pattern == NULL && o->preset == NULL) {
		snprintf(err, errsize, "--axis goes with --rearrange (it sizes an axis of the "
		         "pattern, such as --rearrange 'b t (h d) -> b h t d' --axis h=2)");
		return 2;
	}
	if (!lesson) {
		o->mode = print ? OPTIONS_PRINT : o->export_dir ? OPTIONS_EXPORT : trace ? OPTIONS_TRACE :
		          o->index ? OPTIONS_INDEX : OPTIONS_LAB;
		return 0;
	}
	if (o->shape[2] % o->heads != 0) {
		char try[200];

		options_divisors(o->shape[2], o->heads, try, sizeof try);
		snprintf(err, errsize, "width %lld is not divisible by %lld head%s (try %s)",
		         (long long)o->shape[2], (long long)o->heads, o->heads == 1 ? "" : "s", try);
		return 2;
	}
	if (trace) {
		int64_t cells = o->shape[0] * o->shape[1] * o->shape[2];

		if (o->trace >= cells) {
			snprintf(err, errsize, cells == 1 ? "label %lld is out of range: x has %lld cell, labelled 0 to %lld"
			         : "label %lld is out of range: x has %lld cells, labelled 0 to %lld",
			         (long long)o->trace, (long long)cells, (long long)(cells - 1));
			return 2;
		}
	}
	o->mode = print ? OPTIONS_PRINT : o->export_dir ? OPTIONS_EXPORT : trace ? OPTIONS_TRACE :
	          o->index ? OPTIONS_INDEX : o->quiz && o->json ? OPTIONS_QUIZ : OPTIONS_LAB;
	return 0;
}

int
options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize)
{
	int rc = options_parse_args(o, argc, argv, err, errsize);

	if (rc == 0)
		rc = options_recording_check(o, err, errsize);

	/* messages quote arguments as typed: a newline or an escape sequence
	 * in one must not split the line or reach the terminal */
	for (char *p = err; rc != 0 && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return rc;
}
