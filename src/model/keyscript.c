/* keyscript.c - parse --keys scripts into key events and pauses. */
#include "keyscript.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int key;
} keyscript_table[] = {
	{ "Right", KEYSCRIPT_RIGHT }, { "Left", KEYSCRIPT_LEFT }, { "Up", KEYSCRIPT_UP },
	{ "Down", KEYSCRIPT_DOWN }, { "Home", KEYSCRIPT_HOME }, { "End", KEYSCRIPT_END },
	{ "PgUp", KEYSCRIPT_PGUP }, { "PgDn", KEYSCRIPT_PGDN }, { "PageUp", KEYSCRIPT_PGUP },
	{ "PageDown", KEYSCRIPT_PGDN }, { "Enter", KEYSCRIPT_ENTER }, { "Return", KEYSCRIPT_ENTER },
	{ "Esc", KEYSCRIPT_ESC }, { "Escape", KEYSCRIPT_ESC }, { "Space", KEYSCRIPT_SPACE },
	{ "Tab", KEYSCRIPT_TAB }, { "BTab", KEYSCRIPT_BTAB }, { "S-Tab", KEYSCRIPT_BTAB },
	{ "Backspace", KEYSCRIPT_BACKSPACE }, { "BS", KEYSCRIPT_BACKSPACE },
	{ "Delete", KEYSCRIPT_DELETE }, { "Del", KEYSCRIPT_DELETE },
};

const char keyscript_names[] =
	"Right Left Up Down Home End PgUp PgDn Enter Esc Space Tab BTab (S-Tab) Backspace Delete, "
	"F1-F12, C-a to C-z, one character such as 4 or q, wait:SECONDS, paste:'TEXT', paste:FILE";

/* The length of the UTF-8 character s starts with when it is exactly one
 * well-formed, printable-range character of len bytes; else 0. */
static size_t
keyscript_one_char(const unsigned char *s, size_t len)
{
	size_t need;
	unsigned cp;

	if (len == 0)
		return 0;
	if (s[0] >= 0x21 && s[0] < 0x7f)
		return len == 1 ? 1 : 0;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	if (len != need)
		return 0;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates, beyond U+10FFFF, C1 controls */
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;
	return need;
}

/* Read one word into ev; false when it is none of the accepted forms. */
static bool
keyscript_word(const char *w, size_t len, struct keyscript_event *ev)
{
	char word[64];

	memset(ev, 0, sizeof *ev);
	if (len >= sizeof word)
		return false;
	memcpy(word, w, len);
	word[len] = '\0';
	if (keyscript_one_char((const unsigned char *)word, len)) {
		ev->kind = KEYSCRIPT_BYTES;
		memcpy(ev->bytes, word, len + 1);
		return true;
	}
	if (strncasecmp(word, "wait:", 5) == 0) {
		char *end;

		errno = 0;
		ev->kind = KEYSCRIPT_WAIT;
		ev->secs = strtod(word + 5, &end);
		return word[5] != '\0' && *end == '\0' && errno == 0 && isfinite(ev->secs) &&
		       ev->secs >= 0 && ev->secs <= KEYSCRIPT_MAX_WAIT;
	}
	if ((word[0] == 'C' || word[0] == 'c') && word[1] == '-' && len == 3 &&
	    ((word[2] >= 'a' && word[2] <= 'z') || (word[2] >= 'A' && word[2] <= 'Z'))) {
		ev->kind = KEYSCRIPT_BYTES;
		ev->bytes[0] = (char)((word[2] | 0x20) - 'a' + 1);
		return true;
	}
	if ((word[0] == 'F' || word[0] == 'f') && len >= 2 && len <= 3 &&
	    strspn(word + 1, "0123456789") == len - 1 && word[1] != '0') {
		char *end;
		long f = strtol(word + 1, &end, 10);

		ev->kind = KEYSCRIPT_NAMED;
		if (end != word + len || f < 1 || f > 12)
			return false;
		ev->key = KEYSCRIPT_F1 + (int)f - 1;
		return true;
	}
	for (size_t i = 0; i < sizeof keyscript_table / sizeof keyscript_table[0]; i++) {
		if (strcasecmp(keyscript_table[i].name, word) == 0) {
			ev->kind = KEYSCRIPT_NAMED;
			ev->key = keyscript_table[i].key;
			return true;
		}
	}
	return false;
}

/* paste:'TEXT' at p: the text between the quotes, escapes read, into ev;
 * the bytes taken in *used.  false (err set) when the quote is not closed. */
