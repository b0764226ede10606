/* record.h - an asciicast v2 writer (the format asciinema-player shows):
 * a header line, then one [time, "o", text] line per piece of terminal
 * output, in time order.  No curses here. */
#ifndef HEADLAB_RECORD_H
#define HEADLAB_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct record {
	FILE *fp;               /* a temporary file beside path, renamed at the end */
	char *path;             /* where the recording goes */
	char *tmp;              /* the temporary file's name */
	bool replace;           /* path is a recording headlab made: replace it */
	double last;            /* time of the last event: times never go back */
	unsigned char carry[4]; /* the start of a UTF-8 character cut by a write */
	size_t ncarry;
	bool failed;            /* a write failed; record_close says so */
};

/* Start a recording for path and write the header for a width x height
 * terminal.  path must not exist, or be a regular file holding a recording
 * headlab made (its header says "headlab"): any other file, a symbolic link
 * above all, is refused, and never written to.  The recording goes into a
 * temporary file beside path until record_close.  Returns 0, or 1 with a
 * one-line message (sanitised) in err. */
int record_open(struct record *r, const char *path, int width, int height, const char *title,
                char *err, size_t errsize);

/* Append what the program wrote at secs (from the start) as one output
 * event.  A UTF-8 character cut at the end of buf is kept for the next
 * call; invalid bytes become U+FFFD, so every event is valid JSON text. */
void record_output(struct record *r, double secs, const void *buf, size_t n);

/* Write what is carried, close the file and put it at its path (a rename,
 * or a link where nothing may be replaced); 0, or 1 with a message in err. */
int record_close(struct record *r, char *err, size_t errsize);

/* Drop the recording: close and remove the temporary file; path is left as
 * it was.  Also what the child of a fork calls, with unlink false. */
void record_discard(struct record *r, bool unlink_tmp);


#endif
