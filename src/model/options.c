/* options.c - parse and check the command line; every refusal names the
 * problem and what would be right. */
#include "options.h"
#include "options_sizes.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "keyscript.h"
#include "layout.h"
#include "message.h"
#include "preset.h"
#include "text.h"
#include "utf8.h"

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

/* The word of argv getopt_long refused an option in.  After a short
 * option that is not the last of its word ("-pé" refuses the byte 0xc3),
 * optind still points at that word; otherwise it has moved past it. */
static const char *
options_refused_word(int argc, char **argv, int byte)
{
	const char *cur = optind < argc ? argv[optind] : NULL;

	if (cur && cur[0] == '-' && cur[1] != '-' && byte > 0 && strchr(cur + 1, byte))
		return cur;
	return argv[optind - 1];
}

/* ------------------------------------------------------ the table --- */

/* The parse in progress: the options being filled, and what is decided
 * only once every option has been seen. */
struct options_state {
	struct options *o;
	const char *shape_arg;  /* --shape as typed: its rank depends on --rearrange */
	bool print, trace, help, version;
	bool no_color;          /* NO_COLOR is set in the environment */
};

/* Take one option's value (NULL for none); 0, or 2 with a message. */
typedef int (*options_handler)(struct options_state *st, const char *arg, char *err,
                               size_t errsize);

/* One option: how it is typed, what --help says of it, what it does. */
struct options_row {
	const char *name;       /* the long name, without "--" */
	char letter;            /* the short option, or 0 */
	int has_arg;            /* no_argument, required_argument or optional_argument */
	const char *synopsis;   /* how --help shows it ("-s, --shape B,T,D"), NULL: not shown */
	const char *help;       /* what it does, wrapped by --help; '\n' starts a line */
	options_handler handle;
};

static int
options_on_shape(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->shape_arg = arg;    /* parsed after the loop: its rank depends on --rearrange */
	return 0;
}

static int
options_on_heads(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (options_parse_heads(arg, &st->o->heads, err, errsize, NULL, 0))
		return 2;
	st->o->heads_set = true;
	return 0;
}

static int
options_on_wrong(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->walk = WALK_WRONG;
	if (arg && !walk_kind_parse(arg, &st->o->walk)) {
		char names[256];

		bugs_names(names, sizeof names, ", ");
		snprintf(err, errsize, "--wrong='%s' is not a known bug (known: %s)", arg, names);
		return 2;
	}
	return 0;
}

static int
options_on_rearrange(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->pattern = arg;
	return 0;
}

static int
options_on_axis(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	/* NAME=SIZE is checked with the pattern, to point into both */
	if (st->o->naxis == OPTIONS_MAX_AXIS) {
		snprintf(err, errsize, "too many --axis options (at most %d)", OPTIONS_MAX_AXIS);
		return 2;
	}
	st->o->axis[st->o->naxis++] = arg;
	return 0;
}

static int
options_on_preset(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (preset_find(arg) == NULL) {
		char names[200];

		preset_names(names, sizeof names);
		snprintf(err, errsize, "--preset '%s' is not a preset (known: %s)", arg, names);
		return 2;
	}
	st->o->preset = arg;
	return 0;
}

static int
options_on_trace(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	const char *why = options_number(arg, &st->o->trace);

	if (why && strcmp(why, "must be at least 1") == 0)
		why = "must be a label from 0 up";
	if (why) {
		snprintf(err, errsize, "--trace '%s' %s (want a cell label such as 4)", arg, why);
		return 2;
	}
	st->trace = true;
	return 0;
}

static int
options_on_select(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	const char *why = options_number(arg, &st->o->select);

	if (why && strcmp(why, "must be at least 1") == 0)
		why = "must be a label from 0 up";
	if (why) {
		snprintf(err, errsize, "--select '%s' %s (want a cell label such as 4)", arg, why);
		return 2;
	}
	return 0;
}

static int
options_on_print(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->print = true;
	return 0;
}

static int
options_on_export(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (*arg == '\0') {
		snprintf(err, errsize, "--export needs a directory name (such as --export slides)");
		return 2;
	}
	st->o->export_dir = arg;
	return 0;
}

