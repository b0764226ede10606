/* term_guard.c - what keeps a hostile terminal from taking the lab down:
 * the screen size checked before curses allocates a screen for it (and
 * the tty's real size preferred to stale LINES/COLUMNS), every signal that
 * ends the process caught so that the terminal is restored first, and the
 * death by that signal afterwards (a fault, or a fatal signal sent from
 * outside, restores it from the handler itself); and every resize checked
 * (capped at the largest screen the lab draws) before curses is told of
 * it. */
#include "term_guard.h"

#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Signals whose default action ends the process (SIGKILL and SIGSTOP
 * cannot be caught; SIGTSTP stops, and Ctrl-Z is handled as a key). */
static const int term_guard_fatal[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
	SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
};

void
term_guard_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof term_guard_fatal / sizeof term_guard_fatal[0]; i++)
		sigaction(term_guard_fatal[i], &sa, NULL);
}

void
term_guard_die(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static const int term_guard_crash[] = {
	SIGSEGV, SIGFPE, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGSYS,
};

/* What the crash handler needs, set before it is armed. */
static struct {
	volatile sig_atomic_t armed;
	int fd;
	struct termios saved;
	char restore[256];
	size_t len;
} term_guard_wreck;

static void
term_guard_on_crash(int sig)
{
	if (term_guard_wreck.armed) {
		const char *p = term_guard_wreck.restore;
		size_t left = term_guard_wreck.len;

		term_guard_wreck.armed = 0;
		while (left > 0) {
			ssize_t n = write(term_guard_wreck.fd, p, left);

			if (n <= 0)
				break;
			p += n;
			left -= (size_t)n;
		}
		tcsetattr(term_guard_wreck.fd, TCSANOW, &term_guard_wreck.saved);
	}
	term_guard_die(sig);
}

void
term_guard_crash_arm(int fd, const struct termios *saved, const char *restore)
{
	struct sigaction sa;
	size_t n = strlen(restore);

	if (n >= sizeof term_guard_wreck.restore)
		n = sizeof term_guard_wreck.restore - 1;
	term_guard_wreck.fd = fd;
	term_guard_wreck.saved = *saved;
	memcpy(term_guard_wreck.restore, restore, n);
	term_guard_wreck.len = n;
	term_guard_wreck.armed = 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = term_guard_on_crash;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof term_guard_crash / sizeof term_guard_crash[0]; i++)
		sigaction(term_guard_crash[i], &sa, NULL);
}

void
term_guard_crash_disarm(void)
{
	term_guard_wreck.armed = 0;
}

static volatile sig_atomic_t term_guard_winched;

static void
term_guard_on_winch(int sig)
{
	(void)sig;
	term_guard_winched = 1;
}

void
term_guard_winch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = term_guard_on_winch;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);  /* no SA_RESTART: a waiting getch wakes */
}

bool
term_guard_resized(int fd, int *lines, int *cols, int *real_lines, int *real_cols)
{
	struct winsize ws;

	if (!term_guard_winched)
		return false;
	term_guard_winched = 0;
	memset(&ws, 0, sizeof ws);
	if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0)
		return false;
	*real_lines = ws.ws_row;
	*real_cols = ws.ws_col;
	*lines = ws.ws_row > TERM_GUARD_MAX_LINES ? TERM_GUARD_MAX_LINES : ws.ws_row;
	*cols = ws.ws_col > TERM_GUARD_MAX_COLS ? TERM_GUARD_MAX_COLS : ws.ws_col;
	return true;
}

/* LINES or COLUMNS as a number: 0 when unset, -1 when not a number. */
static long
term_guard_env(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (v == NULL || *v == '\0')
		return 0;
	n = strtol(v, &end, 10);
	if (*end != '\0' || n < 1)
		return -1;
	return n;
}

int
term_guard_size(int fd, char *err, size_t errsize)
{
	long lines = term_guard_env("LINES"), cols = term_guard_env("COLUMNS");
	struct winsize ws;
	bool tty_size;

	if (lines > TERM_GUARD_MAX_LINES || cols > TERM_GUARD_MAX_COLS || lines < 0 || cols < 0) {
		snprintf(err, errsize, "LINES=%.20s COLUMNS=%.20s is not a size the lab can draw "
		         "(1 to %d lines, 1 to %d columns; unset LINES and COLUMNS to use the terminal's)",
		         getenv("LINES") ? getenv("LINES") : "", getenv("COLUMNS") ? getenv("COLUMNS") : "",
		         TERM_GUARD_MAX_LINES, TERM_GUARD_MAX_COLS);
		return 2;
	}
	memset(&ws, 0, sizeof ws);
	tty_size = ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0;
	if (tty_size && (ws.ws_row > TERM_GUARD_MAX_LINES || ws.ws_col > TERM_GUARD_MAX_COLS)) {
		snprintf(err, errsize, "the terminal says it is %u lines by %u columns, more than the "
		         "lab draws (at most %d by %d; stty rows and cols set it)",
		         (unsigned)ws.ws_row, (unsigned)ws.ws_col, TERM_GUARD_MAX_LINES, TERM_GUARD_MAX_COLS);
		return 1;
	}
	/* a tty that knows its size is followed through every resize, even
	 * when LINES and COLUMNS were set: they would pin the first size
	 * (use_tioctl alone does not unpin it on a resize with ncurses 6.4) */
	if (tty_size) {
		use_tioctl(TRUE);
		unsetenv("LINES");
		unsetenv("COLUMNS");
	}
	return 0;
}
