/* relay.c - run the lab on a pseudo-terminal and record what it draws.
 *
 * curses writes to its terminal's file descriptor directly (ncurses 6
 * bypasses a FILE*'s stdio layer), so the only faithful tap on its output
 * is a terminal of our own: the script(1) and asciinema design. */
#include "relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

static volatile sig_atomic_t relay_winch, relay_signal;

/* What puts the real terminal back when the relay itself is killed while
 * it holds it raw: the lab's own reset went to the pseudo-terminal, and
 * nobody is left to pass it on. */
static struct {
	volatile sig_atomic_t armed;
	pid_t child;
	bool raw;               /* saved holds the terminal's modes */
	struct termios saved;
} relay_wreck;

/* The lab's modes switched off (mouse reports, keypad, bracketed paste,
 * the alternate screen), the cursor shown and the attributes reset, in
 * the xterm dialect asciicast recordings speak. */
static const char relay_reset[] = "\033[?1000l\033[?1002l\033[?1003l\033[?1005l\033[?1006l"
                                  "\033[?1l\033>\033[?2004l\033[0m\033[?25h\033[?1049l";

/* Signals that end the relay: passed on to the lab, it would keep the
 * terminal raw, so the relay restores it and dies by the signal (SIGINT,
 * SIGTERM and SIGHUP are passed on to the lab instead, which ends it). */
static const int relay_fatal[] = {
	SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
	SIGSEGV, SIGFPE, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGSYS,
};

static void
relay_on_fatal(int sig)
{
	sigset_t set;

	if (relay_wreck.armed) {
		relay_wreck.armed = 0;
		kill(relay_wreck.child, SIGHUP);
		if (relay_wreck.raw) {
			ssize_t w = write(STDOUT_FILENO, relay_reset, sizeof relay_reset - 1);

			(void)w;        /* nothing more to do from a dying process */
			tcsetattr(STDIN_FILENO, TCSANOW, &relay_wreck.saved);
		}
	}
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static void
relay_on_signal(int sig)
{
	if (sig == SIGWINCH)
		relay_winch = 1;
	else
		relay_signal = sig;
}

static double
relay_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Write all n bytes to fd, retrying short writes. */
static void
relay_write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

/* Open a pseudo-terminal pair sized ws; 0, or -1 with errno set. */
static int
relay_open_pty(int *master, int *slave, const struct winsize *ws)
{
	const char *name;

	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0)
		return -1;
	if (grantpt(*master) < 0 || unlockpt(*master) < 0 || (name = ptsname(*master)) == NULL ||
	    (*slave = open(name, O_RDWR | O_NOCTTY)) < 0) {
		close(*master);
		return -1;
	}
	ioctl(*slave, TIOCSWINSZ, ws);
	return 0;
}

/* The child's side: a session of its own with the slave as its terminal. */
static void
relay_child(int master, int slave, bool headless)
{
	setsid();
	ioctl(slave, TIOCSCTTY, 0);
	dup2(slave, STDIN_FILENO);
	dup2(slave, STDOUT_FILENO);
	close(master);
	close(slave);
	if (headless) {
		/* the size is the pseudo-terminal's, not a parent shell's */
		unsetenv("LINES");
		unsetenv("COLUMNS");
	}
}

/* Copy between the terminal and the master until the child closes its
 * side; rec (NULL: not recording) gets every byte the child wrote. */
static void
relay_copy(int master, pid_t child, const struct relay_opts *ro, struct record *rec)
{
	double start = relay_clock();
	bool input = !ro->headless;     /* the terminal's keys go to the lab */
	char buf[65536];

	for (;;) {
		struct pollfd fds[2] = {
			{ .fd = master, .events = POLLIN },
			{ .fd = STDIN_FILENO, .events = POLLIN },
		};
		int n = poll(fds, input ? 2 : 1, 200);

		if (relay_signal) {
			kill(child, relay_signal);
			relay_signal = 0;
		}
		if (relay_winch && !ro->headless) {
			struct winsize ws;

			relay_winch = 0;
			if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
				ioctl(master, TIOCSWINSZ, &ws);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (fds[0].revents) {
			ssize_t r = read(master, buf, sizeof buf);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;          /* EIO: the child's side is closed */
			if (rec)
				record_output(rec, relay_clock() - start, buf, (size_t)r);
			if (!ro->headless)
				relay_write_all(STDOUT_FILENO, buf, (size_t)r);
		}
		if (input && fds[1].revents) {
			ssize_t r = read(STDIN_FILENO, buf, sizeof buf);

			if (r > 0)
				relay_write_all(master, buf, (size_t)r);
			else if (r == 0 || errno != EINTR)
				input = false;  /* the terminal is gone: keep recording */
		}
	}
}

int
relay_run(const struct relay_opts *ro, char *err, size_t errsize)
{
	struct winsize ws = { .ws_row = (unsigned short)ro->height, .ws_col = (unsigned short)ro->width };
	struct termios saved = { 0 }, raw;
	struct record rec;
	struct sigaction sa;
	int master, slave, status = 0;
	bool raw_set = false;
	pid_t child;

	if (!ro->headless && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0) {
		snprintf(err, errsize, "cannot read the terminal's size: %s", strerror(errno));
		return 1;
	}
	if (relay_open_pty(&master, &slave, &ws) < 0) {
		snprintf(err, errsize, "cannot open a pseudo-terminal: %s", strerror(errno));
		return 1;
	}
	if (ro->record && record_open(&rec, ro->record, ws.ws_col, ws.ws_row, ro->title, err, errsize)) {
		close(master);
		close(slave);
		return 1;
	}
	fflush(NULL);           /* nothing buffered may be written twice */
	child = fork();
	if (child < 0) {
		snprintf(err, errsize, "cannot fork: %s", strerror(errno));
		close(master);
		close(slave);
		if (ro->record)
			record_discard(&rec, true);
		return 1;
	}
	if (child == 0) {
		if (ro->record)
			record_discard(&rec, false); /* its buffer is empty: fflush above */
		relay_child(master, slave, ro->headless);
		return -1;
	}
	close(slave);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = relay_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!ro->headless && tcgetattr(STDIN_FILENO, &saved) == 0) {
		/* every key goes to the lab as typed, Ctrl-C included */
		raw = saved;
		cfmakeraw(&raw);
		raw_set = tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0;
	}
	relay_wreck.child = child;
	relay_wreck.saved = saved;
	relay_wreck.raw = raw_set;
	relay_wreck.armed = 1;
	sa.sa_handler = relay_on_fatal;
	for (size_t i = 0; i < sizeof relay_fatal / sizeof relay_fatal[0]; i++)
		sigaction(relay_fatal[i], &sa, NULL);
	relay_copy(master, child, ro, ro->record ? &rec : NULL);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	relay_wreck.armed = 0;
	if (raw_set)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
	close(master);
	err[0] = '\0';
	if (ro->record && record_close(&rec, err, errsize))
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}
