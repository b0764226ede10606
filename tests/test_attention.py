#!/usr/bin/env python3
"""The attention pass from the command line, against numpy (TAP).

- numpy recomputes every step from `--attention --print --json` (its
  parameters and x = arange), for random shapes, head counts and seeds, to
  1e-4 of each step's largest magnitude (headlab computes in float64, so it
  is really much closer);
- `--explain --json` of random cells of every step: the products sum to
  the value, each product is its reads' values multiplied (divided by
  sqrt(d) for scores), each read value is that cell of the printed step,
  and the reads are exactly the cells the formula reads;
- the seeded weights are PyTorch's (tests/data/torch-weights.txt, seed 42);
- bad input exits 2 with one line; GPT-2 size prints in well under a
  second with a peak under 256 MB.
"""
import difflib
import json
import math
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_or_skip import numpy as np, needs_numpy  # noqa: E402
from taplib import ok, diag, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
RSS_PROBE = os.environ.get("RSS_PROBE") or os.path.join(os.path.dirname(HEADLAB), "tests",
                                                      "rss-probe")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
SEED = int(os.environ.get("HEADLAB_SEED", "15"))
STEPS = ["input", "q", "k", "v", "q_heads", "k_heads", "v_heads", "scores", "masked",
         "weights", "context", "swap_back", "contiguous", "merged", "output"]


def run(args):
    p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def arr(values):
    """JSON values (with "-inf" strings) as a float64 array."""
    return np.array(_floats(values), dtype=np.float64)


def _floats(v):
    if isinstance(v, list):
        return [_floats(x) for x in v]
    if isinstance(v, str):
        return float(v)     # "-inf"
    return float(v)


def reference(shape, heads, params):
    """Every step of the lesson's pass in numpy float64 from the weights."""
    B, T, D = shape
    d = D // heads
    x = np.arange(B * T * D, dtype=np.float32).astype(np.float64).reshape(B, T, D)
    w = {k: np.array(params[k], dtype=np.float64) for k in params}
    st = {"input": x}
    for n in "qkv":
        st[n] = x @ w[n + "_weight"].T
        st[n + "_heads"] = st[n].reshape(B, T, heads, d).transpose(0, 2, 1, 3)
    st["scores"] = st["q_heads"] @ st["k_heads"].transpose(0, 1, 3, 2) / math.sqrt(d)
    visible = np.tril(np.ones((T, T), dtype=bool))
    st["masked"] = np.where(visible, st["scores"], -np.inf)
    e = np.exp(st["masked"] - st["masked"].max(axis=-1, keepdims=True))
    st["weights"] = e / e.sum(axis=-1, keepdims=True)
    st["context"] = st["weights"] @ st["v_heads"]
    st["swap_back"] = st["context"].transpose(0, 2, 1, 3)
    st["contiguous"] = np.ascontiguousarray(st["swap_back"])
    st["merged"] = st["contiguous"].reshape(B, T, D)
    st["output"] = st["merged"] @ w["out_weight"].T
    return st


def close(got, want, tol):
    finite = np.isfinite(want)
    if not np.array_equal(np.isfinite(got), finite) or not np.array_equal(got[~finite], want[~finite]):
        return False, "the -inf cells differ"
    scale = max(np.abs(want[finite]).max(initial=0), 1e-300)
    err = np.abs(got[finite] - want[finite]).max(initial=0) / scale
    return err <= tol, "off by %.3g of the largest" % err