static int
options_on_index(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->index = arg;     /* parsed against the chosen step once the walk is built */
	return 0;
}

static int
options_on_at(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->at = arg;
	return 0;
}

static int
options_on_json(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->json = true;
	return 0;
}

static int
options_on_color(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	/* NO_COLOR in the environment means never, whatever the flag */
	if (strcmp(arg, "auto") == 0 || strcmp(arg, "always") == 0)
		st->o->color = st->no_color ? OPTIONS_COLOR_NEVER
		             : arg[1] == 'u' ? OPTIONS_COLOR_AUTO : OPTIONS_COLOR_ALWAYS;
	else if (strcmp(arg, "never") == 0)
		st->o->color = OPTIONS_COLOR_NEVER;
	else {
		snprintf(err, errsize, "--color='%s' is not one of auto, always, never", arg);
		return 2;
	}
	return 0;
}

static int
options_on_no_mouse(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->mouse = false;
	return 0;
}

static int
options_on_play(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	char *end;

	st->o->play = 2.0;
	if (arg) {
		errno = 0;
		st->o->play = strtod(arg, &end);
		if (*arg == '\0' || *end != '\0' || errno ||
		    !(st->o->play >= 0.2 && st->o->play <= 3600)) {
			snprintf(err, errsize, "--play='%s' is not a pause in seconds from 0.2 "
			         "to 3600 (such as --play=2)", arg);
			return 2;
		}
	}
	return 0;
}

static int
options_on_zoom(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	int64_t z;
	const char *why = options_number(arg, &z);

	if (why == NULL && (z < 1 || z > 6))
		why = "is not between 1 and 6";
	if (why) {
		snprintf(err, errsize, "--zoom '%s' %s (want a cell size from 1 to 6)", arg, why);
		return 2;
	}
	st->o->zoom = (int)z;
	return 0;
}

static int
options_on_slow(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	int64_t f;
	const char *why = options_number(arg, &f);

	if (why == NULL && (f < 1 || f > 20))
		why = "is not between 1 and 20";
	if (why) {
		snprintf(err, errsize, "--slow '%s' %s (want how many times as slow the glide is, "
		         "from 1 to 20)", arg, why);
		return 2;
	}
	st->o->slow = (int)f;
	return 0;
}

static int
options_on_theme(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (!options_theme_known(arg)) {
		snprintf(err, errsize, "--theme '%s' is not a theme (default, projector, "
		         "colorblind or mono)", arg);
		return 2;
	}
	st->o->theme = arg;
	return 0;
}

static int
options_on_lang(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (strcmp(arg, "en") != 0 && strcmp(arg, "zh") != 0) {
		snprintf(err, errsize, "--lang '%s' is not a caption language (en or zh)", arg);
		return 2;
	}
	st->o->lang = arg;
	return 0;
}

static int
options_on_quiz(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->quiz = true;
	return 0;
}

static int
options_on_fused(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->fused = true;
	return 0;
}

static int
options_on_seed(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	int64_t v;
	const char *why = options_number(arg, &v);

	if (why && strcmp(why, "must be at least 1") == 0)
		why = "must be 0 or more";
	if (why == NULL && v > (int64_t)UINT32_MAX)
		why = "is too large (at most 4294967295)";
	if (why) {
		snprintf(err, errsize, "--seed '%s' %s (want a whole number such as 7)", arg, why);
		return 2;
	}
	st->o->seed = (uint64_t)v;
	st->o->seed_set = true;
	return 0;
}

static int
options_on_attention(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->attention = true;
	return 0;
}

static int
options_on_explain(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->explain = arg;   /* parsed against the pass's shapes once it is built */
	st->o->attention = true;
	return 0;
}

static int
options_on_config(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->config = arg;
	return 0;
}

static int
options_on_let(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	const char *eq = strchr(arg, '=');

	if (st->o->nlet == OPTIONS_MAX_AXIS) {
		snprintf(err, errsize, "too many --let options (at most %d)", OPTIONS_MAX_AXIS);
		return 2;
	}
	if (eq == NULL || eq == arg || eq - arg >= 40 || eq[1] == '\0' || strlen(eq + 1) >= 24) {
		snprintf(err, errsize, "--let takes NAME=SIZE, such as --let n_head=H or --let extra_dim=1");
		return 2;
	}
	st->o->let[st->o->nlet++] = arg;
	return 0;
}

