/* lab_messages.c - the refusals the lab shows from the parsers it shares
 * with the command line (index expressions, patterns, shapes, head
 * counts, code), in the interface's language.
 *
 * The parsers word their refusals in English, as the command line's
 * contract has them.  The lab reads such a message back against the
 * English formats below; where one matches, the message is said again
 * with the caption file's format for its key, each conversion filled with
 * the text the English one held (text_fmt vouches that both ask for the
 * same conversions in the same order).  A message that matches none stays
 * as it is. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

/* An English message format and the key of its words elsewhere; or_list:
 * the last conversion is a list such as "1, 2 or 4", whose "or" is said
 * with ui.or. */
static const struct lab_message {
	const char *key, *english;
	bool or_list;
} lab_messages[] = {
	/* head counts and shapes at the : prompt (options.c) */
	{ "msg.heads.min", "--heads '%s' must be at least 1 (want a head count such as 2)", false },
	{ "msg.heads.notdiv", "width %lld is not divisible by %lld heads (try %s)", true },
	{ "msg.heads.notdiv1", "width %lld is not divisible by %lld head (try %s)", true },
	{ "msg.shape.big", "--shape '%s' has more cells than a 64-bit count holds (B*T*D must stay below 2^63)", false },
	{ "msg.shape.big.any", "--shape '%s' has more cells than a 64-bit count holds (their product must stay below 2^63)", false },
	/* index expressions at the / prompt (index.c, index_step.c) */
	{ "msg.index.range", "index %lld is out of range for axis %s of size %lld (valid: %lld to %lld)", false },
	{ "msg.index.range0", "index %lld is out of range for axis %s of size 0", false },
	{ "msg.index.advanced", "'%c' starts a list or tuple of indices (advanced indexing); "
	  "headlab does basic indexing: numbers, slices, ... and None", false },
	{ "msg.index.unknown", "unknown tensor '%.*s' (this walk has: %s)", false },
	/* the e prompt's directory (export_files.c) */
	{ "msg.export.notdir", "cannot export to %s: it is not a directory", false },
	{ "msg.export.full", "cannot export to %s: it is not empty and not an earlier headlab export "
	  "(it holds %s); choose a new or empty directory", false },
	{ "msg.export.foreign", "cannot export to %s: %s is not from an earlier headlab export; move it "
	  "away or choose another directory", false },
	/* patterns (pattern.c) */
	{ "msg.pattern.open", "'(' is never closed", false },
	/* code (code.c, code_ops.c) */
	{ "msg.code.view", "%s cannot be a view: the tensor is %s with strides (%s), so %s would need "
	  "to span two non-adjacent runs of memory (PyTorch raises here); use .reshape, which copies, "
	  "or .contiguous() first", false },
	{ "msg.code.unknown", ".%s is not a call headlab knows (see headlab(1) for the list)", false },
	{ "msg.code.undefined", "'%.*s' is not defined: start from x, heads or context; %s", false },
};

#define LAB_MESSAGE_CAPS 8

/* The conversion at f ("%lld", "%.*s", ...): its length, and its letter
 * in *conv. */
static size_t
lab_message_spec(const char *f, char *conv)
{
	size_t n = 1 + strspn(f + 1, "-+ #0123456789.*");

	n += strspn(f + n, "hlLqjzt");
	*conv = f[n];
	return f[n] ? n + 1 : n;
}

/* Whether s reads as format f, each conversion's text in caps (start and
 * length); numbers take digits, %c one character, %s any run, the
 * shortest that lets the rest match. */
static bool
lab_message_match(const char *f, const char *s, const char **cap, size_t *len, int i)
{
	char conv;
	size_t n, most;

	if (*f == '\0')
		return *s == '\0';
	if (f[0] == '%' && f[1] == '%')
		return *s == '%' && lab_message_match(f + 2, s + 1, cap, len, i);
	if (*f != '%')
		return *s == *f && lab_message_match(f + 1, s + 1, cap, len, i);
	if (i >= LAB_MESSAGE_CAPS)
		return false;
	n = lab_message_spec(f, &conv);
	if (conv == 'c')
		most = *s ? 1 : 0;
	else if (conv == 's')
		most = strlen(s);
	else
		most = (*s == '-') + strspn(s + (*s == '-'), "0123456789");
	for (size_t k = conv == 's' ? 0 : most; k <= most && (conv == 's' || k > 0); k++) {
		cap[i] = s;
		len[i] = k;
		if (lab_message_match(f + n, s + k, cap, len, i + 1))
			return true;
		if (conv != 's')
			break;
	}
	return false;
}

/* Append s (n bytes) to buf at *used, with " or " said as ui.or when or. */
static void
lab_message_put(char *buf, size_t size, size_t *used, const char *s, size_t n, bool or)
{
	const char *word = or ? strstr(s, " or ") : NULL;

	if (word && (size_t)(word - s) < n) {
		size_t head = (size_t)(word - s);

		lab_message_put(buf, size, used, s, head, false);
		*used += (size_t)snprintf(buf + *used, *used < size ? size - *used : 0, " %s ",
		                          text_get("ui.or", "or"));
		lab_message_put(buf, size, used, word + 4, n - head - 4, false);
		return;
	}
	if (*used < size)
		*used += (size_t)snprintf(buf + *used, size - *used, "%.*s", (int)n, s);
}

void
lab_message_words(char *buf, size_t size, const char *english)
{
	const char *cap[LAB_MESSAGE_CAPS];
	size_t len[LAB_MESSAGE_CAPS], used = 0;
	int i = 0, ncaps = 0;

	for (size_t m = 0; m < sizeof lab_messages / sizeof lab_messages[0]; m++) {
		const struct lab_message *lm = &lab_messages[m];
		const char *f;

		if (!lab_message_match(lm->english, english, cap, len, 0))
			continue;
		for (f = lm->english; *f; f++)
			if (*f == '%' && f[1] != '%')
				ncaps++;
			else if (*f == '%')
				f++;
		buf[0] = '\0';
		for (f = text_fmt(lm->key, lm->english); *f && used < size; f++) {
			char conv;

			if (f[0] == '%' && f[1] == '%') {
				lab_message_put(buf, size, &used, "%", 1, false);
				f++;
			} else if (*f == '%') {
				f += lab_message_spec(f, &conv) - 1;
				if (i < ncaps) {
					lab_message_put(buf, size, &used, cap[i], len[i], lm->or_list && i == ncaps - 1);
					i++;
				}
			} else {
				lab_message_put(buf, size, &used, f, 1, false);
			}
		}
		return;
	}
	snprintf(buf, size, "%s", english);
}
