/* test_utf8.c - the shared text module: locale test, widths, fitting with
 * an ellipsis, wrapping (Chinese too), and the sanitiser, whose C1 rule
 * must not touch the continuation bytes of ordinary characters. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"
#include "json.h"
#include "tap.h"
#include "utf8.h"

static void
test_width(void)
{
	int used = -1;
	char buf[64];

	tap_ok(utf8_locale(), "C.UTF-8 is a UTF-8 locale");
	tap_eq(utf8_width("abc"), 3, "ASCII: a column each");
	tap_eq(utf8_width("x \u00b7 y\u2026"), 6, "middle dot and ellipsis: one column each");
	tap_eq(utf8_width("\u5934\u6570"), 4, "Chinese: two columns each");
	tap_eq((int)utf8_fit("\u5934\u6570ab", 3, &used), 3, "fit 3 columns: one wide character "
	       "(3 bytes), never half of the next");
	tap_eq(used, 2, "... which takes 2 columns");
	utf8_fit_ellipsis(buf, sizeof buf, "d=9223372036854775807", 8, false);
	tap_ok(strcmp(buf, "d=92233\u2026") == 0, "fit with an ellipsis: %s", buf);
	utf8_fit_ellipsis(buf, sizeof buf, "d=9223372036854775807", 8, true);
	tap_ok(strcmp(buf, "d=922...") == 0, "... in ASCII: %s", buf);
	utf8_fit_ellipsis(buf, sizeof buf, "short", 8, false);
	tap_ok(strcmp(buf, "short") == 0, "... and untouched when it fits: %s", buf);
}

/* s wrapped to cols, lines joined by '|'. */
static void
wrapped(char *buf, size_t size, const char *s, int cols)
{
	size_t used = 0;

	buf[0] = '\0';
	while (*s && used + 1 < size) {
		const char *next;
		size_t n = utf8_wrap(s, cols, &next);

		used += (size_t)snprintf(buf + used, size - used, "%s%.*s", used ? "|" : "", (int)n, s);
		s = next;
	}
}

static void
test_wrap(void)
{
	char buf[256];

	wrapped(buf, sizeof buf, "the quick brown fox jumps", 10);
	tap_ok(strcmp(buf, "the quick|brown fox|jumps") == 0, "words wrap at spaces: %s", buf);
	wrapped(buf, sizeof buf, "abcdefghijkl", 5);
	tap_ok(strcmp(buf, "abcde|fghij|kl") == 0, "a long word is cut: %s", buf);
	wrapped(buf, sizeof buf, "\u4e00\u4e8c\u4e09\u56db\u4e94", 4);
	tap_ok(strcmp(buf, "\u4e00\u4e8c|\u4e09\u56db|\u4e94") == 0,
	       "Chinese wraps between characters: %s", buf);
	wrapped(buf, sizeof buf, "\u4e00\u4e8c\u4e09\uff0c\u56db", 6);
	tap_ok(strcmp(buf, "\u4e00\u4e8c|\u4e09\uff0c\u56db") == 0,
	       "a line never starts with a Chinese comma: %s", buf);
	wrapped(buf, sizeof buf, "ab \u4e00\u4e8c", 4);
	tap_ok(strcmp(buf, "ab|\u4e00\u4e8c") == 0, "spaces at a break go: %s", buf);
}

