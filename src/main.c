/* main.c - arguments, locale, exit codes; everything else lives elsewhere. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "attention.h"
#include "explain.h"
#include "code.h"
#include "hfconfig.h"
#include "export.h"
#include "index.h"
#include "index_step.h"
#include "options.h"
#include "preset.h"
#include "print.h"
#include "print_attention.h"
#include "quiz.h"
#include "text.h"
#include "term.h"
#include "tui.h"
#include "utf8.h"
#include "walk.h"

/* Width for --print: the terminal's when stdout is one, else $COLUMNS,
 * else 80. */
static int
main_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	/* strtol, not atoi: a number too large for an int is no width */
	long n = env ? strtol(env, NULL, 10) : 0;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	if (n >= 20 && n <= 1000)
		return (int)n;
	return 80;
}

/* The walk of --rearrange or --preset; false after saying why on stderr
 * (with the pattern or --axis echoed and a caret under the problem). */
static bool
main_custom_walk(struct walk *w, const struct options *o)
{
	struct preset_params pp = {
		.rank = o->shape_rank,
		.heads = o->heads_set ? o->heads : 0,
		.bug = o->walk,
		.axis_args = o->axis,
		.naxis = o->naxis,
	};
	struct pattern_error pe;
	bool ok;

	memcpy(pp.shape, o->shape, sizeof pp.shape);
	if (o->pattern)
		ok = preset_rearrange(w, o->pattern, &pp, &pe);
	else
		ok = preset_build(preset_find(o->preset), w, &pp, &pe);
	if (!ok) {
		pattern_error_print(stderr, "headlab: ", &pe);
		return false;
	}
	if (o->mode == OPTIONS_TRACE && o->trace >= walk_numel(w)) {
		fprintf(stderr, "headlab: label %lld is out of range: x has %lld cells, labelled 0 "
		        "to %lld\n", (long long)o->trace, (long long)walk_numel(w),
		        (long long)(walk_numel(w) - 1));
		return false;
	}
	return true;
}

/* --index: evaluate the expression on the step --at names, by default the
 * heads (the end of split_heads) for the lesson and the last step of any
 * other walk.  Errors are three lines on stderr: the message, the
 * expression and a caret. */
static int
main_index(const struct walk *w, const struct options *o)
{
	const char *axes[LAYOUT_MAX_RANK];
	struct index_result r;
	struct index_error e;
	int k = -1;

	if (o->at) {
		k = walk_step_lookup(w, o->at);
		if (k < 0) {
			fputs("headlab: --at '", stderr);
			utf8_put_safe(stderr, o->at, 0);
			fputs("' is not a step of this walk (steps:", stderr);
			for (int j = 0; j < w->nsteps; j++)
				fprintf(stderr, "%s %s", j ? "," : "", w->steps[j].name);
			fprintf(stderr, "; or 1 to %d)\n", w->nsteps);
			return 2;
		}
	}
	/* a leading name (x, heads, a step's name) says which tensor */
	if (!index_step_resolve(w, o->index, k, index_step_default(w), &k, &e)) {
		print_index_error(stderr, o->index, &e);
		return 2;
	}
	for (int i = 0; i < w->steps[k].view.rank; i++)
		axes[i] = w->steps[k].axes[i];
	if (!index_eval(o->index, &w->steps[k].view, axes, &r, &e)) {
		print_index_error(stderr, o->index, &e);
		return 2;
	}
	if (o->json)
		print_index_json(stdout, w, k, o->index, &r);
	else
		print_index_text(stdout, w, k, &r);
	return 0;
}

/* --code: the walk of the code, or --check's verdict (exit 0 right, 3
 * wrong, 2 fails).  Returns -1 when the walk is built and the mode goes on
 * as for any walk; for the lab, with the check of the same reading in
 * *read. */
