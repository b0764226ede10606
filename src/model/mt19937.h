/* mt19937.h - PyTorch's CPU random generator and nn.Linear's initial
 * weights, bit for bit, so headlab needs no Python to show them. */
#ifndef HEADLAB_MT19937_H
#define HEADLAB_MT19937_H

#include <stdint.h>

#define MT19937_N 624

struct mt19937 {
	uint32_t state[MT19937_N];
	int next;               /* next word of state to temper; N: regenerate first */
};

/* torch.manual_seed(seed) for seeds below 2^32: the standard 32-bit
 * Mersenne Twister initialised with seed. */
void mt19937_seed(struct mt19937 *mt, uint32_t seed);

/* The next 32-bit output (std::mt19937's operator()). */
uint32_t mt19937_next(struct mt19937 *mt);

/* nn.Linear(width, width, bias=False).weight: width*width floats, [out, in]
 * row-major, drawn from mt as uniform_(-bound, bound) with kaiming_uniform_'s
 * bound (a = sqrt(5)) does it, consuming one output per element. */
void mt19937_linear_init(struct mt19937 *mt, int64_t width, float *weight);

/* nn.Linear(in, out, bias=False).weight: out*in floats, [out, in], in one
 * uniform_ draw whose bound comes from fan_in = in.  GPT-2's fused
 * c_attn = nn.Linear(D, 3*D) is (3D, D): the same bound and the same
 * stream of draws as three nn.Linear(D, D) made one after the other, so
 * its rows are q_proj's, then k_proj's, then v_proj's, bit for bit. */
void mt19937_linear_init_rect(struct mt19937 *mt, int64_t out, int64_t in, float *weight);

#endif
