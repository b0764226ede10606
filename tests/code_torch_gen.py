#!/usr/bin/env python3
"""Record PyTorch's own results for random --code chains into
tests/code_torch.json (run by hand where torch is installed; the tests only
read the file):  /usr/bin/python3 tests/code_torch_gen.py

Per chain: sizes (B, T, D, H), the start (x, heads or context), the calls,
and per call PyTorch's shape, stride(), storage_offset(), is_contiguous(),
whether it copied (a new storage), and the values when there are at most
200; or the error PyTorch raised at the last call."""
import json
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import code_chains  # noqa: E402


def record(sizes, start, calls):
    B, T, D, H = sizes
    x = torch.arange(B * T * D).reshape(B, T, D)
    heads = x.reshape(B, T, H, D // H).transpose(1, 2)
    t = {"x": x, "heads": heads, "context": heads.contiguous()}[start]
    steps = []
    for c in calls:
        try:
            n = eval("t" + c, {"t": t})
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            return steps, str(e).split("\n")[0][:160]
        step = {"shape": list(n.shape), "strides": list(n.stride()),
                "storage_offset": n.storage_offset(), "contiguous": n.is_contiguous(),
                "copied": n.storage().data_ptr() != t.storage().data_ptr()}
        if n.numel() <= 200:
            step["labels"] = n.flatten().tolist()
        steps.append(step)
        t = n
    return steps, None


def main():
    rng = random.Random(1613)
    cases = []
    while len(cases) < 200:
        sizes, start, calls = code_chains.chain(rng)
        steps, error = record(sizes, start, calls)
        c = {"torch": torch.__version__, "sizes": list(sizes), "start": start, "calls": calls,
             "steps": steps}
        if error:
            c["error"] = error
            c["calls"] = calls[:len(steps) + 1]
        cases.append(c)
    # the steps headlab's tests cannot get from numpy: views of expanded and
    # narrowed tensors, unsqueeze's strides, view failures
    fixed = [
        ((2, 3, 4, 2), "x", [".transpose(1, 2)", ".view(2, 12)"]),
        ((2, 3, 4, 2), "context", [".transpose(1, 2)", ".view(2, 3, 4)"]),
        ((2, 3, 4, 2), "heads", [".transpose(1, 2)", ".view(2, 3, 4)"]),
        ((2, 3, 4, 2), "x", [".unsqueeze(1)", ".expand(2, 5, 3, 4)", ".reshape(10, 12)"]),
        ((2, 3, 4, 2), "x", [".unsqueeze(0)", ".unsqueeze(-1)", ".unsqueeze(2)"]),
        ((2, 3, 4, 2), "x", [".narrow(2, 1, 2)", ".view(6, 2)"]),
        ((2, 3, 4, 2), "x", [".narrow(2, 1, 2)", ".reshape(12)"]),
        ((2, 3, 4, 2), "x", [".narrow(1, 1, 2)", ".view(2, 8)"]),
        ((2, 3, 4, 2), "x", [".narrow(1, 1, 2)", ".contiguous()"]),
        ((2, 3, 4, 2), "x", [".select(1, 2)", ".contiguous()"]),
        ((2, 3, 4, 2), "x", [".expand(2, 3, 5)"]),
        ((1, 3, 4, 2), "x", [".expand(2, 3, 4)", ".transpose(0, 2)"]),
        ((1, 3, 4, 2), "x", [".view(3, 4)", ".mT", ".view(12)"]),
        ((2, 3, 6, 3), "x", [".unflatten(2, (3, -1))", ".movedim(2, 1)", ".flatten(2)"]),
        ((2, 3, 6, 3), "x", [".split(2, dim=-1)[1]", ".view(6, 2)"]),
        ((2, 3, 6, 3), "x", [".chunk(4, dim=2)[2]"]),
        ((2, 3, 6, 3), "x", [".chunk(4, dim=2)[3]"]),
        ((2, 3, 6, 3), "x", [".unbind(1)[-1]", ".squeeze(0)"]),
        ((2, 3, 6, 3), "x", [".transpose(3, 0)"]),
        ((2, 3, 6, 3), "x", [".permute(0, 1)"]),
        ((2, 3, 6, 3), "x", [".view(2, 3, 4)"]),
        ((2, 3, 6, 3), "x", [".view(-1, -1, 6)"]),
    ]
    for sizes, start, calls in fixed:
        steps, error = record(sizes, start, calls)
        c = {"torch": torch.__version__, "sizes": list(sizes), "start": start, "calls": calls,
             "steps": steps}
        if error:
            c["error"] = error
        cases.append(c)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "code_torch.json")
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases) + "\n]\n")
    print("wrote %d chains to %s" % (len(cases), path))


if __name__ == "__main__":
    main()