static int
options_on_code(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	static char text[8192];
	FILE *f;
	size_t n;

	st->o->code = arg;
	if (strcmp(arg, "-") != 0 && arg[0] != '@')
		return 0;
	/* a pasted block: from standard input or a file */
	f = strcmp(arg, "-") == 0 ? stdin : fopen(arg + 1, "r");
	if (f == NULL) {
		snprintf(err, errsize, "--code %.200s: cannot read the file", arg);
		return 2;
	}
	n = fread(text, 1, sizeof text - 1, f);
	if (f != stdin)
		fclose(f);
	text[n] = '\0';
	if (memchr(text, '\0', n) != NULL) {
		snprintf(err, errsize, "--code %.200s: the file holds a NUL byte, not Python code", arg);
		return 2;
	}
	st->o->code = text;
	return 0;
}

static int
options_on_check(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->o->check = true;
	return 0;
}

static int
options_on_view(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (strcmp(arg, "grid") != 0 && strcmp(arg, "3d") != 0) {
		snprintf(err, errsize, "--view '%.60s' is not a view (grid or 3d)", arg);
		return 2;
	}
	st->o->view3d = strcmp(arg, "3d") == 0;
	return 0;
}

static int
options_on_count(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	int64_t v;
	const char *why = options_number(arg, &v);

	if (why == NULL && (v < 1 || v > 64))
		why = "is not between 1 and 64";
	if (why) {
		snprintf(err, errsize, "--count '%s' %s (want a number of questions such as 7)",
		         arg, why);
		return 2;
	}
	st->o->count = (int)v;
	return 0;
}

/* --keys, --size and --record: recordings of the lab (the lab only, see
 * options_recording_check). */
static int
options_on_keys(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	struct keyscript ks;

	if (keyscript_parse(&ks, arg, err, errsize))
		return 2;
	keyscript_free(&ks);
	st->o->keys = arg;
	return 0;
}

static int
options_on_size(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	char *end;
	long w, h;

	errno = 0;
	w = strtol(arg, &end, 10);
	h = *end == 'x' && end[1] >= '0' && end[1] <= '9' ? strtol(end + 1, &end, 10) : -1;
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno || w < 1 || w > 1000 || h < 1 ||
	    h > 1000) {
		snprintf(err, errsize, "--size '%.40s' is not a terminal size (want WxH, 1 to 1000 "
		         "each, such as 80x24)", arg);
		return 2;
	}
	st->o->size_w = (int)w;
	st->o->size_h = (int)h;
	return 0;
}

