#!/usr/bin/env python3
"""Differential test: headlab's walks against numpy (TAP).

For a few hundred random configurations (fixed seed, printed; override with
HEADLAB_SEED) headlab's --trace --json and --print --json, for the lesson's
walk and for --wrong, are held against the same steps done by numpy:

  lesson: x, x.reshape(B,T,H,d), .transpose(0,2,1,3)  [torch transpose(1,2)],
          .transpose(0,2,1,3), np.ascontiguousarray(...), .reshape(B,T,D)
  wrong:  x, x.reshape(B,H,T,d)

Every step is compared on shape, strides, contiguity, the index and the
storage offset of the traced label, whether the step copied, and the labels
of the whole grid.  One TAP line per configuration; a mismatch is described
in '#' diagnostics.  Only the standard library and numpy.
"""
import os
import sys

from numpy_or_skip import np

import json
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

HEADLAB = os.environ.get("HEADLAB") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "headlab")
SEED = int(os.environ.get("HEADLAB_SEED", "20240612"))
NRANDOM = 200

LESSON_NAMES = ["input", "split", "swap", "swap-back", "contiguous", "merge"]
LESSON_OPS = ["input", "reshape", "transpose", "transpose", "contiguous", "reshape"]
WRONG_NAMES = ["input", "split"]
WRONG_OPS = ["input", "reshape"]


def configs():
    """Edge cases first, then NRANDOM random (B, T, D, H, label)."""
    rng = random.Random(SEED)
    fixed = [
        (1, 1, 1, 1),    # everything 1
        (1, 1, 4, 4),    # H = D: heads of width 1
        (1, 3, 4, 4),
        (1, 3, 4, 2),    # the lesson
        (1, 2, 4, 2),    # the lesson's T=2 example
        (1, 3, 4, 1),    # one head
        (1, 1, 8, 1),    # T = 1, one head
        (1, 1, 8, 8),    # T = 1, H = D
        (4, 1, 6, 3),    # T = 1
        (1, 9, 1, 1),    # D = 1
        (4, 9, 8, 8),
        (4, 9, 64, 8),   # larger
        (2, 9, 128, 8),  # larger: elided grids
        (3, 7, 120, 5),
    ]
    out = []
    for i, (b, t, d_model, h) in enumerate(fixed):
        n = b * t * d_model
        label = [0, n - 1][i % 2] if i < 4 else rng.randrange(n)
        out.append((b, t, d_model, h, label))
    for i in range(NRANDOM):
        b = rng.randint(1, 4)
        t = rng.randint(1, 9)
        h = rng.randint(1, 8)
        # mostly small head widths, a few larger shapes
        d = rng.randint(1, 8) if rng.random() < 0.85 else rng.randint(9, 16)
        d_model = h * d
        n = b * t * d_model
        if i % 10 == 0:
            label = n - 1
        elif i % 10 == 1:
            label = 0
        else:
            label = rng.randrange(n)
        out.append((b, t, d_model, h, label))
    return out


def run(args):
    p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def headlab_all(cfg):
    b, t, d_model, h, label = cfg
    common = ["--shape", "%d,%d,%d" % (b, t, d_model), "--heads", str(h), "--json"]
    return {
        "trace": run(["--trace", str(label)] + common),
        "trace-wrong": run(["--trace", str(label), "--wrong"] + common),
        "print": run(["--print"] + common),
        "print-wrong": run(["--print", "--wrong"] + common),
    }


