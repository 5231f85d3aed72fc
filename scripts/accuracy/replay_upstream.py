#!/usr/bin/env python3
"""Replay NVIDIA/TileGym's first-parent history through tilegym-lint's change mode.

For every first-parent commit C of TIP that has a parent, check out C in REPO (a clone whose
work tree this script overwrites) and run `TGL --diff C~1 --format json .`.  One JSON line per
commit goes to OUT: {repo, commit, rc, new: [diagnostics with pre_existing false], n_pre}.
--select RULES passes `--select RULES` to the linter (`--select K,A,M,TR,J,R`: the skill families).

usage: replay_upstream.py [--select RULES] TGL REPO OUT [TIP]
       (TIP default 75a14307776188ff0baf451cd9b9fc9fa3a87233)
"""
import json
import subprocess
import sys

TIP_DEFAULT = "75a14307776188ff0baf451cd9b9fc9fa3a87233"


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True, check=True).stdout


def lint(tgl, repo, base, extra):
    p = subprocess.run([tgl, "--diff", base, "--format", "json", *extra, "."], cwd=repo,
                       capture_output=True, text=True)
    rec = {"rc": p.returncode}
    try:
        diags = json.loads(p.stdout)["diagnostics"]
        rec["new"] = [d for d in diags if not d.get("pre_existing")]
        rec["n_pre"] = len(diags) - len(rec["new"])
    except (ValueError, KeyError) as e:
        rec["error"] = (p.stderr or str(e))[:2000]
    return rec


def main():
    args = sys.argv[1:]
    extra = []
    if args[:1] == ["--select"]:
        extra = args[:2]
        args = args[2:]
    tgl, repo, out = args[:3]
    tip = args[3] if len(args) > 3 else TIP_DEFAULT
    with open(out, "w") as f:
        for c in git(repo, "rev-list", "--first-parent", "--reverse", tip).split():
            if len(git(repo, "rev-list", "--parents", "-n1", c).split()) < 2:
                continue  # the root commit has nothing to diff against
            git(repo, "checkout", "-q", "-f", c)
            rec = {"repo": "NVIDIA/TileGym", "commit": c}
            rec.update(lint(tgl, repo, c + "~1", extra))
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
