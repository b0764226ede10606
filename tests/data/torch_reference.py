#!/usr/bin/python3
"""Regenerate tests/data/torch-*.txt from PyTorch (not run by the tests).

    /usr/bin/python3 tests/data/torch_reference.py tests/data

The committed files are the reference: torch.manual_seed(N) and four
nn.Linear(D, D, bias=False) (q, k, v, out) give the weights, as float32
bit patterns in hex; the forward pass is the lesson's, on
x = arange(B*T*D).float().reshape(B,T,D), in float32 and, from the same
float32 weights, in float64.  torch-fused.txt holds GPT-2's fused
projection: torch.manual_seed(N), c_attn = nn.Linear(D, 3*D, bias=False),
c_proj = nn.Linear(D, D, bias=False), and the split of c_attn(x).
torch-ablate.txt holds head ablation: for each head h of each forward pass,
in float64, the output with h's context zeroed minus the output.
"""
import math
import struct
import sys

import torch
from torch import nn

WEIGHTS = [(42, 4), (7, 6), (123, 64), (42, 768)]
FORWARD = [(42, 1, 3, 4, 2), (7, 2, 5, 6, 3), (2024, 1, 8, 16, 4)]
NAMES = ["q_weight", "k_weight", "v_weight", "out_weight"]


def fhex(v):
    return "%08x" % struct.unpack("<I", struct.pack("<f", float(v)))[0]


def fnv1a64(bits):
    """FNV-1a over the little-endian bytes of every float32, row-major."""
    h = 0xcbf29ce484222325
    for b in bits:
        for byte in struct.pack("<I", int(b, 16)):
            h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def linears(seed, width):
    torch.manual_seed(seed)
    return [nn.Linear(width, width, bias=False) for _ in range(4)]


