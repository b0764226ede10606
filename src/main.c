/* main.c - arguments, locale, exit codes; everything else lives elsewhere. */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "config.h"
#include "options.h"
#include "print.h"
#include "tui.h"
#include "walk.h"

static bool
main_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Width for --print: the terminal's when stdout is one, else $COLUMNS,
 * else 80. */
static int
main_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	int n = env ? atoi(env) : 0;

	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	if (n >= 20 && n <= 1000)
		return n;
	return 80;
}

int
main(int argc, char **argv)
{
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
		fputs(options_usage, stdout);
		return fflush(stdout) == 0 ? 0 : 1;
	}
	if (o.mode == OPTIONS_VERSION) {
		printf("headlab %s (%s)\n", HEADLAB_VERSION, tui_curses_version());
		return fflush(stdout) == 0 ? 0 : 1;
	}
	/* options_parse has checked sizes, divisibility and overflow */
	if (walk_build(&w, o.walk, o.shape[0], o.shape[1],
	               o.shape[2], o.heads) != WALK_OK) {
		fprintf(stderr, "headlab: cannot build the walk for this shape\n");
		return 2;
	}
	if (o.mode == OPTIONS_LAB)
		return tui_run(&w, &o);
	if (o.mode == OPTIONS_TRACE) {
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
			.utf8 = main_utf8(),
			.width = main_columns(),
		};
		print_walk_text(stdout, &w, &po);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "headlab: cannot write to standard output\n");
		return 1;
	}
	return 0;
}
