/* screen_overlay.c - what lies over a screen: the numbers panel, the
 * prompt on the bottom line, the preset menu, a note and the help. */
#include "screen.h"

#include <stdio.h>
#include <string.h>

#include "numbers.h"
#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* ---- the numbers panel (i) ------------------------------------------ */

static void
screen_numbers_lines(const struct lab *lab, char lines[7][200])
{
	const struct walk *w = &lab->walk;
	struct numbers n;
	char p[64], s[64], b32[32], b16[32], divs[120];
	int64_t div[32];
	int nd = numbers_divisors(w->width, div, 32), used = 0;

	numbers_compute(&n, w->batch, w->positions, w->width, w->heads);
	numbers_group(p, sizeof p, n.params);
	numbers_group(s, sizeof s, n.scores);
	numbers_bytes(b32, sizeof b32, n.bytes_f32);
	numbers_bytes(b16, sizeof b16, n.bytes_bf16);
	divs[0] = '\0';
	for (int i = 0; i < nd && used < (int)sizeof divs - 12; i++)
		used += snprintf(divs + used, sizeof divs - (size_t)used, i ? " %s%lld%s" : "%s%lld%s",
		                 div[i] == w->heads ? "[" : "", (long long)div[i],
		                 div[i] == w->heads ? "]" : "");
	snprintf(lines[0], 200, text_fmt("ui.num.title", "numbers for D = %lld, H = %lld, d = D/H = %lld"),
	         (long long)w->width, (long long)w->heads, (long long)w->head_width);
	snprintf(lines[1], 200, text_fmt("ui.num.params", "parameters  4\u00b7D\u00b2 = %s (Q, K, V, O: [D,D], no bias)"),
	         n.params_ok ? p : "overflow");
	snprintf(lines[2], 200, text_fmt("ui.num.scores", "scores      B\u00b7H\u00b7T\u00b7T = %lld\u00b7%lld\u00b7%lld\u00b7%lld = %s"),
	         (long long)w->batch, (long long)w->heads, (long long)w->positions,
	         (long long)w->positions, n.scores_ok ? s : "overflow");
	snprintf(lines[3], 200, text_fmt("ui.num.bytes", "memory      %s at float32, %s at bfloat16"),
	         n.bytes_ok ? b32 : "overflow", n.bytes_ok ? b16 : "overflow");
	snprintf(lines[4], 200, text_fmt("ui.num.scale", "scale       1/\u221ad = 1/\u221a%lld = %.4f   not 1/\u221aD = %.4f (wrong)"),
	         (long long)n.head_width, n.scale, n.wrong_scale);
	snprintf(lines[5], 200, text_fmt("ui.num.heads", "[ ] heads:  %s"), divs);
	snprintf(lines[6], 200, "%s", text_fmt("ui.num.note",
	         "More heads: same parameters, more and smaller score tables."));
}

static void
screen_numbers_draw(const struct tui *t)
{
	char lines[7][200];
	int wmax = 0, y0, x0;

	screen_numbers_lines(&t->lab, lines);
	for (int i = 0; i < 7; i++)
		if (scene_text_width(lines[i]) + 4 > wmax)
			wmax = scene_text_width(lines[i]) + 4;
	if (wmax > COLS)
		wmax = COLS;
	y0 = LINES - 1 - LAB_NUMBERS_H;
	x0 = COLS - wmax;
	if (y0 < 3)
		y0 = 3;
	paint_fill(y0, x0, wmax, LAB_NUMBERS_H, A_REVERSE, 0);
	for (int i = 0; i < 7; i++)
		paint_put(y0 + 1 + i, x0 + 2, wmax - 4, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0, lines[i]);
}

/* It only shows: keys go to the screen under it. */
const struct screen screen_numbers = { "numbers", screen_numbers_draw, NULL, NULL, NULL };

/* ---- the prompt (/ : g e) ------------------------------------------- */

/* The prompt on the last line: the input as lab_prompt_view shows it (a
 * pasted block on one line, newlines drawn as marks; a long input around
 * the cursor, with an ellipsis where it is cut).  A refusal with a place
 * in the input (a caret) lifts the input one line, so that the ^ stands
 * on the last line under the character it points at, the reason beside
 * it (or, too long for that, wrapped over the input); a refusal without
 * one is wrapped over the prompt. */
