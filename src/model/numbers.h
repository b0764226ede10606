/* numbers.h - what a configuration costs: the counts the lesson uses. */
#ifndef HEADLAB_NUMBERS_H
#define HEADLAB_NUMBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct numbers {
	int64_t width, heads, head_width;   /* D, H, d */
	bool params_ok;                     /* 4*D*D fits in 64 bits */
	int64_t params;                     /* Q, K, V, O: four [D,D], no bias */
	bool scores_ok;
	int64_t scores;                     /* B*H*T*T score entries */
	bool bytes_ok;
	int64_t bytes_f32, bytes_bf16;      /* the score tables at 4 and 2 bytes */
	double scale, wrong_scale;          /* 1/sqrt(d), and the wrong 1/sqrt(D) */
};

/* Compute the numbers for B, T, D and H heads (H divides D). */
void numbers_compute(struct numbers *n, int64_t batch, int64_t positions, int64_t width,
                     int64_t heads);

/* The head counts that divide width, in order: the count of them written
 * to out (at most max); heads_next and heads_prev step among them. */
int numbers_divisors(int64_t width, int64_t *out, int max);
int64_t numbers_heads_next(int64_t width, int64_t heads, int dir);

/* A count with thin spaces of thousands: 16384 -> "16,384". */
void numbers_group(char *buf, size_t size, int64_t v);

/* Bytes as "72 B", "1.5 KiB", "3.0 GiB". */
void numbers_bytes(char *buf, size_t size, int64_t v);

#endif