def split_heads(x, heads):
    b, t, w = x.shape
    return x.reshape(b, t, heads, w // heads).transpose(1, 2)


def merge_heads(x):
    b, h, t, d = x.shape
    return x.transpose(1, 2).contiguous().reshape(b, t, h * d)


def forward(x, mats, heads):
    """Every step of the lesson's pass, in the dtype of x and mats."""
    st = {"input": x}
    for name, w in zip(["q", "k", "v"], mats[:3]):
        st[name] = x @ w.T
        st[name + "_heads"] = split_heads(st[name], heads)
    q, k, v = st["q_heads"], st["k_heads"], st["v_heads"]
    st["scores"] = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    t = q.shape[-2]
    visible = torch.ones(t, t, dtype=torch.bool).tril()
    st["masked"] = st["scores"].masked_fill(~visible, float("-inf"))
    st["weights"] = torch.softmax(st["masked"], dim=-1)
    st["context"] = st["weights"] @ v
    st["merged"] = merge_heads(st["context"])
    st["output"] = st["merged"] @ mats[3].T
    return st


def write_weights(out, seed, width):
    mods = linears(seed, width)
    out.write("# seed %d width %d: q_weight k_weight v_weight out_weight, [out,in] "
              "row-major, float32 bits\n" % (seed, width))
    out.write("weights %d %d\n" % (seed, width))
    for name, m in zip(NAMES, mods):
        w = m.weight.detach()
        bits = [fhex(v) for v in w.reshape(-1).tolist()]
        if width <= 8:
            out.write(name + " " + " ".join(bits) + "\n")
            continue
        # large: rows 0, 1 and the last in full (only the last past 64), and a
        # hash of every entry
        for r in ((0, 1, width - 1) if width <= 64 else (width - 1,)):
            out.write("%s row %d %s\n" % (name, r, " ".join(bits[r * width:(r + 1) * width])))
        out.write("%s fnv1a64 %016x\n" % (name, fnv1a64(bits)))


def write_fused(out, seed, width):
    torch.manual_seed(seed)
    c_attn = nn.Linear(width, 3 * width, bias=False)
    c_proj = nn.Linear(width, width, bias=False)
    out.write("fused %d %d\n" % (seed, width))
    for name, m in (("c_attn_weight", c_attn), ("c_proj_weight", c_proj)):
        bits = [fhex(v) for v in m.weight.detach().reshape(-1).tolist()]
        if width <= 8:
            out.write(name + " " + " ".join(bits) + "\n")
        out.write("%s fnv1a64 %016x\n" % (name, fnv1a64(bits)))
    # q, k, v = c_attn(x).split(D, dim=2): each a view, rows 3D apart
    x = torch.arange(width * 2, dtype=torch.float32).reshape(1, 2, width)
    with torch.no_grad():
        q, k, v = c_attn(x).split(width, dim=2)
    out.write("split strides %s contiguous %d\n" % (",".join(str(n) for n in q.stride()),
                                                    int(q.is_contiguous())))


def write_forward(out, seed, b, t, width, heads):
    mods = linears(seed, width)
    mats = [m.weight.detach() for m in mods]
    x = torch.arange(b * t * width, dtype=torch.float32).reshape(b, t, width)
    # the lesson's own code path (nn.Linear calls) for float32
    with torch.no_grad():
        q = split_heads(mods[0](x), heads)
        k = split_heads(mods[1](x), heads)
        v = split_heads(mods[2](x), heads)
    f32 = forward(x, mats, heads)
    assert torch.equal(f32["q_heads"], q) and torch.equal(f32["k_heads"], k)
    assert torch.equal(f32["v_heads"], v)
    f64 = forward(x.double(), [m.double() for m in mats], heads)
    out.write("forward %d %d %d %d %d\n" % (seed, b, t, width, heads))
    for dtype, st in (("f32", f32), ("f64", f64)):
        for name, tensor in st.items():
            flat = tensor.contiguous().reshape(-1).tolist()
            out.write("%s %s %s %s\n" % (dtype, name, ",".join(str(n) for n in tensor.shape),
                                         " ".join(repr(float(v)) for v in flat)))


def write_ablate(out, seed, b, t, width, heads):
    """output(context with head h zeroed) - output, every head, float64."""
    mats = [m.weight.detach().double() for m in linears(seed, width)]
    x = torch.arange(b * t * width, dtype=torch.float64).reshape(b, t, width)
    st = forward(x, mats, heads)
    for h in range(heads):
        ctx = st["context"].clone()
        ctx[:, h] = 0
        diff = merge_heads(ctx) @ mats[3].T - st["output"]
        out.write("ablate %d %d %d %d %d %d %s\n" % (seed, b, t, width, heads, h,
                                                    " ".join(repr(float(v)) for v in diff.reshape(-1).tolist())))


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "."
    torch.set_num_threads(1)
    with open(outdir + "/torch-weights.txt", "w") as out:
        out.write("# PyTorch %s\n" % torch.__version__)
        for seed, width in WEIGHTS:
            write_weights(out, seed, width)
    with open(outdir + "/torch-fused.txt", "w") as out:
        out.write("# PyTorch %s: seed D, c_attn [3D,D] and c_proj [D,D] as float32 bits (whole "
                  "up to D 8) and their FNV-1a hashes; the strides of c_attn(x).split(D, "
                  "dim=2)[0] for x [1,2,D]\n" % torch.__version__)
        for seed, width in WEIGHTS:
            write_fused(out, seed, width)
    with open(outdir + "/torch-forward.txt", "w") as out:
        out.write("# PyTorch %s: seed B T D H, then each step flattened row-major\n"
                  % torch.__version__)
        for args in FORWARD:
            write_forward(out, *args)
    with open(outdir + "/torch-ablate.txt", "w") as out:
        out.write("# PyTorch %s: seed B T D H head, then output with the head's context zeroed "
                  "minus the output, float64, row-major\n" % torch.__version__)
        for args in FORWARD:
            write_ablate(out, *args)


if __name__ == "__main__":
    main()
