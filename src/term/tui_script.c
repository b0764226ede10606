/* tui_script.c - the lab played from a key script, and run on a
 * pseudo-terminal for --record and for --keys with no terminal. */
#include "tui_script.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "keyscript.h"
#include "relay.h"
#include "screen.h"

#define TUI_SCRIPT_BEAT 0.2     /* seconds a step's end state stays before the next key */
#define TUI_SCRIPT_SETTLE 5.0   /* the longest a key waits for its move to end */

int
tui_script_keycode(int key)
{
	switch (key) {
	case KEYSCRIPT_RIGHT: return KEY_RIGHT;
	case KEYSCRIPT_LEFT: return KEY_LEFT;
	case KEYSCRIPT_UP: return KEY_UP;
	case KEYSCRIPT_DOWN: return KEY_DOWN;
	case KEYSCRIPT_HOME: return KEY_HOME;
	case KEYSCRIPT_END: return KEY_END;
	case KEYSCRIPT_PGUP: return KEY_PPAGE;
	case KEYSCRIPT_PGDN: return KEY_NPAGE;
	case KEYSCRIPT_ENTER: return '\r';      /* as a terminal sends it under nonl() */
	case KEYSCRIPT_ESC: return 27;
	case KEYSCRIPT_SPACE: return ' ';
	case KEYSCRIPT_TAB: return '\t';
	case KEYSCRIPT_BTAB: return KEY_BTAB;
	case KEYSCRIPT_BACKSPACE: return KEY_BACKSPACE;
	case KEYSCRIPT_DELETE: return KEY_DC;
	default:
		if (key >= KEYSCRIPT_F1 && key <= KEYSCRIPT_F12)
			return KEY_F(key - KEYSCRIPT_F1 + 1);
		return ERR;
	}
}

int
tui_script_relay(const struct options *o)
{
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	struct relay_opts ro = {
		.record = o->record, .headless = !tty,
		.width = o->size_w > 0 ? o->size_w : 80, .height = o->size_h > 0 ? o->size_h : 24,
		.title = "headlab",
	};
	const char *term = getenv("TERM");
	char err[512];
	int rc;

	if (!(o->record || (o->keys && !tty)) || (!tty && !o->keys))
		return -1;      /* the lab as usual, or its message about a terminal */
	if (!tty && (term == NULL || *term == '\0' || strcmp(term, "dumb") == 0))
		setenv("TERM", "xterm-256color", 1); /* headless: a terminal of our own */
	rc = relay_run(&ro, err, sizeof err);
	if (rc == -1)
		return -1;
	if (err[0])
		fprintf(stderr, "headlab: %s\n", err);
	return rc;
}

static double
tui_script_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Let the lab's clock run until until (or, with settle, until no move is
 * under way, then TUI_SCRIPT_BEAT more), drawing as the main loop does.
 * Keys typed meanwhile are dropped, but Ctrl-C and q stop the script. */
static bool
tui_script_run_clock(struct tui *t, double until, bool settle, volatile const sig_atomic_t *stop)
{
	double limit = tui_script_clock() + TUI_SCRIPT_SETTLE;

	if (settle)
		until = tui_script_clock() + TUI_SCRIPT_BEAT;
	for (;;) {
		double now = tui_script_clock();
		int ch;

		/* the beat starts when the move ends; but under --play the lab
		 * starts the next move by itself and is never still: there the
		 * beat is all (a key stops the play, so this is only till then) */
		if (settle && t->lab.play_secs <= 0 && (t->lab.glide.moving || t->lab.glide.pending))
			until = now + TUI_SCRIPT_BEAT;
		if (now >= until || (settle && now >= limit) || *stop || t->lab.quit)
			return !*stop && !t->lab.quit;
		wtimeout(stdscr, t->lab.glide.moving && !t->lab.glide.paused ? 10 : 50);
		ch = tui_getch(t);
		if (ch == 3 || ch == 'q')
			return false;
		if (ch == KEY_RESIZE)
			tui_key(t, ch);
		if (tui_tick(t, tui_script_clock()) || ch == KEY_RESIZE) {
			tui_draw(t);
			doupdate();
		}
	}
}

void
tui_script_play(struct tui *t, const char *keys, volatile const sig_atomic_t *stop)
{
	struct keyscript ks;
	char err[512];

	if (keyscript_parse(&ks, keys, err, sizeof err) != 0)
		return;         /* options_parse has refused it already */
	for (int i = 0; i < ks.n; i++) {
		const struct keyscript_event *ev = &ks.ev[i];
		bool go;

		if (ev->kind == KEYSCRIPT_WAIT) {
			go = tui_script_run_clock(t, tui_script_clock() + ev->secs, false, stop);
		} else {
			if (ev->kind == KEYSCRIPT_PASTE)
				tui_paste(t, ev->text, ev->len, ev->len);
			else if (ev->kind == KEYSCRIPT_NAMED)
				tui_key(t, tui_script_keycode(ev->key));
			else
				for (const char *b = ev->bytes; *b; b++)
					tui_key(t, (unsigned char)*b);
			tui_tick(t, tui_script_clock());
			tui_draw(t);
			doupdate();
			go = tui_script_run_clock(t, 0, true, stop);
		}
		if (!go)
			break;
	}
	/* the last key's move ends on screen, not cut off mid-way */
	if (!*stop && !t->lab.quit)
		tui_script_run_clock(t, 0, true, stop);
	keyscript_free(&ks);
}
