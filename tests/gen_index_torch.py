#!/usr/bin/python3
"""Record how PyTorch prints index results, for test_index.py (not run by
the tests: it needs torch).  Writes tests/data/index-torch.json: a list of
{args, expr, text} where args are headlab's --shape/--heads/--at and text is
str() of the same index on the same tensor.

    /usr/bin/python3 tests/gen_index_torch.py > tests/data/index-torch.json
"""
import json

import torch

CASES = [
    # (B, T, D, H, at, expr): at is "input" or "swap" (the heads)
    (1, 1, 18, 1, "input", "[0]"),          # rank 2, 18 labels of width 2: one line
    (1, 1, 19, 1, "input", "[0]"),
    (1, 1, 40, 1, "input", "[0]"),
    (1, 1, 40, 1, "input", "[0, 0]"),       # rank 1
    (1, 2, 40, 1, "input", "[0]"),
    (1, 1, 18, 1, "input", "[None, None]"),  # rank 5
    (1, 1, 18, 1, "input", "[None]"),        # rank 4
    (1, 1, 18, 1, "input", "[...]"),         # rank 3
    (1, 1, 150, 1, "input", "[0, :, 80:]"),  # width 3
    (1, 1, 150, 1, "input", "[None, 0, :, 80:]"),
    (1, 2, 500, 1, "input", "[0]"),          # 1000 labels, width 3, not elided
    (1, 1, 1200, 1, "input", "[0, 0, 100:]"),  # width 4, elided
    (1, 40, 40, 1, "input", "[0]"),          # rank 2, elided
    (2, 40, 40, 1, "input", "[...]"),        # rank 3, elided
    (2, 3, 8, 2, "swap", "[:, :, 1]"),
    (2, 3, 8, 2, "swap", "[..., None, 1]"),
    (1, 3, 4, 2, "swap", "[..., 5:]"),       # empty, rank 4
    (1, 3, 4, 2, "swap", "[0, 0, 3:]"),      # empty, rank 2
    (1, 3, 4, 2, "swap", "[0, 0, 0, 5:]"),   # empty, rank 1
    (1, 2, 4, 2, "input", "[:, :, 0:0, None]"),
    (1, 3, 4, 2, "input", "[()]"),
    (1, 3, 4, 2, "input", "[(0, 1)]"),
    (1, 3, 4, 2, "swap", "[(0, 1)]"),
    (1, 3, 4, 2, "input", "[0, :99999999999999999999]"),
    (1, 3, 4, 2, "input", "[0, 1, 99999999999999999999:]"),
    # the elided run on the last axis is " ..." whatever the labels' width
    (2, 9, 3072, 48, "swap", "[-1 , ::1 , :7]"),   # width 5
    (1, 1, 2000, 1, "input", "[0, 0, :1500:1]"),   # width 4
    (1, 1, 20000, 1, "input", "[0, 0, 10000:]"),   # width 5, one line
    (1, 4, 300, 1, "input", "[0]"),                # width 4, rank 2
    (1, 60, 20, 1, "input", "[0, :, :2]"),         # width 4, elided rows only
    # torch 1.13 fails on a start below -2^63 and on a step beyond 2^63
    # (errors inside as_strided); test_index.py holds those against numpy
]


def tensor_at(b, t, d_model, h, at):
    x = torch.arange(b * t * d_model).reshape(b, t, d_model)
    if at == "input":
        return x
    return x.reshape(b, t, h, d_model // h).transpose(1, 2)


def main():
    out = []
    for b, t, d_model, h, at, expr in CASES:
        x = tensor_at(b, t, d_model, h, at)
        res = eval("x" + expr, {"x": x})
        out.append({"args": ["--shape", "%d,%d,%d" % (b, t, d_model), "--heads", str(h),
                             "--at", at], "expr": expr, "text": str(res)})
    print(json.dumps({"torch": torch.__version__, "cases": out}, indent=1))


main()