def root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def elements(a):
    """Strides in elements, as torch.Tensor.stride() gives them."""
    return [s // a.itemsize for s in a.strides]


def view_offset(a):
    """Storage offset (in elements) of a's [0,...,0] in the buffer it views."""
    base = root(a)
    return (a.__array_interface__["data"][0]
            - base.__array_interface__["data"][0]) // a.itemsize


def numpy_walk(b, t, d_model, h, wrong):
    d = d_model // h
    x = np.arange(b * t * d_model, dtype=np.int64).reshape(b, t, d_model)
    if wrong:
        return [x, x.reshape(b, h, t, d)]
    split = x.reshape(b, t, h, d)
    heads = split.transpose(0, 2, 1, 3)        # torch: .transpose(1, 2)
    back = heads.transpose(0, 2, 1, 3)         # torch: heads.transpose(1, 2)
    cont = np.ascontiguousarray(back)          # torch: .contiguous()
    merged = cont.reshape(b, t, d_model)
    return [x, split, heads, back, cont, merged]


def expected_codes(b, t, d_model, h, wrong):
    """Code of each step with the real numbers, spaces removed; headlab may
    put a receiver (such as 'heads') before a step that starts with '.'."""
    d = d_model // h
    if wrong:
        return ["x", "x.reshape(%d,%d,%d,%d)" % (b, h, t, d)]
    return ["x", "x.reshape(%d,%d,%d,%d)" % (b, t, h, d), ".transpose(1,2)",
            ".transpose(1,2)", ".contiguous()", ".reshape(%d,%d,%d)" % (b, t, d_model)]


def check_elided(labels, arr, where, errs):
    """Labels of an elided grid: every list along an axis of size n is either
    the whole axis (n entries) or its head and tail around one "..."; every
    number shown must be numpy's value at that index."""
    def walk(node, prefix):
        axis = len(prefix)
        n = arr.shape[axis]
        if not isinstance(node, list):
            errs.append("%s: expected a list at index %s, got %r" % (where, prefix, node))
            return
        gaps = [i for i, v in enumerate(node) if v == "..."]
        if not gaps:
            if len(node) != n:
                errs.append("%s: axis %d at %s has %d entries and no '...', size is %d"
                            % (where, axis, prefix, len(node), n))
                return
            idx = list(range(n))
        elif len(gaps) == 1:
            g = gaps[0]
            head, tail = g, len(node) - g - 1
            if head + tail >= n:
                errs.append("%s: axis %d at %s: '...' hides nothing (%d+%d of %d)"
                            % (where, axis, prefix, head, tail, n))
                return
            idx = list(range(head)) + [None] + list(range(n - tail, n))
        else:
            errs.append("%s: axis %d at %s has %d '...' marks" % (where, axis, prefix, len(gaps)))
            return
        for v, i in zip(node, idx):
            if i is None:
                continue
            if axis + 1 < arr.ndim:
                walk(v, prefix + [i])
            else:
                want = int(arr[tuple(prefix + [i])])
                if v != want:
                    errs.append("%s: label at %s is %r, numpy has %d"
                                % (where, prefix + [i], v, want))
        return

    walk(labels, [])


def compare(cfg, out):
    b, t, d_model, h, label = cfg
    d = d_model // h
    errs = []

    for wrong in (False, True):
        tag = "wrong" if wrong else "lesson"
        arrs = numpy_walk(b, t, d_model, h, wrong)
        names = WRONG_NAMES if wrong else LESSON_NAMES
        ops = WRONG_OPS if wrong else LESSON_OPS
        codes = expected_codes(b, t, d_model, h, wrong)

        # --- --trace LABEL --json ---------------------------------------
        rc, so, se = out["trace-wrong" if wrong else "trace"]
        try:
            if rc != 0:
                raise ValueError("exit %d, stderr %r" % (rc, se.strip()))
            tr = json.loads(so)
        except ValueError as e:
            errs.append("%s trace: %s" % (tag, e))
            tr = None
        if tr is not None:
            # the keys PRODUCT.md promises; head_width and origin are extra
            # keys, checked only when present
            top = {"value": label, "shape": [b, t, d_model], "heads": h}
            for k, v in top.items():
                if tr.get(k) != v:
                    errs.append("%s trace: %s is %r, want %r" % (tag, k, tr.get(k), v))
            if "head_width" in tr and tr["head_width"] != d:
                errs.append("%s trace: head_width is %r, want %d" % (tag, tr["head_width"], d))
            ib, it, ic = (int(v) for v in np.argwhere(arrs[0] == label)[0])
            origin = {"batch": ib, "position": it, "head": ic // d}
            if "origin" in tr and tr["origin"] != origin:
                errs.append("%s trace: origin is %r, want %r" % (tag, tr.get("origin"), origin))
            steps = tr.get("steps", [])
            if [s.get("name") for s in steps] != names:
                errs.append("%s trace: step names %r, want %r"
                            % (tag, [s.get("name") for s in steps], names))
            if [s.get("op") for s in steps] != ops:
                errs.append("%s trace: step ops %r, want %r"
                            % (tag, [s.get("op") for s in steps], ops))
            for k, (s, a) in enumerate(zip(steps, arrs)):
                w = "%s step %d (%s)" % (tag, k + 1, s.get("name"))
                code = str(s.get("code", "")).replace(" ", "")
                if not (code == codes[k] or (codes[k].startswith(".") and code.endswith(codes[k]))):
                    errs.append("%s: code %r, want %r" % (w, s.get("code"), codes[k]))
                if s.get("shape") != list(a.shape):
                    errs.append("%s: shape %r, numpy %r" % (w, s.get("shape"), list(a.shape)))
                    continue
                # PyTorch and numpy may legitimately pick different strides
                # for axes of size 1 (neither ever steps along them), so
                # strides are compared only on axes of size > 1.
                ns = elements(a)
                hs = s.get("strides") or []
                if len(hs) != a.ndim or any(hs[i] != ns[i] for i in range(a.ndim) if a.shape[i] > 1):
                    errs.append("%s: strides %r, numpy %r (size-1 axes ignored)" % (w, hs, ns))
                if s.get("contiguous") != bool(a.flags.c_contiguous):
                    errs.append("%s: contiguous %r, numpy %r"
                                % (w, s.get("contiguous"), bool(a.flags.c_contiguous)))
                copied = k > 0 and not np.shares_memory(a, arrs[k - 1])
                if s.get("copied") != copied:
                    errs.append("%s: copied %r, numpy %r" % (w, s.get("copied"), copied))
                if s.get("storage_offset") != view_offset(a):
                    errs.append("%s: storage_offset %r, numpy %r"
                                % (w, s.get("storage_offset"), view_offset(a)))
                where = np.argwhere(a == label)
                if len(where) != 1:
                    errs.append("%s: numpy finds label %d %d times" % (w, label, len(where)))
                    continue
                idx = [int(v) for v in where[0]]
                if s.get("index") != idx:
                    errs.append("%s: index of %d %r, numpy %r" % (w, label, s.get("index"), idx))
                off = view_offset(a) + sum(i * st for i, st in zip(idx, ns))
                if s.get("offset") != off:
                    errs.append("%s: offset of %d %r, numpy %r" % (w, label, s.get("offset"), off))

        # --- --print --json ---------------------------------------------
        rc, so, se = out["print-wrong" if wrong else "print"]
        try:
            if rc != 0:
                raise ValueError("exit %d, stderr %r" % (rc, se.strip()))
            pr = json.loads(so)
        except ValueError as e:
            errs.append("%s print: %s" % (tag, e))
            continue
        steps = pr.get("steps", [])
        if [s.get("name") for s in steps] != names:
            errs.append("%s print: step names %r, want %r"
                        % (tag, [s.get("name") for s in steps], names))
        for k, (s, a) in enumerate(zip(steps, arrs)):
            w = "%s print step %d (%s)" % (tag, k + 1, s.get("name"))
            if s.get("shape") != list(a.shape):
                errs.append("%s: shape %r, numpy %r" % (w, s.get("shape"), list(a.shape)))
                continue
            more = []
            if s.get("elided") is False:
                if s.get("labels") != a.tolist():
                    errs.append("%s: labels differ from numpy's tolist() (not elided)" % w)
                    check_elided(s.get("labels"), a, w, more)
            elif s.get("elided") is True:
                if "..." not in json.dumps(s.get("labels")):
                    errs.append("%s: elided is true but no '...' in labels" % w)
                check_elided(s.get("labels"), a, w, more)
            else:
                errs.append("%s: elided is %r, want true or false" % (w, s.get("elided")))
            # the first two details of a grid are enough to see what went wrong
            errs.extend(more[:2])
            if len(more) > 2:
                errs.append("%s: ... %d more label differences" % (w, len(more) - 2))
    return errs


def main():
    cfgs = configs()
    print("# seed %d (set HEADLAB_SEED to change), headlab %s" % (SEED, HEADLAB))
    print("# numpy %s, %d configurations" % (np.__version__, len(cfgs)))
    print("1..%d" % len(cfgs))
    with ThreadPoolExecutor(max_workers=max(2, min(16, (os.cpu_count() or 2) * 2))) as pool:
        outs = list(pool.map(headlab_all, cfgs))
    failed = 0
    for n, (cfg, out) in enumerate(zip(cfgs, outs), 1):
        b, t, d_model, h, label = cfg
        desc = "shape %d,%d,%d heads %d label %d: trace and print, lesson and wrong, match numpy" % (
            b, t, d_model, h, label)
        errs = compare(cfg, out)
        if errs:
            failed += 1
            print("not ok %d - %s" % (n, desc))
            for e in errs[:12]:
                print("# " + e)
            if len(errs) > 12:
                print("# ... and %d more" % (len(errs) - 12))
        else:
            print("ok %d - %s" % (n, desc))
    if failed:
        print("# %d of %d configurations differ from numpy (seed %d)" % (failed, len(cfgs), SEED))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