static int
main_code(struct walk *w, const struct options *o, struct code_checked *read)
{
	static struct code_let lets[OPTIONS_MAX_AXIS];
	static struct hfconfig cfg;
	struct code_sizes z = { o->shape[0], o->shape[1], o->shape[2], o->heads, lets, o->nlet, 0 };
	struct code_error e;

	for (int i = 0; i < o->nlet; i++) {
		const char *eq = strchr(o->let[i], '=');

		snprintf(lets[i].name, sizeof lets[i].name, "%.*s", (int)(eq - o->let[i]), o->let[i]);
		snprintf(lets[i].value, sizeof lets[i].value, "%s", eq + 1);
	}
	if (o->config) {
		char err[400];

		if (!hfconfig_read(o->config, &cfg, err, sizeof err)) {
			fprintf(stderr, "headlab: %s\n", err);
			return 2;
		}
		z.batch = cfg.batch;
		z.positions = cfg.positions;
		z.width = cfg.width;
		z.heads = cfg.heads;
		z.kv_heads = cfg.kv_heads;
	}
	if (o->mode == OPTIONS_CHECK) {
		struct code_verdict v;
		struct code_sizes given = z;

		if (!(o->shape_rank || o->heads_set || o->config))
			given.batch = 0;        /* shapes of code_check's choosing, the lets kept */
		code_check(o->code, &given, &v);
		v.source = o->config ? cfg.said : NULL;
		if (o->json) {
			code_verdict_print_json(stdout, &v);
			if (v.verdict == CODE_FAILS)
				code_error_print(stderr, "headlab: ", o->code, &v.error);
		} else {
			code_verdict_print_text(stdout, o->code, &v);
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "headlab: cannot write to standard output\n");
			return 1;
		}
		return code_verdict_status(&v);
	}
	if (o->mode == OPTIONS_LAB) {
		/* one reading builds the walk and checks it at its sizes */
		read->sizes = z;
		code_check_walk(o->code, &z, &read->verdict, w);
		if (read->verdict.verdict != CODE_FAILS)
			return -1;
		e = read->verdict.error;
	} else if (code_build_walk(o->code, &z, w, NULL, &e)) {
		return -1;
	}
	code_error_print(stderr, "headlab: ", o->code, &e);
	return 2;
}

/* Where this binary is, to find the caption files beside a build. */
static void
main_exe_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/* --export: every step of w as files in o->export_dir, with the captions
 * of --lang (English by default); without a caption file the export goes
 * on and says so.  Exit 1 when a file cannot be written. */
static int
main_export(const struct walk *w, const struct options *o)
{
	struct export_opts eo;
	char exe[4096], why[512], err[1024];
	const char *lang = o->lang ? o->lang : "en";
	int n;

	if (o->select >= walk_numel(w)) {
		fprintf(stderr, "headlab: --select %lld is out of range: x has %lld cells, labelled 0 "
		        "to %lld\n", (long long)o->select, (long long)walk_numel(w),
		        (long long)(walk_numel(w) - 1));
		return 2;
	}
	export_opts_default(&eo);
	/* the files are UTF-8 whatever the terminal; ASCII glyphs only when no
	 * UTF-8 locale exists to measure them with */
	eo.utf8 = utf8_locale() || (setlocale(LC_CTYPE, "C.UTF-8") && utf8_locale());
	eo.view3d = o->view3d;
	eo.selected = o->select;
	eo.theme = o->theme;
	eo.step_seconds = o->play;
	eo.lang = lang;
	main_exe_path(exe, sizeof exe);
	eo.exe = exe;
	if (!text_load(lang, exe, why, sizeof why)) {
		fprintf(stderr, "headlab: warning: no captions (%s); exporting without them\n", why);
		eo.captions = false;
	}
	export_catch_signals();
	n = export_walk(o->export_dir, w, &eo, err, sizeof err);
	text_free();
	if (n < 0) {
		fprintf(stderr, "headlab: %s\n", err);        /* sanitised by export_walk */
		return 1;
	}
	printf("wrote %d files to ", n);
	utf8_put_safe(stdout, o->export_dir, 0);
	putchar('\n');
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "headlab: cannot write to standard output\n");
		return 1;
	}
	return 0;
}

/* The lab's --attention: refuse, before the terminal is taken, a pass
 * that cannot be built. */
static int
main_attention_check(const struct options *o)
{
	struct attention a;
	char err[512];
	int rc = attention_init(&a, o->shape[0], o->shape[1], o->shape[2], o->heads,
	                        (uint32_t)o->seed, err, sizeof err, NULL, 0);

	if (rc != 0)
		fprintf(stderr, "headlab: %s\n", err);
	else
		attention_free(&a);
	return rc;
}

/* --attention and --explain: the lesson's forward pass, seeded as PyTorch
 * would be. */
