/* term.c - the terminal itself: curses set up and torn down, colour pairs
 * from the theme table, keys and mouse reports decoded (stray escape
 * sequences swallowed), signals, and the run loop. */
#include "screen.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "term_guard.h"
#include "text.h"
#include "tui_script.h"
#include "utf8.h"

/* bytes of an unknown sequence (or a paste after Esc) dropped per turn of
 * the loop, so that a signal is answered between two turns */
#define TERM_DRAIN_MAX 4096

/* The wheel turned towards the user: button 5, where ncurses has it. */
#ifdef BUTTON5_PRESSED
#define TERM_WHEEL_DOWN BUTTON5_PRESSED
#else
#define TERM_WHEEL_DOWN ((mmask_t)0)
#endif
/* The wheel sideways: Shift and the wheel everywhere; buttons 6 and 7
 * where ncurses has them (6.4 has not: it takes SGR's 66 for button 3). */
#ifdef BUTTON6_PRESSED
#define TERM_WHEEL_LEFT BUTTON6_PRESSED
#define TERM_WHEEL_RIGHT BUTTON7_PRESSED
#else
#define TERM_WHEEL_LEFT ((mmask_t)0)
#define TERM_WHEEL_RIGHT ((mmask_t)0)
#endif

static volatile sig_atomic_t term_signal;
static bool term_active;
static bool term_draining;      /* more of an unknown sequence is still to be dropped */
static int term_seq_ms = 30;    /* how long the rest of a sequence may take to arrive */

void
term_colors(struct tui *t)
{
	const struct theme *th = &theme_table[t->lab.theme];
	const struct theme_colors *c;

	t->colors_for = t->lab.theme;
	bkgd(' ');
	if (!th->color)
		t->color = false;
	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	c = theme_colors(th, COLORS);
	for (int i = 0; i < THEME_NHEAD; i++) {
		paint_init_pair((short)(PAINT_PAIR_HEAD + i), c->cell_fg[i], c->cell_bg[i]);
		paint_init_pair((short)(PAINT_PAIR_BAR + i), theme_bar(c, i), c->screen_bg);
	}
	paint_init_pair(PAINT_PAIR_ACCENT, theme_fg(c, c->accent), c->screen_bg);
	paint_init_pair(PAINT_PAIR_DIM, theme_fg(c, c->dim), c->screen_bg);
	paint_init_pair(PAINT_PAIR_WRONG, theme_fg(c, c->wrong), c->screen_bg);
	paint_init_pair(PAINT_PAIR_TEXT, c->screen_fg, c->screen_bg);
	paint_init_pair(PAINT_PAIR_SELECT, c->select_fg, c->select_bg);
	paint_init_pair(PAINT_PAIR_LIT, c->lit_fg, c->lit_bg);
	if (c->screen_bg != THEME_DEFAULT)
		bkgd(' ' | COLOR_PAIR(PAINT_PAIR_TEXT)); /* a theme with a screen of its own */
}

/* A mouse report curses only half read (the mouse is off, so getmouse
 * refuses it): drop the rest, "0;14;18M" of SGR or the three bytes of
 * X10, so that none of it is taken for keys. */
static void
term_swallow_mouse_report(void)
{
	int c;

	wtimeout(stdscr, term_seq_ms);
	c = getch();
	if (c >= '0' && c <= '9') {
		while (c != ERR && c != 'M' && c != 'm')
			c = getch();
	} else if (c != ERR) {
		getch();
		getch();
	}
}

