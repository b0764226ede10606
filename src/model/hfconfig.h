/* hfconfig.h - a model's attention sizes from its config.json, as
 * HuggingFace and GPT-2 write it, for --code --check --config. */
#ifndef HEADLAB_HFCONFIG_H
#define HEADLAB_HFCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sizes --check runs the code at, and where each came from. */
struct hfconfig {
	int64_t batch, positions, width, heads; /* B, T, D (the heads' total width), H */
	int64_t kv_heads;       /* num_key_value_heads (0: not given), for code that repeats them */
	char said[600];         /* "hidden_size = 768 -> D, n_head = 12 -> H, ..." */
};

/* Read path: hidden_size / n_embd / d_model, num_attention_heads / n_head,
 * head_dim, num_key_value_heads, max_position_embeddings / n_positions
 * (or the same keys under text_config).  false with err when the file is
 * not JSON or holds no width or no head count. */
bool hfconfig_read(const char *path, struct hfconfig *cfg, char *err, size_t errsize);

#endif
