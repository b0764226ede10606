#!/usr/bin/env python3
"""--code reads code as written: exact values for each way of reading it.

Blocks from a file (@FILE) and standard input (-), packed q, k, v with a
verdict each (and where each piece sits in the fused storage), size names
by convention and --let, unknown tensor names read from their use (time
first, folded heads), the readings printed, a wrong merge's first
difference shown where the two sides differ, and grouped key/value heads
(the first query head that reads another KV head, Hkv from --config).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
LESSON = ["--shape", "2,5,12", "--heads", "3"]
NANO = ("q, k, v  = self.c_attn(x).split(self.n_embd, dim=2)\n"
        "k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) # (B, nh, T, hs)\n"
        "q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n"
        "v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n")


def run(*args, stdin=None):
    p = subprocess.run([HEADLAB] + list(args), capture_output=True, text=True, input=stdin)
    return p.returncode, p.stdout, p.stderr


def check_json(code, *extra):
    rc, out, err = run("--code", code, "--check", "--json", *extra)
    return rc, json.loads(out)


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(NANO)
    rc, j = check_json("@" + f.name, *LESSON)
    pieces = [(t["name"], t["verdict"], t["shape"], t["storage_offset"]) for t in j["tensors"]]
    ok(rc == 0 and pieces == [("k", "right", [2, 3, 5, 4], 12), ("q", "right", [2, 3, 5, 4], 0),
                              ("v", "right", [2, 3, 5, 4], 24)],
       "nanoGPT's block from a file: k, q and v each right, at offsets 12, 0, 24 of the fused "
       "[2, 5, 36]", pieces)
    ok("c_attn (a module): a fresh tensor [B, T, 3D], q, k and v side by side" in j["bindings"]
       and "n_head = H = 3 (by its name; --let n_head=SIZE to change)" in j["bindings"],
       "the module and the size names are said", j["bindings"])
    os.unlink(f.name)
    rc, out, err = run("--code", "-", "--check", *LESSON, stdin=NANO)
    ok(rc == 0 and out.startswith("right:") and "k: right, [B, H, T, d]\nq: right, [B, H, T, d]\n"
       "v: right, [B, H, T, d]\n" in out, "the same block from standard input", [out, err])
    rc, out, err = run("--code", "@/nonexistent/attn.py", "--check")
    ok(rc == 2 and "cannot read the file" in err, "an unreadable file is bad input", [rc, err])

    diffusers = ("batch_size, seq_len, dim = tensor.shape\n"
                 "tensor = tensor.reshape(batch_size, seq_len, head_size, dim // head_size)\n"
                 "tensor = tensor.permute(0, 2, 1, 3)")
    rc, j = check_json(diffusers, *LESSON)
    ok(rc == 3 and j["kind"] == "d-h", "head_size read as d by convention cuts the width (d H)",
       [rc, j["kind"]])
    rc, j = check_json(diffusers, *LESSON, "--let", "head_size=H")
    ok(rc == 0 and "head_size = H = 3 (--let)" in j["bindings"],
       "--let head_size=H: the head count, as diffusers means it, is right", j["bindings"])
    rc, j = check_json("tensor = tensor.reshape(batch_size, seq_len * extra, H, d)\n"
                       "tensor.permute(0, 2, 1, 3)", *LESSON, "--let", "extra=1")
    ok(rc == 0 and "extra = 1 (--let)" in j["bindings"], "--let extra=1: a number", j["bindings"])
    rc, out, err = run("--code", "x", "--let", "oops")
    ok(rc == 2 and "--let takes NAME=SIZE" in err, "--let without '=' is bad input", err)

    rc, j = check_json("tgt_len, bsz, embed_dim = query.size()\n"
                       "q = q.contiguous().view(tgt_len, bsz * self.num_heads, self.head_dim)"
                       ".transpose(0, 1)", *LESSON)
    ok(rc == 0 and j["tensors"][0]["layout"] == "[B*H, T, d] (heads folded into the batch)"
       and j["tensors"][0]["shape"] == [6, 5, 4]
       and "q is read as [T, B, D] (the input, time first), by how the code uses it" in j["bindings"],
       "fairseq's time-first split into folded heads is right", j)
    rc, j = check_json("Q = Q.view(batch_size * self.num_head, -1, self.dim_head)", *LESSON)
    ok(rc == 3 and j["kind"] == "no-transpose", "folding without the transpose is no-transpose",
       [rc, j["kind"]])
    rc, j = check_json("head_size = self.heads\nbatch_size, seq_len, dim = tensor.shape\n"
                       "tensor = tensor.reshape(batch_size // head_size, head_size, seq_len, dim)\n"
                       "tensor = tensor.permute(0, 2, 1, 3).reshape(batch_size // head_size, "
                       "seq_len, dim * head_size)\nreturn tensor", *LESSON)
    ok(rc == 0 and "tensor is read as [B*H, T, d] (attention's output, heads folded into the "
       "batch), the other readings cannot run" in j["bindings"],
       "diffusers' batch_to_head_dim: tensor read off the shapes as the folded heads", j["bindings"])

    rc, j = check_json("context.view(B, T, D)", "--shape", "1,1024,768", "--heads", "12")
    ok(rc == 3 and j["first_differences"][0] ==
       "out[0, 0] holds [..., 62, 63, 768, 769, 770, 771, 772, 773, ...], should hold "
       "[..., 62, 63, 64, 65, 66, 67, 68, 69, ...]",
       "at GPT-2's size the first difference starts where the row goes wrong",
       j["first_differences"])
    with tempfile.TemporaryDirectory() as tmp:
        gpt2 = os.path.join(tmp, "config.json")
        with open(gpt2, "w") as f:
            json.dump({"model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
                       "n_layer": 12, "n_positions": 1024, "vocab_size": 50257}, f)
        rc, j = check_json(NANO, "--config", gpt2)
        ok(rc == 0 and j["shape"] == [2, 128, 768] and j["heads"] == 12 and j["config"] ==
           gpt2 + ": n_embd = 768 -> D, n_head = 12 -> H, n_positions = 1024 -> T = 128 (the "
           "layout does not depend on the length; one no other axis has), B = 2",
           "--config with GPT-2's config.json: checked at D=768, H=12, where the sizes came from "
           "said", [rc, j["shape"], j["config"]])
        llama = os.path.join(tmp, "llama.json")
        with open(llama, "w") as f:
            json.dump({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
                       "num_key_value_heads": 32, "head_dim": 128,
                       "max_position_embeddings": 4096}, f)
        rc, j = check_json("query_states = self.q_proj(hidden_states).view(bsz, q_len, "
                           "self.num_heads, self.head_dim).transpose(1, 2)", "--config", llama)
        ok(rc == 0 and j["shape"] == [2, 127, 4096] and j["warning"] is None,
           "a LLaMA config: T = 127, a length no other axis has (d is 128)", [rc, j["shape"]])
        rc, j = check_json("x.view(B, H, T, d)", "--config", llama)
        ok(rc == 3 and j["kind"] == "no-transpose", "and the bug at LLaMA's sizes", [rc, j["kind"]])
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write('{"n_embd": 768')
        rc, out, err = run("--code", "x", "--check", "--config", bad)
        ok(rc == 2 and "cannot read it as JSON" in err, "a broken config.json is bad input", err)
        with open(bad, "w") as f:
            f.write('{"n_embd": 768}')
        rc, out, err = run("--code", "x", "--check", "--config", bad)
        ok(rc == 2 and "no head count" in err, "a config without a head count is bad input", err)
        rc, out, err = run("--config", gpt2, "--print")
        ok(rc == 2 and "--config goes with --code" in err, "--config needs --code", err)
    rc, j = check_json("x.transpose(zz, 1)")
    ok(rc == 2 and j["reason"].startswith("'zz' is not defined"), "an unknown dim is refused",
       j["reason"])
    rc, j = check_json("tensor = tensor.reshape(batch_size, seq_len * extra_dim, H, d)\n"
                       "tensor.permute(0, 2, 1, 3)", *LESSON)
    ok(rc == 0 and "extra_dim = 1 (solved from the shape: the view keeps every cell; --let "
       "extra_dim=SIZE to change)" in j["bindings"], "an unknown size in a view is solved from "
       "the shape, and said", j["bindings"])
    rc, j = check_json("x.view(B, T, -1, foo)", *LESSON)
    ok(rc == 2 and j["reason"].startswith("'foo' is not defined"),
       "with -1 in the same view it cannot be solved", j["reason"])
    gqa()
    flash()
    done()


def flash():
    """flash-attention takes q, k, v and gives its output as [B, T, H, d]:
    that layout is right there, the lesson's [B, H, T, d] is the bug, and
    its output merges back with a reshape alone."""
    rc, j = check_json("q = x.view(B, T, H, d)\nout = flash_attn_func(q, q, q, causal=True)")
    ok(rc == 0 and j["tensors"][0]["layout"] == "[B, T, H, d] (flash-attention's layout)"
       and j["tensors"][0]["shape"] == [2, 3, 5, 4],
       "x.view(B, T, H, d) handed to flash_attn_func: right, in flash-attention's layout", j)
    rc, out, err = run("--code", "q = x.view(B, T, H, d)\nout = flash_attn_func(q, q, q)", "--check")
    ok(rc == 0 and out.startswith("right: the code gives flash-attention the heads in its layout, "
                                  "[B, T, H, d]:") and
       "flash_attn_func (flash-attention): q, k and v in, the output out, each [B, T, H, d]" in out,
       "its verdict and the reading say so", out)
    rc, j = check_json("q = x.view(B, T, H, d).transpose(1, 2)\nout = flash_attn_func(q, q, q)")
    ok(rc == 3 and j["kind"] == "flash-transposed" and "[B, H, T, d] split" in j["explain"],
       "the lesson's split handed to flash_attn_func: wrong (flash-transposed)", j)
    rc, j = check_json("q = x.view(B, T, H, d)\nout = flash_attn_func(q, q, q)\ny = out.reshape(B, T, D)")
    ok(rc == 0 and j["tensors"][0]["shape"] == [2, 3, 20],
       "flash-attention's output merges back with a reshape alone", j)
    rc, j = check_json("q = x.view(B, T, H, d)\nout = flash_attn_func(q, q, q)\n"
                       "y = out.transpose(1, 2).reshape(B, T, D)")
    ok(rc == 3, "a transpose before that reshape scrambles it: wrong", j)
    rc, j = check_json("q = x.view(B, T, H, d)\nout = F.scaled_dot_product_attention(q, q, q)")
    ok(rc == 3 and j["tensors"][0]["layout"] is None,
       "scaled_dot_product_attention takes [B, H, T, d]: [B, T, H, d] there is still wrong", j)


def gqa():
    """Grouped key/value heads: the verdict's fields in --json, --config's
    num_key_value_heads, the def read from standard input."""
    rc, j = check_json("k.repeat(1, n_rep, 1, 1)")
    ok(rc == 3 and j["kind"] == "kv-tiled" and j["kv_heads"] == 3 and j["n_rep"] == 4 and
       j["first_wrong_query_head"] == {"query_head": 1, "reads_kv_head": 1,
                                       "should_read_kv_head": 0},
       "--json names the first query head that reads another KV head", j)
    ok("Hkv = 3 key/value heads, n_rep = H / Hkv = 4 (chosen where no two lengths coincide; "
       "--let num_key_value_heads=SIZE to change)" in j["bindings"], "the chosen Hkv is said",
       j["bindings"])
    rc, j = check_json("x.view(B, T, H, d).transpose(1, 2)")
    ok(rc == 0 and j["kv_heads"] is None and j["first_wrong_query_head"] is None,
       "code that repeats no heads has none", j["kv_heads"])
    with tempfile.TemporaryDirectory() as d:
        cfg = os.path.join(d, "config.json")
        with open(cfg, "w") as f:
            json.dump({"hidden_size": 512, "num_attention_heads": 8, "num_key_value_heads": 2,
                       "max_position_embeddings": 64}, f)
        rc, j = check_json("k.repeat_interleave(n_rep, dim=1)", "--config", cfg)
        ok(rc == 0 and j["kv_heads"] == 2 and j["n_rep"] == 4 and
           j["tensors"][0]["shape"] == [2, 8, 63, 64] and "num_key_value_heads = 2 -> Hkv" in j["config"],
           "--config's num_key_value_heads is Hkv", (j["kv_heads"], j["config"]))
    meta = ("def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:\n"
            "    bs, slen, n_kv_heads, head_dim = x.shape\n"
            "    if n_rep == 1:\n        return x\n"
            "    return x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim)"
            ".reshape(bs, slen, n_kv_heads * n_rep, head_dim)\n")
    rc, out, err = run("--code", "-", "--check", "--json", stdin=meta)
    j = json.loads(out)
    ok(rc == 0 and j["start"] == "key/value heads (time first)" and
       j["tensors"][0]["shape"] == [3, 7, 10, 4] and
       "x is read as [B, T, Hkv, d] (grouped key/value heads, stored time first), by how the "
       "code uses it" in j["bindings"], "Meta's repeat_kv from standard input, its x read as "
       "[B, T, Hkv, d]", j["bindings"])
    rc, j = check_json(meta, "--let", "n_kv_heads=5")
    ok(rc == 0 and j["heads"] == 10 and j["n_rep"] == 2, "a --let Hkv is checked at the shapes "
       "whose H it divides", (j["heads"], j["n_rep"]))
    rc, out, err = run("--code", "-", "--check", stdin="if mask is not None:\n    y = k\n")
    ok(rc == 2 and err.startswith("headlab: an if is read only on two sizes compared (if n_rep "
                                  "== 1:), not on tensors or None\n  if mask is not None:\n  ^^"),
       "an if on anything but sizes is refused at the if", err)
    # the line ends after the first size: no comparison to read
    rc, out, err = run("--code", "if n_rep", "--check")
    ok(rc == 2 and err.startswith("headlab: an if is read only on two sizes compared (if n_rep "
                                  "== 1:), not on tensors or None\n  if n_rep\n  ^^^^^^^^"),
       "an if with no comparison, the text ending, is refused at the if", err)
    rc, j = check_json("if n_rep == 1:\n    y = k.contiguous()\nelse:\n"
                       "    y = k.repeat_interleave(n_rep, dim=1)\ny")
    ok(rc == 0 and j["tensors"][0]["shape"] == [3, 10, 7, 4], "else runs where the if does not",
       j["tensors"][0]["shape"])
    rc, j = check_json(meta, "--let", "n_kv_heads=7")
    ok(rc == 2 and j["reason"] == "Hkv = 7 key/value heads do not divide H = 10 query heads; "
       "--let num_key_value_heads=SIZE with a divisor of H", "a --let Hkv that divides no H is "
       "refused", j["reason"])


main()