static int
options_on_record(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	if (*arg == '\0') {
		snprintf(err, errsize, "--record needs a file name (such as --record lesson.cast)");
		return 2;
	}
	st->o->record = arg;
	return 0;
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
options_on_help(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->help = true;
	return 0;
}

static int
options_on_version(struct options_state *st, const char *arg, char *err, size_t errsize)
{
	st->version = true;
	return 0;
}

/* Every option, in the order --help lists them. */
static const struct options_row options_table[] = {
	{ "shape", 's', required_argument, "-s, --shape B,T,D",
	  "input shape (default 1,3,4); with --rearrange\n"
	  "1 to 8 sizes, with --preset the preset's own", options_on_shape },
	{ "heads", 'H', required_argument, "-H, --heads N",
	  "number of heads (default 2), which must divide D", options_on_heads },
	{ "wrong", 'w', optional_argument, "-w, --wrong[=KIND]",
	  "a bug that raises no error and scrambles the content:", options_on_wrong },
	{ "rearrange", 'r', required_argument, "-r, --rearrange PATTERN",
	  "an einops rearrange pattern instead of split/merge, such as 'b t (h d) -> b h t d'",
	  options_on_rearrange },
	{ "axis", 'a', required_argument, "-a, --axis NAME=SIZE",
	  "size of a pattern axis that cannot be read off the shape, such as h=2 (repeatable)",
	  options_on_axis },
	{ "preset", 0, required_argument, "--preset NAME",
	  "a named walk: lesson (default);\n"
	  "qkv (--shape B,T,3D); batch-heads (B,H,T,d);\n"
	  "gqa (B,Hkv,T,d, --heads for query heads);\n"
	  "vit (B,C,H,W, --axis p1= p2=)",
	  options_on_preset },
	{ "trace", 't', required_argument, "-t, --trace VALUE",
	  "print where the cell labelled VALUE is at every step; exit", options_on_trace },
	{ "print", 'p', no_argument, "-p, --print",
	  "print every step's grid as text; exit", options_on_print },
	{ "export", 0, required_argument, "--export DIR",
	  "write every step as text, ANSI text, Markdown and SVG files in DIR (created if "
	  "missing; a directory of other files is refused), the walk animated in walk.svg and "
	  "a page that plays it, index.html; exit", options_on_export },
	{ "select", 0, required_argument, "--select VALUE",
	  "with --export: the label walk.svg and index.html light at every step",
	  options_on_select },
	{ "index", 0, required_argument, "--index EXPR",
	  "print the cells a PyTorch basic index such as\n"
	  "'[0, 0, 1]' picks from one step; exit",
	  options_on_index },
	{ "at", 0, required_argument, "--at STEP",
	  "the step --index reads, by name or number (default: swap, the heads; the last step "
	  "of a --wrong walk)", options_on_at },
	{ "json", 0, no_argument, "--json",
	  "JSON on stdout (with --trace, --print, --index\nor --quiz)", options_on_json },
	{ "color", 0, required_argument, "--color=auto|always|never",
	  "colour head groups (also --colour); NO_COLOR in the environment means never",
	  options_on_color },
	{ "colour", 0, required_argument, NULL, NULL, options_on_color },
	{ "no-mouse", 0, no_argument, "--no-mouse", "the lab ignores the mouse",
	  options_on_no_mouse },
	{ "play", 0, optional_argument, "--play[=SECONDS]",
	  "presenter mode: a step every SECONDS (2), looping", options_on_play },
	{ "zoom", 0, required_argument, "--zoom N",
	  "cell size in the lab, 1 to 6 (4 to 6: big digits)", options_on_zoom },
	{ "slow", 0, required_argument, "--slow FACTOR",
	  "slow motion in the lab: each step glides FACTOR times as slowly, 1 to 20 (S cycles 2, "
	  "4, 8)", options_on_slow },
	{ "theme", 0, required_argument, "--theme NAME",
	  "default, projector, colorblind or mono", options_on_theme },
	{ "lang", 0, required_argument, "--lang en|zh",
	  "captions in English or Chinese (default: from LANG)", options_on_lang },
	{ "quiz", 0, no_argument, "--quiz",
	  "predict, then see: questions about the split, scored", options_on_quiz },
	{ "seed", 0, required_argument, "--seed N",
	  "the quiz's questions (same seed, same quiz); with\n"
	  "--attention torch.manual_seed(N) (0 to 2^32-1, default 42)", options_on_seed },
	{ "fused", 0, no_argument, "--fused",
	  "with --attention: q, k, v as GPT-2 makes them, one\n"
	  "c_attn = nn.Linear(D, 3*D) split in three", options_on_fused },
	{ "count", 0, required_argument, "--count N",
	  "how many questions the quiz asks", options_on_count },
	{ "attention", 0, no_argument, "--attention",
	  "the lesson's forward pass instead of the layout walk: q, k, v, heads, scores, mask, "
	  "softmax, context, merge, output, with PyTorch's nn.Linear weights", options_on_attention },
	{ "explain", 0, required_argument, "--explain EXPR",
	  "how one cell of the attention pass was computed, term by term, such as "
	  "'context[0,0,1,0]'; exit", options_on_explain },
	{ "code", 0, required_argument, "--code CODE",
	  "a line or block of PyTorch as written (@FILE reads a file, - standard input): "
	  "any tensor name starts a chain, x, heads (the split) and context (heads.contiguous()) "
	  "are the lesson's; every call is a step, such as 'x.view(B, T, H, d).transpose(1, 2)'",
	  options_on_code },
	{ "config", 0, required_argument, "--config FILE",
	  "with --code: the sizes from a model's config.json (hidden_size or n_embd, "
	  "num_attention_heads or n_head, head_dim, max_position_embeddings), named in the verdict",
	  options_on_config },
	{ "let", 0, required_argument, "--let NAME=SIZE",
	  "with --code: what a size name in the code stands for, a number or B, T, D, H, d "
	  "(repeatable); overrides the reading by convention, such as --let head_size=H",
	  options_on_let },
	{ "check", 0, no_argument, "--check",
	  "with --code: does it split (from x) or merge (from heads, context) right? "
	  "exit 0 right, 3 wrong, 2 fails", options_on_check },
	{ "view", 0, required_argument, "--view grid|3d",
	  "flat panels (default) or each step as a 3D block of labelled boxes, in the lab "
	  "(3 toggles it there), --print and --export", options_on_view },
	{ "keys", 0, required_argument, "--keys 'KEY ...'",
	  "play keys in the lab, then exit: Right, 4, Enter, wait:1.5, paste:FILE", options_on_keys },
	{ "size", 0, required_argument, "--size WxH",
	  "the lab's size with no terminal (default 80x24)", options_on_size },
	{ "record", 0, required_argument, "--record FILE",
	  "write the lab session as an asciicast v2 file", options_on_record },
	{ "help", 'h', no_argument, "-h, --help", "this help, exit 0", options_on_help },
	{ "version", 'V', no_argument, "-V, --version",
	  "version and ncurses version, exit 0", options_on_version },
};

#define OPTIONS_N (sizeof options_table / sizeof options_table[0])
#define OPTIONS_HELP_COL 28     /* where --help's descriptions start */
#define OPTIONS_HELP_WIDTH 80   /* and the column no line passes */

void
options_print_usage(FILE *out)
{
	fputs("usage: headlab [options]\n"
	      "Watch the cells of x = arange(B*T*D).reshape(B,T,D) move as multi-head\n"
	      "attention splits the width D into H heads of width d = D/H and merges them.\n\n",
	      out);
	for (size_t i = 0; i < OPTIONS_N; i++) {
		const struct options_row *r = &options_table[i];
		char help[1024];
		const char *p = r->help;
		int col;

		if (r->handle == options_on_wrong) {
			/* the kinds are rows of the bug table, not words here */
			char kinds[768];
			size_t n;

			bugs_usage(kinds, sizeof kinds, 0);
			n = strlen(kinds);
			if (n > 0 && kinds[n - 1] == '\n')
				kinds[n - 1] = '\0';
			snprintf(help, sizeof help, "%s\n%s", r->help, kinds);
			p = help;
		}

		if (r->synopsis == NULL)
			continue;
		col = fprintf(out, "  %s%s", r->letter ? "" : "    ", r->synopsis);
		if (col + 2 > OPTIONS_HELP_COL) {
			fputc('\n', out);
			col = 0;
		}
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t seglen = nl ? (size_t)(nl - p) : strlen(p);
			char seg[512];

			snprintf(seg, sizeof seg, "%.*s", (int)seglen, p);
			for (const char *q = seg; *q;) {
				const char *next;
				size_t n = utf8_wrap(q, OPTIONS_HELP_WIDTH - OPTIONS_HELP_COL, &next);

				fprintf(out, "%*s%.*s\n", OPTIONS_HELP_COL - col, "", (int)n, q);
				col = 0;
				q = next;
			}
			p += seglen + (nl != NULL);
		}
	}
	fputs("\nWithout --trace, --print, --index or --export, headlab opens the lab.\n"
	      "Exit status: 0 success, 1 runtime failure, 2 usage error or bad input.\n", out);
}

