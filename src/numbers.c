/* numbers.c - parameter, score and memory counts for a head split. */
#include "numbers.h"

#include <math.h>
#include <stdio.h>

#include "layout.h"

void
numbers_compute(struct numbers *n, int64_t batch, int64_t positions, int64_t width,
                int64_t heads)
{
	int64_t t;

	n->width = width;
	n->heads = heads;
	n->head_width = width / heads;
	n->params_ok = layout_mul(width, width, &t) && layout_mul(t, 4, &n->params);
	n->scores_ok = layout_mul(batch, heads, &t) && layout_mul(t, positions, &t) &&
	               layout_mul(t, positions, &n->scores);
	n->bytes_ok = n->scores_ok && layout_mul(n->scores, 4, &n->bytes_f32) &&
	              layout_mul(n->scores, 2, &n->bytes_bf16);
	n->scale = 1.0 / sqrt((double)n->head_width);
	n->wrong_scale = 1.0 / sqrt((double)width);
}

int
numbers_divisors(int64_t width, int64_t *out, int max)
{
	int64_t small[64], large[64];
	int ns = 0, nl = 0, n = 0;

	for (int64_t h = 1; h <= width / h && ns < 64 && nl < 64; h++)
		if (width % h == 0) {
			small[ns++] = h;
			if (h != width / h)
				large[nl++] = width / h;
		}
	for (int i = 0; i < ns && n < max; i++)
		out[n++] = small[i];
	for (int i = nl - 1; i >= 0 && n < max; i--)
		out[n++] = large[i];
	return n;
}

int64_t
numbers_heads_next(int64_t width, int64_t heads, int dir)
{
	int64_t div[128];
	int n = numbers_divisors(width, div, 128);

	for (int i = 0; i < n; i++)
		if (div[i] == heads) {
			int j = i + (dir > 0 ? 1 : -1);

			return j >= 0 && j < n ? div[j] : heads;
		}
	return heads;
}

void
numbers_group(char *buf, size_t size, int64_t v)
{
	char digits[32];
	int len = snprintf(digits, sizeof digits, "%lld", (long long)v), out = 0;

	for (int i = 0; i < len && (size_t)out + 2 < size; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			buf[out++] = ',';
		buf[out++] = digits[i];
	}
	buf[out] = '\0';
}

void
numbers_bytes(char *buf, size_t size, int64_t v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double d = (double)v;
	int u = 0;

	if (v < 1024) {
		snprintf(buf, size, "%lld B", (long long)v);
		return;
	}
	while (d >= 1024 && u < 6) {
		d /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f %s", d, units[u]);
}
