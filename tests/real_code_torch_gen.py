#!/usr/bin/python3
"""Record what PyTorch makes of each line of tests/data/real_code.json.

Run by hand where PyTorch is installed (Debian's python3-torch):

    /usr/bin/python3 tests/real_code_torch_gen.py build/headlab > tests/data/real_code_torch.json

Each line runs as Python with torch, as written, with x = arange(B*T*D)
.reshape(B, T, D) at B=2, T=5, D=12, H=3 (or the line's own --shape and
--heads; code that repeats key/value heads at the first shape --check
chooses for it, B=2, T=5, D=84, H=12).  Its names mean what headlab says it read them as (--check
--json "bindings"): a size name is its size, an unknown tensor is x, x time
first, attention's output (the lesson's split, fresh) or that output with
the heads folded into the batch, or grouped key/value heads (x's first Hkv
heads, [B, Hkv, T, d] or [B, T, Hkv, d], fresh); a module returns a fresh copy of its input
(three side by side for a fused q, k, v projection); attention (a @ b,
matmul, scaled_dot_product_attention) returns attention's output, fresh, in
b's layout.  For every tensor headlab judges, PyTorch's shape, strides,
storage offset, contiguity and values (the labels) are recorded, or the
error PyTorch raised.  A pasted def is called with its parameters as read.  einops is not in Debian: rearrange below is einops'
own recipe (reshape, permute, reshape).
"""
import ast
import builtins
import json
import math
import re
import subprocess
import sys

import torch

HEADLAB = sys.argv[1] if len(sys.argv) > 1 else "build/headlab"
CORPUS = "tests/data/real_code.json"


def rearrange(t, pattern, **sizes):
    lhs, rhs = [side.strip() for side in pattern.split("->")]

    def groups(side):
        return [g.split() if g else [n] for g, n in re.findall(r"\(([^)]*)\)|(\S+)", side)]

    left, right = groups(lhs), groups(rhs)
    known = dict(sizes)
    for g, n in zip(left, t.shape):
        unknown = [a for a in g if a not in known]
        prod = math.prod(known[a] for a in g if a in known)
        if len(unknown) == 1:
            known[unknown[0]] = n // prod
    flat = [a for g in left for a in g]
    t = t.reshape([known[a] for a in flat])
    t = t.permute([flat.index(a) for g in right for a in g])
    return t.reshape([math.prod(known[a] for a in g) for g in right])


class World:
    """The lesson's tensors at one size."""

    def __init__(self, B, T, D, H, Hkv=None):
        d = D // H
        self.x = torch.arange(B * T * D).reshape(B, T, D)
        Hkv = Hkv or H
        self.kv_time = self.x[..., :Hkv * d].reshape(B, T, Hkv, d).contiguous()
        self.kv = self.kv_time.transpose(1, 2).contiguous()
        self.heads = self.x.view(B, T, H, d).transpose(1, 2)
        self.context = self.heads.contiguous()
        self.fold = self.context.reshape(B * H, T, d)
        self.time = self.x.transpose(0, 1).contiguous()

    def attend(self, b):
        if isinstance(b, torch.Tensor) and b.dim() == 3:
            return self.fold.clone()
        return self.context.clone()


class Thing:
    """A name PyTorch code would have: attributes, a module, or scores."""

    def __init__(self, world, names):
        self.world, self.names = world, names

    def __getattr__(self, name):
        if name in self.names:
            return self.names[name]
        return Thing(self.world, self.names)

    def __matmul__(self, b):
        return self.world.attend(b)


class Module:
    def __init__(self, fused):
        self.fused = fused

    def __call__(self, t, *args, **kw):
        t = t.clone(memory_format=torch.contiguous_format)
        return torch.cat([t, t, t], -1) if self.fused else t


class TorchProxy:
    def __init__(self, world):
        self.world = world

    def __getattr__(self, name):
        if name in ("matmul", "bmm"):
            return lambda a, b: self.world.attend(b)
        if name == "scaled_dot_product_attention":
            return lambda q, k, v, *a, **kw: self.world.attend(v)
        if name in ("nn", "functional"):
            return self
        return getattr(torch, name)


class Names(dict):
    """Locals: an unknown name is a Thing (a global or a builtin is itself)."""

    def __init__(self, thing, glob):
        super().__init__()
        self.thing, self.glob = thing, glob

    def __missing__(self, key):
        if key in self.glob or hasattr(builtins, key):
            raise KeyError(key)
        return self.thing


