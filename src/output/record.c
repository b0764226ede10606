/* record.c - write terminal output as an asciicast v2 file. */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "json.h"
#include "utf8.h"

/* The mark in the header of every recording headlab writes: a file with
 * it may be replaced, any other never. */
#define RECORD_MARK "\"headlab\": \""

/* Whether the regular file at path starts with a header headlab wrote.
 * Opened without following a link and without waiting on a FIFO. */
static bool
record_is_ours(const char *path)
{
	char head[1024];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;
	char *nl;

	if (fd < 0)
		return false;
	n = read(fd, head, sizeof head - 1);
	close(fd);
	if (n <= 0)
		return false;
	head[n] = '\0';
	nl = strchr(head, '\n');
	if (nl)
		*nl = '\0';    /* the mark comes early: a long header may be cut here */
	return strncmp(head, "{\"version\": 2, ", 14) == 0 && strstr(head, RECORD_MARK) != NULL;
}

/* Whether path may be written: missing, or a recording headlab made. */
static int
record_check(struct record *r, const char *path, char *err, size_t errsize)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errsize, "--record: cannot create '%s': %s", path, strerror(errno));
		return 1;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errsize, "--record: '%s' is a symbolic link, and headlab does not write "
		         "through links: give the file's own name, or another one", path);
		return 1;
	}
	if (!S_ISREG(st.st_mode) || !record_is_ours(path)) {
		snprintf(err, errsize, "--record: '%s' exists and is not a recording headlab made, so "
		         "headlab leaves it alone: remove it first, or give another name", path);
		return 1;
	}
	r->replace = true;
	return 0;
}

/* A new temporary file beside path, with the mode a new file gets. */
static int
record_tmp(struct record *r, const char *path, char *err, size_t errsize)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(path) + 16;
	mode_t mask;
	int fd;

	r->path = strdup(path);
	r->tmp = malloc(n);
	if (r->path == NULL || r->tmp == NULL) {
		snprintf(err, errsize, "--record: out of memory");
		return 1;
	}
	snprintf(r->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	fd = mkstemp(r->tmp);
	if (fd < 0) {
		snprintf(err, errsize, "--record: cannot create '%s': %s", path, strerror(errno));
		free(r->tmp);
		r->tmp = NULL;
		return 1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	r->fp = fdopen(fd, "w");
	if (r->fp == NULL) {
		snprintf(err, errsize, "--record: cannot create '%s': %s", path, strerror(errno));
		close(fd);
		unlink(r->tmp);
		return 1;
	}
	return 0;
}

static void
record_free(struct record *r)
{
	free(r->path);
	free(r->tmp);
	r->path = r->tmp = NULL;
}

int
record_open(struct record *r, const char *path, int width, int height, const char *title,
            char *err, size_t errsize)
{
	const char *term = getenv("TERM"), *shell = getenv("SHELL");

	memset(r, 0, sizeof *r);
	if (record_check(r, path, err, errsize) || record_tmp(r, path, err, errsize)) {
		record_free(r);
		r->fp = NULL;
		utf8_sanitize(err, errsize, err, 0);
		return 1;
	}
	fprintf(r->fp, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, "
	        RECORD_MARK HEADLAB_VERSION "\", \"env\": {\"TERM\": ", width, height,
	        (long long)time(NULL));
	json_string(r->fp, term ? term : "");
	fputs(", \"SHELL\": ", r->fp);
	json_string(r->fp, shell ? shell : "/bin/sh");
	fputs("}, \"title\": ", r->fp);
	json_string(r->fp, title ? title : "headlab");
	fputs("}\n", r->fp);
	return 0;
}

void
record_output(struct record *r, double secs, const void *buf, size_t n)
{
	unsigned char *in = malloc(r->ncarry + n);
	char *out = malloc(6 * (r->ncarry + n) + 1);
	size_t used, outlen, total = r->ncarry + n;

	if (in == NULL || out == NULL) {
		r->failed = true;
		free(in);
		free(out);
		return;
	}
	memcpy(in, r->carry, r->ncarry);
	if (n)
		memcpy(in + r->ncarry, buf, n);
	used = json_escape(in, total, out, &outlen);
	/* what is left is the start of one character: at most 3 bytes */
	r->ncarry = total - used;
	memcpy(r->carry, in + used, r->ncarry);
	if (secs < r->last)
		secs = r->last;
	r->last = secs;
	if (outlen > 0 && fprintf(r->fp, "[%.6f, \"o\", \"%s\"]\n", secs, out) < 0)
		r->failed = true;
	free(in);
	free(out);
}

int
record_close(struct record *r, char *err, size_t errsize)
{
	int rc = 0;

	if (r->fp == NULL)
		return 0;
	if (r->ncarry > 0) {
		/* a character cut at the very end: say that something was there */
		fprintf(r->fp, "[%.6f, \"o\", \"\\ufffd\"]\n", r->last);
		r->ncarry = 0;
	}
	if (fflush(r->fp) != 0 || fsync(fileno(r->fp)) != 0 || r->failed) {
		snprintf(err, errsize, "--record: writing the recording failed: %s", strerror(errno));
		rc = 1;
	}
	if (fclose(r->fp) != 0 && rc == 0) {
		snprintf(err, errsize, "--record: writing the recording failed: %s", strerror(errno));
		rc = 1;
	}
	r->fp = NULL;
	if (rc == 0 && r->replace && rename(r->tmp, r->path) < 0) {
		snprintf(err, errsize, "--record: cannot write '%s': %s", r->path, strerror(errno));
		rc = 1;
	} else if (rc == 0 && !r->replace) {
		/* link(), unlike rename(), fails rather than replace a file that
		 * appeared meanwhile; a file system without links gets the rename */
		if (link(r->tmp, r->path) == 0) {
			unlink(r->tmp);
		} else if (errno == EEXIST) {
			snprintf(err, errsize, "--record: '%s' appeared while recording; headlab left it "
			         "alone and kept the recording in '%s'", r->path, r->tmp);
			utf8_sanitize(err, errsize, err, 0);
			record_free(r);
			return 1;
		} else if (rename(r->tmp, r->path) < 0) {
			snprintf(err, errsize, "--record: cannot write '%s': %s", r->path, strerror(errno));
			rc = 1;
		}
	}
	if (rc != 0) {
		unlink(r->tmp);
		utf8_sanitize(err, errsize, err, 0);
	}
	record_free(r);
	return rc;
}

void
record_discard(struct record *r, bool unlink_tmp)
{
	if (r->fp)
		fclose(r->fp);
	r->fp = NULL;
	if (unlink_tmp && r->tmp)
		unlink(r->tmp);
	record_free(r);
}