/* The row of an option getopt_long returned: a letter, or 256 + its row. */
static const struct options_row *
options_row_of(int c)
{
	if (c >= 256 && (size_t)(c - 256) < OPTIONS_N)
		return &options_table[c - 256];
	for (size_t i = 0; i < OPTIONS_N; i++)
		if (c > 0 && options_table[i].letter == c)
			return &options_table[i];
	return NULL;
}

/* getopt_long's tables, made from the rows once. */
static void
options_getopt_tables(struct option *longs, char *shorts, size_t shorts_size)
{
	size_t used = 0;

	shorts[used++] = ':';   /* a missing value is ':', not '?' */
	for (size_t i = 0; i < OPTIONS_N; i++) {
		const struct options_row *r = &options_table[i];

		longs[i] = (struct option){ r->name, r->has_arg, NULL,
		                            r->letter ? r->letter : (int)(256 + i) };
		/* an alias (--colour) answers as its original, so that getopt_long
		 * takes an abbreviation of both (--col) as one option */
		for (size_t j = 0; j < i; j++)
			if (options_table[j].handle == r->handle)
				longs[i].val = longs[j].val;
		if (r->letter && used + 3 < shorts_size) {
			shorts[used++] = r->letter;
			if (r->has_arg != no_argument)
				shorts[used++] = ':';
			if (r->has_arg == optional_argument)
				shorts[used++] = ':';
		}
	}
	longs[OPTIONS_N] = (struct option){ NULL, 0, NULL, 0 };
	shorts[used] = '\0';
}

