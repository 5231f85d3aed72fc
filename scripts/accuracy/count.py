#!/usr/bin/env python3
"""Count precision and recall from docs/accuracy-verdicts.tsv, per step and per requirement.

Rows with verdict TRUE or FALSE are reported findings; rows with verdict MISS are deviations found
by hand that the linter did not report.  precision = TRUE / (TRUE + FALSE);
recall = TRUE / (TRUE + MISS).  A FALSE row whose class starts with "fixed" is a false positive the
linter no longer reports (the class says how it was fixed): counted apart, not in precision.
The workflow's rules (TG) are counted per step, the other skills' families (K, A, M, TR, J, R),
which have no steps, per family.

usage: count.py [VERDICTS_TSV]
"""
import collections
import os
import re
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
    fixed = collections.Counter()
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rule, req, step, verdict = f[1], f[2], int(f[3]), f[6]
        if verdict == "FALSE" and f[7].startswith("fixed"):
            fixed[rule] += 1
            continue
        family = re.match(r"[A-Z]+", rule).group() if rule != "-" else "TG"
        if family != "TG":
            step = "family " + family
        by_step[step][verdict] += 1
        by_req[req][verdict] += 1
        if verdict != "MISS":
            rules[req].add(rule)
    print("| step | findings | FP | precision | true | misses | recall |")
    print("|---|---|---|---|---|---|---|")
    total = collections.Counter()
    for s in sorted(by_step, key=lambda s: (isinstance(s, str), s)):
        c = by_step[s]
        total.update(c)
        n = c["TRUE"] + c["FALSE"]
        name = STEP_NAMES[s] if isinstance(s, int) else s
        print(f"| {name} | {n} | {c['FALSE']} | {pct(c['TRUE'], n)} | {c['TRUE']} | {c['MISS']} | {pct(c['TRUE'], c['TRUE'] + c['MISS'])} |")
    n = total["TRUE"] + total["FALSE"]
    print(f"| all | {n} | {total['FALSE']} | **{pct(total['TRUE'], n)}** | {total['TRUE']} | {total['MISS']} | **{pct(total['TRUE'], total['TRUE'] + total['MISS'])}** |")
    print()
    print("| req | rule | findings | FP | misses | precision | recall |")
    print("|---|---|---|---|---|---|---|")
    def order(req):
        head, _, tail = req.partition(".")
        m = re.fullmatch(r"([A-Z]+)(\d+)", head)
        if m and not tail:  # a family's requirement: K1, A10
            return (2, m.group(1), int(m.group(2)))
        return (head[0] != "X", head, int(tail) if tail.isdigit() else 0)
    for req in sorted(by_req, key=order):
        c = by_req[req]
        rule = ", ".join(sorted(rules[req])) or "-"
        n = c["TRUE"] + c["FALSE"]
        print(f"| {req} | {rule} | {n} | {c['FALSE']} | {c['MISS']} | {pct(c['TRUE'], n)} | {pct(c['TRUE'], c['TRUE'] + c['MISS'])} |")

    if fixed:
        print()
        print(f"False positives found and fixed (not counted above): {sum(fixed.values())} "
              f"({', '.join(f'{r} {n}' for r, n in sorted(fixed.items()))})")


if __name__ == "__main__":
    main()
