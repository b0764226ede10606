#!/usr/bin/env python3
"""Differential test of --index against numpy's basic indexing (TAP).

numpy's basic indexing (integers, slices, ..., None) has PyTorch's semantics
except that numpy also takes negative steps, which PyTorch refuses; so the
random expressions use positive steps only, and negative steps are checked
separately to be refused.

For each of a few hundred random expressions (fixed seed, printed; override
with HEADLAB_SEED) over random shapes, head counts, walks (the lesson and
every --wrong bug) and steps, `headlab --index EXPR --at K --json` is held
against the same indexing of the same step built with numpy: shape, labels
(elided above 1000 cells), the index of every picked cell in the step,
strides on axes longer than 1, and the storage offset.  Expressions that
numpy refuses with an IndexError (an integer out of range, too many
indices) must be refused by headlab with exit 2, nothing on stdout, and
three lines on stderr: the message, the expression, a caret under the item.
Only the standard library and numpy.
"""
import os
import sys

from numpy_or_skip import np

import itertools
import json
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

HEADLAB = os.environ.get("HEADLAB") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "headlab")
SEED = int(os.environ.get("HEADLAB_SEED", "20240613"))
NRANDOM = 320           # valid expressions against numpy
NREFUSED = 80           # expressions numpy refuses (IndexError)
NNEGATIVE = 20          # negative steps: numpy takes them, PyTorch does not

KINDS = ["lesson", "no-transpose", "swap-batch", "d-h", "merge-no-transpose"]


def numpy_walk(kind, b, t, d_model, h):
    """The steps of a walk, as numpy arrays over x = arange(B*T*D)."""
    d = d_model // h
    x = np.arange(b * t * d_model, dtype=np.int64).reshape(b, t, d_model)
    if kind == "no-transpose":
        return [x, x.reshape(b, h, t, d)]
    if kind == "swap-batch":
        split = x.reshape(b, t, h, d)
        return [x, split, split.swapaxes(0, 1)]
    if kind == "d-h":
        split = x.reshape(b, t, d, h)
        return [x, split, split.transpose(0, 3, 1, 2)]
    split = x.reshape(b, t, h, d)
    heads = split.transpose(0, 2, 1, 3)
    if kind == "merge-no-transpose":
        cont = np.ascontiguousarray(heads)
        return [x, split, heads, cont, cont.reshape(b, t, d_model)]
    back = heads.transpose(0, 2, 1, 3)
    cont = np.ascontiguousarray(back)
    return [x, split, heads, back, cont, cont.reshape(b, t, d_model)]


def root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def view_offset(a):
    """Storage offset (in elements) of a's [0,...,0] in the buffer it views."""
    return (a.__array_interface__["data"][0]
            - root(a).__array_interface__["data"][0]) // a.itemsize


def run(args):
    p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


# --- random expressions ------------------------------------------------------

def rand_bound(rng, n):
    r = rng.random()
    if r < 0.45:
        return None
    if r < 0.95:
        return rng.randint(-n - 2, n + 2)
    return rng.choice([-10 ** 12, 10 ** 12, 2 ** 63 - 1, -(2 ** 63 - 1)])


def rand_step(rng):
    r = rng.random()
    if r < 0.45:
        return None
    if r < 0.9:
        return rng.randint(1, 4)
    return rng.choice([7, 100, 2 ** 63 - 1])


class Expr:
    """Items (int, slice, None, Ellipsis) and their text, with where each
    item (and each slice step) starts in the text."""

    def __init__(self, items, texts):
        self.items = items
        self.texts = texts
        self.pos = []
        self.step_pos = []
        self.text = ""

    def render(self, rng, style=None, name="heads"):
        """name: the tensor a named style starts with; it must be the
        step indexed (x for the input, heads for the heads, or a step's
        name), as a leading name picks its tensor."""
        sep = rng.choice([",", ", ", " , ", ",  "])
        style = style if style is not None else rng.choice(
            ["[%s]", "%s", name + "[%s]", " [ %s ] ", name + "[%s,]", "[%s , ]", "\t%s"])
        head = style[:style.index("%s")]
        out = head
        self.pos, self.step_pos = [], []
        for i, t in enumerate(self.texts):
            if i:
                out += sep
            self.pos.append(len(out))
            if t.count(":") == 2:
                self.step_pos.append(len(out) + t.rindex(":") + 1)
            else:
                self.step_pos.append(None)
            out += t
        self.text = out + style[style.index("%s") + 2:]
        return self.text


