/* numbers.c - parameter, score and memory counts for a head split. */
#include "numbers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* 64-bit products modulo m need 128 bits in between. */
__extension__ typedef unsigned __int128 numbers_u128;

static uint64_t
numbers_mulmod(uint64_t a, uint64_t b, uint64_t m)
{
	return (uint64_t)((numbers_u128)a * b % m);
}

static uint64_t
numbers_powmod(uint64_t a, uint64_t e, uint64_t m)
{
	uint64_t r = 1;

	a %= m;
	for (; e; e >>= 1) {
		if (e & 1)
			r = numbers_mulmod(r, a, m);
		a = numbers_mulmod(a, a, m);
	}
	return r;
}

/* Miller-Rabin with the first twelve primes as bases: exact below 2^64. */
static bool
numbers_is_prime(uint64_t n)
{
	static const uint64_t bases[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
	uint64_t d = n - 1;
	int s = 0;

	if (n < 2)
		return false;
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
		if (n % bases[i] == 0)
			return n == bases[i];
	while ((d & 1) == 0) {
		d >>= 1;
		s++;
	}
	for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
		uint64_t x = numbers_powmod(bases[i], d, n);
		int r;

		if (x == 1 || x == n - 1)
			continue;
		for (r = 1; r < s; r++) {
			x = numbers_mulmod(x, x, n);
			if (x == n - 1)
				break;
		}
		if (r == s)
			return false;
	}
	return true;
}

static uint64_t
numbers_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* A factor of n other than 1 and n (n odd, composite): Pollard's rho with
 * Brent's cycle finding, about n^(1/4) steps, so milliseconds at 2^63. */
static uint64_t
numbers_rho(uint64_t n)
{
	for (uint64_t c = 1;; c++) {
		uint64_t y = 2, x = 2, q = 1, g = 1, ys = 2;

		for (uint64_t r = 1; g == 1; r <<= 1) {
			x = y;
			for (uint64_t i = 0; i < r; i++)
				y = (numbers_mulmod(y, y, n) + c) % n;
			for (uint64_t k = 0; k < r && g == 1; k += 128) {
				ys = y;
				for (uint64_t i = 0; i < 128 && i < r - k; i++) {
					y = (numbers_mulmod(y, y, n) + c) % n;
					q = numbers_mulmod(q, x > y ? x - y : y - x, n);
				}
				g = numbers_gcd(q, n);
			}
		}
		if (g == n) {
			/* the batch overshot: step again one at a time */
			do {
				ys = (numbers_mulmod(ys, ys, n) + c) % n;
				g = numbers_gcd(x > ys ? x - ys : ys - x, n);
			} while (g == 1);
		}
		if (g != n)
			return g;
	}
}

/* The prime factors of n, with repeats, into p (64 is enough: 2^64). */
static int
numbers_factor(uint64_t n, uint64_t *p, int np)
{
	static const uint64_t small[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37 };
	uint64_t stack[64];
	int top = 0;

	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		while (n % small[i] == 0) {
			p[np++] = small[i];
			n /= small[i];
		}
	if (n > 1)
		stack[top++] = n;
	while (top > 0) {
		uint64_t m = stack[--top], f;

		if (numbers_is_prime(m)) {
			p[np++] = m;
			continue;
		}
		f = numbers_rho(m);
		stack[top++] = f;
		stack[top++] = m / f;
	}
	return np;
}

static int
numbers_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Every divisor of width in increasing order, into a buffer kept for the
 * last width asked (a redraw asks again and again); its count, or -1 when
 * memory runs out.  A 64-bit number has at most 103,680 divisors. */
static int
numbers_all_divisors(int64_t width, const int64_t **out)
{
	static int64_t cached_width, *div;
	static int ndiv, cap;
	uint64_t p[64];
	int np, n;

	if (width < 1)
		return 0;
	if (div != NULL && cached_width == width) {
		*out = div;
		return ndiv;
	}
	np = numbers_factor((uint64_t)width, p, 0);
	qsort(p, (size_t)np, sizeof p[0], numbers_cmp);
	if (cap == 0) {
		cap = 103680;
		div = malloc(sizeof *div * (size_t)cap);
		if (div == NULL) {
			cap = 0;
			return -1;
		}
	}
	n = 1;
	div[0] = 1;
	/* each prime power multiplies the divisors found so far */
	for (int i = 0; i < np;) {
		int j = i, base = n;
		int64_t pw = 1;

		while (j < np && p[j] == p[i])
			j++;
		for (int e = i; e < j; e++) {
			pw *= (int64_t)p[i];
			for (int k = 0; k < base && n < cap; k++)
				div[n++] = div[k] * pw;
		}
		i = j;
	}
	qsort(div, (size_t)n, sizeof div[0], numbers_cmp);
	cached_width = width;
	ndiv = n;
	*out = div;
	return n;
}

int
numbers_divisors(int64_t width, int64_t *out, int max)
{
	const int64_t *div;
	int n = numbers_all_divisors(width, &div), ns = 0, got = 0;

	if (n <= 0)
		return 0;
	/* the 64 smallest divisors up to sqrt(width), then their partners */
	while (ns < n && ns < 64 && div[ns] <= width / div[ns])
		ns++;
	for (int i = 0; i < ns && got < max; i++)
		out[got++] = div[i];
	for (int i = ns - 1; i >= 0 && got < max; i--)
		if (div[i] != width / div[i])
			out[got++] = width / div[i];
	return got;
}

int64_t
numbers_heads_next(int64_t width, int64_t heads, int dir)
{
	const int64_t *div;
	int n = numbers_all_divisors(width, &div);

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
