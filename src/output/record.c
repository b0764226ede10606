/* record.c - write terminal output as an asciicast v2 file. */
#include "record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The length of the well-formed UTF-8 character at in (n bytes left): 1 to
 * 4; 0 when in holds only its beginning; -1 when the first byte cannot
 * start a character or the sequence is malformed. */
static int
record_utf8_len(const unsigned char *in, size_t n)
{
	int need;
	unsigned lo = 0x80, hi = 0xbf;

	if (in[0] < 0x80)
		return 1;
	if (in[0] >= 0xc2 && in[0] <= 0xdf)
		need = 2;
	else if (in[0] >= 0xe0 && in[0] <= 0xef)
		need = 3;
	else if (in[0] >= 0xf0 && in[0] <= 0xf4)
		need = 4;
	else
		return -1;
	/* the second byte's range rules out overlongs, surrogates and > U+10FFFF */
	if (in[0] == 0xe0)
		lo = 0xa0;
	else if (in[0] == 0xed)
		hi = 0x9f;
	else if (in[0] == 0xf0)
		lo = 0x90;
	else if (in[0] == 0xf4)
		hi = 0x8f;
	for (int i = 1; i < need; i++) {
		if ((size_t)i >= n)
			return 0;
		if (in[i] < (i == 1 ? lo : 0x80) || in[i] > (i == 1 ? hi : 0xbf))
			return -1;
	}
	return need;
}

size_t
record_escape(const unsigned char *in, size_t n, char *out, size_t *outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, o = 0;

	while (i < n) {
		int len = record_utf8_len(in + i, n - i);

		if (len == 0)
			break;          /* the rest comes with the next write */
		if (len < 0) {
			memcpy(out + o, "\\ufffd", 6);
			o += 6;
			i++;
		} else if (len > 1) {
			memcpy(out + o, in + i, (size_t)len);
			o += (size_t)len;
			i += (size_t)len;
		} else if (in[i] == '"' || in[i] == '\\') {
			out[o++] = '\\';
			out[o++] = (char)in[i++];
		} else if (in[i] < 0x20 || in[i] == 0x7f) {
			memcpy(out + o, "\\u00", 4);
			out[o + 4] = hex[in[i] >> 4];
			out[o + 5] = hex[in[i] & 15];
			o += 6;
			i++;
		} else {
			out[o++] = (char)in[i++];
		}
	}
	out[o] = '\0';
	*outlen = o;
	return i;
}

/* Write s as a JSON string (quotes included). */
static void
record_json_string(FILE *fp, const char *s)
{
	size_t n = strlen(s), outlen, used;
	char *out = malloc(6 * n + 1);

	if (out == NULL)
		return;
	used = record_escape((const unsigned char *)s, n, out, &outlen);
	fprintf(fp, "\"%s%s\"", out, used < n ? "\\ufffd" : "");
	free(out);
}

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
	record_json_string(r->fp, term ? term : "");
	fputs(", \"SHELL\": ", r->fp);
	record_json_string(r->fp, shell ? shell : "/bin/sh");
	fputs("}, \"title\": ", r->fp);
	record_json_string(r->fp, title ? title : "headlab");
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
	used = record_escape(in, total, out, &outlen);
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
