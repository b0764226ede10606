/* hfconfig.c - config.json read with json-c: the keys HuggingFace and
 * GPT-2 use for the sizes attention splits by. */
#include "hfconfig.h"

#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#define HFCONFIG_MAX_T 128      /* the layout does not depend on the length */

/* The first of keys (space-separated) that obj holds as a positive whole
 * number: its value, and its name in *which; 0 when none. */
static int64_t
hfconfig_int(struct json_object *obj, const char *keys, const char **which, char *name,
             size_t size)
{
	const char *p = keys;

	while (*p) {
		size_t n = strcspn(p, " ");
		struct json_object *v;
		char key[64];

		snprintf(key, sizeof key, "%.*s", (int)n, p);
		if (json_object_object_get_ex(obj, key, &v) && json_object_is_type(v, json_type_int) &&
		    json_object_get_int64(v) > 0) {
			snprintf(name, size, "%s", key);
			*which = name;
			return json_object_get_int64(v);
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	*which = NULL;
	return 0;
}

bool
hfconfig_read(const char *path, struct hfconfig *cfg, char *err, size_t errsize)
{
	struct json_object *root = json_object_from_file(path), *obj, *text;
	char kd[64], kh[64], khd[64], kkv[64], kt[64];
	const char *wd, *wh, *whd, *wkv, *wt;
	int64_t width, heads, head_dim, kv, positions;
	size_t used = 0;

	memset(cfg, 0, sizeof *cfg);
	if (root == NULL || !json_object_is_type(root, json_type_object)) {
		snprintf(err, errsize, "--config %.200s: %s", path,
		         root == NULL ? "cannot read it as JSON" : "not a JSON object");
		json_object_put(root);
		return false;
	}
	obj = root;
	/* multimodal configs keep the language model's sizes in text_config */
	if (json_object_object_get_ex(root, "text_config", &text) &&
	    json_object_is_type(text, json_type_object) &&
	    !json_object_object_get_ex(root, "hidden_size", NULL))
		obj = text;
	width = hfconfig_int(obj, "hidden_size n_embd d_model n_embed dim", &wd, kd, sizeof kd);
	heads = hfconfig_int(obj, "num_attention_heads n_head num_heads n_heads", &wh, kh, sizeof kh);
	head_dim = hfconfig_int(obj, "head_dim", &whd, khd, sizeof khd);
	kv = hfconfig_int(obj, "num_key_value_heads n_kv_heads", &wkv, kkv, sizeof kkv);
	positions = hfconfig_int(obj, "max_position_embeddings n_positions n_ctx max_seq_len",
	                         &wt, kt, sizeof kt);
	if (width == 0 || heads == 0) {
		snprintf(err, errsize, "--config %.200s: no %s (hidden_size, n_embd or d_model; "
		         "num_attention_heads or n_head)", path, width == 0 ? "width" : "head count");
		json_object_put(root);
		return false;
	}
	cfg->batch = 2;
	cfg->heads = heads;
	cfg->kv_heads = kv > 0 && kv < heads && heads % kv == 0 ? kv : 0;
	cfg->width = head_dim > 0 ? heads * head_dim : width;
	cfg->positions = positions > 0 && positions < HFCONFIG_MAX_T ? positions : HFCONFIG_MAX_T;
	/* a length no other axis has, so that code mixing axes cannot pass */
	while (cfg->positions > 2 && (cfg->positions == cfg->batch || cfg->positions == heads ||
	                              cfg->positions == cfg->width / heads))
		cfg->positions--;
	if (cfg->width % heads != 0) {
		snprintf(err, errsize, "--config %.200s: %s = %lld is not divisible by %s = %lld", path, kd,
		         (long long)width, kh, (long long)heads);
		json_object_put(root);
		return false;
	}
	used += (size_t)snprintf(cfg->said + used, sizeof cfg->said - used, "%s: %s = %lld -> %s", path,
	                         wd, (long long)width, head_dim > 0 && heads * head_dim != width ? "the model's width" : "D");
	used += (size_t)snprintf(cfg->said + used, sizeof cfg->said - used, ", %s = %lld -> H", wh,
	                         (long long)heads);
	if (head_dim > 0 && used < sizeof cfg->said)
		used += (size_t)snprintf(cfg->said + used, sizeof cfg->said - used, ", %s = %lld -> d "
		                         "(D = H * d = %lld)", whd, (long long)head_dim,
		                         (long long)cfg->width);
	if (kv > 0 && used < sizeof cfg->said)
		used += (size_t)snprintf(cfg->said + used, sizeof cfg->said - used, ", %s = %lld%s", wkv,
		                         (long long)kv, kv == heads ? "" : " -> Hkv (grouped key/value "
		                         "heads, n_rep = H / Hkv, where the code repeats them; elsewhere "
		                         "their names are read as H)");
	if (wt && used < sizeof cfg->said)
		used += (size_t)snprintf(cfg->said + used, sizeof cfg->said - used, ", %s = %lld -> T = %lld%s",
		                         wt, (long long)positions, (long long)cfg->positions,
		                         cfg->positions != positions ? " (the layout does not depend on "
		                         "the length; one no other axis has)" : "");
	if (used < sizeof cfg->said)
		snprintf(cfg->said + used, sizeof cfg->said - used, ", B = 2");
	json_object_put(root);
	return true;
}