def slice_text(rng, s):
    a = "" if s.start is None else str(s.start)
    b = "" if s.stop is None else str(s.stop)
    if s.step is None:
        return rng.choice(["%s:%s" % (a, b), "%s:%s:" % (a, b)])
    return "%s:%s:%s" % (a, b, s.step)


def rand_expr(rng, shape, mode="valid"):
    """A random basic index for an array of the given shape.  mode: "valid",
    "range" (one integer out of range), "toomany" (one index too many) or
    "negative" (one slice with a negative step)."""
    r = len(shape)
    ncons = rng.randint(0, r)
    if mode == "toomany":
        ncons = r + 1
    use_ell = rng.random() < 0.4 and mode != "toomany"
    split = rng.randint(0, ncons)   # consuming items before the ellipsis
    kinds = [rng.choice(["int", "slice", "slice", "int"]) for _ in range(ncons)]
    if mode in ("range", "negative"):
        want = "int" if mode == "range" else "slice"
        if not kinds:
            kinds, ncons, split = [want], 1, rng.randint(0, 1)
        elif want not in kinds:
            kinds[rng.randrange(ncons)] = want
        bad = rng.choice([i for i, k in enumerate(kinds) if k == want])
    # the axis each consuming item indexes
    axes = []
    for i in range(ncons):
        if use_ell and i >= split:
            axes.append(r - (ncons - i))
        else:
            axes.append(i)
    items, texts = [], []
    for i, k in enumerate(kinds):
        n = shape[axes[i]] if axes[i] < r else 1
        if k == "int":
            if mode == "range" and i == bad:
                v = rng.choice([n, n + 1, n + 7, -n - 1, -n - 5, 10 ** 15])
            else:
                v = rng.randint(-n, n - 1)
            items.append(v)
            texts.append(str(v))
        else:
            step = rand_step(rng)
            if mode == "negative" and i == bad:
                step = -rng.randint(1, 3)
            s = slice(rand_bound(rng, n), rand_bound(rng, n), step)
            items.append(s)
            texts.append(slice_text(rng, s))
    if use_ell:
        items.insert(split, Ellipsis)
        texts.insert(split, "...")
    # Nones, keeping the result at 8 axes or fewer
    result_rank = r - kinds.count("int")
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
        if result_rank >= 8:
            break
        at = rng.randint(0, len(items))
        items.insert(at, None)
        texts.insert(at, "None")
        result_rank += 1
    if not items:
        items, texts = [Ellipsis], ["..."]
    return Expr(items, texts)


STEP_NAMES = {
    "lesson": ["input", "split", "swap", "swap-back", "contiguous", "merge"],
    "no-transpose": ["input", "split"],
    "swap-batch": ["input", "split", "swap"],
    "d-h": ["input", "split", "swap"],
    "merge-no-transpose": ["input", "split", "swap", "contiguous", "merge"],
}


def tensor_name(kind, k):
    """What PyTorch code calls step k of a walk: x, heads, or its step name."""
    if k == 0:
        return "x"
    names = STEP_NAMES[kind]
    if k == len(names) - 1 and kind in ("no-transpose", "swap-batch", "d-h"):
        return "heads"
    if kind in ("lesson", "merge-no-transpose") and k == 2:
        return "heads"
    return names[k]


