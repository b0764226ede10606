/* relay.h - the lab on a pseudo-terminal, with this process between it and
 * the world: what the lab draws is copied to the terminal (if there is
 * one) and into an asciicast recording.  No curses here. */
#ifndef HEADLAB_RELAY_H
#define HEADLAB_RELAY_H

#include <stdbool.h>
#include <stddef.h>

struct relay_opts {
	const char *record;     /* asciicast path, or NULL */
	bool headless;          /* no terminal: nothing is read or shown */
	int width, height;      /* the pseudo-terminal's size when headless */
	const char *title;      /* the recording's title */
};

/* Fork: the child gets a pseudo-terminal as stdin and stdout (sized as
 * the real terminal, or width x height when headless) and returns -1 to go
 * on with the lab; the parent copies between the two until the child ends
 * and returns its exit status (128 + signal when killed).  Returns 1 with
 * a one-line message in err when this cannot start or the recording
 * cannot be written. */
int relay_run(const struct relay_opts *ro, char *err, size_t errsize);

#endif
