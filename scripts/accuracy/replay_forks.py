#!/usr/bin/env python3
"""Replay fork branches of TileGym through tilegym-lint's change mode, PR view.

For every row of fork-refs.tsv (fork, branch, tip, merge base with upstream main at the time of
the study), check out the tip in FORKS/<owner>+<name> (a clone of the fork that holds the tip;
its work tree is overwritten) and run `TGL --diff <merge base> --format json .`.
One JSON line per branch goes to OUT: {repo, branch, commit, base, rc, new: [...], n_pre}.

usage: replay_forks.py TGL FORKS OUT [REFS_TSV]
"""
import json
import os
import subprocess
import sys

from replay_upstream import git, lint


def main():
    tgl, forks, out = sys.argv[1:4]
    refs = sys.argv[4] if len(sys.argv) > 4 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "fork-refs.tsv")
    with open(out, "w") as f:
        for line in open(refs):
            if line.startswith("#") or not line.strip():
                continue
            fork, branch, tip, base = line.rstrip("\n").split("\t")
            repo = os.path.join(forks, fork.replace("/", "+"))
            git(repo, "checkout", "-q", "-f", tip)
            rec = {"repo": fork, "branch": branch, "commit": tip, "base": base}
            rec.update(lint(tgl, repo, base))
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
