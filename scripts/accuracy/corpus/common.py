"""Helpers that edit an upstream TileGym checkout in place (our own code)."""
import os
import re

HDR = "# SPDX-FileCopyrightText: Copyright (c) 2025 NVIDIA CORPORATION & AFFILIATES. All rights reserved.\n#\n# SPDX-License-Identifier: MIT\n\n"


def write(root, path, text):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def read(root, path):
    with open(os.path.join(root, path)) as f:
        return f.read()


def append(root, path, text):
    write(root, path, read(root, path).rstrip("\n") + "\n\n\n" + text)


def replace(root, path, old, new, count=1):
    s = read(root, path)
    if old not in s:
        raise SystemExit(f"{path}: {old!r} not found")
    write(root, path, s.replace(old, new, count))


INIT = "src/tilegym/ops/cutile/__init__.py"


def init_module(root, line, where="sorted"):
    """Adds `line` (e.g. "from . import x") to the block's module imports."""
    s = read(root, INIT).split("\n")
    idx = [i for i, l in enumerate(s) if l.startswith("    from . import ")]
    if where == "sorted":
        pos = next((i for i in idx if s[i] > "    " + line), idx[-1] + 1)
    else:  # appended after the last one
        pos = idx[-1] + 1
    s.insert(pos, "    " + line)
    write(root, INIT, "\n".join(s))


def init_func(root, line):
    s = read(root, INIT).split("\n")
    idx = [i for i, l in enumerate(s) if l.startswith("    from .") and not l.startswith("    from . import")]
    pos = next((i for i in idx if s[i] > "    " + line), idx[-1] + 1)
    s.insert(pos, "    " + line)
    write(root, INIT, "\n".join(s))


def init_all(root, name, after='        "swiglu",'):
    replace(root, INIT, after + "\n", after + "\n" + f'        "{name}",\n')