struct keys_event
term_decode(int ch)
{
	static const struct { int curses, key; } map[] = {
		{ KEY_LEFT, KEYS_LEFT }, { KEY_RIGHT, KEYS_RIGHT }, { KEY_UP, KEYS_UP },
		{ KEY_DOWN, KEYS_DOWN }, { KEY_SLEFT, KEYS_SLEFT }, { KEY_SRIGHT, KEYS_SRIGHT },
		{ KEY_SR, KEYS_SUP }, { KEY_SF, KEYS_SDOWN }, { KEY_HOME, KEYS_HOME },
		{ KEY_END, KEYS_END }, { KEY_PPAGE, KEYS_PGUP }, { KEY_NPAGE, KEYS_PGDN },
		{ KEY_BACKSPACE, KEYS_BACKSPACE }, { 127, KEYS_BACKSPACE }, { 8, KEYS_BACKSPACE },
		{ KEY_ENTER, KEYS_ENTER }, { '\r', KEYS_ENTER }, { '\n', KEYS_ENTER },
		{ KEY_BTAB, KEYS_BTAB }, { KEY_RESIZE, KEYS_RESIZE }, { ERR, KEYS_NONE },
	};
	struct keys_event ev = { KEYS_OTHER, 0, 0 };
	MEVENT me;

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].curses == ch) {
			ev.key = map[i].key;
			return ev;
		}
	if (ch == KEY_MOUSE) {
		ev.key = KEYS_MOUSE;
		if (getmouse(&me) != OK) {
			term_swallow_mouse_report();
		} else if (me.bstate & TERM_WHEEL_LEFT) {
			ev.key = KEYS_WHEEL_LEFT;
		} else if (me.bstate & TERM_WHEEL_RIGHT) {
			ev.key = KEYS_WHEEL_RIGHT;
		} else if (me.bstate & BUTTON4_PRESSED) {
			ev.key = (me.bstate & BUTTON_SHIFT) ? KEYS_WHEEL_LEFT : KEYS_WHEEL_UP;
		} else if (me.bstate & TERM_WHEEL_DOWN) {
			ev.key = (me.bstate & BUTTON_SHIFT) ? KEYS_WHEEL_RIGHT : KEYS_WHEEL_DOWN;
		} else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			ev.key = KEYS_CLICK;
			ev.y = me.y;
			ev.x = me.x;
		}
	} else if (ch >= 0 && ch < 128) {
		ev.key = ch;
	}
	return ev;
}

static void
term_on_signal(int sig)
{
	term_signal = sig;
}

static void
term_atexit(void)
{
	if (term_active) {
		endwin();
		term_active = false;
	}
}

/* Drop at most TERM_DRAIN_MAX bytes of input that is not keys; when there
 * is more, term_draining says so and the loop comes back for it. */
static void
term_drain(void)
{
	int i = 0;

	wtimeout(stdscr, term_seq_ms);
	while (i < TERM_DRAIN_MAX && !term_signal && getch() != ERR)
		i++;
	term_draining = i == TERM_DRAIN_MAX;
}

/* After an Esc: true (and the rest swallowed) when more bytes follow at
 * once, which makes it an escape sequence curses did not know (a mouse
 * report with the mouse off, an odd function key) rather than the Esc key,
 * so that no stray byte of it is taken for a key and nothing quits.  A CSI
 * or SS3 sequence is read up to its final byte. */
static bool
term_unknown_sequence(void)
{
	int ch;

	wtimeout(stdscr, term_seq_ms);
	ch = getch();
	if (ch == '[' || ch == 'O') {
		int c;

		/* parameters and intermediates are 0x20-0x3f, the final byte
		 * 0x40-0x7e; the first byte after O is already final */
		do
			c = getch();
		while (ch == '[' && c != ERR && c >= 0x20 && c <= 0x3f);
	} else if (ch != ERR) {
		term_drain();
	}
	return ch != ERR;
}

/* Home and End as rxvt, tmux and the Linux console send them, which some
 * terminfo entries (xterm-256color inside tmux) do not list. */
static void
term_define_keys(void)
{
	static const struct { const char *seq; int key; } extra[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME },
		{ "\033OH", KEY_HOME }, { "\033[4~", KEY_END }, { "\033[8~", KEY_END },
		{ "\033[F", KEY_END }, { "\033OF", KEY_END }, { "\033[Z", KEY_BTAB },
	};

	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].key);
}

static void
term_exe_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/* The language from --lang, else the locale's (zh_* gives Chinese). */
static const char *
term_lang(const struct options *o)
{
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };

	if (o->lang && *o->lang)
		return o->lang;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strncmp(v, "zh", 2) == 0 ? "zh" : "en";
	}
	return "en";
}

