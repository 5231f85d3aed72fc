#!/usr/bin/env python3
"""Count precision and recall from docs/accuracy-verdicts.tsv, per step and per requirement.

Rows with verdict TRUE or FALSE are reported findings; rows with verdict MISS are deviations found
by hand that the linter did not report.  precision = TRUE / (TRUE + FALSE);
recall = TRUE / (TRUE + MISS).

usage: count.py [VERDICTS_TSV]
"""
import collections
import os
import sys

STEP_NAMES = {0: "0 / X (TG00x)", 1: "1", 2: "2", 3: "3", 4: "4", 5: "5"}


def pct(num, den):
    return f"{100.0 * num / den:.1f} %" if den else "n/a"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "accuracy-verdicts.tsv")
    by_step = collections.defaultdict(collections.Counter)
    by_req = collections.defaultdict(collections.Counter)
    rules = collections.defaultdict(set)
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rule, req, step, verdict = f[1], f[2], int(f[3]), f[6]
        by_step[step][verdict] += 1
        by_req[req][verdict] += 1
        if verdict != "MISS":
            rules[req].add(rule)
    print("| step | findings | FP | precision | true | misses | recall |")
    print("|---|---|---|---|---|---|---|")
    total = collections.Counter()
    for s in sorted(by_step):
        c = by_step[s]
        total.update(c)
        n = c["TRUE"] + c["FALSE"]
        print(f"| {STEP_NAMES[s]} | {n} | {c['FALSE']} | {pct(c['TRUE'], n)} | {c['TRUE']} | {c['MISS']} | {pct(c['TRUE'], c['TRUE'] + c['MISS'])} |")
    n = total["TRUE"] + total["FALSE"]
    print(f"| all | {n} | {total['FALSE']} | **{pct(total['TRUE'], n)}** | {total['TRUE']} | {total['MISS']} | **{pct(total['TRUE'], total['TRUE'] + total['MISS'])}** |")
    print()
    print("| req | rule | findings | FP | misses | precision | recall |")
    print("|---|---|---|---|---|---|---|")
    def order(req):
        head, _, tail = req.partition(".")
        return (head[0] != "X", head, int(tail) if tail.isdigit() else 0)
    for req in sorted(by_req, key=order):
        c = by_req[req]
        rule = ", ".join(sorted(rules[req])) or "-"
        n = c["TRUE"] + c["FALSE"]
        print(f"| {req} | {rule} | {n} | {c['FALSE']} | {c['MISS']} | {pct(c['TRUE'], n)} | {pct(c['TRUE'], c['TRUE'] + c['MISS'])} |")


if __name__ == "__main__":
    main()