/* Explain an option getopt_long refused: typed is the word as typed, and
 * a short option is named by its whole character ("-é", not a byte). */
static void
options_unknown(const char *typed, int optopt_char, char *err, size_t errsize)
{
	char name[64], matches[256] = "";
	const char *eq;
	size_t len;
	int n = 0, exact = -1;

	if (strncmp(typed, "--", 2) != 0) {
		const char *at = typed[0] == '-' && optopt_char > 0 ? strchr(typed + 1, optopt_char) : NULL;
		uint32_t cp;

		if (at == NULL) {
			snprintf(err, errsize, "unknown option '%.60s' (see 'headlab --help')", typed);
			return;
		}
		/* a continuation byte: the character began a byte or more before */
		while (at > typed + 1 && ((unsigned char)*at & 0xc0) == 0x80)
			at--;
		snprintf(err, errsize, "unknown option '-%.*s' (see 'headlab --help')",
		         (int)utf8_decode(at, strlen(at), &cp), at);
		return;
	}
	eq = strchr(typed, '=');
	len = eq ? (size_t)(eq - typed) : strlen(typed);
	snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), typed);
	for (size_t i = 0; i < OPTIONS_N; i++) {
		const char *long_name = options_table[i].name;

		/* a prefix test: strncmp stops at the shorter string's end */
		/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
		if (strncmp(long_name, name + 2, strlen(name + 2)) != 0)
			continue;
		if (strcmp(long_name, name + 2) == 0)
			exact = (int)i;
		snprintf(matches + strlen(matches), sizeof matches - strlen(matches), "%s--%s",
		         n++ ? ", " : "", long_name);
	}
	if (exact >= 0 || (n == 1 && eq))
		snprintf(err, errsize, "option '%s' takes no value (see 'headlab --help')", name);
	else if (n > 1)
		snprintf(err, errsize, "option '%s' is ambiguous: %s", name, matches);
	else
		snprintf(err, errsize, "unknown option '%s' (see 'headlab --help')", name);
}


/* What --attention (or --explain) goes with: the lesson's shape, --heads,
 * --seed, --print, --json; the layout walk's other modes are refused. */
static int
options_attention(struct options *o, bool print, bool trace, char *err, size_t errsize)
{
	const char *other = trace ? "--trace" : o->index ? "--index" : o->export_dir ? "--export"
	                  : o->pattern ? "--rearrange" : o->preset ? "--preset"
	                  : o->walk != WALK_LESSON ? "--wrong" : o->quiz ? "--quiz"
	                  : o->code ? "--code" : o->view3d ? "--view" : NULL;

	if (other) {
		snprintf(err, errsize, "--%s and %s do not go together (the attention pass has "
		         "--print, --explain, --json, --shape, --heads, --seed and --fused)",
		         o->explain ? "explain" : "attention", other);
		return 2;
	}
	if (o->explain && print) {
		snprintf(err, errsize, "--explain and --print do not go together (choose one)");
		return 2;
	}
	if (!o->seed_set)
		o->seed = 42;
	return 0;
}