def check_pass(B, T, D, H, seed):
    rc, out, err = run(["--attention", "--print", "--json", "--shape", "%d,%d,%d" % (B, T, D),
                        "--heads", str(H), "--seed", str(seed)])
    if rc != 0:
        return ["exit %d: %s" % (rc, err.strip())]
    data = json.loads(out)
    problems = []
    if data["seed"] != seed or data["shape"] != [B, T, D] or data["heads"] != H:
        problems.append("seed, shape or heads wrong")
    ref = reference((B, T, D), H, data["parameters"])
    if [s["name"] for s in data["steps"]] != STEPS:
        problems.append("steps: %s" % [s["name"] for s in data["steps"]])
        return problems
    for s in data["steps"]:
        want = ref[s["name"]]
        got = arr(s["values"])
        if got.shape != want.shape or list(want.shape) != s["shape"]:
            problems.append("%s: shape %s, numpy %s" % (s["name"], got.shape, want.shape))
            continue
        good, why = close(got, want, 1e-4)
        if not good:
            problems.append("%s: %s" % (s["name"], why))
        strides = c_strides(s["shape"])
        if s["name"] == "contiguous" and swap_contiguous(B, T, D, H):
            # .contiguous() of a view that already is one returns it as is
            strides = [H * T * (D // H), D // H, T * (D // H), 1]
        if s["name"] in ("q_heads", "k_heads", "v_heads"):
            strides = [T * D, d_of(D, H), D, 1]
        if s["name"] == "swap_back":
            strides = [H * T * (D // H), D // H, T * (D // H), 1]
        if s["strides"] != strides:
            problems.append("%s: strides %s, want %s" % (s["name"], s["strides"], strides))
    copied = [s["name"] for s in data["steps"] if s["copied"]]
    swap = data["steps"][STEPS.index("swap_back")]
    if copied != ([] if swap["contiguous"] else ["contiguous"]):
        problems.append("copied: %s, swap_back contiguous %s" % (copied, swap["contiguous"]))
    return problems


def c_strides(shape):
    out, n = [], 1
    for size in reversed(shape):
        out.insert(0, n)
        n *= size
    return out


def swap_contiguous(B, T, D, H):
    """context.transpose(1, 2) is contiguous as PyTorch counts it (axes of
    size 1 do not count): only H or T is above 1 at most."""
    return H == 1 or T == 1


def d_of(D, H):
    return D // H


def elided_pairs(values, ref, out, where=()):
    """(printed, numpy) pairs of every cell an elided listing shows: a list
    holding "..." keeps numpy's 3 edge items at each end."""
    if not isinstance(values, list):
        out.append((float(values), float(ref), where))
        return
    if "..." in values:
        cut = values.index("...")
        idx = list(range(cut)) + list(range(len(ref) - (len(values) - cut - 1), len(ref)))
        items = values[:cut] + values[cut + 1:]
    else:
        idx, items = list(range(len(values))), values
    if len(idx) != len(items) or (idx and idx[-1] >= len(ref)):
        out.append((float("nan"), 0.0, where))
        return
    for i, v in zip(idx, items):
        elided_pairs(v, ref[i], out, where + (i,))


def check_elided(B, T, D, H, seed):
    """A pass large enough to elide: every cell shown is numpy's cell."""
    rc, out, err = run(["--attention", "--print", "--json", "--shape", "%d,%d,%d" % (B, T, D),
                        "--heads", str(H), "--seed", str(seed)])
    data = json.loads(out) if rc == 0 else {"steps": [], "parameters": {}}
    # the weights from a small pass of the same seed and width (they do not
    # depend on B or T), listed whole
    _, small, _ = run(["--attention", "--print", "--json", "--shape", "1,1,%d" % D, "--heads",
                       str(H), "--seed", str(seed)])
    ref = reference((B, T, D), H, json.loads(small)["parameters"]) if D * D <= 1000 else None
    problems = []
    if ref is None:
        problems.append("width %d too large for the reference's weights" % D)
    for s in data["steps"] if ref is not None else []:
        pairs = []
        elided_pairs(s["values"], ref[s["name"]], pairs)
        want = ref[s["name"]]
        scale = np.abs(want[np.isfinite(want)]).max(initial=1e-300)
        bad = [w for g, r, w in pairs if not (g == r or abs(g - r) <= 1e-9 * scale)]
        if not pairs or bad:
            problems.append("%s: %d of %d shown cells differ, first at %s"
                            % (s["name"], len(bad), len(pairs), bad[:1]))
    return problems


def formula_reads(step, ix, B, T, D, H):
    """The cells each term of step[ix] reads, by the formula."""
    d = D // H
    if step in ("q", "k", "v"):
        return [[[step + "_weight", [ix[2], j]], ["input", [ix[0], ix[1], j]]] for j in range(D)]
    if step == "output":
        return [[["out_weight", [ix[2], k]], ["merged", [ix[0], ix[1], k]]] for k in range(D)]
    if step.endswith("_heads"):
        return [[[step[0], [ix[0], ix[2], ix[1] * d + ix[3]]]]]
    if step == "scores":
        return [[["q_heads", [ix[0], ix[1], ix[2], j]], ["k_heads", [ix[0], ix[1], ix[3], j]]]
                for j in range(d)]
    if step == "masked":
        return [] if ix[3] > ix[2] else [[["scores", list(ix)]]]
    if step == "weights":
        return [[["masked", [ix[0], ix[1], ix[2], s]] for s in range(T)]]
    if step == "context":
        return [[["weights", [ix[0], ix[1], ix[2], s]], ["v_heads", [ix[0], ix[1], s, ix[3]]]]
                for s in range(T)]
    if step == "swap_back":
        return [[["context", [ix[0], ix[2], ix[1], ix[3]]]]]
    if step == "contiguous":
        return [[["swap_back", list(ix)]]]
    if step == "merged":
        return [[["contiguous", [ix[0], ix[1], ix[2] // d, ix[2] % d]]]]
    return []


def at(values, ix):
    for i in ix:
        values = values[i]
    return float(values)


def check_explain(rng, B, T, D, H, seed, printed):
    """Random cells of every step; a list of problems."""
    problems = []
    steps = {s["name"]: s for s in printed["steps"]}
    for name, p in printed["parameters"].items():
        steps[name] = {"values": p, "shape": [D, D]}
    for step in STEPS + ["q_weight", "out_weight"]:
        shape = steps[step]["shape"]
        ix = [rng.randrange(n) for n in shape]
        if step == "masked" and rng.random() < 0.5 and T > 1:
            ix[2], ix[3] = 0, rng.randrange(1, T)
        expr = "%s[%s]" % (step, ", ".join(str(i) for i in ix))
        rc, out, err = run(["--explain", expr, "--json", "--shape", "%d,%d,%d" % (B, T, D),
                            "--heads", str(H), "--seed", str(seed)])
        if rc != 0:
            problems.append("%s: exit %d %s" % (expr, rc, err.strip()))
            continue
        e = json.loads(out)
        value = float(e["value"])
        want_value = at(steps[step]["values"], ix)
        if not (value == want_value or abs(value - want_value) <= 1e-12 * max(1, abs(want_value))):
            problems.append("%s: value %r, printed %r" % (expr, value, want_value))
        reads = [t["reads"] for t in e["terms"]]
        if reads != formula_reads(step, ix, B, T, D, H):
            problems.append("%s: reads %s" % (expr, json.dumps(reads)[:200]))
            continue
        if e["step"] != step or e["index"] != ix:
            problems.append("%s: step/index %s %s" % (expr, e["step"], e["index"]))
        if step in ("input", "q_weight", "out_weight") or e["masked"]:
            if e["terms"] or (e["masked"] and value != -math.inf):
                problems.append("%s: a leaf or masked cell has terms" % expr)
            continue
        total = sum(float(t["product"]) for t in e["terms"])
        mag = sum(abs(float(t["product"])) for t in e["terms"])
        if abs(total - value) > 1e-12 * max(mag, 1e-300) + 1e-300:
            problems.append("%s: terms sum to %r, value %r" % (expr, total, value))
        for t in e["terms"]:
            vals = [float(v) for v in t["values"]]
            for (rstep, rix), v in zip(t["reads"], vals):
                pv = at(steps[rstep]["values"], rix)
                if not (pv == v or abs(pv - v) <= 1e-12 * max(1, abs(pv))):
                    problems.append("%s: read %s%s = %r, printed %r" % (expr, rstep, rix, v, pv))
            if len(vals) == 2 and step != "weights":
                prod = vals[0] * vals[1] / (e.get("divisor") or 1)
                if abs(prod - float(t["product"])) > 1e-15 * max(1, abs(prod)):
                    problems.append("%s: product %r of %r" % (expr, t["product"], vals))
        if step == "weights":
            row = np.array([float(v) for v in e["terms"][0]["values"]])
            sm = np.exp(row - row.max())
            if abs(sm[ix[3]] / sm.sum() - value) > 1e-12:
                problems.append("%s: not the softmax of its row" % expr)
    return problems


def check_weights():
    """Seed 42, width 4 and 6 widths of seed 7: the JSON parameters are
    PyTorch's float32 bits."""
    blocks, cur = {}, None
    for line in open(os.path.join(DATA, "torch-weights.txt")):
        f = line.split()
        if f and f[0] == "weights":
            cur = (int(f[1]), int(f[2]))
            blocks[cur] = {}
        elif cur and f and f[0].endswith("_weight") and f[1] not in ("row", "fnv1a64"):
            blocks[cur][f[0]] = f[1:]
    for (seed, width), mats in blocks.items():
        rc, out, _ = run(["--attention", "--print", "--json", "--shape", "1,2,%d" % width,
                          "--heads", "1", "--seed", str(seed)])
        params = json.loads(out)["parameters"] if rc == 0 else {}
        bad = []
        for name, bits in mats.items():
            got = ["%08x" % struct.unpack("<I", struct.pack("<f", v))[0]
                   for row in params.get(name, []) for v in row]
            if got != bits:
                bad.append(name)
        ok(rc == 0 and not bad, "--seed %d, width %d: the parameters are PyTorch's float32 bits"
           % (seed, width), bad)


def check_errors():
    cases = [
        (["--attention", "--print", "--seed", "-1"], "--seed"),
        (["--attention", "--print", "--seed", "4294967296"], "too large"),
        (["--attention", "--print", "--heads", "3"], "not divisible"),
        (["--attention", "--trace", "4"], "--trace"),
        (["--attention", "--print", "--wrong"], "--wrong"),
        (["--attention", "--index", "[0]"], "--index"),
        (["--explain", "ctx[0]"], "is not a step"),
        (["--explain", "context[0,0,9,0]"], "out of range"),
        (["--explain", "context[0,0,1]"], "has 4 axes"),
        (["--explain", "context[0,0,1,0"], "want a step"),
        (["--explain", "q[0,0,0]\x1b[2J"], "want a step"),
        (["--explain", "q[0,0,0]", "--print"], "do not go together"),
        (["--attention", "--print", "--shape", "1,4096,2048"], "B*T*D at most"),
        (["--seed", "3"], "--seed goes with --quiz or --attention"),
        (["--fused", "--print"], "--fused goes with --attention"),
        # the lab shows the pass: without a terminal it says so
        (["--attention"], "the lab needs a terminal"),
        (["--attention", "--shape", "1,4096,2048"], "B*T*D at most"),
    ]
    for args, want in cases:
        rc, out, err = run(args)
        lines = err.strip().split("\n")
        ok(rc == 2 and out == "" and len(lines) == 1 and want in err and "\x1b" not in err,
           "bad input: headlab %s -> exit 2, one line: ...%s..." % (" ".join(args), want),
           "exit %d, stderr %r" % (rc, err))


def check_fused():
    """--fused draws c_attn = nn.Linear(D, 3D) and c_proj in one go: by
    PyTorch's init (fan_in D, one draw per element in order) c_attn.weight
    is q_proj's rows, then k_proj's, then v_proj's, so every parameter and
    value equals the four nn.Linear's (test_attention.c holds c_attn
    against PyTorch's own, tests/data/torch-fused.txt); q, k, v are views
    of c_attn(x), rows 3D apart."""
    for B, T, D, H, seed in ((1, 3, 4, 2, 42), (2, 5, 6, 3, 7)):
        args = ["--attention", "--print", "--json", "--shape", "%d,%d,%d" % (B, T, D),
                "--heads", str(H), "--seed", str(seed)]
        _, plain, _ = run(args)
        rc, fused, err = run(args + ["--fused"])
        a, b = json.loads(plain), json.loads(fused) if rc == 0 else {}
        same = rc == 0 and a["parameters"] == b["parameters"] and \
            [s["values"] for s in a["steps"]] == [s["values"] for s in b["steps"]]
        ok(same, "--fused at %d,%d,%d, %d heads, seed %d: every weight and value as the four "
           "nn.Linear" % (B, T, D, H, seed), err)
        st = {s["name"]: s for s in b.get("steps", [])}
        d = D // H
        ok(rc == 0 and all(st[n]["strides"] == [T * 3 * D, 3 * D, 1] and not st[n]["contiguous"]
                           for n in ("q", "k", "v")) and
           all(st[n + "_heads"]["strides"] == [T * 3 * D, d, 3 * D, 1] for n in ("q", "k", "v")) and
           st["q"]["code"] == "q, k, v = c_attn(x).split(%d, dim=2)" % D,
           "--fused: q, k, v are c_attn(x).split(%d, dim=2), strides (%d, %d, 1)"
           % (D, T * 3 * D, 3 * D), json.dumps({n: st[n]["strides"] for n in st})[:300])


def check_gpt2():
    if not os.access(RSS_PROBE, os.X_OK):
        ok(False, "rss-probe is built (set RSS_PROBE)", RSS_PROBE)
        return
    p = subprocess.run([RSS_PROBE, HEADLAB, "--attention", "--print", "--shape", "1,1024,768",
                        "--heads", "12"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    last = p.stderr.decode().strip().split("\n")[-1].split()
    kib = int(last[2]) if len(last) == 3 and last[0] == "rss-probe:" else -1
    out = p.stdout.decode()
    ok(p.returncode == 0 and 0 < kib < 256 * 1024 and "step 15 of 15" in out,
       "GPT-2 size --print: exit 0, peak %d KiB (under 256 MB)" % kib)
    rc, out, _ = run(["--attention", "--print", "--json", "--shape", "1,1024,768", "--heads", "12"])
    data = json.loads(out) if rc == 0 else {"steps": []}
    w = [s for s in data["steps"] if s["name"] == "weights"]
    ok(rc == 0 and w and w[0]["values"][0][0][0] == [1, 0, 0, "...", 0, 0, 0]
       and len(data["parameters"]["q_weight"]) == 7,
       "GPT-2 size --print --json is elided like the labels (edges of 3, \"...\")")


def check_captions():
    """Every step has a caption in every language, with the walk's fields."""
    lang = os.path.join(os.path.dirname(DATA), "..", "assets", "lang")
    for name in ("en.txt", "zh.txt"):
        keys = {}
        for line in open(os.path.join(lang, name), encoding="utf-8"):
            key, _, value = line.partition("=")
            if key.strip().startswith("caption.attention."):
                keys[key.strip()[len("caption.attention."):]] = value.strip()
        missing = [s for s in STEPS if not keys.get(s)]
        extra = [k for k in keys if k not in STEPS]
        ok(not missing and not extra, "%s: a caption for every step of the attention pass" % name,
           missing + extra)


GOLDEN_DIR = os.environ.get("GOLDEN_DIR") or os.path.join(os.path.dirname(DATA), "golden")
GENERATE = os.environ.get("GENERATE", "") not in ("", "0")
GOLDENS = [
    ("print-attention-lesson.txt", ["--attention", "--print"]),
    ("print-attention-elided.txt", ["--attention", "--print", "--shape", "1,64,32", "--heads", "4",
                                    "--seed", "7"]),
    ("explain-attention.txt", ["--explain", "context[0,0,1,0]"]),
]


def check_goldens():
    """--print and --explain text against tests/golden (GENERATE=1 rewrites)."""
    for name, args in GOLDENS:
        path = os.path.join(GOLDEN_DIR, name)
        env = dict(os.environ)
        env.pop("COLUMNS", None)
        p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=60)
        out = p.stdout.decode()
        if GENERATE:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(out)
            ok(p.returncode == 0, "headlab %s: wrote %s (GENERATE=1, not compared)"
               % (" ".join(args), name))
            continue
        try:
            want = open(path, encoding="utf-8", newline="").read()
        except OSError as e:
            ok(False, "headlab %s matches %s" % (" ".join(args), name), str(e))
            continue
        diff = list(difflib.unified_diff(want.splitlines(), out.splitlines(), "golden/" + name,
                                         "headlab " + " ".join(args), lineterm="", n=1))
        ok(p.returncode == 0 and not diff, "headlab %s matches %s" % (" ".join(args), name),
           diff[:40])


@needs_numpy
def numpy_passes(rng):
    """every step of random passes, elided prints and --explain against numpy"""
    configs = [(1, 3, 4, 2, 42), (2, 5, 6, 3, 7), (1, 1, 4, 4, 0), (1, 8, 8, 1, 4294967295)]
    while len(configs) < 24:
        H = rng.choice([1, 2, 3, 4])
        D = H * rng.randint(1, 4)
        T = rng.randint(1, 7)
        B = rng.randint(1, 2)
        if B * H * T * T <= 1000 and D * D <= 1000:
            configs.append((B, T, D, H, rng.randrange(2 ** 32)))
    for B, T, D, H, seed in configs:
        problems = check_pass(B, T, D, H, seed)
        ok(not problems, "shape %d,%d,%d, %d heads, seed %d: every step matches numpy"
           % (B, T, D, H, seed), problems)
    for B, T, D, H, seed in [(1, 40, 8, 2, 3), (2, 30, 24, 3, 11), (3, 16, 16, 4, 2 ** 31)]:
        problems = check_elided(B, T, D, H, seed)
        ok(not problems, "shape %d,%d,%d, %d heads, seed %d, elided: every cell shown is numpy's"
           % (B, T, D, H, seed), problems)
    for B, T, D, H, seed in configs[:10]:
        _, out, _ = run(["--attention", "--print", "--json", "--shape", "%d,%d,%d" % (B, T, D),
                         "--heads", str(H), "--seed", str(seed)])
        problems = check_explain(rng, B, T, D, H, seed, json.loads(out))
        ok(not problems, "shape %d,%d,%d, %d heads, seed %d: --explain of a cell of every step "
           "sums to its value and reads what its formula reads" % (B, T, D, H, seed), problems)


def main():
    rng = random.Random(SEED)
    print("# seed %d (set HEADLAB_SEED to change), headlab %s" % (SEED, HEADLAB))
    rc, out, _ = run(["--attention", "--print", "--json"])
    lesson = json.loads(out)
    w = [s for s in lesson["steps"] if s["name"] == "weights"][0]["values"]
    ok(lesson["seed"] == 42 and abs(w[0][0][1][0] - 0.002978) < 5e-7 and
       abs(w[0][1][1][0] - 0.999998) < 5e-7 and w[0][0][1][2] == 0,
       "the lesson (default seed 42): position 1 reads [0.002978, 0.997022, 0] and "
       "[0.999998, 0.000002, 0]")
    masked = [s for s in lesson["steps"] if s["name"] == "masked"][0]["values"]
    ok(masked[0][0][0][1] == "-inf", "masked cells are the string \"-inf\" in JSON")
    numpy_passes(rng)
    check_weights()
    check_captions()
    check_errors()
    check_goldens()
    check_gpt2()
    check_fused()
    rc, out, _ = run(["--explain", "context[0,0,1,0]"])
    ok(rc == 0 and out.startswith("context[0, 0, 1, 0] = 3.14148\n") and
       "weights[0, 0, 1, 1] 0.997022 * v_heads[0, 0, 1, 0] 3.14881" in out,
       "--explain 'context[0,0,1,0]' lists the lesson's terms", out)
    return done()


if __name__ == "__main__":
    sys.exit(main())
