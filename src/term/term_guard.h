/* term_guard.h - the terminal layer's defences against hostile sizes and
 * signals (term_guard.c); used by term.c before and around curses. */
#ifndef HEADLAB_TERM_GUARD_H
#define HEADLAB_TERM_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

/* The largest screen the lab draws: curses keeps several copies of every
 * cell, so a screen beyond this costs hundreds of megabytes. */
#define TERM_GUARD_MAX_LINES 1000
#define TERM_GUARD_MAX_COLS 1000

/* Catch every signal that would end the process with handler, so the
 * terminal can be restored before dying by it (term_guard_die). */
void term_guard_signals(void (*handler)(int));

/* Die by sig with its default action (a core for SIGQUIT); returns only
 * when sig does not end the process. */
void term_guard_die(int sig);

/* The signals that end the process at once, whether the kernel sends them
 * for a fault or another process sends them with kill (SIGSEGV, SIGFPE,
 * SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGSYS): the lab cannot wait for its
 * loop, so the handler writes the bytes that undo curses' modes and puts
 * back the tty's settings itself, with async-signal-safe calls only, then
 * dies by the signal.  Call term_guard_crash_arm once curses is on (fd is
 * the terminal, saved its settings before curses, restore the bytes: at
 * most 255) and term_guard_crash_disarm when curses is off again. */
void term_guard_crash_arm(int fd, const struct termios *saved, const char *restore);
void term_guard_crash_disarm(void);

/* Before curses starts on the tty fd: 0 when the size is one the lab can
 * draw (and the tty's own size, when it reports one, is made to win over
 * LINES and COLUMNS, so resizes are followed); else 2 (LINES or COLUMNS
 * absurd) or 1 (the tty reports an absurd size) with one line in err. */
int term_guard_size(int fd, char *err, size_t errsize);

/* Catch SIGWINCH with a handler of headlab's own, before curses starts:
 * curses then installs none, so it never allocates a screen for a size
 * the lab has not checked (term_guard_resized does, after each signal). */
void term_guard_winch(void);

/* After a SIGWINCH: true, with the size to draw in *lines and *cols (the
 * tty's, capped at TERM_GUARD_MAX_LINES by TERM_GUARD_MAX_COLS) and the
 * tty's own in *real_lines and *real_cols; false when no resize came or
 * the tty does not say its size. */
bool term_guard_resized(int fd, int *lines, int *cols, int *real_lines, int *real_cols);

#endif
