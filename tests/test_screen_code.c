/* test_screen_code.c - the lab's screens on the model's newer pieces,
 * drawn into a headless curses screen: a tensor name at the / prompt, a
 * line of PyTorch at the : prompt with --check's verdict on the last step,
 * its refusal in the prompt, the lineage of a label a step leaves out, and
 * the bug lab's heading from the bug table.  The screen is read back as
 * text and searched; the goldens of test_screen.c stay as they are. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "code.h"
#include "screen_fixture.h"
#include "tap.h"
#include "text.h"
#include "tui.h"

static char lines[100][1024];   /* the screen as text, one UTF-8 line each */

/* A cols x lines headless screen with the lab on w, animation off. */
static void
open_lab(struct tui *t, const struct walk *w, int cols, int nlines)
{
	screen_fixture_open(cols, nlines);
	tui_init(t, w, true, true, NULL);
	t->lab.glide.on = false;
}

static void
close_lab(struct tui *t)
{
	tui_free(t);
	screen_fixture_close();
}

/* Draw and read the screen back into lines[]. */
static void
grab(struct tui *t)
{
	tui_draw(t);
	for (int y = 0; y < LINES && y < 100; y++)
		screen_fixture_line(y, lines[y], sizeof lines[y]);
}

/* The line holding text, or -1; the screen is printed as diagnostics
 * when it is missing. */
static int
find(const char *text)
{
	for (int y = 0; y < LINES && y < 100; y++)
		if (strstr(lines[y], text))
			return y;
	return -1;
}

static bool
shows(const char *text, const char *what)
{
	int y = find(text);

	if (!tap_ok(y >= 0, "%s: '%s' is on screen", what, text))
		for (int i = 0; i < LINES && i < 100; i++)
			printf("# |%s\n", lines[i]);
	return y >= 0;
}

static void
keys(struct tui *t, const char *s)
{
	for (; *s; s++) {
		tui_draw(t);
		tui_key(t, (unsigned char)*s);
	}
}

/* The column where the cell showing label sits on line y, or -1. */
static int
cell_x(int y, const char *label)
{
	const char *p = strstr(lines[y], label);

	return p ? (int)(p - lines[y]) : -1;
}

/* How often needle occurs in hay. */
static int
count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void
test_index_name(void)
{
	struct walk w;
	struct tui t;
	int y;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	open_lab(&t, &w, 80, 24);
	keys(&t, "/heads[0,0,1]\r");
	grab(&t);
	shows("step 3/6", "/heads[0,0,1] on step 1 moves to the heads");
	shows("heads[0,0,1]  (on step 3)  [2]: 4 5", "the status line names 4 and 5");
	y = find("T 1 \u2502");
	/* two lit glyphs on the row, one for 4 (selected: [4a]) and one for
	 * 5, none beside 6 or 7 */
	tap_ok(y >= 0 && strstr(lines[y], "[4a]") != NULL && count_of(lines[y], "\u25c6") == 2 &&
	       strstr(lines[y], "\u25c6 6b") == NULL && strstr(lines[y], "\u25c66b") == NULL,
	       "the lit mark stands beside 4 and 5 only: %s", y >= 0 ? lines[y] : "(no T 1 row)");
	keys(&t, "/nope[0]\r");
	grab(&t);
	shows("unknown tensor 'nope' (this walk has: x, heads, input, split,",
	      "an unknown name: the error over the prompt, with the names");
	close_lab(&t);
}

static void
test_code_verdict(void)
{
	struct walk w;
	struct tui t;
	int bar;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	open_lab(&t, &w, 80, 24);
	keys(&t, ":x.view(B, H, T, d)\r");
	grab(&t);
	shows("step 2/2", ":x.view(B, H, T, d) shows its last step");
	bar = find("  x  \u203a  x.view(B, H, T, d)");
	tap_ok(bar == 2, "the step bar names the call (line %d)", bar);
	/* the grid drawn is x[1,3,4] with 2 heads: the verdict names its cells */
	shows("wrong (no-transpose): heads[0, 0, 1] holds [2, 3], should hold [4, 5];", "the verdict");
	shows("Fix: x.view(B, T, H,", "with the fix");
	keys(&t, "p");
	grab(&t);
	tap_ok(find("wrong (no-transpose)") < 0, "the step before has no verdict");

	keys(&t, ":context.transpose(1, 2).view(B, T, D)\r");
	grab(&t);
	shows(":context.transpose(1, 2).view(B, T, D)", "a refused line stays in the prompt");
	{
		int y = find(":context.transpose(1, 2).view(B, T, D)"), cx = y > 0 ? cell_x(y + 1, "^") : -1;

		/* the reason wraps whole above the input, the caret on the line
		 * under it, the last */
		tap_ok(y == LINES - 2 && cx == 1 + 1 + 24 && find(".view(B, T, D) cannot be a view") >= 0 &&
		       find(".view(B, T, D) cannot be a view") < y,
		       "with the reason over it, the caret under view (line %d, column %d): %s", y + 1, cx,
		       y > 0 ? lines[y + 1] : "");
	}
	close_lab(&t);

	/* headlab --code, as term_run sets it up */
	{
		struct code_sizes z = { 1, 3, 4, 2, NULL, 0, 0 };
		struct code_error err;

		code_build_walk("x.view(B, T, H, d).transpose(1, 2)", &z, &w, NULL, &err);
		open_lab(&t, &w, 100, 30);
		lab_code_attach(&t.lab, "x.view(B, T, H, d).transpose(1, 2)", false, NULL);
		grab(&t);
		shows("step 3/3", "--code opens on the last step");
		shows("  x  \u203a  x.view(B, T, H, d)  \u203a  .transpose(1, 2)", "each call in the step bar");
		shows("right: the code splits x into the lesson's heads; every cell is where it belongs",
		      "the verdict");
		close_lab(&t);
	}
}

