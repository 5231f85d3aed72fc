#!/usr/bin/env python3
"""Builds the issue-20 corpus: one branch per change on a git repository of upstream TileGym.

usage: corpus.py [--heldout] REPO   (REPO: a git work tree whose HEAD is upstream TileGym; branches
c01..c14, or with --heldout the held-out h01..h10, are (re)created from HEAD, each one commit)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c01_c04, c03_c06, c07_c10, c09_c10, c11_c14, heldout  # noqa: E401

CHANGES = [
    ("c01", c01_c04.c01_gelu_tanh), ("c02", c01_c04.c02_log_softmax),
    ("c03", c03_c06.c03_leaky_relu), ("c04", c03_c06.c04_hardswish),
    ("c05", c03_c06.c05_clamp_scale), ("c06", c03_c06.c06_swish_gate),
    ("c07", c07_c10.c07_softmax_dim), ("c08", c07_c10.c08_dropout_eval),
    ("c09", c09_c10.c09_fused_add_relu), ("c10", c09_c10.c10_row_max),
    ("c11", c11_c14.c11_vector_norm), ("c12", c11_c14.c12_softplus),
    ("c13", c11_c14.c13_silu_and_mul_approx), ("c14", c11_c14.c14_cumsum_rows),
]


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def main():
    changes = CHANGES
    if sys.argv[1] == "--heldout":
        changes = heldout.CHANGES
        del sys.argv[1]
    repo = sys.argv[1]
    base = git(repo, "rev-parse", "HEAD").strip()
    for name, fn in changes:
        git(repo, "checkout", "-q", "-B", name, base)
        fn(repo)
        git(repo, "add", "-A")
        changed = git(repo, "diff", "--cached", "--name-only").split()
        for f in changed:
            subprocess.run([sys.executable, "-m", "py_compile", os.path.join(repo, f)], check=True)
        git(repo, "-c", "user.name=corpus", "-c", "user.email=corpus@example.invalid", "commit", "-qm", f"{name}: {fn.__doc__.strip().splitlines()[0]}")
        print(name, base[:8], " ".join(changed))
    git(repo, "checkout", "-q", base)


main()
