/* term.c - the lab's run on a terminal: curses set up and torn down, stray
 * escape sequences swallowed, signals, and the run loop that hands keys
 * and ticks to tui.c (or plays a key script through tui_script.c). */
#include "term.h"

#include "screen.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hfconfig.h"
#include "term_guard.h"
#include "text.h"
#include "tui_script.h"
#include "utf8.h"

/* bytes of an unknown sequence (or a paste after Esc) dropped per turn of
 * the loop, so that a signal is answered between two turns */
#define TERM_DRAIN_MAX 4096

/* bytes of a bracketed paste kept: more than the : prompt takes, so that
 * a longer paste is measured and refused whole, never cut */
#define TERM_PASTE_KEEP (2 * LAB_PROMPT_MAX)
#define TERM_PASTE_WAIT_MS 1000 /* a paste whose end never comes ends after this silence */

static volatile sig_atomic_t term_signal;
static bool term_active;
static bool term_draining;      /* more of an unknown sequence is still to be dropped */
static int term_seq_ms = 30;    /* how long the rest of a sequence may take to arrive */

/* A bracketed paste under way: the terminal sent ESC [ 200 ~, and its
 * text comes until ESC [ 201 ~, read as bytes (keypad off), never keys. */
static struct {
	bool on;
	char text[TERM_PASTE_KEEP];
	size_t len;             /* bytes kept in text */
	size_t whole;           /* bytes of the paste so far, kept or not */
	int end;                /* bytes of ESC [ 201 ~ matched so far */
	double last;            /* clock of the last byte */
} term_paste;

/* Bracketed paste (DECSET 2004) on or off: terminfo's BE and BD where the
 * entry has them, else xterm's sequences, which a terminal that does not
 * know the mode ignores.  Written at once, between two of curses' updates
 * (curses writes its own output to the descriptor, not through stdout). */
static void
term_paste_mode(bool on)
{
	const char *cap = tigetstr(on ? "BE" : "BD");

	fputs(cap != NULL && cap != (char *)-1 ? cap : on ? "\033[?2004h" : "\033[?2004l", stdout);
	fflush(stdout);
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
		term_guard_crash_disarm();
		term_paste_mode(false);
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
		char params[8];
		size_t n = 0;
		int c;

		/* parameters and intermediates are 0x20-0x3f, the final byte
		 * 0x40-0x7e; the first byte after O is already final */
		for (;;) {
			c = getch();
			if (ch != '[' || c == ERR || c < 0x20 || c > 0x3f)
				break;
			if (n + 1 < sizeof params)
				params[n++] = (char)c;
		}
		params[n] = '\0';
		if (ch == '[' && c == '~' && strcmp(params, "200") == 0) {
			/* a bracketed paste begins: its bytes are text */
			memset(&term_paste, 0, sizeof term_paste);
			term_paste.on = true;
			term_paste.last = lab_clock();
			keypad(stdscr, FALSE);
		}
	} else if (ch != ERR) {
		term_drain();
	}
	return ch != ERR;
}

/* The paste ends: the lab takes its text as one event (tui_paste). */
static int
term_paste_done(struct tui *t)
{
	term_paste.on = false;
	keypad(stdscr, TRUE);
	return tui_paste(t, term_paste.text, term_paste.len, term_paste.whole);
}

/* One byte of a paste that is no part of its end: kept while there is
 * room, counted always. */
static void
term_paste_byte(int c)
{
	if (term_paste.len < sizeof term_paste.text)
		term_paste.text[term_paste.len++] = (char)c;
	term_paste.whole++;
}

/* Read at most TERM_DRAIN_MAX bytes of a paste under way, waiting wait_ms
 * for each; the paste ends at ESC [ 201 ~, or when nothing came for
 * wait_ms.  Returns what tui_paste returned when it ended, else 0. */
static int
term_paste_read(struct tui *t, int wait_ms)
{
	static const char end[] = "\033[201~";

	wtimeout(stdscr, wait_ms);
	for (int i = 0; i < TERM_DRAIN_MAX && !term_signal; i++) {
		int c = getch();

		if (c == ERR) {
			/* a signal may have cut the wait short: only silence ends it */
			if (lab_clock() - term_paste.last >= wait_ms / 1000.0)
				return term_paste_done(t);
			return 0;
		}
		term_paste.last = lab_clock();
		if (c < 0 || c > 0xff)
			continue;       /* no key codes with keypad off; a resize */
		if (c == (unsigned char)end[term_paste.end]) {
			if (++term_paste.end == (int)sizeof end - 1)
				return term_paste_done(t);
			continue;
		}
		/* a partial match was text after all */
		for (int k = 0; k < term_paste.end; k++)
			term_paste_byte((unsigned char)end[k]);
		term_paste.end = 0;
		if (c == (unsigned char)end[0])
			term_paste.end = 1;
		else
			term_paste_byte(c);
	}
	return 0;
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

/* Append terminfo string cap (delays "$<n>" left out) to buf. */
static void
term_crash_cap(char *buf, size_t size, const char *cap)
{
	size_t used = strlen(buf);

	if (cap == NULL || cap == (char *)-1)
		return;
	for (; *cap && used + 1 < size; cap++) {
		if (cap[0] == '$' && cap[1] == '<' && strchr(cap, '>')) {
			cap = strchr(cap, '>');
			continue;
		}
		buf[used++] = *cap;
	}
	buf[used] = '\0';
}

/* The bytes that undo what term_open set, for a death by a signal that
 * cannot wait for the loop (term_guard_crash_arm). */
static void
term_crash_restore(char *buf, size_t size, bool mouse)
{
	char *xm = tigetstr("XM");

	buf[0] = '\0';
	term_crash_cap(buf, size, tigetstr("sgr0"));
	if (mouse && xm != NULL && xm != (char *)-1)
		term_crash_cap(buf, size, tiparm(xm, 0));
	else if (mouse)
		term_crash_cap(buf, size, "\033[?1000l\033[?1002l\033[?1006l");
	term_crash_cap(buf, size, tigetstr("rmkx"));
	{
		const char *bd = tigetstr("BD");

		term_crash_cap(buf, size, bd != NULL && bd != (char *)-1 ? bd : "\033[?2004l");
	}
	term_crash_cap(buf, size, tigetstr("cnorm"));
	term_crash_cap(buf, size, tigetstr("rmcup"));
}

/* curses on the terminal, in raw mode with keypad and (asked for) mouse;
 * NULL (with the reason on stderr) when the terminal cannot host the lab. */
static SCREEN *
term_open(const struct options *o)
{
	const char *term = getenv("TERM"), *cup;
	SCREEN *screen;
	struct termios saved;
	bool have_saved = tcgetattr(STDOUT_FILENO, &saved) == 0;
	char restore[256];

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
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | TUI_WHEEL_DOWN |
		          TUI_WHEEL_LEFT | TUI_WHEEL_RIGHT | BUTTON_SHIFT, NULL);
		mouseinterval(0);
	}
	term_paste_mode(true);  /* a paste arrives as one event, not as keys */
	if (have_saved) {
		term_crash_restore(restore, sizeof restore, o->mouse);
		term_guard_crash_arm(STDOUT_FILENO, &saved, restore);
	}
	return screen;
}

