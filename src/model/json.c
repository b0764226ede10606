/* json.c - JSON strings as every writer of headlab's JSON spells them. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 character at in (n bytes left): 1 to
 * 4; 0 when in holds only its beginning; -1 when the first byte cannot
 * start a character or the sequence is malformed. */
static int
json_utf8_len(const unsigned char *in, size_t n)
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
json_escape(const unsigned char *in, size_t n, char *out, size_t *outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, o = 0;

	while (i < n) {
		int len = json_utf8_len(in + i, n - i);

		if (len == 0)
			break;          /* the rest comes with the next write */
		if (len < 0) {
			memcpy(out + o, "\\ufffd", 6);
			o += 6;
			i++;
		} else if (len == 2 && in[i] == 0xc2 && in[i + 1] <= 0x9f) {
			memcpy(out + o, "\\u00", 4);  /* a C1 control, U+0080 to U+009F */
			out[o + 4] = hex[in[i + 1] >> 4];
			out[o + 5] = hex[in[i + 1] & 15];
			o += 6;
			i += 2;
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

void
json_string(FILE *fp, const char *s)
{
	size_t n, outlen, used;
	char *out;

	if (s == NULL) {
		fputs("null", fp);
		return;
	}
	n = strlen(s);
	out = malloc(6 * n + 1);
	if (out == NULL)
		return;
	used = json_escape((const unsigned char *)s, n, out, &outlen);
	fprintf(fp, "\"%s%s\"", out, used < n ? "\\ufffd" : "");
	free(out);
}
