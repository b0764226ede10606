/* keyscript.h - a key script for --keys, such as 'Right Right 4 Enter
 * wait:1.5 q': named keys, single characters and pauses.  No curses here:
 * named keys are abstract ids that the terminal layer maps to its codes. */
#ifndef HEADLAB_KEYSCRIPT_H
#define HEADLAB_KEYSCRIPT_H

#include <stddef.h>

enum keyscript_key {
	KEYSCRIPT_RIGHT = 1, KEYSCRIPT_LEFT, KEYSCRIPT_UP, KEYSCRIPT_DOWN,
	KEYSCRIPT_HOME, KEYSCRIPT_END, KEYSCRIPT_PGUP, KEYSCRIPT_PGDN,
	KEYSCRIPT_ENTER, KEYSCRIPT_ESC, KEYSCRIPT_SPACE, KEYSCRIPT_TAB, KEYSCRIPT_BTAB,
	KEYSCRIPT_BACKSPACE, KEYSCRIPT_DELETE,
	KEYSCRIPT_F1,           /* F1 to F12 follow in order */
	KEYSCRIPT_F12 = KEYSCRIPT_F1 + 11,
};

enum keyscript_kind {
	KEYSCRIPT_NAMED,        /* key: an enum keyscript_key */
	KEYSCRIPT_BYTES,        /* bytes: one character as typed (UTF-8), or a control byte */
	KEYSCRIPT_WAIT,         /* secs: let the lab run that long */
	KEYSCRIPT_PASTE,        /* text: a paste, as a terminal's bracketed paste brings it */
};

struct keyscript_event {
	enum keyscript_kind kind;
	int key;
	char bytes[8];          /* NUL-terminated */
	double secs;
	char *text;             /* a paste's bytes (owned; may hold NUL), or NULL */
	size_t len;
};

#define KEYSCRIPT_MAX 4096      /* events in one script */
#define KEYSCRIPT_MAX_WAIT 3600.0
#define KEYSCRIPT_MAX_PASTE (1 << 20) /* bytes of one paste: far more than a prompt takes */

struct keyscript {
	struct keyscript_event *ev;
	int n;
};

/* Parse text (words separated by blanks) into ks.  paste:'TEXT' is a
 * paste of TEXT (blanks kept; \n a newline, \t a tab, \\ and \' themselves),
 * paste:FILE one of the file's bytes.  Returns 0, or 2 with a
 * one-line message naming the word and the names it could have been in
 * err; ks is then empty.  Names are matched without regard to case. */
int keyscript_parse(struct keyscript *ks, const char *text, char *err, size_t errsize);

void keyscript_free(struct keyscript *ks);

/* Every accepted form, for messages and --help. */
extern const char keyscript_names[];

#endif