static bool
keyscript_paste_quoted(const char *p, size_t *used, struct keyscript_event *ev, char *err,
                       size_t errsize)
{
	const char *q = p + 7;  /* after paste:' */
	size_t n = 0;

	ev->text = malloc(strlen(q) + 1);
	if (ev->text == NULL) {
		snprintf(err, errsize, "--keys: out of memory");
		return false;
	}
	for (; *q && *q != '\''; q++) {
		char c = *q;

		if (c == '\\' && q[1]) {
			q++;
			c = *q;
			if (c == 'n')
				c = '\n';
			else if (c == 't')
				c = '\t';
			else if (c == 'r')
				c = '\r';
		}
		ev->text[n++] = c;
	}
	if (*q != '\'') {
		free(ev->text);
		ev->text = NULL;
		snprintf(err, errsize, "--keys: paste:' has no closing quote (paste:'TEXT', \\' for a quote)");
		return false;
	}
	ev->text[n] = '\0';
	ev->len = n;
	ev->kind = KEYSCRIPT_PASTE;
	*used = (size_t)(q + 1 - p);
	return true;
}

/* paste:FILE: the file's bytes into ev; false (err set) when it cannot be
 * read or is longer than KEYSCRIPT_MAX_PASTE. */
static bool
keyscript_paste_file(const char *path, struct keyscript_event *ev, char *err, size_t errsize)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (f == NULL) {
		snprintf(err, errsize, "--keys: paste:%.200s: %s", path, strerror(errno));
		return false;
	}
	ev->text = malloc(KEYSCRIPT_MAX_PASTE + 1);
	if (ev->text == NULL) {
		fclose(f);
		snprintf(err, errsize, "--keys: out of memory");
		return false;
	}
	n = fread(ev->text, 1, KEYSCRIPT_MAX_PASTE + 1, f);
	if (ferror(f) || n > KEYSCRIPT_MAX_PASTE) {
		snprintf(err, errsize, ferror(f) ? "--keys: paste:%.200s cannot be read" :
		         "--keys: paste:%.200s is longer than 1 MB", path);
		fclose(f);
		free(ev->text);
		ev->text = NULL;
		return false;
	}
	fclose(f);
	ev->text[n] = '\0';
	ev->len = n;
	ev->kind = KEYSCRIPT_PASTE;
	return true;
}

/* A paste word at p (paste:'TEXT' or paste:FILE) into ev, its bytes in
 * *used; false with err set. */
static bool
keyscript_paste(const char *p, size_t *used, struct keyscript_event *ev, char *err, size_t errsize)
{
	char path[4096];
	size_t len = strcspn(p, " \t\n\r");

	memset(ev, 0, sizeof *ev);
	if (p[6] == '\'')
		return keyscript_paste_quoted(p, used, ev, err, errsize);
	*used = len;
	if (len <= 6 || len - 6 >= sizeof path) {
		snprintf(err, errsize, "--keys: paste: wants 'TEXT' or a file, such as paste:'x.view(B, T, H, d)' "
		         "or paste:block.py");
		return false;
	}
	snprintf(path, sizeof path, "%.*s", (int)(len - 6), p + 6);
	return keyscript_paste_file(path, ev, err, errsize);
}

int
keyscript_parse(struct keyscript *ks, const char *text, char *err, size_t errsize)
{
	const char *p = text;

	ks->n = 0;
	ks->ev = NULL;
	err[0] = '\0';
	for (;;) {
		size_t len;
		struct keyscript_event ev;

		p += strspn(p, " \t\n\r");
		if (*p == '\0')
			break;
		len = strcspn(p, " \t\n\r");
		if (strncasecmp(p, "paste:", 6) == 0) {
			if (!keyscript_paste(p, &len, &ev, err, errsize)) {
				keyscript_free(ks);
				return 2;
			}
		} else if (!keyscript_word(p, len, &ev)) {
			bool wait = len >= 5 && strncasecmp(p, "wait:", 5) == 0;
			char shown[41];

			/* the word as typed, but only its ASCII: it goes to a terminal */
			for (size_t i = 0; i < len && i < 40; i++) {
				shown[i] = p[i];
				if ((unsigned char)p[i] < 0x20 || (unsigned char)p[i] >= 0x7f)
					shown[i] = '?';
			}
			shown[len < 40 ? len : 40] = '\0';
			snprintf(err, errsize, wait ? "--keys: '%s' is not a pause (want wait:SECONDS, "
			         "0 to 3600, such as wait:1.5)" : "--keys: unknown key '%s' (keys: %s)",
			         shown, keyscript_names);
			keyscript_free(ks);
			return 2;
		}
		if (ks->n == KEYSCRIPT_MAX) {
			snprintf(err, errsize, "--keys: more than %d keys and pauses", KEYSCRIPT_MAX);
			free(ev.text);
			keyscript_free(ks);
			return 2;
		}
		if (ks->n % 64 == 0) {
			struct keyscript_event *grown = realloc(ks->ev, (size_t)(ks->n + 64) * sizeof *grown);

			if (grown == NULL) {
				snprintf(err, errsize, "--keys: out of memory");
				free(ev.text);
				keyscript_free(ks);
				return 2;
			}
			ks->ev = grown;
		}
		ks->ev[ks->n++] = ev;
		p += len;
	}
	return 0;
}

void
keyscript_free(struct keyscript *ks)
{
	for (int i = 0; i < ks->n; i++)
		free(ks->ev[i].text);
	free(ks->ev);
	ks->ev = NULL;
	ks->n = 0;
}
