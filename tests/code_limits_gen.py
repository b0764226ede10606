#!/usr/bin/env python3
"""Record what PyTorch does with the --code lines of tests/test_code_limits.py
into tests/data/code-limits-torch.json (run by hand where torch is
installed; the tests only read the file):
    /usr/bin/python3 tests/code_limits_gen.py > tests/data/code-limits-torch.json

Per line, at the lesson's sizes (B=1, T=3, D=4, H=2, d=2): the result's
shape, stride() and storage_offset(), or the first line of the error
Python or PyTorch raised (a SyntaxError included)."""
import json
import sys
import warnings

import torch

MIN = "(-9223372036854775807-1)"
MAX = "9223372036854775807"
LINES = [
    # integers at the edges of 64 bits
    "x.view(%s // -1)" % MIN, "x.view(%s %% -1)" % MIN, "x.view(-%s)" % MIN,
    "x.chunk(%s, 2)[0]" % MAX, "x.narrow(2, 1, %s)" % MAX, "x.narrow(2, -1, %s)" % MAX,
    "x.split((%s, 2), 2)[0]" % MAX, "x.split(2, 2)[4611686018427387904]",
    "x.split(2, 2)[%s]" % MIN, "x.chunk(2, 2)[%s]" % MAX, "x.split(%s, 2)[0]" % MAX,
    "x.split(4611686018427387904, 1)[-1]", "x.chunk(4611686018427387904, 2)[3]",
    "x.split(3, 2)[1]", "x.chunk(3, 2)[-1]", "x.narrow(2, -4, 4)",
    # expand's strides
    "x.expand(1, -1, -1, -1)", "x.expand(1, 1, -1, -1, -1)", "x.expand(2, 1, -1, -1, -1)",
    "x.expand(1, 2, -1, -1, -1)", "x.transpose(1, 2).expand(1, 1, 4, 3)", "x.expand(3, 3, 4)",
    # what PyTorch accepts and refuses
    "x.H", "x.view(B, T, H, d).H", "x[0].H", "x[0].mH", "x.mH",
    "torch.view(x, 12)", "torch.contiguous(x)", "torch.expand(x, 2, 3, 4)", "torch.mT(x)",
    "torch.T(x)", "torch.size(x)", "torch.dim(x)",
    "torch.reshape(x, 3, 4)", "torch.permute(x, 0, 2, 1)", "torch.reshape(x, 12)",
    "torch.reshape(x, *(3, 4))", "torch.reshape(x, (3, 4))", "torch.reshape(x, shape=[3, 4])",
    "torch.permute(x, (0, 2, 1))", "torch.permute(x, dims=(2, 1, 0))",
    "x.view(shape=(12,))", "x.view(size=(12,))", "x.squeeze((0, 1))", "x.movedim((0,), 1)",
    "x.movedim((0,), (1,))", "x.view(012)", "x.view(0_12)", "x.view(00 + 12)",
    "x.view(0_0 + 12)", "torch.split(x, 2, 2)[1]",
    "torch.split(x, split_size_or_sections=(1, 3), dim=-1)[1]", "torch.chunk(x, 2, dim=2)[1]",
    "torch.unbind(x, 1)[2]", "x.split(split_size=2, dim=2)[1]",
    "x.split(split_size_or_sections=2, dim=2)[0]", "torch.split(x, split_size=2, dim=2)[0]",
    "x[:None]", "x[None:]", "x[:, None:None:None, 1:]", "x[0, ::None]", "x[None, :None]",
    "x.v\u00efew(12)",
]


def main():
    warnings.simplefilter("ignore")
    x = torch.arange(12).reshape(1, 3, 4)
    env = {"torch": torch, "x": x, "B": 1, "T": 3, "D": 4, "H": 2, "d": 2}
    out = []
    for line in LINES:
        case = {"code": line}
        try:
            t = eval(compile(line, "<code>", "eval"), dict(env))
            case.update(shape=list(t.shape), strides=list(t.stride()),
                        storage_offset=t.storage_offset())
        except Exception as e:      # noqa: BLE001 - any refusal is the answer
            case["error"] = ("%s: %s" % (type(e).__name__, e)).split("\n")[0][:200]
        out.append(case)
    json.dump({"torch": torch.__version__, "sizes": [1, 3, 4, 2], "cases": out}, sys.stdout,
              indent=1, ensure_ascii=False)
    print()


main()
