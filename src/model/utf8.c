/* utf8.c - widths, fitting, wrapping and sanitising of UTF-8 text; the
 * only place headlab measures text or decides what is safe to show. */
#include "utf8.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

bool
utf8_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

const char *
utf8_codeset(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs ? cs : "unknown";
}

size_t
utf8_decode(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	uint32_t c, min;

	*cp = 0xfffd;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0)
		len = 2, c = u[0] & 0x1fu, min = 0x80;
	else if ((u[0] & 0xf0) == 0xe0)
		len = 3, c = u[0] & 0x0fu, min = 0x800;
	else if ((u[0] & 0xf8) == 0xf0)
		len = 4, c = u[0] & 0x07u, min = 0x10000;
	else
		return 1;
	if (len > n)
		return 1;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 1;
		c = c << 6 | (u[i] & 0x3fu);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 1;
	*cp = c;
	return len;
}

/* Columns of a code point when the locale cannot say (it is not UTF-8):
 * 2 for East Asian wide characters, else 1. */
static int
utf8_table_width(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd) ? 2 : 1;
}

/* The character at s (len > 0 bytes left) in the locale: its length, its
 * wide character in *wc and its columns in *cw.  What the locale cannot
 * decode is taken as UTF-8 if it is that (so a line is never cut inside a
 * character, whatever the locale), else as one byte of one column; either
 * way *wc is '?' and st starts over. */
static size_t
utf8_next(const char *s, size_t len, mbstate_t *st, wchar_t *wc, int *cw)
{
	size_t r;
	uint32_t cp;

	if (*s >= 0x20 && *s < 0x7f) {
		/* printable ASCII: one column in every locale, no decoding
		 * (every label of every frame comes through here) */
		*wc = (wchar_t)*s;
		*cw = 1;
		return 1;
	}
	r = mbrtowc(wc, s, len, st);
	if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
		memset(st, 0, sizeof *st);
		r = utf8_decode(s, len, &cp);
		*wc = L'?';
		*cw = r > 1 ? utf8_table_width(cp) : 1;
		return r;
	}
	*cw = wcwidth(*wc);
	if (*cw < 0)
		*cw = 0;
	return r;
}

int
utf8_width(const char *s)
{
	mbstate_t st;
	size_t len;
	int w = 0;

	/* printable ASCII is one column in every locale, and most items are
	 * labels: this runs for every item of every frame */
	while (*s >= 0x20 && *s < 0x7f) {
		s++;
		w++;
	}
	len = strlen(s);
	memset(&st, 0, sizeof st);
	while (len > 0) {
		wchar_t wc;
		int cw;
		size_t r = utf8_next(s, len, &st, &wc, &cw);

		w += cw;
		s += r;
		len -= r;
	}
	return w;
}

size_t
utf8_fit(const char *s, int cols, int *used)
{
	mbstate_t st;
	size_t len = strlen(s), off = 0;
	int w = 0;

	memset(&st, 0, sizeof st);
	while (off < len) {
		wchar_t wc;
		int cw;
		size_t r = utf8_next(s + off, len - off, &st, &wc, &cw);

		if (w + cw > cols)
			break;
		w += cw;
		off += r;
	}
	if (used)
		*used = w;
	return off;
}

void
utf8_fit_ellipsis(char *buf, size_t size, const char *s, int cols, bool ascii)
{
	const char *dots = ascii ? "..." : "\u2026";
	int dw = ascii ? 3 : 1;
	size_t n;

	if (size == 0)
		return;
	if (utf8_width(s) <= cols || cols <= dw) {
		n = utf8_fit(s, cols, NULL);
		snprintf(buf, size, "%.*s", (int)n, s);
		return;
	}
	n = utf8_fit(s, cols - dw, NULL);
	snprintf(buf, size, "%.*s%s", (int)n, s, dots);
}

/* Punctuation a line must not start with (a Chinese comma, full stop,
 * closing bracket or quote...): the break goes before the character in
 * front of it instead. */
static bool
utf8_closing(wchar_t wc)
{
	return wc != 0 && wcschr(L"\uff0c\u3002\u3001\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u201d",
	                         wc) != NULL;
}

size_t
utf8_wrap(const char *s, int cols, const char **next)
{
	mbstate_t st;
	size_t len = strlen(s), off = 0, brk = 0;
	int col = 0, prev_w = 0;

	memset(&st, 0, sizeof st);
	while (off < len) {
		wchar_t wc;
		int cw;
		size_t r = utf8_next(s + off, len - off, &st, &wc, &cw);

		if (off > 0 && (s[off - 1] == ' ' || ((cw == 2 || prev_w == 2) && !utf8_closing(wc))))
			brk = off;
		if (col + cw > cols && off > 0) {
			size_t end = brk ? brk : off;
			const char *rest = s + end;

			while (*rest == ' ')
				rest++;
			*next = rest;
			while (end > 0 && s[end - 1] == ' ')
				end--;
			return end;
		}
		col += cw;
		prev_w = cw;
		off += r;
	}
	*next = s + off;
	while (off > 0 && s[off - 1] == ' ')
		off--;
	return off;
}

/* How many bytes at s (n > 0 left) make one unit for the sanitiser, and
 * in *bad whether that unit must be replaced. */
static size_t
utf8_unit(const char *s, size_t n, unsigned flags, bool *bad)
{
	uint32_t cp;
	size_t len = utf8_decode(s, n, &cp);

	*bad = (cp < 0x20 && !(cp == '\t' && (flags & UTF8_KEEP_TAB))) || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
	       (cp == 0xfffd && len == 1);
	return len;
}

size_t
utf8_sanitize(char *dst, size_t size, const char *src, unsigned flags)
{
	char repl = flags & UTF8_SPACES ? ' ' : '?';
	size_t n = strlen(src), in = 0, out = 0;

	if (size == 0)
		return 0;
	while (in < n) {
		bool bad;
		size_t len = utf8_unit(src + in, n - in, flags, &bad);
		size_t put = bad ? (flags & UTF8_SAME_LENGTH ? len : 1) : len;

		if (out + put >= size)
			break;
		if (bad)
			memset(dst + out, repl, put);
		else
			memmove(dst + out, src + in, len);
		out += put;
		in += len;
	}
	dst[out] = '\0';
	return out;
}

void
utf8_put_safe(FILE *out, const char *s, unsigned flags)
{
	char repl = flags & UTF8_SPACES ? ' ' : '?';
	size_t n = strlen(s);

	while (n > 0) {
		bool bad;
		size_t len = utf8_unit(s, n, flags, &bad);

		if (!bad)
			fwrite(s, 1, len, out);
		else
			for (size_t i = 0; i < (flags & UTF8_SAME_LENGTH ? len : 1); i++)
				fputc(repl, out);
		s += len;
		n -= len;
	}
}
