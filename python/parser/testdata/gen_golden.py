#!/usr/bin/env python3
"""Regenerate cpython311.jsonl: the expected CPython 3.11 result of every
snippet, in the canonical dump of tools/pyastdump.py.

usage: gen_golden.py [DIR...]   (adds every *.py of the DIRs as new snippets)

Each line: {"name": ..., "src": ..., "ok": bool, "dump": <canonical json or null>}.
Snippets that only Python 3.12 accepts are marked in py312 and skipped here
(they are unit-tested separately in Go).
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "tools"))
import pyastdump  # noqa: E402

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"
path = os.path.join(here, "cpython311.jsonl")
items = []
if os.path.exists(path):
    with open(path) as f:
        items = [json.loads(l) for l in f if l.strip()]
seen = {it["src"] for it in items}
for d in sys.argv[1:]:
    for name in sorted(os.listdir(d)):
        if name.endswith(".py"):
            with open(os.path.join(d, name), "rb") as f:
                src = f.read().decode("utf-8")
            if src not in seen:
                seen.add(src)
                items.append({"name": "s%04d" % len(items), "src": src})
with open(path, "w") as f:
    for it in items:
        ok, dump = pyastdump.dump_source(it["src"].encode("utf-8"), "<snippet>")
        it["ok"] = ok
        it["dump"] = dump if ok else None
        f.write(json.dumps({"name": it["name"], "src": it["src"], "ok": ok, "dump": it["dump"]}, ensure_ascii=True) + "\n")
print(len(items), "snippets")
