/* index_step.c - the tensor names an index expression may start with. */
#include "index_step.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool
index_step_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* A character that continues a name: step names such as swap-back hold a
 * dash, and a name ends only where its bracket begins. */
static bool
index_step_namechar(char c)
{
	return index_step_alpha(c) || (c >= '0' && c <= '9') || c == '-';
}

int
index_step_default(const struct walk *w)
{
	int k = w->nsteps - 1;

	if (w->kind == WALK_LESSON)
		for (int j = 0; j < w->nsteps; j++)
			if (w->steps[j].group && strcmp(w->steps[j].group, "split_heads") == 0)
				k = j;
	return k;
}

/* The step called heads in the code: the last one of split_heads. */
static int
index_step_heads(const struct walk *w)
{
	int k = -1;

	for (int j = 0; j < w->nsteps; j++)
		if (w->steps[j].group && strcmp(w->steps[j].group, "split_heads") == 0)
			k = j;
	return k;
}

/* Whether the input's code is a plain identifier other than x (gqa's k). */
static bool
index_step_input_alias(const struct walk *w)
{
	const char *c = w->steps[0].code;
	size_t n = 0;

	if (!index_step_alpha(c[0]))
		return false;
	while (index_step_alpha(c[n]) || (c[n] >= '0' && c[n] <= '9'))
		n++;
	return c[n] == '\0' && strcmp(c, "x") != 0;
}

int
index_step_named(const struct walk *w, const char *name, size_t len)
{
	if (len == 1 && name[0] == 'x')
		return 0;
	if (index_step_input_alias(w) && strlen(w->steps[0].code) == len &&
	    strncmp(w->steps[0].code, name, len) == 0)
		return 0;
	if (len == 5 && strncmp(name, "heads", 5) == 0)
		return index_step_heads(w);
	for (int k = 0; k < w->nsteps; k++)
		if (strlen(w->steps[k].name) == len && strncmp(w->steps[k].name, name, len) == 0)
			return k;
	return -1;
}

/* Append s to buf at *used, with a comma before all but the first. */
static void
index_step_append(char *buf, size_t size, size_t *used, const char *s)
{
	int r;

	if (*used >= size)
		return;
	r = snprintf(buf + *used, size - *used, "%s%s", *used ? ", " : "", s);
	if (r > 0)
		*used += (size_t)r;
}

void
index_step_names(const struct walk *w, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	index_step_append(buf, size, &used, "x");
	if (index_step_input_alias(w))
		index_step_append(buf, size, &used, w->steps[0].code);
	if (index_step_heads(w) >= 0)
		index_step_append(buf, size, &used, "heads");
	for (int k = 0; k < w->nsteps; k++)
		index_step_append(buf, size, &used, w->steps[k].name);
}

/* Fill err for the name at pos, so the caret sits under it. */
__attribute__((format(printf, 4, 5))) static bool
index_step_fail(struct index_error *err, size_t pos, const char *key, const char *fmt, ...)
{
	va_list ap;

	err->status = INDEX_ESYNTAX;
	err->pos = pos;
	va_start(ap, fmt);
	message_vsay(err->message, sizeof err->message, err->said, sizeof err->said, key, fmt, ap);
	va_end(ap);
	return false;
}

bool
index_step_resolve(const struct walk *w, const char *expr, int at, int fallback,
                   int *step, struct index_error *err)
{
	size_t start = 0, len = 0, j;
	char names[160];
	int k;

	memset(err, 0, sizeof *err);
	*step = at >= 0 ? at : fallback;
	while (expr[start] == ' ' || expr[start] == '\t')
		start++;
	if (!index_step_alpha(expr[start]))
		return true;
	while (index_step_namechar(expr[start + len]))
		len++;
	for (j = start + len; expr[j] == ' ' || expr[j] == '\t'; j++)
		;
	/* no bracket after it: not a tensor name but an index (None, or a
	 * mistake index_parse explains) */
	if (expr[j] != '[')
		return true;
	k = index_step_named(w, expr + start, len);
	if (k < 0) {
		index_step_names(w, names, sizeof names);
		return index_step_fail(err, start, "msg.index.unknown",
		                       "unknown tensor '%.*s' (this walk has: %s)",
		                       len > 40 ? 40 : (int)len, expr + start, names);
	}
	if (at >= 0 && k != at)
		return index_step_fail(err, start, NULL,
		                       "'%.*s' is step %d (%s) but --at says step %d (%s): "
		                       "drop the name or --at", (int)len, expr + start, k + 1,
		                       w->steps[k].name, at + 1, w->steps[at].name);
	*step = k;
	return true;
}