static void
screen_prompt_draw(const struct tui *t)
{
	static struct lab_prompt_view view;     /* 16 KB: not on the stack */
	const char *const sigil[LAB_PROMPT_COUNT] = { "", "/", ":", "g ",
		                                      text_get("ui.export.sigil", "export to ") };
	const struct lab *lab = &t->lab;
	bool caret = lab->prompt.error[0] && lab->prompt.caret >= 0 && LINES >= 3;
	int y = LINES - 1 - (caret ? 1 : 0), x0, x;

	if (caret)
		paint_fill(y, 0, COLS, 2, A_NORMAL, 0);
	x0 = 1 + paint_put(y, 1, COLS - 1, A_BOLD, 0, sigil[lab->prompt.kind]);
	lab_prompt_view(lab, COLS - x0, &view);
	paint_put(y, x0, COLS - x0, A_NORMAL, 0, view.text);
	/* the cursor's cell; off the line when the input is shown around a caret */
	x = view.cursor >= 0 ? x0 + view.cursor : view.caret >= 0 ? x0 + view.caret : COLS - 1;
	/* the terminal draws its cursor by swapping the cell's colours: a cell
	 * drawn reversed under it would show as any other; only a terminal that
	 * cannot show its cursor gets the character under it reversed */
	if (view.cursor >= 0 && curs_set(1) == ERR)
		paint_put(y, x, view.under_w, A_REVERSE, 0, view.under[0] ? view.under : " ");
	if (lab->prompt.kind == LAB_PROMPT_EXPORT && !lab->prompt.error[0]) {
		/* the path is offered, not yet taken: say that it can be edited */
		int end = x0 + view.end + 1;

		paint_put(y, end + 2, COLS - end - 2, A_DIM, paint_pair(t, PAINT_PAIR_DIM),
		          text_get("ui.export.hint", "Enter: write here  Backspace, Ctrl-U: edit  Esc: cancel"));
	}
	if (caret) {
		int cx = view.caret >= 0 ? x0 + view.caret : x;
		char msg[320];

		paint_put(y + 1, cx, 1, A_BOLD, paint_pair(t, PAINT_PAIR_WRONG), "^");
		snprintf(msg, sizeof msg, " %s", lab->prompt.error);
		if (scene_text_width(msg) <= COLS - cx - 1) {
			paint_put(y + 1, cx + 1, COLS - cx - 1, A_BOLD, 0, msg);
		} else {
			/* too long beside the caret: whole, wrapped over the input */
			int n = lab_layout_wrap_lines(lab->prompt.error, COLS - 2, 4);

			paint_fill(y - n, 0, COLS, n, A_NORMAL, 0);
			paint_wrap(y - n, 1, COLS - 2, n, A_BOLD, 0, lab->prompt.error);
		}
	} else if (lab->prompt.error[0]) {
		/* wrapped upwards from the line over the prompt, never cut */
		int n = lab_layout_wrap_lines(lab->prompt.error, COLS - 2, 4);

		paint_fill(y - n, 0, COLS, n, A_NORMAL, 0);
		paint_wrap(y - n, 1, COLS - 2, n, A_BOLD, 0, lab->prompt.error);
	}
	move(y, x < COLS ? x : COLS - 1); /* the terminal's cursor, shown by tui_draw */
}