def configs():
    rng = random.Random(SEED)
    out = []

    def shape():
        b = rng.randint(1, 3)
        t = rng.randint(1, 6)
        h = rng.randint(1, 4)
        d = rng.randint(1, 5)
        if rng.random() < 0.12:      # a few large enough to be elided
            t, d = rng.randint(20, 40), rng.randint(16, 32)
        return b, t, h * d, h

    for mode, count in (("valid", NRANDOM), ("refused", NREFUSED), ("negative", NNEGATIVE)):
        for _ in range(count):
            kind = rng.choice(KINDS)
            b, t, d_model, h = shape()
            arrs = numpy_walk(kind, b, t, d_model, h)
            k = rng.randrange(len(arrs))
            m = mode
            if mode == "refused":
                m = rng.choice(["range", "range", "toomany"])
            e = rand_expr(rng, arrs[k].shape, m)
            e.render(rng, name=tensor_name(kind, k))
            at = str(k + 1)
            out.append((mode, kind, (b, t, d_model, h), k, at, e))
    return out


# --- expected results ----------------------------------------------------------

def picks(n, elide):
    if not elide or n <= 7:
        return list(range(n))
    return [0, 1, 2, None, n - 3, n - 2, n - 1]


def elided_labels(res, elide):
    def walk(prefix, axis):
        if axis == res.ndim:
            return int(res[tuple(prefix)])
        return [("..." if i is None else walk(prefix + [i], axis + 1))
                for i in picks(res.shape[axis], elide)]
    if res.ndim == 0:
        return int(res)
    return walk([], 0)


def elided_cells(grids, shape, elide):
    """The step's index of each shown cell, row-major, '...' at jumps."""
    out, prev = [], None
    axes = [[i for i in picks(n, elide) if i is not None] for n in shape]
    for idx in itertools.product(*axes):
        flat = int(np.ravel_multi_index(idx, shape)) if shape else 0
        if prev is not None and flat != prev + 1:
            out.append("...")
        out.append([int(g[idx]) for g in grids])
        prev = flat
    return out


