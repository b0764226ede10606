/* utf8.h - text as the terminal and the exported files see it: whether the
 * locale is UTF-8, how many columns a string takes, how much of it fits,
 * where a caption wraps (Chinese too), and the one sanitiser every user-
 * or file-supplied string goes through before it reaches a terminal or a
 * file.
 *
 * Widths and wrapping follow the locale (mbrtowc, wcwidth), as ncurses
 * draws; a byte the locale cannot decode counts as one column.  Decoding
 * for the sanitiser is strict UTF-8 whatever the locale. */
#ifndef HEADLAB_UTF8_H
#define HEADLAB_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Whether LC_CTYPE's code set is UTF-8 ("UTF-8" or "utf8", any case): the
 * one test the printer, the exporter and the lab use to choose glyphs. */
bool utf8_locale(void);

/* The locale's character set as nl_langinfo names it, for messages. */
const char *utf8_codeset(void);

/* The code point at s (at most n bytes, n >= 1) and its length; anything
 * that is not well-formed UTF-8 (a stray continuation byte, an overlong or
 * cut sequence, a surrogate) is one byte of U+FFFD. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);

/* Columns s takes in the current locale: 2 for East Asian wide
 * characters, 0 for combining ones and for characters wcwidth refuses. */
int utf8_width(const char *s);

/* Bytes of s that fit in cols columns, never splitting a character; the
 * columns they take in *used (when not NULL). */
size_t utf8_fit(const char *s, int cols, int *used);

/* s cut to cols columns with "…" (or "..." when ascii) at its end when it
 * does not fit, into buf. */
void utf8_fit_ellipsis(char *buf, size_t size, const char *s, int cols, bool ascii);

/* The next line of s that fits in cols columns: its length in bytes, and
 * in *next where the line after it starts.  Lines break after spaces and
 * on either side of a wide (CJK) character, but never before closing
 * punctuation such as "，" or "。"; a word longer than the line is cut
 * between characters.  Spaces at the break belong to neither line. */
size_t utf8_wrap(const char *s, int cols, const char **next);

enum {
	UTF8_SAME_LENGTH = 1,   /* one replacement byte per bad byte, so a caret line
	                         * under an echo (counted in bytes) stays aligned */
	UTF8_SPACES = 2,        /* replace with ' ' rather than '?' */
	UTF8_KEEP_TAB = 4,      /* a tab is kept (an echo of an expression as typed) */
};

/* Copy src into dst (size > 0) with everything a terminal could take for a
 * command replaced: C0 controls and DEL, the C1 controls U+0080 to U+009F
 * (the bytes C2 80 to C2 9F; a lone byte 0x80 to 0x9F is invalid UTF-8 and
 * replaced as such), and malformed UTF-8.  Each bad character becomes one
 * '?' (flags: UTF8_SAME_LENGTH, UTF8_SPACES); well-formed characters are
 * kept whole or not at all.  dst may be src.  Returns dst's length. */
size_t utf8_sanitize(char *dst, size_t size, const char *src, unsigned flags);

/* utf8_sanitize's result for s written to out, whatever its length. */
void utf8_put_safe(FILE *out, const char *s, unsigned flags);

#endif