/* The lab's settings from the command line: zoom, where the walk came
 * from (for : and [ ]), a quiz, presenter mode. */
static void
term_configure(struct tui *t, const struct walk *w, const struct options *o,
               const struct code_checked *code)
{
	struct lab *lab = &t->lab;

	if (o->zoom > 0) {
		lab->zoom = o->zoom > LAB_ZOOM_MAX ? LAB_ZOOM_MAX : o->zoom;
		lab->zoom_auto = false;
	}
	if (o->slow > 0)
		lab->glide.slow = o->slow > LAB_SLOW_MAX ? LAB_SLOW_MAX : o->slow;
	if (o->pattern)
		snprintf(lab->pattern, sizeof lab->pattern, "%s", o->pattern);
	if (o->preset && !o->pattern && w->kind == WALK_CUSTOM)
		lab->preset = preset_find(o->preset);
	for (int i = 0; i < o->naxis && i < 16; i++)
		snprintf(lab->axis_args[i], sizeof lab->axis_args[i], "%.60s", o->axis[i]);
	lab->naxis = o->naxis < 16 ? o->naxis : 16;
	for (int i = 0; i < o->nlet; i++) {
		char err[256];

		/* the names --let binds, for every check the lab runs (the
		 * command line took them; the code is not attached yet) */
		lab_code_let(lab, o->let[i], err, sizeof err);
	}
	if (o->config) {
		struct hfconfig cfg;
		char err[400];

		if (hfconfig_read(o->config, &cfg, err, sizeof err))
			lab->kv_heads = cfg.kv_heads;
	}
	if (o->code)            /* the code's walk: its verdict on the last step */
		lab_code_attach(lab, o->code, o->shape_rank || o->heads_set || o->config, code);
	lab->view3d = o->view3d;
	if (o->quiz)
		lab_quiz_start(lab, o->seed, o->count ? o->count : QUIZ_KINDS);
	if (o->play > 0) {
		lab->play_secs = o->play;
		lab->play_next = lab_clock() + o->play;
	}
	if (o->attention) {
		lab->attn_seed = (uint32_t)o->seed;
		lab->attn_fused = o->fused;
		lab_act(lab, LAB_ATTENTION);
	}
}

int
term_feed(struct tui *t, int seq_ms)
{
	int ch, r;

	term_seq_ms = seq_ms;
	t->seq_ms = seq_ms;
	if (term_paste.on) {
		r = term_paste_read(t, seq_ms) | SCREEN_HANDLED;
	} else if (term_draining) {
		term_drain();
		r = SCREEN_HANDLED;
	} else {
		wtimeout(stdscr, 0);
		ch = tui_getch(t);
		if (ch == ERR)
			r = 0;
		else if ((ch == 27 && term_unknown_sequence()) || ch == 26)
			r = SCREEN_HANDLED;     /* Ctrl-Z (26) would stop the caller */
		else
			r = tui_key(t, ch) | SCREEN_HANDLED;
	}
	term_seq_ms = 30;
	t->seq_ms = 30;
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

		if (term_paste.on) {
			if (term_paste_read(t, TERM_PASTE_WAIT_MS) & SCREEN_REDRAW) {
				tui_tick(t, lab_clock());
				tui_draw(t);
				doupdate();
			}
			continue;
		}
		if (term_draining) {
			term_drain();
			continue;
		}
		/* wake for the next animation frame or presenter step */
		wtimeout(stdscr, t->lab.glide.moving && !t->lab.glide.paused ? 10 : t->lab.play_secs > 0 ? 100 : 250);
		ch = tui_getch(t);
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
			term_paste_mode(false);    /* the shell gets its own pastes */
			endwin();
			raise(SIGTSTP);
			/* raise returns once the shell continues us (fg) */
			/* cppcheck-suppress unreachableCode */
			term_paste_mode(true);
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
term_run(const struct walk *w, const struct options *o, const struct code_checked *code)
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
	term_configure(&t, w, o, code);
	term_loop(&t, o->keys);
	term_guard_crash_disarm();
	term_paste_mode(false);
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