def compare_valid(cfg, result):
    mode, kind, (b, t, d_model, h), k, at, e = cfg
    rc, so, se = result
    errs = []
    a = numpy_walk(kind, b, t, d_model, h)[k]
    idx = tuple(e.items)
    res = np.asarray(a[idx])
    if rc != 0:
        return ["exit %d, stderr %r" % (rc, se.strip())]
    if se:
        errs.append("stderr not empty: %r" % se)
    try:
        got = json.loads(so)
    except ValueError as ex:
        return ["not JSON: %s" % ex]
    if got.get("expr") != e.text:
        errs.append("expr %r, want %r" % (got.get("expr"), e.text))
    if got.get("step") != k + 1:
        errs.append("step %r, want %d" % (got.get("step"), k + 1))
    if got.get("shape") != list(res.shape):
        return errs + ["shape %r, numpy %r" % (got.get("shape"), list(res.shape))]
    if len(got.get("axes", [])) != res.ndim:
        errs.append("axes %r for rank %d" % (got.get("axes"), res.ndim))
    elide = res.size > 1000
    if got.get("elided") is not elide:
        errs.append("elided %r with %d cells" % (got.get("elided"), res.size))
    if got.get("numel") != res.size:
        errs.append("numel %r, numpy %d" % (got.get("numel"), res.size))
    want = elided_labels(res, elide)
    if got.get("labels") != want:
        errs.append("labels %s, numpy %s" % (json.dumps(got.get("labels"))[:200],
                                             json.dumps(want)[:200]))
    grids = [np.asarray(g[idx]) for g in np.indices(a.shape)]
    want_cells = elided_cells(grids, res.shape, elide)
    if got.get("cells") != want_cells:
        errs.append("cells %s, numpy %s" % (json.dumps(got.get("cells"))[:200],
                                            json.dumps(want_cells)[:200]))
    if res.ndim and res.size:
        view = a[idx]
        ns = [s // view.itemsize for s in view.strides]
        hs = got.get("strides") or []
        if len(hs) != view.ndim or any(hs[i] != ns[i] for i in range(view.ndim)
                                        if view.shape[i] > 1):
            errs.append("strides %r, numpy %r (size-1 axes ignored)" % (hs, ns))
        if got.get("storage_offset") != view_offset(view):
            errs.append("storage_offset %r, numpy %r"
                        % (got.get("storage_offset"), view_offset(view)))
    return errs


def check_caret(expr, se, col, errs):
    """stderr is three lines: the message naming the expression, the
    expression indented by two, and a caret under byte col."""
    lines = se.split("\n")
    if len(lines) != 4 or lines[3] != "":
        errs.append("stderr is not three lines: %r" % se)
        return None
    prefix = "headlab: --index '%s': " % expr
    if not lines[0].startswith(prefix):
        errs.append("line 1 %r does not start with %r" % (lines[0], prefix))
    if lines[1] != "  " + expr:
        errs.append("line 2 %r is not the expression indented" % lines[1])
    caret = "  " + "".join("\t" if c == "\t" else " " for c in expr[:col]) + "^"
    if lines[2] != caret:
        errs.append("caret line %r, want %r (byte %d)" % (lines[2], caret, col))
    return lines[0][len(prefix):]


def compare_refused(cfg, result):
    mode, kind, (b, t, d_model, h), k, at, e = cfg
    rc, so, se = result
    errs = []
    a = numpy_walk(kind, b, t, d_model, h)[k]
    if mode == "negative":
        try:
            a[tuple(e.items)]
        except IndexError:
            pass                    # numpy refuses too: fine either way
        if rc != 2 or so:
            return ["negative step: exit %d, stdout %r" % (rc, so)]
        first = next(i for i, it in enumerate(e.items)
                     if isinstance(it, slice) and it.step is not None and it.step < 0)
        msg = check_caret(e.text, se, e.step_pos[first], errs)
        if msg is not None and "negative" not in msg:
            errs.append("message %r does not say negative" % msg)
        return errs
    try:
        a[tuple(e.items)]
        return ["numpy accepts %r on shape %r: the generator is wrong"
                % (e.text, list(a.shape))]
    except IndexError as ex:
        why = str(ex)
    if rc != 2:
        return ["exit %d (numpy: %s), stdout %r" % (rc, why, so[:100])]
    if so:
        errs.append("stdout not empty: %r" % so[:100])
    msg = check_caret(e.text, se, expected_pos(e, a.shape), errs)
    if msg is None:
        return errs
    if "too many indices" in why:
        if "too many indices" not in msg:
            errs.append("numpy: %s; headlab: %s" % (why, msg))
    elif "out of range" not in msg:
        errs.append("numpy: %s; headlab: %s" % (why, msg))
    return errs


def expected_pos(e, shape):
    """Byte the caret must point at: the first index past the last axis, or
    else the first integer out of range, axes matched as numpy does."""
    r = len(shape)
    cons = [i for i, it in enumerate(e.items) if it is not None and it is not Ellipsis]
    if len(cons) > r:
        return e.pos[cons[r]]
    ell = [i for i, it in enumerate(e.items) if it is Ellipsis]
    axis = 0
    for i, it in enumerate(e.items):
        if it is Ellipsis:
            axis += r - len(cons)
        elif it is None:
            continue
        else:
            if isinstance(it, int) and not -shape[axis] <= it < shape[axis]:
                return e.pos[i]
            axis += 1
    raise AssertionError("no error in %r (ellipsis %r)" % (e.text, ell))


def run_cfg(cfg):
    mode, kind, (b, t, d_model, h), k, at, e = cfg
    args = ["--index", e.text, "--at", at, "--json",
            "--shape", "%d,%d,%d" % (b, t, d_model), "--heads", str(h)]
    if kind != "lesson":
        args.append("--wrong=" + kind)
    return run(args)


# --- fixed checks ----------------------------------------------------------------

def fixed_checks():
    """(description, errors) pairs: the lesson's own assertions, defaults,
    the text format, and every error of the command line."""
    out = []

    def labels(args):
        rc, so, se = run(args + ["--json"])
        if rc != 0:
            return "exit %d %r" % (rc, se)
        return json.loads(so)

    for args, want, at in (
            (["--index", "[0, 0, 1]"], [4, 5], "swap"),
            (["--index", "[0, 1, 1]"], [6, 7], "swap"),
            (["--index", "heads[0, 0, 1]"], [4, 5], "swap"),
            (["--index", "0, 0, 1", "--at", "3"], [4, 5], "swap"),
            (["--index", "[0, 0, 1]", "--wrong"], [2, 3], "split"),
            (["--index", "[0, 0, 1]", "--wrong", "--shape", "1,2,4"], [2, 3], "split"),
            (["--index", "[0, 0, 1]", "--shape", "1,2,4"], [4, 5], "swap"),
            (["--index", "[0, 0, 1]", "--heads", "1"], [4, 5, 6, 7], "swap"),
            (["--index", "[0, 1]", "--at", "input"], [4, 5, 6, 7], "input"),
            (["--index", "[0, 1]", "--wrong=merge-no-transpose"], [8, 9, 2, 3], "merge"),
            (["--index", "[0, 0, 1]", "--wrong=swap-batch"], [2, 3], "swap"),
            (["--index", "[0, 1, 0]", "--wrong=d-h"], [1, 3], "swap")):
        got = labels(args)
        errs = []
        if isinstance(got, str):
            errs.append(got)
        else:
            if got.get("labels") != want:
                errs.append("labels %r, want %r" % (got.get("labels"), want))
            if got.get("at") != at:
                errs.append("at %r, want %r" % (got.get("at"), at))
        out.append(("%s -> %r at %s" % (" ".join(args), want, at), errs))

    # a leading name picks its tensor (issue 13, item 14); values from PyTorch
    for args, want, at in (
            (["--index", "x[0, 0, 1]"], 1, "input"),
            (["--index", "x[0,0,1]", "--at", "input"], 1, "input"),
            (["--index", "merge[0, 1]"], [4, 5, 6, 7], "merge"),
            (["--index", "swap-back[0, 0, 1]"], [2, 3], "swap-back"),
            (["--index", "heads[0, 0, 1]", "--wrong"], [2, 3], "split"),
            (["--index", "k[0, 1, 1]", "--preset", "gqa"], [8, 9], "input")):
        got = labels(args)
        errs = []
        if isinstance(got, str):
            errs.append(got)
        else:
            if got.get("labels") != want:
                errs.append("labels %r, want %r" % (got.get("labels"), want))
            if got.get("at") != at:
                errs.append("at %r, want %r" % (got.get("at"), at))
        out.append(("names: %s -> %r at %s" % (" ".join(args), want, at), errs))
    for args, part in (
            (["--index", "y[0]"], "unknown tensor 'y' (this walk has: x, heads, input, split, "
             "swap, swap-back, contiguous, merge)"),
            (["--index", "heads[0]", "--preset", "gqa"], "unknown tensor 'heads' (this walk "
             "has: x, k, input, unsqueeze, expand, repeat)"),
            (["--index", "x[0]", "--at", "swap"], "'x' is step 1 (input) but --at says step 3 "
             "(swap)"),
            (["--index", "heads[0]", "--at", "2"], "'heads' is step 3 (swap) but --at says "
             "step 2 (split)")):
        rc, so, se = run(args)
        errs = [] if rc == 2 and so == "" and part in se and se.count("\n") == 3 \
            and se.split("\n")[2] == "  ^" else ["exit %d %r %r" % (rc, so, se)]
        out.append(("names: %s refused: %s" % (" ".join(args), part), errs))
    rc, so, se = run(["--index", "x[0,0,1]"])
    out.append(("names: x[0,0,1] prints tensor(1) as PyTorch does",
                [] if rc == 0 and so.startswith("tensor(1)\n") else ["%d %r" % (rc, so)]))

    # the text as PyTorch prints it, recorded by tests/gen_index_torch.py
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                           "index-torch.json")) as f:
        recorded = json.load(f)
    for case in recorded["cases"]:
        rc, so, se = run(["--index", case["expr"]] + case["args"])
        got = so[:so.find("\nshape [")] if "\nshape [" in so else so
        errs = [] if rc == 0 and got == case["text"] else [
            "exit %d %r" % (rc, se)] + ["got  " + line for line in got.split("\n")[:6]] + [
            "want " + line for line in case["text"].split("\n")[:6]]
        out.append(("torch %s prints %s on %s the same" % (
            recorded["torch"], case["expr"], " ".join(case["args"])), errs))

    rc, so, se = run(["--index", "[0, 0, 1]"])
    errs = []
    lines = so.split("\n")
    if rc != 0 or lines[0] != "tensor([4, 5])" or not lines[1].startswith("shape [2] (d)"):
        errs.append("exit %d, stdout %r" % (rc, so))
    out.append(("text: tensor([4, 5]) then its shape", errs))
    rc, so, se = run(["--index", "[0, 1, 2, 1]"])
    out.append(("text: a single cell prints as tensor(11)",
                [] if rc == 0 and so.startswith("tensor(11)\n") else ["%d %r" % (rc, so)]))
    rc, so, se = run(["--index", "[0]", "--at", "input"])
    want = "tensor([[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11]])\n"
    out.append(("text: rows nested and right-aligned as PyTorch prints them",
                [] if rc == 0 and so.startswith(want) else ["%d %r" % (rc, so)]))
    rc, so, se = run(["--index", "[..., 5:]"])
    out.append(("text: an empty result prints its size",
                [] if rc == 0 and so.startswith("tensor([], size=(1, 2, 3, 0), dtype=torch.int64)\n")
                else ["%d %r" % (rc, so)]))

    # a 402-million-cell walk: indexing is a view, printing is elided
    rc, so, se = run(["--index", "[-1, -1, ..., -1]", "--shape", "8,4096,12288",
                      "--heads", "96", "--json"])
    errs = []
    try:
        got = json.loads(so)
        if got["shape"] != [4096] or got["labels"][-1] != 402653183 or not got["elided"]:
            errs.append("%r" % so[:300])
        if got["cells"][-1] != [7, 95, 4095, 127] or got["cells"][3] != "...":
            errs.append("cells %r" % got["cells"])
    except (ValueError, KeyError, IndexError) as ex:
        errs.append("exit %d: %s %r" % (rc, ex, se))
    out.append(("402M cells: heads[-1, -1, ..., -1] ends in label 402653183, elided", errs))

    # every error of the expression: exit 2, nothing on stdout, three lines
    for expr, col, part in (
            ("", 0, "empty index"),
            ("[]", 1, "empty index"),
            ("[0, 9]", 4, "index 9 is out of range for axis H of size 2"),
            ("[0, 0, -4]", 7, "index -4 is out of range for axis T of size 3"),
            ("[0, 0, 1, 0, 0]", 13, "too many indices: the tensor has 4 axes [B,H,T,d]"),
            ("..., ...", 5, "single ellipsis"),
            ("[::0]", 3, "slice step cannot be zero"),
            ("[0, :, ::-1]", 9, "negative"),
            ("[0:1:2:3]", 6, "at most three parts"),
            ("[0 1]", 3, "expected ','"),
            ("[0,,1]", 3, "expected an index"),
            ("[1.5]", 1, "not a whole number"),
            ("[0x1]", 1, "malformed number"),
            ("[-]", 2, "must be followed by a number"),
            ("[0", 2, "missing ']'"),
            ("0]", 1, "']' without a '['"),
            ("[0][1]", 3, "chained indexing"),
            ("[foo]", 1, "unknown name 'foo'"),
            ("[none]", 1, "did you mean None?"),
            ("[True]", 1, "advanced indexing"),
            ("[[0, 1]]", 1, "advanced indexing"),
            ("[....]", 1, "malformed ellipsis"),
            ("[0, 99999999999999999999]", 4, "does not fit in 64 bits"),
            ("[0,\t9]", 4, "index 9"),
            ("[None, None, None, None, None]", 25, "too many axes")):
        for json_flag in ([], ["--json"]):
            rc, so, se = run(["--index", expr] + json_flag)
            errs = []
            if rc != 2:
                errs.append("exit %d" % rc)
            if so:
                errs.append("stdout %r" % so)
            msg = check_caret(expr, se, col, errs)
            if msg is not None and part not in msg:
                errs.append("message %r lacks %r" % (msg, part))
            out.append(("--index %r%s: exit 2, %r, caret at %d"
                        % (expr, " --json" if json_flag else "", part, col), errs))

    # errors of the options: exit 2, one line, nothing on stdout
    for args, part in (
            (["--index", "0", "--at", "nope"], "--at 'nope' is not a step of this walk"),
            (["--index", "0", "--at", "7"], "or 1 to 6"),
            (["--index", "0", "--at", "3", "--wrong"], "(steps: input, split; or 1 to 2)"),
            (["--at", "swap"], "--at goes with --index"),
            (["--index", "0", "--print"], "--index and --print do not go together"),
            (["--trace", "4", "--index", "0"], "--index and --trace do not go together"),
            (["--index"], "needs a value"),
            (["--json"], "--json goes with --trace or --print, or with --index or --quiz")):
        rc, so, se = run(args)
        errs = []
        if rc != 2 or so or se.count("\n") != 1 or part not in se or not se.startswith("headlab: "):
            errs.append("exit %d, stdout %r, stderr %r" % (rc, so, se))
        out.append(("%s: exit 2, one line with %r" % (" ".join(args), part), errs))

    # --at by name and by number agree; numbers count from 1
    a = run(["--index", "[0, 1]", "--at", "split", "--json"])
    b = run(["--index", "[0, 1]", "--at", "2", "--json"])
    out.append(("--at split and --at 2 give the same answer",
                [] if a == b and a[0] == 0 else ["%r / %r" % (a, b)]))
    rc, so, se = run(["--index", "-1, -1", "--at", "merge", "--json"])
    out.append(("--index '-1, -1' (a value starting with '-') is the expression",
                [] if rc == 0 and json.loads(so)["labels"] == [8, 9, 10, 11]
                else ["%d %r %r" % (rc, so, se)]))
    return out


