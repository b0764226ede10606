/* test_record.c - key scripts (keyscript.c) and the asciicast writer's
 * JSON text (record.c), without a terminal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyscript.h"
#include "record.h"
#include "tap.h"

static void
test_keyscript(void)
{
	struct keyscript ks;
	char err[512];
	int rc = keyscript_parse(&ks, "Right  right 4 Enter wait:1.5 q C-l S-Tab BTab PgDn F5 \xc3\xa9 \xe4\xb8\xad Esc",
	                         err, sizeof err);

	tap_eq(rc, 0, "a script of names, characters and a pause parses (%s)", err);
	tap_eq(ks.n, 14, "14 events");
	if (ks.n == 14) {
		tap_ok(ks.ev[0].kind == KEYSCRIPT_NAMED && ks.ev[0].key == KEYSCRIPT_RIGHT, "Right");
		tap_ok(ks.ev[1].kind == KEYSCRIPT_NAMED && ks.ev[1].key == KEYSCRIPT_RIGHT,
		       "names ignore case");
		tap_ok(ks.ev[2].kind == KEYSCRIPT_BYTES && strcmp(ks.ev[2].bytes, "4") == 0, "4 is a character");
		tap_ok(ks.ev[3].key == KEYSCRIPT_ENTER, "Enter");
		tap_ok(ks.ev[4].kind == KEYSCRIPT_WAIT && ks.ev[4].secs == 1.5, "wait:1.5 is 1.5 s");
		tap_ok(ks.ev[6].kind == KEYSCRIPT_BYTES && ks.ev[6].bytes[0] == 12 && !ks.ev[6].bytes[1],
		       "C-l is byte 12");
		tap_ok(ks.ev[7].key == KEYSCRIPT_BTAB && ks.ev[8].key == KEYSCRIPT_BTAB, "S-Tab and BTab");
		tap_ok(ks.ev[9].key == KEYSCRIPT_PGDN, "PgDn");
		tap_ok(ks.ev[10].key == KEYSCRIPT_F1 + 4, "F5");
		tap_ok(strcmp(ks.ev[11].bytes, "\xc3\xa9") == 0 && strcmp(ks.ev[12].bytes, "\xe4\xb8\xad") == 0,
		       "UTF-8 characters are kept whole");
		tap_ok(ks.ev[13].key == KEYSCRIPT_ESC, "Esc");
	}
	keyscript_free(&ks);

	static const struct { const char *script, *named; } bad[] = {
		{ "Right Rigth", "'Rigth'" }, { "12", "'12'" }, { "wait:", "wait:" },
		{ "wait:1e9", "wait:1e9" }, { "wait:nan", "wait:nan" }, { "C-1", "'C-1'" },
		{ "F13", "'F13'" }, { "F0", "'F0'" }, { "\xc3", "'?'" }, { "\xc0\xaf", "'?\?'" },
		{ "\xed\xa0\x80", "'?\?\?'" }, { "\xc2\x9b", "'?\?'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		rc = keyscript_parse(&ks, bad[i].script, err, sizeof err);
		tap_ok(rc == 2 && ks.n == 0 && ks.ev == NULL && strstr(err, bad[i].named) && !strchr(err, '\n'),
		       "refused, naming the word: %s", err);
	}
	rc = keyscript_parse(&ks, "   ", err, sizeof err);
	tap_ok(rc == 0 && ks.n == 0, "a blank script is no keys");
	keyscript_free(&ks);

	/* pastes: quoted text with its blanks and escapes, or a file's bytes */
	{
		char path[] = "/tmp/headlab-test-paste-XXXXXX", script[128];
		int fd = mkstemp(path);

		tap_ok(fd >= 0 && write(fd, "q = x\r\nq\n", 9) == 9, "a paste file");
		if (fd >= 0)
			close(fd);
		snprintf(script, sizeof script, ": paste:'x.view(B, T, H, d)\\n.transpose(1, 2) \\'a\\'' Enter paste:%s q",
		         path);
		rc = keyscript_parse(&ks, script, err, sizeof err);
		tap_ok(rc == 0 && ks.n == 5 && ks.ev[1].kind == KEYSCRIPT_PASTE &&
		       strcmp(ks.ev[1].text, "x.view(B, T, H, d)\n.transpose(1, 2) 'a'") == 0 && ks.ev[1].len == 39 &&
		       ks.ev[2].key == KEYSCRIPT_ENTER && ks.ev[3].kind == KEYSCRIPT_PASTE &&
		       ks.ev[3].len == 9 && memcmp(ks.ev[3].text, "q = x\r\nq\n", 9) == 0 &&
		       strcmp(ks.ev[4].bytes, "q") == 0,
		       "paste:'TEXT' keeps blanks, reads \\n and \\'; paste:FILE holds the file's 9 bytes (%s)", err);
		keyscript_free(&ks);
		unlink(path);
		rc = keyscript_parse(&ks, "paste:'x.view(B", err, sizeof err);
		tap_ok(rc == 2 && ks.n == 0 && strstr(err, "no closing quote"), "an open quote is refused: %s", err);
		rc = keyscript_parse(&ks, "paste:/nonexistent/headlab-paste", err, sizeof err);
		tap_ok(rc == 2 && strstr(err, "paste:/nonexistent/headlab-paste: No such file"),
		       "a missing file is refused: %s", err);
	}
}

/* record_output calls with the pieces, then the event lines' text. */
static char *
test_events(const char *const *pieces, int n)
{
	char path[] = "/tmp/headlab-test-record-XXXXXX", err[256];
	int fd = mkstemp(path);
	struct record r;
	static char got[4096];
	FILE *fp;
	size_t len;

	close(fd);
	unlink(path);   /* a name only: record_open replaces no file of another's */
	if (record_open(&r, path, 80, 24, "t\"\x01", err, sizeof err))
		return NULL;
	for (int i = 0; i < n; i++)
		record_output(&r, 0.5 * i, pieces[i], strlen(pieces[i]));
	record_close(&r, err, sizeof err);
	fp = fopen(path, "r");
	len = fread(got, 1, sizeof got - 1, fp);
	got[len] = '\0';
	fclose(fp);
	unlink(path);
	return got;
}

static void
test_record_text(void)
{
	const char *cut[] = { "a\xe2\x86", ("\x92" "b"), "\"\\\x1b[1m\x7f" };
	const char *bad[] = { "x\xff" "y\xc3(", "\xe4\xb8" };
	char *got = test_events(cut, 3);
	const char *line;

	tap_ok(got && strstr(got, "\"title\": \"t\\\"\\u0001\"}\n"), "the title is escaped");
	tap_ok(got && strstr(got, "\"width\": 80, \"height\": 24"), "width and height");
	line = got ? strchr(got, '\n') + 1 : "";
	tap_ok(strcmp(line, "[0.000000, \"o\", \"a\"]\n"
	                    "[0.500000, \"o\", \"\xe2\x86\x92" "b\"]\n"
	                    "[1.000000, \"o\", \"\\\"\\\\\\u001b[1m\\u007f\"]\n") == 0,
	       "a character cut between writes goes whole into the next event; controls "
	       "are \\u00XX");
	got = test_events(bad, 2);
	line = got ? strchr(got, '\n') + 1 : "";
	tap_ok(strcmp(line, "[0.000000, \"o\", \"x\\ufffdy\\ufffd(\"]\n"
	                    "[0.500000, \"o\", \"\\ufffd\"]\n") == 0,
	       "invalid bytes and a character cut at the end are U+FFFD");
}

int
main(void)
{
	test_keyscript();
	test_record_text();
	return tap_done();
}
