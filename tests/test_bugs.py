#!/usr/bin/env python3
"""Bugs and storage against numpy (TAP).

For the lesson's walk and every bug kind (no-transpose, swap-batch, d-h,
merge-no-transpose), on the lesson's x[1,3,4] and 20 random shapes:

  * `--trace L --wrong=KIND --json`: every step's shape, strides (axes of
    size > 1: PyTorch and numpy may differ on unit axes), contiguity,
    whether it copied (not np.shares_memory with the step before), the
    label's index and its offset in the storage the view reads;
  * `--print --json`: the storage ribbon (the labels of the storage each
    step reads, in slot order), and what `.contiguous()` on that step gives
    (copied or not, strides, storage) as the lab's `c` key shows it;
  * for bugs, the cells the bug lab marks equal the cells where numpy finds
    the bug's result differs from the right one at the same index.
"""
import os
import sys

from numpy_or_skip import np

import json
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor

HEADLAB = os.environ["HEADLAB"]
KINDS = ["lesson", "no-transpose", "swap-batch", "d-h", "merge-no-transpose"]


def steps(kind, B, T, D, H):
    d = D // H
    x = np.arange(B * T * D).reshape(B, T, D)
    r = x.reshape(B, T, H, d)
    s = r.transpose(0, 2, 1, 3)
    if kind == "lesson":
        sb = s.transpose(0, 2, 1, 3)
        c = np.ascontiguousarray(sb)
        return [x, r, s, sb, c, c.reshape(B, T, D)]
    if kind == "no-transpose":
        return [x, x.reshape(B, H, T, d)]
    if kind == "swap-batch":
        return [x, r, r.transpose(1, 0, 2, 3)]
    if kind == "d-h":
        g = x.reshape(B, T, d, H)
        return [x, g, g.transpose(0, 3, 1, 2)]
    c = np.ascontiguousarray(s)
    return [x, r, s, c, c.reshape(B, T, D)]


def root(a):
    while a.base is not None:
        a = a.base
    return a


def offset_of(a, index):
    base = root(a)
    start = (a.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // a.itemsize
    return start + sum(int(i) * s // a.itemsize for i, s in zip(index, a.strides))


def big_strides(a):
    return [s // a.itemsize if n > 1 else None for n, s in zip(a.shape, a.strides)]


def hl(*args):
    p = subprocess.run([HEADLAB, *args], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"headlab {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def check(case):
    kind, B, T, D, H, label = case
    shape = ["--shape", f"{B},{T},{D}", "--heads", str(H)]
    wrong = [] if kind == "lesson" else [f"--wrong={kind}"]
    ref = steps(kind, B, T, D, H)
    problems = []
    trace = hl("--trace", str(label), "--json", *shape, *wrong)
    printed = hl("--print", "--json", *shape, *wrong)
    if len(trace["steps"]) != len(ref):
        return [f"{len(trace['steps'])} steps, numpy {len(ref)}"]
    prev = None
    for k, (st, ps, a) in enumerate(zip(trace["steps"], printed["steps"], ref)):
        where = f"step {k + 1} {st['name']}"
        if st["shape"] != list(a.shape):
            problems.append(f"{where}: shape {st['shape']} vs {list(a.shape)}")
            continue
        want = big_strides(a)
        got = [s if n > 1 else None for n, s in zip(st["shape"], st["strides"])]
        if got != want:
            problems.append(f"{where}: strides {st['strides']} vs {want}")
        if st["contiguous"] != bool(a.flags.c_contiguous):
            problems.append(f"{where}: contiguous {st['contiguous']}")
        copied = prev is not None and not np.shares_memory(a, prev)
        if st["copied"] != copied:
            problems.append(f"{where}: copied {st['copied']} vs {copied}")
        index = [int(i) for i in np.argwhere(a == label)[0]]
        if st["index"] != index or st["offset"] != offset_of(a, index):
            problems.append(f"{where}: index {st['index']} @{st['offset']} vs {index} @{offset_of(a, index)}")
        storage = [int(v) for v in root(a).ravel()]
        if ps["storage_labels"] != storage:
            problems.append(f"{where}: storage {ps['storage_labels']} vs {storage}")
        c = np.ascontiguousarray(a)
        after = ps["after_contiguous"]
        if after["copied"] != (not np.shares_memory(c, a)):
            problems.append(f"{where}: contiguous() copied {after['copied']}")
        if [s if n > 1 else None for n, s in zip(a.shape, after["strides"])] != big_strides(c):
            problems.append(f"{where}: contiguous() strides {after['strides']}")
        if after["storage_labels"] != [int(v) for v in root(c).ravel()]:
            problems.append(f"{where}: contiguous() storage {after['storage_labels']}")
        prev = a
    if kind != "lesson":
        right = steps("lesson", B, T, D, H)
        result = ref[-1]
        target = right[5] if kind == "merge-no-transpose" else right[2]
        bug = printed["bug"]
        if result.shape == target.shape:
            want = sorted([int(i) for i in ix] for ix in np.argwhere(result != target))
            if not bug["same_shape"] or sorted(bug["marked"]) != want:
                problems.append(f"marked {bug['marked']} vs numpy {want}")
        elif bug["same_shape"] or bug["marked"]:
            problems.append(f"shapes differ, yet marked {bug['marked']}")
    return problems


def main():
    rng = random.Random(int(os.environ.get("HEADLAB_SEED", "1202")))
    shapes = [(1, 3, 4, 2)]
    while len(shapes) < 21:
        H = rng.randint(1, 4)
        shapes.append((rng.randint(1, 3), rng.randint(1, 5), H * rng.randint(1, 4), H))
    cases = []
    for B, T, D, H in shapes:
        for kind in KINDS:
            cases.append((kind, B, T, D, H, rng.randrange(B * T * D)))
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(check, cases))
    print(f"1..{len(cases)}")
    for n, (case, problems) in enumerate(zip(cases, results), 1):
        kind, B, T, D, H, label = case
        desc = f"{kind} x[{B},{T},{D}] H={H} label {label}: steps, storage, contiguous() and marks match numpy"
        print(f"{'not ok' if problems else 'ok'} {n} - {desc}")
        for p in problems:
            print(f"#   {p}")


main()