def main():
    cfgs = configs()
    fixed = fixed_checks()
    print("# seed %d (set HEADLAB_SEED to change), headlab %s" % (SEED, HEADLAB))
    print("# numpy %s: %d random expressions, %d fixed checks"
          % (np.__version__, len(cfgs), len(fixed)))
    print("1..%d" % (len(cfgs) + len(fixed)))
    n = 0
    failed = 0
    for desc, errs in fixed:
        n += 1
        print("%s %d - %s" % ("not ok" if errs else "ok", n, desc))
        for err in errs[:8]:
            print("# " + err)
        failed += bool(errs)
    with ThreadPoolExecutor(max_workers=max(2, min(16, (os.cpu_count() or 2) * 2))) as pool:
        results = list(pool.map(run_cfg, cfgs))
    for cfg, result in zip(cfgs, results):
        mode, kind, (b, t, d_model, h), k, at, e = cfg
        n += 1
        if mode == "valid":
            errs = compare_valid(cfg, result)
            what = "matches numpy"
        else:
            errs = compare_refused(cfg, result)
            what = "refused with a caret" + (" (negative step)" if mode == "negative" else "")
        desc = "%s %d,%d,%d heads %d step %s: %r %s" % (kind, b, t, d_model, h, at, e.text, what)
        print("%s %d - %s" % ("not ok" if errs else "ok", n, desc.replace("#", "\\#")))
        for err in errs[:8]:
            print("# " + err)
        failed += bool(errs)
    if failed:
        print("# %d of %d failed (seed %d)" % (failed, n, SEED))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