static int
screen_prompt_key(struct tui *t, const struct keys_event *ev)
{
	struct lab *lab = &t->lab;

	switch (ev->key) {
	case KEYS_ESC: lab_prompt_close(lab); break;
	case KEYS_ENTER: lab_prompt_submit(lab); break;
	case KEYS_BACKSPACE: lab_prompt_erase(lab, -1); break;
	case KEYS_DELETE: case 4: lab_prompt_erase(lab, 1); break; /* Ctrl-D */
	case 21: lab_prompt_kill(lab, -1); break;       /* Ctrl-U */
	case 11: lab_prompt_kill(lab, 1); break;        /* Ctrl-K */
	case KEYS_LEFT: case 2: lab_prompt_move(lab, -1); break; /* Ctrl-B */
	case KEYS_RIGHT: case 6: lab_prompt_move(lab, 1); break; /* Ctrl-F */
	case KEYS_HOME: case 1: lab_prompt_move(lab, -2); break; /* Ctrl-A */
	case KEYS_END: case 5: lab_prompt_move(lab, 2); break;   /* Ctrl-E */
	case KEYS_UP: lab_prompt_history(lab, 1); break;
	case KEYS_DOWN: lab_prompt_history(lab, -1); break;
	default: lab_prompt_type(lab, ev->key); break;
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_prompt = { "prompt", screen_prompt_draw, screen_prompt_key, NULL, NULL };

/* ---- the preset menu (m) -------------------------------------------- */

/* The presets, one a line, the chosen one reversed; where a line does not
 * fit it ends in an ellipsis and the chosen one is shown whole below. */
static void
screen_menu_draw(const struct tui *t)
{
	struct lab_rect box;
	bool narrow;

	lab_menu_place(&t->lab, COLS, LINES, &box, &narrow);
	paint_fill(box.y, box.x, box.w, box.h, A_REVERSE, 0);
	paint_put(box.y + 1, box.x + 2, box.w - 4, A_REVERSE | A_BOLD, 0,
	          text_get("ui.menu", "presets: Enter opens, Esc closes"));
	for (int i = 0; i < preset_count; i++) {
		char line[256], fit[256];

		snprintf(line, sizeof line, "%-12s %s", preset_table[i].name,
		         lab_words_named("preset", preset_table[i].name, preset_table[i].description));
		utf8_fit_ellipsis(fit, sizeof fit, line, box.w - 4, !t->lab.utf8);
		paint_put(box.y + 3 + i, box.x + 2, box.w - 4, i == t->lab.menu_sel ? A_BOLD : A_REVERSE, 0, fit);
	}
	if (narrow) {
		const struct preset *p = &preset_table[t->lab.menu_sel];

		paint_wrap(box.y + 4 + preset_count, box.x + 2, box.w - 4, 2, A_REVERSE, 0,
		           lab_words_named("preset", p->name, p->description));
	}
}

static int
screen_menu_key(struct tui *t, const struct keys_event *ev)
{
	if (ev->key == KEYS_CLICK) {
		lab_hit_menu(&t->lab, ev->y, ev->x);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	switch (keys_action(KEYS_MENU, ev->key)) {
	case LAB_MOVE_UP: lab_menu_move(&t->lab, -1); break;
	case LAB_MOVE_DOWN: lab_menu_move(&t->lab, 1); break;
	case LAB_ENTER: lab_menu_open_preset(&t->lab); break;
	case LAB_CANCEL: lab_overlay_close(&t->lab, LAB_OVERLAY_MENU); break;
	default: break;
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_menu = { "menu", screen_menu_draw, screen_menu_key, NULL, NULL };

/* ---- a note (V) and the help (?) ------------------------------------ */

static void
screen_note_draw(const struct tui *t)
{
	int n = 0, w = 4, h = 0, y0, x0;

	for (int i = 0; i < LAB_NOTE_LINES && t->lab.note[i][0]; i++) {
		n++;
		if (scene_text_width(t->lab.note[i]) + 4 > w)
			w = scene_text_width(t->lab.note[i]) + 4;
	}
	if (w > COLS)
		w = COLS;
	/* a line wider than the screen wraps inside the box, never cut */
	for (int i = 0; i < n; i++)
		h += lab_layout_wrap_lines(t->lab.note[i], w - 4 > 0 ? w - 4 : 1, LINES);
	paint_box(h + 2, w, &y0, &x0);
	for (int i = 0, y = y0 + 1; i < n; i++)
		y += paint_wrap(y, x0 + 2, w - 4, LINES - y, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0,
		                t->lab.note[i]);
}

static int screen_box_key(struct tui *t, const struct keys_event *ev);

#define SCREEN_HELP_LINES 80
#define SCREEN_HELP_KEYW 23     /* the help's key column: "Left Right PgUp PgDn   " */

/* The help's lines wrapped at the screen's width (a description that does
 * not fit goes on under its own column), each a piece of a line of
 * keys_help: into start[] and len[] (bytes); returns how many, and the
 * box's width in *w. */
static int
screen_help_lines(const char **start, int *len, int *indent, int *w)
{
	const char *lines[40];
	int n = keys_help(lines, 40), out = 0, inner;

	*w = 4;
	for (int i = 0; i < n; i++)
		if (scene_text_width(lines[i]) + 4 > *w)
			*w = scene_text_width(lines[i]) + 4;
	if (*w > COLS)
		*w = COLS;
	inner = *w - 4 > 1 ? *w - 4 : 1;
	for (int i = 0; i < n && out < SCREEN_HELP_LINES; i++) {
		const char *s = lines[i];
		int in = 0;

		do {
			size_t cut = lab_layout_wrap_cut(s, inner - in > 1 ? inner - in : 1);

			start[out] = s;
			len[out] = (int)cut;
			indent[out++] = in;
			s += cut;
			while (*s == ' ')
				s++;
			/* the rest of a description stands under its column */
			in = inner - SCREEN_HELP_KEYW >= 24 ? SCREEN_HELP_KEYW : 2;
		} while (*s && out < SCREEN_HELP_LINES);
	}
	return out;
}

/* Lines of the help a screen of LINES lines shows at once: all of them
 * in a box with a line above and below, or, when they do not fit, the
 * screen less the box's edges and the line saying what is hidden. */
static int
screen_help_rows(int n)
{
	return n + 2 <= LINES ? n : LINES - 3 > 1 ? LINES - 3 : 1;
}

static void
screen_help_draw(const struct tui *t)
{
	const char *start[SCREEN_HELP_LINES];
	int len[SCREEN_HELP_LINES], indent[SCREEN_HELP_LINES], w;
	int n = screen_help_lines(start, len, indent, &w), rows = screen_help_rows(n);
	int top = t->lab.help_top > n - rows ? n - rows : t->lab.help_top, y0, x0;

	/* a page of its own: no piece of the screen behind shows beside it */
	paint_fill(0, 0, COLS, LINES, A_NORMAL, 0);
	paint_box(rows + 2 + (rows < n), w, &y0, &x0);
	for (int i = 0; i < rows; i++) {
		char buf[400];

		snprintf(buf, sizeof buf, "%.*s", len[top + i], start[top + i]);
		paint_put(y0 + 1 + i, x0 + 2 + indent[top + i], w - 4 - indent[top + i],
		          A_REVERSE | (top + i == 0 ? A_BOLD : A_NORMAL), 0, buf);
	}
	if (rows < n) {
		/* cut: which lines show, and how to reach the others */
		char buf[200];

		snprintf(buf, sizeof buf, text_fmt("ui.help.more", "lines %d-%d of %d (j k scroll)"), top + 1, top + rows, n);
		paint_text(y0 + 1 + rows, x0 + 2, w - 4, A_REVERSE | A_BOLD, 0, buf);
	}
}

/* The help: when it is taller than the screen, j k, the arrows, Space and
 * the page keys scroll it; any other key closes it (the quit keys quit). */
static int
screen_help_key(struct tui *t, const struct keys_event *ev)
{
	const char *start[SCREEN_HELP_LINES];
	int len[SCREEN_HELP_LINES], indent[SCREEN_HELP_LINES], w;
	int n = screen_help_lines(start, len, indent, &w), rows = screen_help_rows(n), dy = 0;

	if (rows < n) {
		if (ev->key == 'j' || ev->key == KEYS_DOWN)
			dy = 1;
		else if (ev->key == 'k' || ev->key == KEYS_UP)
			dy = -1;
		else if (ev->key == ' ' || ev->key == KEYS_PGDN)
			dy = rows;
		else if (ev->key == KEYS_PGUP)
			dy = -rows;
	}
	if (dy != 0) {
		lab_help_scroll(&t->lab, dy, n - rows);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	return screen_box_key(t, ev);
}

/* Any key closes a box (the quit keys also quit); the mouse does not. */
static int
screen_box_key(struct tui *t, const struct keys_event *ev)
{
	int top = lab_overlay_modal(&t->lab);

	if (ev->key == KEYS_MOUSE || ev->key == KEYS_CLICK || ev->key == KEYS_WHEEL_UP ||
	    ev->key == KEYS_WHEEL_DOWN || ev->key == KEYS_WHEEL_LEFT || ev->key == KEYS_WHEEL_RIGHT)
		return SCREEN_HANDLED;
	if (top >= 0)
		lab_overlay_close(&t->lab, (enum lab_overlay)top);
	if (ev->key == 'q' || ev->key == 3)
		t->lab.quit = true;
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_note = { "note", screen_note_draw, screen_box_key, NULL, NULL };
const struct screen screen_help = { "help", screen_help_draw, screen_help_key, NULL, NULL };