static int
main_attention(const struct options *o)
{
	struct attention a;
	char err[512];
	int rc = o->fused ? attention_init_fused(&a, o->shape[0], o->shape[1], o->shape[2], o->heads,
	                                         (uint32_t)o->seed, err, sizeof err, NULL, 0)
	                  : attention_init(&a, o->shape[0], o->shape[1], o->shape[2], o->heads,
	                                   (uint32_t)o->seed, err, sizeof err, NULL, 0);

	if (rc != 0) {
		fprintf(stderr, "headlab: %s\n", err);
		return rc;
	}
	if (o->mode == OPTIONS_EXPLAIN) {
		struct explain e;

		if (!explain_parse(&a, o->explain, &e, err, sizeof err)) {
			fprintf(stderr, "headlab: %s\n", err);
			attention_free(&a);
			return 2;
		}
		if (!explain_cell(&a, &e)) {
			fputs("headlab: out of memory explaining the cell\n", stderr);
			attention_free(&a);
			return 1;
		}
		if (o->json)
			explain_print_json(stdout, &a, &e);
		else
			explain_print_text(stdout, &a, &e);
		explain_free(&e);
	} else if (o->mode == OPTIONS_PRINT && o->json) {
		print_attention_json(stdout, &a);
	} else if (o->mode == OPTIONS_PRINT) {
		struct print_opts po = {
			.color = o->color == OPTIONS_COLOR_ALWAYS ||
			         (o->color == OPTIONS_COLOR_AUTO && isatty(STDOUT_FILENO)),
			.utf8 = utf8_locale(),
			.width = main_columns(),
		};

		print_attention_text(stdout, &a, &po);
	}
	attention_free(&a);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "headlab: cannot write to standard output\n");
		return 1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static struct code_checked code; /* large: a verdict keeps labels */
	struct options o;
	struct walk w;
	char err[512];
	int rc;

	setlocale(LC_ALL, "");
	rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0) {
		fprintf(stderr, "headlab: %s\n", err);
		return rc;
	}
	if (o.mode == OPTIONS_HELP) {
		options_print_usage(stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (o.mode == OPTIONS_VERSION) {
		printf("headlab %s (%s)\n", HEADLAB_VERSION, tui_curses_version());
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (o.attention && o.mode != OPTIONS_LAB)
		return main_attention(&o);
	if (o.attention && (rc = main_attention_check(&o)) != 0)
		return rc;
	if (o.code) {
		rc = main_code(&w, &o, &code);
		if (rc >= 0)
			return rc;
	} else if (o.pattern || o.preset) {
		if (!main_custom_walk(&w, &o))
			return 2;
	} else if (walk_build(&w, o.walk, o.shape[0], o.shape[1],
	                      o.shape[2], o.heads) != WALK_OK) {
		/* options_parse has checked sizes, divisibility and overflow */
		fprintf(stderr, "headlab: cannot build the walk for this shape\n");
		return 2;
	}
	if (o.quiz && !o.seed_set) {
		/* a new quiz each run unless --seed asks for a given one */
		o.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
		o.seed_set = true;
	}
	if (o.mode == OPTIONS_QUIZ) {
		static struct quiz q;

		quiz_make(&q, o.seed, o.count ? o.count : QUIZ_KINDS, w.batch, w.positions, w.width,
		          w.heads);
		quiz_print_json(stdout, &q);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	if (o.mode == OPTIONS_EXPORT)
		return main_export(&w, &o);
	if (o.mode == OPTIONS_LAB)
		return term_run(&w, &o, o.code ? &code : NULL);
	if (o.mode == OPTIONS_INDEX) {
		rc = main_index(&w, &o);
		if (rc != 0)
			return rc;
	} else if (o.mode == OPTIONS_TRACE) {
		if (o.json)
			print_trace_json(stdout, &w, o.trace);
		else
			print_trace_text(stdout, &w, o.trace);
	} else if (o.json) {
		print_walk_json(stdout, &w);
	} else {
		struct print_opts po = {
			.color = o.color == OPTIONS_COLOR_ALWAYS ||
			         (o.color == OPTIONS_COLOR_AUTO && isatty(STDOUT_FILENO)),
			.utf8 = utf8_locale(),
			.width = main_columns(),
			.view3d = o.view3d,
		};
		print_walk_text(stdout, &w, &po);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "headlab: cannot write to standard output\n");
		return 1;
	}
	return 0;
}
