#!/usr/bin/env python3
"""Runs tilegym-lint in change mode on each corpus branch and scores it against labels.tsv.

usage: score.py [--labels FILE] [--select RULES] TGL REPO [OUT.jsonl]
--labels: another labels file (labels-heldout.tsv for the held-out corpus); --select: passed on
(TG scores the workflow alone, leaving out the skill families).
A finding matches a label when change, op, requirement and file agree (file "*" matches any);
several findings of one key (e.g. one TG404 per method) count once. Step 6's TG601 is not counted."""
import collections
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def step_of(req):
    return "X" if req.startswith(("X", "W")) else req[1]


def main():
    args = sys.argv[1:]
    labels_file, select = os.path.join(here, "labels.tsv"), []
    while args and args[0].startswith("--"):
        if args[0] == "--labels":
            labels_file = args[1]
        elif args[0] == "--select":
            select = ["--select", args[1]]
        else:
            sys.exit(f"unknown option {args[0]}")
        args = args[2:]
    tgl, repo = args[0], args[1]
    out = open(args[2], "w") if len(args) > 2 else None
    labels = collections.defaultdict(list)
    changes = []
    for line in open(labels_file):
        if line.startswith("#") or not line.strip():
            continue
        ch, op, req, rule, f, note = line.rstrip("\n").split("\t")
        if ch not in changes:
            changes.append(ch)
        if req != "clean":
            labels[ch].append((op, req, f, rule, note))
    tp = collections.Counter(); fp = collections.Counter(); fn = collections.Counter()
    tpr = collections.Counter(); fpr = collections.Counter(); fnr = collections.Counter()
    for ch in changes:
        subprocess.run(["git", "-C", repo, "checkout", "-q", ch], check=True)
        base = subprocess.run(["git", "-C", repo, "rev-parse", ch + "~1"], check=True, capture_output=True, text=True).stdout.strip()
        p = subprocess.run([tgl, "--diff", base, "--format", "json", *select, "."], cwd=repo, capture_output=True, text=True)
        if p.returncode not in (0, 1):
            sys.exit(f"{ch}: exit {p.returncode}: {p.stderr}")
        diags = [d for d in json.loads(p.stdout)["diagnostics"] if not d.get("pre_existing") and d["rule"] != "TG601"]
        keys = collections.OrderedDict()
        for d in diags:
            keys.setdefault((d.get("op", ""), d["requirement"], d["file"]), []).append(d)
            if out:
                out.write(json.dumps({"change": ch, **{k: d[k] for k in ("rule", "requirement", "op", "file", "line", "message") if k in d}}) + "\n")
        matched = set()
        for k, ds in keys.items():
            hit = next((l for l in labels[ch] if l[0] == k[0] and l[1] == k[1] and l[2] in ("*", k[2])), None)
            st = step_of(k[1])
            if hit:
                matched.add(hit); tp[st] += 1; tpr[k[1]] += 1
                print(f"{ch} TP  {ds[0]['rule']} {k[0]} {k[2]}:{ds[0]['line']}  {ds[0]['message'][:160]}")
            else:
                fp[st] += 1; fpr[k[1]] += 1
                print(f"{ch} FP  {ds[0]['rule']} {k[0]} {k[2]}:{ds[0]['line']}  {ds[0]['message'][:200]}")
        for l in labels[ch]:
            if l not in matched:
                fn[step_of(l[1])] += 1; fnr[l[1]] += 1
                print(f"{ch} FN  {l[3]} {l[0]} {l[2]}  ({l[4]})")
    subprocess.run(["git", "-C", repo, "checkout", "-q", "master"], check=True)

    def row(name, t, f, m):
        prec = f"{100 * t / (t + f):.1f} %" if t + f else "-"
        rec = f"{100 * t / (t + m):.1f} %" if t + m else "-"
        return f"| {name} | {t + f} | {f} | {prec} | {t + m} | {m} | {rec} |"
    print("\n| step | reported keys | false | precision | labelled | missed | recall |\n|---|---|---|---|---|---|---|")
    for st in sorted(set(tp) | set(fp) | set(fn)):
        print(row(st, tp[st], fp[st], fn[st]))
    print(row("all", sum(tp.values()), sum(fp.values()), sum(fn.values())))
    print("\n| requirement | reported keys | false | precision | labelled | missed | recall |\n|---|---|---|---|---|---|---|")
    def rk(r):
        return (r[0], [int(x) if x.isdigit() else 0 for x in r[1:].split(".")])
    for r in sorted(set(tpr) | set(fpr) | set(fnr), key=rk):
        print(row(r, tpr[r], fpr[r], fnr[r]))


main()