static void
test_not_in_view(void)
{
	struct code_sizes z = { 1, 3, 4, 2, NULL, 0, 0 };
	struct code_error err;
	struct walk w;
	struct tui t;

	code_build_walk("x.narrow(1, 0, 2)", &z, &w, NULL, &err);
	open_lab(&t, &w, 100, 30);
	lab_select(&t.lab, 10);
	grab(&t);
	shows("x          [0,2,2]        @10", "label 10's lineage: in x at [0,2,2]");
	shows("narrow     not in view", "and left out by the narrow, not at index zeros");
	tap_ok(find("[0,0,0]") < 0, "no [0,0,0] anywhere");
	close_lab(&t);
	/* the compact lineage too */
	open_lab(&t, &w, 60, 14);
	lab_select(&t.lab, 10);
	grab(&t);
	shows("[0,2,2] \u203a not in view", "the compact lineage says it too");
	close_lab(&t);
}

static void
test_bug_heading(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	open_lab(&t, &w, 120, 30);
	keys(&t, "bbbb");
	grab(&t);
	shows("right: heads.transpose(1, 2).contiguous().reshape(...)", "the merge bug's right code, "
	      "from the table");
	shows("bug merge-no-transpose", "the fourth b");
	keys(&t, "b");
	grab(&t);
	shows("step 1/6", "the fifth b is back on the step view");
	tap_ok(find("bug ") < 0, "with no bug heading");
	close_lab(&t);
}


/* A paste, as the terminal layer hands it over: the : prompt's one line. */
static void
test_paste_prompt(void)
{
	static const char two[] = "q = x.view(B, T, H, d)\rq = q.transpose(1, 2)\r";
	static const char bad[] = "x.frobnicate()\ny = x.view(B, T, H, d).transpose(1, 2)\n"
	                          "z = y.transpose(1, 2).reshape(B, T, D)\n";
	char *big = malloc(4000), want[200];
	struct walk w;
	struct tui t;
	int y;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	open_lab(&t, &w, 80, 24);
	tui_paste(&t, two, strlen(two), strlen(two));
	grab(&t);
	tap_ok(strcmp(lines[23], " :q = x.view(B, T, H, d)\u23ceq = q.transpose(1, 2)") == 0 &&
	       find("step 1/6") == 0,
	       "two pasted lines: the : prompt opens with them on one line, ⏎ between: '%s'", lines[23]);
	keys(&t, "\r");
	grab(&t);
	shows("step 3/3", "Enter runs both statements");
	shows("right: the code splits x into the lesson's heads", "with the verdict");

	/* longer than the line: its end, after an ellipsis */
	memset(big, 'a', 3999);
	big[3999] = '\0';
	memcpy(big + 3990, "x.view(B)", 9);
	tui_paste(&t, big, strlen(big), strlen(big));
	grab(&t);
	/* 78 columns after " :": …, 76 of the input, the cursor's cell */
	snprintf(want, sizeof want, " :\u2026%.67s%s", big, "x.view(B)");
	tap_ok(strcmp(lines[23], want) == 0,
	       "a long input shows its end after …, the cursor after it: '%s'", lines[23]);
	keys(&t, "\033");

	/* refused at its first line: the line around the caret, … at the end */
	tui_paste(&t, bad, strlen(bad), strlen(bad));
	keys(&t, "\r");
	grab(&t);
	y = LINES - 2;
	tap_ok(strcmp(lines[y], " :x.frobnicate()\u23cey = x.view(B, T, H, d).transpose(1, 2)\u23cez = y.transpose(1, 2)."
	              "r\u2026") == 0 && cell_x(y + 1, "^") == 4,
	       "a refused block: its start and the caret under .frobnicate, … where it is cut: '%s' / '%s'",
	       lines[y], lines[y + 1]);
	close_lab(&t);
	free(big);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	tap_ok(text_load("en", NULL, why, sizeof why), "captions load: %s", why);
	test_index_name();
	test_code_verdict();
	test_paste_prompt();
	test_not_in_view();
	test_bug_heading();
	return tap_done();
}