/* --code and --check: what they go with; 2 with a message when misused. */
static int
options_code(const struct options *o, bool print, bool trace, char *err, size_t errsize)
{
	if ((o->config || o->nlet > 0) && o->code == NULL) {
		snprintf(err, errsize, "--%s goes with --code (as in --code 'x.view(B, T, H, d)' --check "
		         "--%s)", o->config ? "config" : "let", o->config ? "config config.json" : "let H=4");
		return 2;
	}
	if (o->config && (o->shape_rank || o->heads_set)) {
		snprintf(err, errsize, "--config gives the sizes: leave out --shape and --heads");
		return 2;
	}
	if (o->check && o->code == NULL) {
		snprintf(err, errsize, "--check goes with --code (as in --code 'x.view(B, T, H, d)"
		         ".transpose(1, 2)' --check)");
		return 2;
	}
	if (o->check && (print || trace || o->index || o->export_dir)) {
		snprintf(err, errsize, "--check and --%s do not go together (choose one)",
		         print ? "print" : trace ? "trace" : o->index ? "index" : "export");
		return 2;
	}
	if (o->code && (o->pattern || o->preset || o->walk != WALK_LESSON || o->quiz)) {
		snprintf(err, errsize, "--code does not go with --%s (the code is the walk)",
		         o->pattern ? "rearrange" : o->preset ? "preset" : o->quiz ? "quiz" : "wrong");
		return 2;
	}
	return 0;
}

/* The options that go together and the mode they choose, once every option
 * has been seen; 0, or 2 with a message. */
