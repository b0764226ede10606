/* text.c - the caption table: a flat list of key/value pairs. */
#include "text.h"
#include "numbers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "utf8.h"

#define TEXT_FILE_MAX (1 << 20) /* bytes: the captions take a few KB */
#define TEXT_LINE_MAX 2047      /* bytes on a line, as the loader always allowed */

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

/* What kind of file st is, for a message: "a FIFO", "a directory"... */
static const char *
text_file_kind(const struct stat *st)
{
	if (S_ISDIR(st->st_mode))
		return "a directory";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

/* The whole of the regular file at path, NUL-terminated, in a new buffer;
 * NULL with a reason in why for anything else.  Opened without blocking
 * (a FIFO with no writer would hang open()), checked with fstat before a
 * byte is read, and at most TEXT_FILE_MAX bytes. */
static char *
text_slurp(const char *path, char *why, size_t whysize)
{
	struct stat st;
	char *data;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, whysize, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, whysize, "%s: not a regular file (%s)", path, text_file_kind(&st));
		close(fd);
		return NULL;
	}
	if (st.st_size > TEXT_FILE_MAX) {
		snprintf(why, whysize, "%s: too large (%lld bytes, at most %d)", path,
		         (long long)st.st_size, TEXT_FILE_MAX);
		close(fd);
		return NULL;
	}
	data = malloc((size_t)st.st_size + 1);
	if (data == NULL) {
		snprintf(why, whysize, "out of memory");
		close(fd);
		return NULL;
	}
	/* the size may change under us: read no more than was checked */
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	data[got] = '\0';
	return data;
}

/* Add key = value to entries; false when memory ran out. */
static bool
text_add(struct text_entry **entries, size_t *count, const char *key, const char *value)
{
	struct text_entry *grown = realloc(*entries, (*count + 1) * sizeof **entries);

	if (grown == NULL)
		return false;
	*entries = grown;
	grown[*count].key = strdup(key);
	grown[*count].value = strdup(value);
	(*count)++;
	if (grown[*count - 1].key == NULL || grown[*count - 1].value == NULL)
		return false;
	/* a caption reaches the terminal and exported files: no escape
	 * sequence, C1 control or broken UTF-8 from the file gets through */
	utf8_sanitize(grown[*count - 1].value, strlen(value) + 1, grown[*count - 1].value, 0);
	return true;
}

bool
text_load_file(const char *path, char *why, size_t whysize)
{
	char *data = text_slurp(path, why, whysize), *line;
	int lineno = 0;
	struct text_entry *entries = NULL;
	size_t count = 0;

	if (data == NULL) {
		utf8_sanitize(why, whysize, why, 0);
		return false;
	}
	for (line = data; *line;) {
		char *nl = strchr(line, '\n'), *eq, *key, *value;

		lineno++;
		if (nl)
			*nl = '\0';
		if (strlen(line) > TEXT_LINE_MAX) {
			snprintf(why, whysize, "%s:%d: line longer than %d bytes", path, lineno,
			         TEXT_LINE_MAX);
			goto fail;
		}
		key = text_trim(line);
		line = nl ? nl + 1 : line + strlen(line);
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
		if (!text_add(&entries, &count, key, value)) {
			snprintf(why, whysize, "out of memory");
			goto fail;
		}
	}
	free(data);
	text_free();
	text_entries = entries;
	text_count = count;
	return true;
fail:
	free(data);
	for (size_t i = 0; i < count; i++) {
		free(entries[i].key);
		free(entries[i].value);
	}
	free(entries);
	utf8_sanitize(why, whysize, why, 0);
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

/* After a count of 1, the English noun that follows it in the singular:
 * the length of " features" to copy as " feature", else 0. */
static size_t
text_singular(const char *s)
{
	static const char *const nouns[] = { " features", " positions", " heads", " cells", " slots",
		                             " numbers" };

	for (size_t i = 0; i < sizeof nouns / sizeof nouns[0]; i++) {
		size_t n = strlen(nouns[i]);

		if (strncmp(s, nouns[i], n) == 0 && !(s[n] >= 'a' && s[n] <= 'z'))
			return n;
	}
	return 0;
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
			char num[32];
			int r;

			/* 786,432 reads at a glance; 12 stays 12 */
			numbers_group(num, sizeof num, v);
			r = snprintf(buf + used, size - used, "%s", num);

			if (r < 0 || (size_t)r >= size - used)
				break;
			used += (size_t)r;
			s += 3;
			if (v == 1) {
				/* "1 feature", not "1 features" */
				size_t n = text_singular(s);

				if (n > 0 && used + n < size) {
					memcpy(buf + used, s, n - 1);
					used += n - 1;
					s += n;
				}
			}
		} else {
			buf[used++] = *s++;
		}
	}
	buf[used] = '\0';
}