/* curses on the terminal, in raw mode with keypad and (asked for) mouse;
 * NULL (with the reason on stderr) when the terminal cannot host the lab. */
static SCREEN *
term_open(const struct options *o)
{
	const char *term = getenv("TERM"), *cup;
	SCREEN *screen;

	term_guard_signals(term_on_signal);
	term_guard_winch();

	screen = newterm(NULL, stdout, stdin);
	if (screen == NULL) {
		fprintf(stderr, "headlab: cannot drive terminal type '%s' (try TERM=xterm, or --print)\n",
		        term ? term : "");
		return NULL;
	}
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		/* TERM=dumb and other glass ttys: curses would scroll lines
		 * past instead of drawing a screen */
		endwin();
		delscreen(screen);
		fprintf(stderr, "headlab: terminal type '%s' cannot move the cursor, so the lab cannot "
		        "draw on it (try TERM=xterm, or --print)\n", term ? term : "");
		return NULL;
	}
	term_active = true;
	atexit(term_atexit);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	term_define_keys();
	curs_set(0);
	set_escdelay(25);
	if (o->mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | TERM_WHEEL_DOWN |
		          TERM_WHEEL_LEFT | TERM_WHEEL_RIGHT | BUTTON_SHIFT, NULL);
		mouseinterval(0);
	}
	return screen;
}

/* The lab's settings from the command line: zoom, where the walk came
 * from (for : and [ ]), a quiz, presenter mode. */
static void
term_configure(struct tui *t, const struct walk *w, const struct options *o)
{
	struct lab *lab = &t->lab;

	if (o->zoom > 0) {
		lab->zoom = o->zoom > LAB_ZOOM_MAX ? LAB_ZOOM_MAX : o->zoom;
		lab->zoom_auto = false;
	}
	if (o->pattern)
		snprintf(lab->pattern, sizeof lab->pattern, "%s", o->pattern);
	if (o->preset && !o->pattern && w->kind == WALK_CUSTOM)
		lab->preset = preset_find(o->preset);
	for (int i = 0; i < o->naxis && i < 16; i++)
		snprintf(lab->axis_args[i], sizeof lab->axis_args[i], "%.60s", o->axis[i]);
	lab->naxis = o->naxis < 16 ? o->naxis : 16;
	if (o->code)            /* the code's walk: its verdict on the last step */
		lab_code_attach(lab, o->code, o->shape_rank || o->heads_set);
	lab->v3.on = o->view3d;
	if (o->quiz)
		lab_quiz_start(lab, o->seed, o->count ? o->count : QUIZ_KINDS);
	if (o->play > 0) {
		lab->play_secs = o->play;
		lab->play_next = lab_clock() + o->play;
	}
	if (o->attention) {
		lab->attn_seed = (uint32_t)o->seed;
		lab_act(lab, LAB_ATTENTION);
	}
}

int
term_getch(struct tui *t)
{
	int ch = getch(), lines, cols, real_lines, real_cols;

	if (!term_guard_resized(STDOUT_FILENO, &lines, &cols, &real_lines, &real_cols))
		return ch;
	resizeterm(lines, cols);
	t->real_lines = real_lines > lines || real_cols > cols ? real_lines : 0;
	t->real_cols = t->real_lines ? real_cols : 0;
	if (ch != ERR && ch != KEY_RESIZE)
		ungetch(ch);    /* read after the resize */
	return KEY_RESIZE;
}

int
term_feed(struct tui *t, int seq_ms)
{
	int ch, r;

	term_seq_ms = seq_ms;
	if (term_draining) {
		term_drain();
		r = SCREEN_HANDLED;
	} else {
		wtimeout(stdscr, 0);
		ch = term_getch(t);
		if (ch == ERR)
			r = 0;
		else if ((ch == 27 && term_unknown_sequence()) || ch == 26)
			r = SCREEN_HANDLED;     /* Ctrl-Z (26) would stop the caller */
		else
			r = tui_key(t, ch) | SCREEN_HANDLED;
	}
	term_seq_ms = 30;
	return r;
}