static void
test_sanitize(void)
{
	static const struct {
		const char *in, *want;
		unsigned flags;
		const char *what;
	} cases[] = {
		{ "caf\u00e9 \u5934 \u2026", "caf\u00e9 \u5934 \u2026", 0,
		  "ordinary characters, whose continuation bytes lie in 0x80-0x9f, are kept" },
		{ "\x1b]0;PWNED\a\x1b[2J", "?]0;PWNED??[2J", 0, "ESC and BEL" },
		{ "a\xc2\x9b" "31m", "a?31m", 0, "U+009B (CSI as a C1 control) is replaced" },
		{ "a\x9b" "b", "a?b", 0, "a lone byte 0x9b is invalid UTF-8: replaced" },
		{ "\xc0\xaf\xed\xa0\x80", "?????", 0, "overlong and surrogate forms: a '?' per byte" },
		{ "\xe4\xb8", "??", 0, "a cut sequence" },
		{ "x\x7fy\tz\n", "x?y?z?", 0, "DEL, tab and newline" },
		{ "x\tz\xc2\x85", "x\tz  ", UTF8_SAME_LENGTH | UTF8_SPACES | UTF8_KEEP_TAB,
		  "for an echo over a caret: byte for byte, spaces, tab kept" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		utf8_sanitize(buf, sizeof buf, cases[i].in, cases[i].flags);
		tap_ok(strcmp(buf, cases[i].want) == 0, "sanitise: %s (got \"%s\")", cases[i].what,
		       buf);
	}
	strcpy(buf, "in \x1b place");
	utf8_sanitize(buf, sizeof buf, buf, 0);
	tap_ok(strcmp(buf, "in ? place") == 0, "sanitise in place");
	utf8_sanitize(buf, 5, "ab\u5934cd", 0);
	tap_ok(strcmp(buf, "ab") == 0, "a character that does not fit is left out whole: \"%s\"",
	       buf);
	tap_ok(fixture_utf8_safe("caf\u00e9") && !fixture_utf8_safe("a\xc2\x9b"), "the tests' safety check agrees");
}

/* One JSON string writer for every JSON headlab writes (json.c): controls
 * of every kind escaped, bytes that are no UTF-8 replaced, so the output is
 * valid UTF-8 whatever the input. */
static void
test_json(void)
{
	static const struct {
		const char *in;
		size_t n;
		const char *want;
		size_t used;
	} cases[] = {
		{ "a\"b\\c", 5, "a\\\"b\\\\c", 5 },
		{ "x\0y", 3, "x\\u0000y", 3 },            /* NUL inside a counted string */
		{ "del\x7f", 4, "del\\u007f", 4 },          /* DEL */
		{ "\x1b[0m", 4, "\\u001b[0m", 4 },          /* C0: ESC */
		{ "c1\xc2\x9b!", 5, "c1\\u009b!", 5 },      /* C1: CSI as U+009B */
		{ "caf\xc3\xa9", 5, "caf\xc3\xa9", 5 },     /* UTF-8 as it is */
		{ "\xff\xfe", 2, "\\ufffd\\ufffd", 2 },     /* no UTF-8 at all */
		{ "\xed\xa0\x80", 3, "\\ufffd\\ufffd\\ufffd", 3 }, /* a surrogate */
		{ "ab\xe4\xb8", 4, "ab", 2 },                /* a character cut short waits */
	};
	char out[64], *mem = NULL;
	size_t len, used, size = 0;
	FILE *fp;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		used = json_escape((const unsigned char *)cases[i].in, cases[i].n, out, &len);
		tap_ok(used == cases[i].used && len == strlen(cases[i].want) &&
		       strcmp(out, cases[i].want) == 0,
		       "json_escape case %zu: %s (used %zu of %zu)", i, out, used, cases[i].n);
	}
	fp = open_memstream(&mem, &size);
	json_string(fp, "q\x7f\xc2\x85\xe4\xb8");
	fputc(' ', fp);
	json_string(fp, NULL);
	fclose(fp);
	tap_ok(mem && strcmp(mem, "\"q\\u007f\\u0085\\ufffd\" null") == 0,
	       "json_string: DEL and C1 escaped, a cut character replaced, NULL as null: %s", mem);
	free(mem);
}

int
main(void)
{
	if (setlocale(LC_ALL, "C.UTF-8") == NULL) {
		printf("1..0 # SKIP no C.UTF-8 locale\n");
		return 0;
	}
	test_width();
	test_wrap();
	test_sanitize();
	test_json();
	return tap_done();
}
