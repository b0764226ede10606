/* text.c - the caption table: a flat list of key/value pairs. */
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

struct text_entry {
	char *key;
	char *value;
};

static struct text_entry *text_entries;
static size_t text_count;

void
text_free(void)
{
	for (size_t i = 0; i < text_count; i++) {
		free(text_entries[i].key);
		free(text_entries[i].value);
	}
	free(text_entries);
	text_entries = NULL;
	text_count = 0;
}

static char *
text_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

bool
text_load_file(const char *path, char *why, size_t whysize)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int lineno = 0;
	struct text_entry *entries = NULL;
	size_t count = 0;

	if (f == NULL) {
		snprintf(why, whysize, "%s: %s", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof line, f)) {
		char *eq, *key, *value;
		struct text_entry *grown;

		lineno++;
		key = text_trim(line);
		if (*key == '#' || *key == '\0')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL) {
			snprintf(why, whysize, "%s:%d: expected 'key = value'", path, lineno);
			goto fail;
		}
		*eq = '\0';
		value = text_trim(eq + 1);
		key = text_trim(key);
		grown = realloc(entries, (count + 1) * sizeof *entries);
		if (grown == NULL) {
			snprintf(why, whysize, "out of memory");
			goto fail;
		}
		entries = grown;
		entries[count].key = strdup(key);
		entries[count].value = strdup(value);
		count++;
		if (entries[count - 1].key == NULL || entries[count - 1].value == NULL) {
			snprintf(why, whysize, "out of memory");
			goto fail;
		}
	}
	fclose(f);
	text_free();
	text_entries = entries;
	text_count = count;
	return true;
fail:
	fclose(f);
	for (size_t i = 0; i < count; i++) {
		free(entries[i].key);
		free(entries[i].value);
	}
	free(entries);
	return false;
}

bool
text_load(const char *lang, const char *exe_path, char *why, size_t whysize)
{
	char path[4200], dir[4096];
	const char *env = getenv("HEADLAB_DATADIR");

	if (env && *env) {
		snprintf(path, sizeof path, "%s/lang/%s.txt", env, lang);
		return text_load_file(path, why, whysize);
	}
	if (exe_path && *exe_path) {
		const char *slash = strrchr(exe_path, '/');

		if (slash) {
			snprintf(dir, sizeof dir, "%.*s", (int)(slash - exe_path), exe_path);
			snprintf(path, sizeof path, "%s/assets/lang/%s.txt", dir, lang);
			if (text_load_file(path, why, whysize))
				return true;
		}
	}
	snprintf(path, sizeof path, "%s/lang/%s.txt", HEADLAB_DATADIR, lang);
	return text_load_file(path, why, whysize);
}

const char *
text_get(const char *key, const char *fallback)
{
	for (size_t i = 0; i < text_count; i++)
		if (strcmp(text_entries[i].key, key) == 0)
			return text_entries[i].value;
	return fallback;
}

/* The conversions of a printf format, as their length and conversion
 * letters ("lld", "s", "d" ...) joined; false when it is malformed.  A '*'
 * width or precision reads an int argument of its own, so it is listed as
 * a conversion ("*"); a width or precision of 1000 or more is refused
 * (printf may allocate that much for one number). */
static bool
text_conversions(const char *fmt, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	for (const char *p = fmt; *p; p++) {
		int digits = 0;

		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		for (; *p && strchr("-+ #0123456789.*", *p); p++) {
			digits = *p >= '0' && *p <= '9' ? digits + 1 : 0;
			if (digits > 3)
				return false;
			if (*p == '*') {
				if (used + 3 >= size)
					return false;
				out[used++] = '*';
				out[used++] = ',';
				out[used] = '\0';
			}
		}
		while (*p && strchr("hlLqjzt", *p)) {
			if (used + 2 >= size)
				return false;
			out[used++] = *p++;
		}
		if (*p == '\0' || !strchr("diouxXeEfgGcsp", *p) || used + 3 >= size)
			return false;
		out[used++] = *p;
		out[used++] = ',';
		out[used] = '\0';
	}
	return true;
}

const char *
text_fmt(const char *key, const char *english)
{
	const char *s = text_get(key, NULL);
	char a[128], b[128];

	if (s == NULL || !text_conversions(s, a, sizeof a) ||
	    !text_conversions(english, b, sizeof b) || strcmp(a, b) != 0)
		return english;
	return s;
}

void
text_format(char *buf, size_t size, const char *key, const char *fallback,
            const struct walk *w)
{
	const char *s = text_get(key, fallback);
	size_t used = 0;

	if (size == 0)
		return;
	while (*s && used + 1 < size) {
		long long v = -1;

		if (s[0] == '{' && s[1] != '\0' && s[2] == '}') {
			switch (s[1]) {
			case 'B': v = w->batch; break;
			case 'T': v = w->positions; break;
			case 'D': v = w->width; break;
			case 'H': v = w->heads; break;
			case 'd': v = w->head_width; break;
			case 'N': v = walk_numel(w); break;
			default: break;
			}
		}
		if (v >= 0) {
			int r = snprintf(buf + used, size - used, "%lld", v);

			if (r < 0 || (size_t)r >= size - used)
				break;
			used += (size_t)r;
			s += 3;
		} else {
			buf[used++] = *s++;
		}
	}
	buf[used] = '\0';
}
