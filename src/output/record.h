/* record.h - an asciicast v2 writer (the format asciinema-player shows):
 * a header line, then one [time, "o", text] line per piece of terminal
 * output, in time order.  No curses here. */
#ifndef HEADLAB_RECORD_H
#define HEADLAB_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct record {
	FILE *fp;
	double last;            /* time of the last event: times never go back */
	unsigned char carry[4]; /* the start of a UTF-8 character cut by a write */
	size_t ncarry;
	bool failed;            /* a write failed; record_close says so */
};

/* Create path and write the header for a width x height terminal.  Returns
 * 0, or 1 with a one-line message in err. */
int record_open(struct record *r, const char *path, int width, int height, const char *title,
                char *err, size_t errsize);

/* Append what the program wrote at secs (from the start) as one output
 * event.  A UTF-8 character cut at the end of buf is kept for the next
 * call; invalid bytes become U+FFFD, so every event is valid JSON text. */
void record_output(struct record *r, double secs, const void *buf, size_t n);

/* Write what is carried, close the file; 0, or 1 with a message in err. */
int record_close(struct record *r, char *err, size_t errsize);


#endif