/* Keys and timers until the lab quits or a signal arrives; with a key
 * script (--keys), the script instead of the keyboard (tui_script.c). */
static void
term_loop(struct tui *t, const char *keys)
{
	tui_draw(t);
	doupdate();
	if (keys)
		tui_script_play(t, keys, &term_signal);
	while (!keys && !t->lab.quit && !term_signal) {
		int ch, redraw;
		double now;

		if (term_draining) {
			term_drain();
			continue;
		}
		/* wake for the next animation frame or presenter step */
		wtimeout(stdscr, t->lab.animating && !t->lab.anim_paused ? 10 : t->lab.play_secs > 0 ? 100 : 250);
		ch = term_getch(t);
		if (term_signal)
			break;
		now = lab_clock();
		if (ch == ERR) {
			if (tui_tick(t, now)) {
				tui_draw(t);
				doupdate();
			}
			continue;
		}
		if (ch == 27 && term_unknown_sequence())
			continue;
		if (ch == 26) {
			/* Ctrl-Z arrives as a key in raw mode: suspend as the
			 * shell would, curses restores the screen on return */
			endwin();
			raise(SIGTSTP);
			/* raise returns once the shell continues us (fg) */
			/* cppcheck-suppress unreachableCode */
			refresh();
			redraw = SCREEN_REDRAW;
		} else {
			redraw = tui_key(t, ch) & SCREEN_REDRAW;
		}
		if (tui_tick(t, now) || redraw) {
			tui_draw(t);
			doupdate();
		}
	}
}

int
tui_run(const struct walk *w, const struct options *o)
{
	static struct tui t;    /* large; and the signal path may exit from here */
	SCREEN *screen;
	char exe[PATH_MAX], why[512], why_en[512], lang_note[200] = "";
	const char *lang, *cs;
	bool loaded, utf8;
	int rc;
	/* --record, or --keys with no terminal: on a pseudo-terminal (tui_script.c) */
	int relayed = tui_script_relay(o);

	if (relayed >= 0)
		return relayed;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "headlab: the lab needs a terminal on stdin and stdout "
		        "(for text use --print or --trace)\n");
		return 2;
	}
	rc = term_guard_size(STDOUT_FILENO, why, sizeof why);
	if (rc != 0) {
		fprintf(stderr, "headlab: %s\n", why);
		return rc;
	}
	term_exe_path(exe, sizeof exe);
	lang = term_lang(o);
	utf8 = utf8_locale();
	cs = utf8_codeset();
	if (!utf8 && strcmp(lang, "en") != 0) {
		/* Chinese in ASCII glyphs would be mojibake: English, said once */
		snprintf(lang_note, sizeof lang_note, "captions in English: %.8s needs a UTF-8 locale "
		         "and this one is %.40s (is the locale installed? try LC_ALL=C.UTF-8 --lang %.8s)",
		         lang, cs ? cs : "unknown", lang);
		lang = "en";
	}
	loaded = text_load(lang, exe, why, sizeof why);
	if (!loaded && strcmp(lang, "en") != 0)
		text_load("en", exe, why_en, sizeof why_en); /* the warning says why */
	screen = term_open(o);
	if (screen == NULL)
		return 1;
	tui_init(&t, w, o->color != OPTIONS_COLOR_NEVER, utf8, o->theme);
	if (!loaded)
		snprintf(t.lab.warning, sizeof t.lab.warning, "%s %s: %.150s", "no captions for", lang, why);
	else if (lang_note[0])
		snprintf(t.lab.warning, sizeof t.lab.warning, "%s", lang_note);
	term_configure(&t, w, o);
	term_loop(&t, o->keys);
	endwin();
	term_active = false;
	delscreen(screen);
	tui_free(&t);
	text_free();
	if (term_signal) {
		int sig = term_signal;

		term_guard_die(sig);
		return 128 + sig;
	}
	return 0;
}
