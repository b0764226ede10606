/* mt19937.c - the Mersenne Twister as PyTorch's CPU generator runs it, and
 * the uniform draw nn.Linear's kaiming_uniform_ makes with it. */
#include "mt19937.h"

#include <math.h>

#define MT19937_M 397
#define MT19937_MATRIX_A 0x9908b0dfU
#define MT19937_UPPER 0x80000000U
#define MT19937_LOWER 0x7fffffffU

void
mt19937_seed(struct mt19937 *mt, uint32_t seed)
{
	mt->state[0] = seed;
	for (uint32_t j = 1; j < MT19937_N; j++)
		mt->state[j] = 1812433253U * (mt->state[j - 1] ^ (mt->state[j - 1] >> 30)) + j;
	mt->next = MT19937_N;
}

/* Regenerate all N words of state (the twist). */
static void
mt19937_twist(struct mt19937 *mt)
{
	uint32_t *s = mt->state;
	int i = 0;

	/* the reference's three runs, where i + 1 and i + M wrap or not, with
	 * no modulo in the loop (millions of words at GPT-2 size) */
	for (; i < MT19937_N - MT19937_M; i++) {
		uint32_t y = (s[i] & MT19937_UPPER) | (s[i + 1] & MT19937_LOWER);

		s[i] = s[i + MT19937_M] ^ (y >> 1) ^ ((y & 1U) ? MT19937_MATRIX_A : 0U);
	}
	for (; i < MT19937_N - 1; i++) {
		uint32_t y = (s[i] & MT19937_UPPER) | (s[i + 1] & MT19937_LOWER);

		s[i] = s[i + MT19937_M - MT19937_N] ^ (y >> 1) ^ ((y & 1U) ? MT19937_MATRIX_A : 0U);
	}
	{
		uint32_t y = (s[MT19937_N - 1] & MT19937_UPPER) | (s[0] & MT19937_LOWER);

		s[MT19937_N - 1] = s[MT19937_M - 1] ^ (y >> 1) ^ ((y & 1U) ? MT19937_MATRIX_A : 0U);
	}
	mt->next = 0;
}

/* The next output, tempered: mt19937_next's body, inline where the
 * weights are drawn (millions of calls at GPT-2 size). */
static inline uint32_t
mt19937_draw(struct mt19937 *mt)
{
	uint32_t y;

	if (mt->next >= MT19937_N)
		mt19937_twist(mt);
	y = mt->state[mt->next++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680U;
	y ^= (y << 15) & 0xefc60000U;
	y ^= y >> 18;
	return y;
}

uint32_t
mt19937_next(struct mt19937 *mt)
{
	return mt19937_draw(mt);
}

/* Python's arithmetic for the bound, in double: kaiming_uniform_(a=sqrt(5))
 * computes gain = sqrt(2 / (1 + a**2)), std = gain / sqrt(fan_in) and
 * bound = sqrt(3) * std; uniform_ casts -bound and bound to float, draws
 * 24 bits per element and scales them in double before the float store. */
void
mt19937_linear_init_rect(struct mt19937 *mt, int64_t out, int64_t in, float *weight)
{
	double a = sqrt(5.0);
	double gain = sqrt(2.0 / (1.0 + a * a));
	double bound = sqrt(3.0) * (gain / sqrt((double)in));
	float lo = (float)-bound, hi = (float)bound;

	for (int64_t i = 0; i < out * in; i++) {
		uint32_t u = mt19937_draw(mt);
		double x = (double)(u & 0xFFFFFFU) * (1.0 / 16777216.0);

		weight[i] = (float)(x * ((double)hi - (double)lo) + (double)lo);
	}
}

void
mt19937_linear_init(struct mt19937 *mt, int64_t width, float *weight)
{
	mt19937_linear_init_rect(mt, width, width, weight);
}