static int
options_combine(struct options_state *st, char *err, size_t errsize)
{
	struct options *o = st->o;
	bool print = st->print, trace = st->trace;

	if (print && trace) {
		snprintf(err, errsize, "--print and --trace do not go together (choose one)");
		return 2;
	}
	if (o->export_dir && (print || trace || o->index)) {
		snprintf(err, errsize, "--export and --%s do not go together (choose one)",
		         print ? "print" : trace ? "trace" : "index");
		return 2;
	}
	if (o->select >= 0 && !o->export_dir) {
		snprintf(err, errsize, "--select goes with --export (as in --export slides --select 4)");
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
	if (options_code(o, print, trace, err, errsize))
		return 2;
	if (o->json && !print && !trace && !o->index && !o->quiz && !o->explain && !o->check) {
		snprintf(err, errsize, "--json goes with --trace or --print, or with --index or --quiz "
		         "(or --explain, --check)");
		return 2;
	}
	if (o->view3d && (o->json || trace || o->index || o->quiz)) {
		snprintf(err, errsize, "--view 3d draws the steps: it goes with the lab, --print or "
		         "--export, not with --%s", o->json ? "json" : trace ? "trace" : o->index ? "index" : "quiz");
		return 2;
	}
	if (o->quiz && (print || trace || o->index || o->export_dir || o->pattern ||
	                (o->preset && strcmp(o->preset, "lesson") != 0))) {
		snprintf(err, errsize, "--quiz asks about the lesson's split (with --shape, --heads): "
		         "it does not go with --print, --trace, --index, --export, --rearrange or --preset");
		return 2;
	}
	if (o->attention && options_attention(o, print, trace, err, errsize))
		return 2;
	if (o->fused && !o->attention) {
		snprintf(err, errsize, "--fused goes with --attention or --explain");
		return 2;
	}
	if ((o->seed_set && !o->quiz && !o->attention) || (o->count && !o->quiz)) {
		snprintf(err, errsize, o->count ? "--count goes with --quiz"
		         : "--seed goes with --quiz or --attention");
		return 2;
	}
	if (o->pattern && o->preset) {
		snprintf(err, errsize, "--rearrange and --preset do not go together (choose one)");
		return 2;
	}
	return 0;
}

/* The shape, the heads and the traced label checked against each other
 * for the lesson's walk (patterns and presets check theirs with the
 * walk), and the mode; 0, or 2 with a message. */
static int
options_finish(struct options_state *st, char *err, size_t errsize)
{
	struct options *o = st->o;
	bool lesson = o->pattern == NULL && (o->preset == NULL || strcmp(o->preset, "lesson") == 0);

	if (st->shape_arg &&
	    options_parse_shape(st->shape_arg, lesson ? 3 : LAYOUT_MAX_RANK, o->shape, &o->shape_rank,
	                        err, errsize, NULL, 0))
		return 2;
	if (o->naxis > 0 && o->pattern == NULL && o->preset == NULL) {
		snprintf(err, errsize, "--axis goes with --rearrange (it sizes an axis of the "
		         "pattern, such as --rearrange 'b t (h d) -> b h t d' --axis h=2)");
		return 2;
	}
	o->mode = st->print ? OPTIONS_PRINT : o->export_dir ? OPTIONS_EXPORT :
	          st->trace ? OPTIONS_TRACE : o->index ? OPTIONS_INDEX :
	          lesson && o->quiz && o->json ? OPTIONS_QUIZ : o->explain ? OPTIONS_EXPLAIN :
	          o->check ? OPTIONS_CHECK : OPTIONS_LAB;
	if (!lesson)
		return 0;
	if (options_check_heads(o->shape[2], o->heads, err, errsize, NULL, 0))
		return 2;
	if (st->trace) {
		int64_t cells = o->shape[0] * o->shape[1] * o->shape[2];

		if (o->trace >= cells) {
			snprintf(err, errsize, cells == 1 ? "label %lld is out of range: x has %lld cell, labelled 0 to %lld"
			         : "label %lld is out of range: x has %lld cells, labelled 0 to %lld",
			         (long long)o->trace, (long long)cells, (long long)(cells - 1));
			return 2;
		}
	}
	return 0;
}

static int
options_parse_args(struct options *o, int argc, char **argv, char *err, size_t errsize)
{
	static struct option longs[OPTIONS_N + 1];
	static char shorts[2 * OPTIONS_N + 2];
	const char *no_color = getenv("NO_COLOR");
	struct options_state st = { .o = o, .no_color = no_color && *no_color };
	int c, rc;

	if (shorts[0] == '\0')
		options_getopt_tables(longs, shorts, sizeof shorts);
	memset(o, 0, sizeof *o);
	o->shape[0] = 1;
	o->shape[1] = 3;
	o->shape[2] = 4;
	o->heads = 2;
	o->select = -1;
	o->mouse = true;
	o->color = st.no_color ? OPTIONS_COLOR_NEVER : OPTIONS_COLOR_AUTO;
	err[0] = '\0';
	opterr = 0;
	optind = 0;             /* glibc: restart scanning, also for repeated calls */
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct options_row *r = options_row_of(c);

		if (c == ':') {
			/* argv[optind - 1] is the option as typed, long or short */
			snprintf(err, errsize, "option '%s' needs a value (see 'headlab --help')",
			         argv[optind - 1]);
			return 2;
		}
		if (r == NULL) {
			options_unknown(options_refused_word(argc, argv, optopt & 0xff), optopt & 0xff,
			                err, errsize);
			return 2;
		}
		/* getopt_long gives every option that takes a value its optarg */
		rc = r->handle(&st, optarg, err, errsize);
		if (rc != 0)
			return rc;
	}
	if (optind < argc) {
		snprintf(err, errsize, "unexpected argument '%s' (options start with -; see 'headlab --help')",
		         argv[optind]);
		return 2;
	}
	if (st.help || st.version) {
		o->mode = st.help ? OPTIONS_HELP : OPTIONS_VERSION;
		return 0;
	}
	rc = options_combine(&st, err, errsize);
	return rc != 0 ? rc : options_finish(&st, err, errsize);
}

int
options_parse(struct options *o, int argc, char **argv, char *err, size_t errsize)
{
	int rc = options_parse_args(o, argc, argv, err, errsize);

	if (rc == 0)
		rc = options_recording_check(o, err, errsize);
	/* messages quote arguments as typed: a newline or an escape sequence
	 * in one must not split the line or reach the terminal */
	if (rc != 0)
		utf8_sanitize(err, errsize, err, 0);
	return rc;
}
