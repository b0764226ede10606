/* record.c - write terminal output as an asciicast v2 file. */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json.h"

int
record_open(struct record *r, const char *path, int width, int height, const char *title,
            char *err, size_t errsize)
{
	const char *term = getenv("TERM"), *shell = getenv("SHELL");

	memset(r, 0, sizeof *r);
	r->fp = fopen(path, "w");
	if (r->fp == NULL) {
		snprintf(err, errsize, "--record: cannot create '%s': %s", path, strerror(errno));
		return 1;
	}
	fprintf(r->fp, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, "
	        "\"env\": {\"TERM\": ", width, height, (long long)time(NULL));
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
	if (fclose(r->fp) != 0 || r->failed) {
		snprintf(err, errsize, "--record: writing the recording failed: %s", strerror(errno));
		rc = 1;
	}
	r->fp = NULL;
	return rc;
}
