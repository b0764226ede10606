/* term.c - the terminal itself: curses set up and torn down, colour pairs
 * from the theme table, keys and mouse reports decoded (stray escape
 * sequences swallowed), signals, and the run loop. */
#include "screen.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"

/* The wheel turned towards the user: button 5, where ncurses has it. */
#ifdef BUTTON5_PRESSED
#define TERM_WHEEL_DOWN BUTTON5_PRESSED
#else
#define TERM_WHEEL_DOWN ((mmask_t)0)
#endif

static volatile sig_atomic_t term_signal;
static bool term_active;

void
term_colors(struct tui *t)
{
	const struct theme *th = &theme_table[t->lab.theme];

	t->colors_for = t->lab.theme;
	if (!th->color)
		t->color = false;
	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	for (int i = 0; i < THEME_NHEAD; i++) {
		if (COLORS >= 256)
			init_pair((short)(PAINT_PAIR_HEAD + i), th->fg256[i], th->bg256[i]);
		else
			init_pair((short)(PAINT_PAIR_HEAD + i), th->fg8[i], th->bg8[i]);
	}
	init_pair(PAINT_PAIR_ACCENT, (short)(COLORS >= 256 ? th->accent256 : th->accent8), -1);
	init_pair(PAINT_PAIR_DIM, (short)(th->dim ? (COLORS >= 16 ? 8 : COLOR_WHITE) : -1), -1);
	init_pair(PAINT_PAIR_WRONG, (short)(COLORS >= 256 ? 196 : COLOR_RED), -1);
}

/* A mouse report curses only half read (the mouse is off, so getmouse
 * refuses it): drop the rest, "0;14;18M" of SGR or the three bytes of
 * X10, so that none of it is taken for keys. */
static void
term_swallow_mouse_report(void)
{
	int c;

	wtimeout(stdscr, 30);
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
		} else if (me.bstate & BUTTON4_PRESSED) {
			ev.key = KEYS_WHEEL_UP;
		} else if (me.bstate & TERM_WHEEL_DOWN) {
			ev.key = KEYS_WHEEL_DOWN;
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

/* After an Esc: true (and the rest swallowed) when more bytes follow at
 * once, which makes it an escape sequence curses did not know (a mouse
 * report with the mouse off, an odd function key) rather than the Esc key,
 * so that no stray byte of it is taken for a key and nothing quits.  A CSI
 * or SS3 sequence is read up to its final byte. */
static bool
term_unknown_sequence(void)
{
	int ch;

	wtimeout(stdscr, 30);
	ch = getch();
	if (ch == '[' || ch == 'O') {
		int c;

		/* parameters and intermediates are 0x20-0x3f, the final byte
		 * 0x40-0x7e; the first byte after O is already final */
		do
			c = getch();
		while (ch == '[' && c != ERR && c >= 0x20 && c <= 0x3f);
	} else if (ch != ERR) {
		while (getch() != ERR)
			;
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
	struct sigaction sa;
	SCREEN *screen;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = term_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

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
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | TERM_WHEEL_DOWN, NULL);
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
	if (o->quiz)
		lab_quiz_start(lab, o->seed, o->count ? o->count : QUIZ_KINDS);
	if (o->play > 0) {
		lab->play_secs = o->play;
		lab->play_next = lab_clock() + o->play;
	}
}

/* Keys and timers until the lab quits or a signal arrives. */
static void
term_loop(struct tui *t)
{
	tui_draw(t);
	doupdate();
	while (!t->lab.quit && !term_signal) {
		int ch, redraw;
		double now;

		/* wake for the next animation frame or presenter step */
		wtimeout(stdscr, t->lab.animating && !t->lab.anim_paused ? 10 : t->lab.play_secs > 0 ? 100 : 250);
		ch = getch();
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
	char exe[PATH_MAX], why[512], why_en[512];
	const char *lang, *cs;
	bool loaded;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "headlab: the lab needs a terminal on stdin and stdout "
		        "(for text use --print or --trace)\n");
		return 2;
	}
	term_exe_path(exe, sizeof exe);
	lang = term_lang(o);
	loaded = text_load(lang, exe, why, sizeof why);
	if (!loaded && strcmp(lang, "en") != 0)
		text_load("en", exe, why_en, sizeof why_en); /* the warning says why */
	screen = term_open(o);
	if (screen == NULL)
		return 1;
	cs = nl_langinfo(CODESET);
	tui_init(&t, w, o->color != OPTIONS_COLOR_NEVER, cs && strcmp(cs, "UTF-8") == 0, o->theme);
	if (!loaded)
		snprintf(t.lab.warning, sizeof t.lab.warning, "%s %s: %.150s", "no captions for", lang, why);
	term_configure(&t, w, o);
	term_loop(&t);
	endwin();
	term_active = false;
	delscreen(screen);
	tui_free(&t);
	text_free();
	if (term_signal) {
		int sig = term_signal;

		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return 0;
}
