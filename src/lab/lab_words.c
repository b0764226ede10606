/* lab_words.c - the words the lab shows for things named in tables (steps,
 * bugs, presets), in the interface's language, and the small text helpers
 * the screens share to line those words up. */
#include "lab.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "numbers.h"
#include "text.h"
#include "utf8.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

int
lab_bar_step(const struct lab *lab)
{
	/* the bug lab marks the right walk's heads (or merge) beside the bug */
	const struct lab_part *p = lab_part_shown(lab);

	return p && p->bar_step ? p->bar_step(lab) : lab->step;
}

const char *
lab_words_named(const char *prefix, const char *name, const char *english)
{
	char key[96];

	snprintf(key, sizeof key, "%s.%s", prefix, name);
	return text_get(key, english);
}

/* The bugs' short names, as --check and the bug lab call them: English
 * keeps PyTorch's words, a translation names the mistake in its own. */
static const struct {
	const char *key, *english;
} lab_words_bugs[] = {
	{ "check.bug.no-transpose", "no-transpose" },
	{ "check.bug.swap-batch", "swap-batch" },
	{ "check.bug.missing-transpose", "missing-transpose" },
	{ "check.bug.d-h", "d-h" },
	{ "check.bug.wrong-axes", "wrong-axes" },
	{ "check.bug.merge-no-transpose", "merge-no-transpose" },
	{ "check.bug.no-merge", "no-merge" },
	{ "check.bug.kv-tiled", "kv-tiled" },
	{ "check.bug.kv-misplaced", "kv-misplaced" },
	{ "check.bug.qkv-order", "qkv-order" },
	{ "check.bug.flash-transposed", "flash-transposed" },
};

const char *
lab_words_bug(const char *kind)
{
	for (size_t i = 0; i < sizeof lab_words_bugs / sizeof lab_words_bugs[0]; i++)
		if (strcmp(lab_words_bugs[i].english, kind) == 0)
			return text_get(lab_words_bugs[i].key, kind);
	return kind;
}

void
lab_words_divisors(char *buf, size_t size, int64_t width)
{
	int64_t div[32];
	int n = numbers_divisors(width, div, 32);
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used + 24 < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s%s%lld", i == 0 ? "" : i == n - 1 ? " " : ", ",
		                         i > 0 && i == n - 1 ? text_get("ui.or", "or") : "",
		                         i > 0 && i == n - 1 ? " " : "", (long long)div[i]);
}

void
lab_words_pad(char *buf, size_t size, const char *s, int cols)
{
	int w = utf8_width(s);
	size_t n;

	snprintf(buf, size, "%s", s);
	n = strlen(buf);
	for (; w < cols && n + 1 < size; w++)
		buf[n++] = ' ';
	buf[n] = '\0';
}

int
lab_words_step_width(const struct walk *w)
{
	int most = 10; /* the column stands where it always did */

	for (int k = 0; k < w->nsteps; k++)
		if (utf8_width(facts_step_word(w, k)) > most)
			most = utf8_width(facts_step_word(w, k));
	return most;
}

void
lab_words_label(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = lab_walk(lab);
	int64_t b, pos, head;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (lab->selected < 0 || lab->selected >= walk_numel(w))
		return;
	walk_label_origin(w, lab->selected, &b, &pos, &head);
	snprintf(buf, size, text_fmt("ui.label", "label %lld: position %lld, head %lld"),
	         (long long)lab->selected, (long long)pos, (long long)head);
	if (w->batch > 1)
		snprintf(buf + strlen(buf), size - strlen(buf), text_fmt("ui.batch", ", batch %lld"),
		         (long long)b);
}