def record(t):
    return {"shape": list(t.shape), "strides": list(t.stride()),
            "storage_offset": t.storage_offset(), "contiguous": t.is_contiguous(),
            "labels": t.flatten().tolist()[:256]}


def run_entry(e):
    args = e.get("args", [])
    B, T, D, H = 2, 5, 12, 3
    if "--shape" in args:
        B, T, D = map(int, args[args.index("--shape") + 1].split(","))
    if "--heads" in args:
        H = int(args[args.index("--heads") + 1])
    lets = [a for a in args if a not in ("--shape", "--heads") and "=" in a]
    if "--shape" not in args:
        # code that repeats key/value heads is checked at shapes of its own
        free = json.loads(subprocess.run([HEADLAB, "--code", e["code"], "--check", "--json"]
                                         + sum((["--let", a] for a in lets), []),
                                         capture_output=True, text=True).stdout)
        if free.get("kv_heads"):
            (B, T, D), H = free["shape"], free["heads"]
    hl = subprocess.run([HEADLAB, "--code", e["code"], "--check", "--json", "--shape",
                         "%d,%d,%d" % (B, T, D), "--heads", str(H)]
                        + sum((["--let", a] for a in lets), []),
                        capture_output=True, text=True)
    verdict = json.loads(hl.stdout)
    world = World(B, T, D, H, verdict.get("kv_heads"))
    d = D // H
    sizes = {"B": B, "T": T, "D": D, "H": H, "d": d, "scale": 1}
    names = dict(sizes)
    readings = {"[B, T, D]": world.x, "[T, B, D]": world.time,
                "[B, H, T, d]": world.context, "[B*H, T, d]": world.fold,
                "[B, Hkv, T, d]": world.kv, "[B, T, Hkv, d]": world.kv_time}
    for b in verdict["bindings"]:
        m = re.match(r"(\S+) is read as (\[[^]]*\])", b)
        if m:
            names[m.group(1)] = readings[m.group(2)].clone()
            continue
        m = re.match(r"(\S+) = (?:(\S+) = )?(-?\d+) ", b)
        if m:
            names[m.group(1)] = int(m.group(3))
            continue
        m = re.match(r"(\S+) \(a module\)", b)
        if m:
            names[m.group(1)] = Module("3D" in b)
    thing = Thing(world, names)
    glob = {"torch": TorchProxy(world), "F": TorchProxy(world), "rearrange": rearrange,
            "self": thing, "config": thing, "args": thing, "attn": thing, "x": world.x.clone(),
            "heads": world.heads, "context": world.context.clone()}
    glob.update(names)
    tree = ast.parse(e["code"])
    last = tree.body[-1]
    if isinstance(last, ast.FunctionDef):
        # a pasted def: called with its parameters as headlab read them
        call = ast.Call(func=ast.Name(last.name, ast.Load()),
                        args=[ast.Name(a.arg, ast.Load()) for a in last.args.args], keywords=[])
        tree.body.append(ast.Assign(targets=[ast.Name("__result__", ast.Store())], value=call))
    elif isinstance(last, (ast.Expr, ast.Return)):
        tree.body[-1] = ast.copy_location(
            ast.Assign(targets=[ast.Name("__result__", ast.Store())], value=last.value), last)
    ast.fix_missing_locations(tree)
    loc = Names(thing, glob)
    out = {"code": e["code"], "args": args, "sizes": [B, T, D, H]}
    try:
        exec(compile(tree, "<corpus>", "exec"), glob, loc)
    except Exception as exc:  # PyTorch refused: record its reason
        out["error"] = str(exc).split("\n")[0]
        return out
    tensors = []
    for t in verdict["tensors"]:
        name = t["name"]
        if name == "":
            value = loc["__result__"]
        elif name.startswith("["):
            value = loc["__result__"][int(name[1:-1])]
        else:
            value = loc[name]
        tensors.append(dict(name=name, **record(value)))
    out["tensors"] = tensors
    return out


def main():
    corpus = json.load(open(CORPUS))
    print("[")
    print(",\n".join(json.dumps(dict(torch=torch.__version__, **run_entry(e))) for e in corpus))
    print("]")


main()
