#!/usr/bin/env python3
"""Flatten replay runs into one row per new finding: ref, rule, requirement, step, op, file:line, message.

With --check VERDICTS_TSV, compare instead: print the findings that have no verdict row, the
false positives marked fixed (FALSE, class "fixed ...") that are reported again, and the verdict
rows (other than MISS and fixed) that the runs no longer produce; exit 1 if there is any.

usage: new_findings.py RUN.jsonl... [--check VERDICTS_TSV]
"""
import json
import sys


def rows(paths):
    for path in paths:
        for line in open(path):
            run = json.loads(line)
            if "error" in run:
                sys.exit(f"{path}: {run['commit']}: the linter failed: {run['error'][:200]}")
            ref = f"{run['repo']}@{run['commit'][:8]}"
            for d in run["new"]:
                # A finding of another skill's family has no op: its subject (kernel, function,
                # file) takes the op column.
                op = d.get("op") or (d.get("subject") if d.get("family", "TG") != "TG" else "") or ""
                yield [ref, d["rule"], d["requirement"], str(d["step"]), op,
                       f"{d['file']}:{d['line']}", d["message"]]


def main():
    args = sys.argv[1:]
    check = None
    if "--check" in args:
        i = args.index("--check")
        check = args[i + 1]
        del args[i:i + 2]
    found = list(rows(args))
    if check is None:
        for r in found:
            print("\t".join(r))
        return
    judged, fixed = set(), set()
    for line in open(check):
        if line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        key = (f[0], f[1], f[4], f[5])
        if f[6] == "FALSE" and f[7].startswith("fixed"):
            fixed.add(key)  # a false positive since fixed: expected gone
        elif f[6] != "MISS":
            judged.add(key)
    seen = set((r[0], r[1], r[4], r[5]) for r in found)
    unjudged = [r for r in found if (r[0], r[1], r[4], r[5]) not in judged | fixed]
    back = [r for r in found if (r[0], r[1], r[4], r[5]) in fixed]
    gone = sorted(judged - seen)
    for r in unjudged:
        print("no verdict:", "\t".join(r[:2] + r[4:6]))
    for r in back:
        print("fixed false positive reported again:", "\t".join(r[:2] + r[4:6]))
    for k in gone:
        print("not reported any more:", "\t".join(k))
    print(f"{len(found)} new findings, {len(unjudged)} without a verdict, {len(back)} fixed false positives "
          f"back, {len(gone)} verdict rows not reproduced")
    sys.exit(1 if unjudged or back or gone else 0)


if __name__ == "__main__":
    main()
