#!/usr/bin/env python3
"""Print CPython's syntax tree of a Python file in tilegym-lint's canonical JSON.

Usage:
    pyastdump.py FILE
        Print the canonical dump of ast.parse(<bytes of FILE>, FILE) on one line.
        Exit 0 if CPython accepts the file, 1 if it rejects it, 2 on I/O error.

    pyastdump.py --compare DIR GO_OUTPUT [--max-report K] [--jobs N]
                 [--positions] [--min-line-col P]
        GO_OUTPUT holds the output of `tilegym-lint parse --dump-all DIR`: one
        line `<path relative to DIR>\\t<canonical json>` per file. Parse the
        same files (exactly those paths, so both sides see the same file list)
        with CPython in parallel and compare.  Print `DISAGREE <path>: <reason>`
        per disagreement (at most K of them), a summary by differing field and
        finally `N agree, M disagree`.  Exit 0 only when M is 0.

Only the standard library is used.  The Go side (package
github.com/tilegym/tilegym-lint/python/astdump) produces the same bytes.

Canonical form (identical in python/astdump/astdump.go)
-------------------------------------------------------
The output is compact JSON (no spaces: separators "," and ":"), one line.
All strings are written as json.dumps(s, ensure_ascii=True) writes them:
`\\"`, `\\\\`, `\\n`, `\\r`, `\\t`, `\\b`, `\\f`, other ASCII controls and DEL
as `\\u00xx`, every non-ASCII code point as `\\uxxxx` (lowercase hex), astral
code points as a surrogate pair, lone surrogates as `\\udxxx`.  (So a str
holding the two surrogates U+D83D U+DE00 prints like the single U+1F600.)

* A node is an object: "_type" (the CPython class name, e.g. "Expr",
  "comprehension", "arguments", "keyword", "alias", "withitem",
  "match_case") first, then every field in CPython's `_fields` order, then,
  for classes that have position attributes, "lineno", "col_offset",
  "end_lineno", "end_col_offset" in that order.
* The layout is Python 3.12's: on older Pythons, FunctionDef,
  AsyncFunctionDef and ClassDef get a trailing "type_params":[] field.
* Field values: a node -> object; a list -> array; None -> null; str ->
  string; int -> number (positions, AnnAssign.simple, ImportFrom.level,
  FormattedValue.conversion, comprehension.is_async).
* Operator and context singletons are nodes without fields: {"_type":"Load"},
  {"_type":"Add"}, {"_type":"Eq"}, {"_type":"And"}, {"_type":"USub"}...
* Constant.value and MatchSingleton.value are typed, one-key objects:
      None       {"None":null}
      True       {"bool":true}          False  {"bool":false}
      int        {"int":"123"}          (decimal, exact, any size)
      float      {"float":"3ff0000000000000"}   (16 lowercase hex digits of
                                          the IEEE-754 binary64 bits)
      complex    {"complex":"<16 hex digits of imag bits>"} when the real part
                 is +0.0 (always the case for literals), otherwise
                 {"complex":"<real bits>,<imag bits>"}
      str        {"str":"..."}
      bytes      {"bytes":"00ff"}       (lowercase hex, "" when empty)
      Ellipsis   {"Ellipsis":null}
* A rejected file is the single object
      {"error":{"msg":"SyntaxError: ...","lineno":L,"offset":C}}
  (lineno/offset may be null).  For tree agreement only the fact that a
  file is rejected matters; the position is compared separately (see
  "Error positions" below).

Error positions
---------------
CPython's SyntaxError has lineno (1-based) and offset (1-based, counted in
characters of the decoded line).  The Go side writes lineno and offset =
byte column + 1, the byte column being 0-based in the UTF-8 text of the
line.  The comparison maps the Go offset to characters (the number of
characters in the line's first offset-1 bytes, plus 1) and then requires
equality; a file whose CPython offset is missing (null) agrees on column
when the lines agree, and CPython's offset 0 (it gives it for errors at a
DEDENT token on an unindented line) is taken as 1, the first column.  A file that CPython rejects and Go accepts counts as
disagreeing on both.
"""

import ast
import json
import multiprocessing
import os
import struct
import sys
import warnings
from json.encoder import encode_basestring_ascii as _q

_DEFAULT_INT_DIGITS = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None

# Fields that exist in Python 3.12's ast but not in older versions.
_PAD_312 = {"FunctionDef": ("type_params",), "AsyncFunctionDef": ("type_params",),
            "ClassDef": ("type_params",)}
_ATTRS = ("lineno", "col_offset", "end_lineno", "end_col_offset")

_layouts = {}


def _layout(cls):
    """Return (open, [(prefix, field)], attrs, pad) for a node class."""
    lay = _layouts.get(cls)
    if lay is None:
        name = cls.__name__
        fields = list(cls._fields)
        pad = "".join(',"%s":[]' % f for f in _PAD_312.get(name, ()) if f not in fields)
        attrs = [a for a in _ATTRS if a in cls._attributes]
        if attrs and len(attrs) != 4:
            raise ValueError("unexpected attributes for %s: %r" % (name, cls._attributes))
        lay = ('{"_type":%s' % _q(name), [(',%s:' % _q(f), f) for f in fields], bool(attrs), pad)
        _layouts[cls] = lay
    return lay


def const_json(v):
    """Canonical JSON of a Constant / MatchSingleton value."""
    t = type(v)
    if v is None:
        return '{"None":null}'
    if t is bool:
        return '{"bool":true}' if v else '{"bool":false}'
    if t is int:
        return '{"int":"%d"}' % v
    if t is float:
        return '{"float":"%s"}' % struct.pack(">d", v).hex()
    if t is complex:
        re, im = struct.pack(">d", v.real).hex(), struct.pack(">d", v.imag).hex()
        if re == "0000000000000000":
            return '{"complex":"%s"}' % im
        return '{"complex":"%s,%s"}' % (re, im)
    if t is str:
        return '{"str":%s}' % _q(v)
    if t is bytes:
        return '{"bytes":"%s"}' % v.hex()
    if v is Ellipsis:
        return '{"Ellipsis":null}'
    if t is tuple or t is frozenset:  # never produced by ast.parse
        return '{"%s":[%s]}' % (t.__name__, ",".join(const_json(x) for x in v))
    return '{"unknown":%s}' % _q(t.__name__)


def _scalar(v):
    if v is None:
        return "null"
    t = type(v)
    if t is str:
        return _q(v)
    if t is int:
        return str(v)
    if t is bool:  # not produced by ast.parse outside Constant
        return "true" if v else "false"
    return '{"unknown":%s}' % _q(t.__name__)


def dump(tree):
    """Return the canonical JSON (str, ASCII only) of an ast node.

    Iterative, so arbitrarily deep trees (long operator chains) are fine.
    The stack holds either str (emitted verbatim) or AST / list (expanded).
    """
    out = []
    emit = out.append
    stack = [tree]
    push = stack.append
    pop = stack.pop
    AST = ast.AST
    Constant = ast.Constant
    MatchSingleton = getattr(ast, "MatchSingleton", None)
    while stack:
        x = pop()
        t = type(x)
        if t is str:
            emit(x)
        elif t is list:
            if not x:
                emit("[]")
                continue
            emit("[")
            push("]")
            for i in range(len(x) - 1, -1, -1):
                e = x[i]
                if isinstance(e, AST):
                    push(e)
                else:
                    push(_scalar(e))
                if i:
                    push(",")
        elif isinstance(x, AST):
            opn, fields, has_attrs, pad = _layout(t)
            emit(opn)
            tail = []
            for prefix, f in fields:
                tail.append(prefix)
                v = getattr(x, f, None)
                if (t is Constant or t is MatchSingleton) and f == "value":
                    tail.append(const_json(v))
                elif isinstance(v, (AST, list)):
                    tail.append(v)
                else:
                    tail.append(_scalar(v))
            if pad:
                tail.append(pad)
            if has_attrs:
                tail.append(',"lineno":%s,"col_offset":%s,"end_lineno":%s,"end_col_offset":%s}' % (
                    _scalar(getattr(x, "lineno", None)), _scalar(getattr(x, "col_offset", None)),
                    _scalar(getattr(x, "end_lineno", None)), _scalar(getattr(x, "end_col_offset", None))))
            else:
                tail.append("}")
            tail.reverse()
            stack.extend(tail)
        else:
            emit(_scalar(x))
    return "".join(out)


def error_json(msg, lineno=None, offset=None):
    return '{"error":{"msg":%s,"lineno":%s,"offset":%s}}' % (
        _q(msg), _scalar(lineno if type(lineno) is int else None),
        _scalar(offset if type(offset) is int else None))


def dump_source(src, filename):
    """Return (accepted, canonical json) for source bytes."""
    if _DEFAULT_INT_DIGITS is not None:
        sys.set_int_max_str_digits(_DEFAULT_INT_DIGITS)  # parse as plain CPython does
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src, filename)
    except SyntaxError as e:  # includes IndentationError, TabError
        return False, error_json("%s: %s" % (type(e).__name__, e.msg), e.lineno, e.offset)
    except (ValueError, UnicodeError, LookupError, RecursionError, MemoryError, OverflowError) as e:
        return False, error_json("%s: %s" % (type(e).__name__, e))
    if _DEFAULT_INT_DIGITS is not None:
        sys.set_int_max_str_digits(0)  # print huge int literals (e.g. hex) exactly
    return True, dump(tree)


# ---------------------------------------------------------------------------
# Comparison mode

_go_file = None
_root = None


def _init_worker(root, go_output):
    global _go_file, _root
    _root = root
    _go_file = open(go_output, "rb")


def _short(v, limit=60):
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    if len(s) > limit:
        s = s[:limit - 3] + "..."
    return s


def _first_diff(a, b, path):
    """Return (path, field, a_value, b_value) of the first difference, or None."""
    if type(a) is not type(b):
        return path, _field_of(path), a, b
    if isinstance(a, dict):
        if a.get("_type") != b.get("_type"):
            p = path + ("." if path else "") + "_type"
            return p, "_type", a.get("_type"), b.get("_type")
        ka, kb = list(a), list(b)
        if ka != kb:
            return path, "keys", ka, kb
        for k in ka:
            d = _first_diff(a[k], b[k], path + ("." if path else "") + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        for i in range(min(len(a), len(b))):
            d = _first_diff(a[i], b[i], "%s[%d]" % (path, i))
            if d:
                return d
        if len(a) != len(b):
            return path, _field_of(path) + "(len)", "%d items" % len(a), "%d items" % len(b)
        return None
    if a != b:
        return path, _field_of(path), a, b
    return None


def _field_of(path):
    last = path.rsplit(".", 1)[-1]
    while last.endswith("]"):
        last = last[:last.rindex("[")]
    return last or "<root>"


def _one_line(err):
    """One-line description of an error object: message (first line), the
    innermost parser frame for Go panics, and the line number."""
    msg = str(err.get("msg"))
    lines = msg.split("\n")
    text = lines[0]
    if len(lines) > 1:
        frames = [l.strip() for l in lines if "/python/parser/" in l and ".go:" in l]
        if frames:
            text += " at " + frames[0].rsplit("/", 1)[-1].split(" ")[0]
    if len(text) > 200:
        text = text[:197] + "..."
    if err.get("lineno") is not None:
        text += " (line %s)" % err["lineno"]
    return text


def _source_lines(src):
    """The lines of src decoded as CPython's tokenizer would (PEP 263, BOM,
    any line end), or None if it cannot be decoded."""
    import io
    import tokenize
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(src).readline)
        text = src.decode(enc)
    except (SyntaxError, LookupError, UnicodeError):
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _char_offset(lines, lineno, offset):
    """Map a Go offset (byte column + 1 in the UTF-8 line) to CPython's
    convention (character column + 1)."""
    if lines is None or not (1 <= lineno <= len(lines)) or offset < 1:
        return offset
    b = lines[lineno - 1].encode("utf-8", "surrogatepass")
    return len(b[:offset - 1].decode("utf-8", "replace")) + 1


def _position(src, py, go, go_ok):
    """Compare the error positions of a file CPython rejects: returns
    (line agrees, line and column agree, description)."""
    pe = json.loads(py)["error"]
    pl, pc = pe.get("lineno"), pe.get("offset")
    if go_ok:
        return False, False, "cpython %s:%s %s; go accepts" % (pl, pc, pe.get("msg"))
    try:
        ge = json.loads(go)["error"]
    except (ValueError, KeyError, TypeError):
        return False, False, "go output is not an error object"
    gl, gc = ge.get("lineno"), ge.get("offset")
    if isinstance(gl, int) and isinstance(gc, int) and src is not None:
        gc = _char_offset(_source_lines(src), gl, gc)
    line_ok = pl == gl
    if pc == 0:
        pc = 1  # CPython's "before the first character" (a DEDENT at column 0)
    col_ok = line_ok and (pc is None or pc == gc)
    gmsg = str(ge.get("msg")).split("\n")[0]
    return line_ok, col_ok, "cpython %s:%s %s; go %s:%s %s" % (pl, pc, pe.get("msg"), gl, gc, gmsg)


def _check(item):
    """Worker: compare one file. Returns (relpath, tree result, position
    result): the tree result is None or (category, reason); the position
    result is None when CPython accepts the file, else (line agrees, line
    and column agree, description)."""
    rel, res, src, py_ok, py, go = _check_tree(item)
    if py_ok or py is None:
        return rel, res, None
    go_ok = not go.startswith(b'{"error":')
    return rel, res, _position(src, py, go, go_ok)


def _check_tree(item):
    """Compare one file's trees: (relpath, None or (category, reason),
    source bytes, CPython accepts, CPython dump, Go dump)."""
    rel, off, length = item
    _go_file.seek(off)
    go = _go_file.read(length)
    path = os.path.join(_root, rel)
    try:
        with open(path, "rb") as f:
            src = f.read()
    except OSError as e:
        src = None
        py_ok, py = False, error_json("OSError: %s" % e)
    else:
        try:
            py_ok, py = dump_source(src, path)
        except Exception as e:  # a bug in this script: report, don't stop
            return rel, ("dumper-crash", "pyastdump crashed: %s: %s" % (type(e).__name__, e)), src, True, None, go
    # tilegym-lint's stdout never holds "##[" (a CI runner obeys it: see
    # report.LogWriter): inside a JSON string it writes that "[" as \u005b.
    py = py.encode("ascii").replace(b"##[", b"##\\u005b")
    r = _tree_result(rel, py_ok, py, go)
    return rel, r, src, py_ok, py, go


def _tree_result(rel, py_ok, py, go):
    """The tree comparison of one file: None or (category, reason)."""
    if py == go:
        return None
    go_ok = not go.startswith(b'{"error":')
    if not py_ok and not go_ok:
        return None
    if not py_ok:
        return ("go-accepts", "cpython rejects, go accepts: " + _one_line(json.loads(py)["error"]))
    if not go_ok:
        try:
            err = json.loads(go)["error"]
            why = _one_line(err)
            panic = str(err.get("msg", "")).startswith("panic:")
        except (ValueError, AttributeError, TypeError):
            why, panic = go[:100].decode("utf-8", "replace"), False
        return ("go-panics" if panic else "go-rejects", "go rejects, cpython accepts: " + why)
    # Locating the difference recurses over the tree; ast.parse itself must
    # run under CPython's default recursion limit (it bounds AST depth), so
    # the limit is raised only here.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        try:
            gj = json.loads(go)
        except ValueError as e:
            return ("bad-go-json", "go output is not valid JSON: %s" % e)
        d = _first_diff(json.loads(py), gj, "")
    except RecursionError:
        return ("too-deep", "dumps differ (tree too deep to locate the difference)")
    finally:
        sys.setrecursionlimit(limit)
    if d is None:  # same value, different bytes (number or escape spelling)
        i = 0
        while i < len(py) and i < len(go) and py[i] == go[i]:
            i += 1
        return ("bytes", "same JSON value, different bytes at offset %d: cpython %r, go %r" % (
            i, py[max(0, i - 20):i + 20], go[max(0, i - 20):i + 20]))
    p, field, a, b = d
    return (field, "%s: cpython %s, go %s" % (p or "<root>", _short(a), _short(b)))


def _go_lines(go_output):
    """Yield (relpath, offset of json, length of json) for each Go output line."""
    off = 0
    with open(go_output, "rb") as f:
        for line in f:
            n = len(line)
            tab = line.find(b"\t")
            if tab < 0:
                raise SystemExit("pyastdump: malformed line in %s at byte %d" % (go_output, off))
            body = n - tab - 1
            if line.endswith(b"\n"):
                body -= 1
            yield os.fsdecode(line[:tab]), off + tab + 1, body
            off += n


def compare(root, go_output, max_report, jobs, positions=False, min_line_col=None):
    agree = disagree = 0
    by_field = {}
    rejected = line_agree = col_agree = shown_pos = 0
    items = _go_lines(go_output)
    with multiprocessing.Pool(jobs, _init_worker, (root, go_output)) as pool:
        for rel, res, pos in pool.imap(_check, items, chunksize=4):
            if pos is not None:
                rejected += 1
                line_agree += pos[0]
                col_agree += pos[1]
                if positions and not pos[1]:
                    shown_pos += 1
                    if max_report is None or shown_pos <= max_report:
                        print("POSITION %s: %s" % (rel, pos[2]), flush=True)
            if res is None:
                agree += 1
                continue
            disagree += 1
            cat, reason = res
            by_field[cat] = by_field.get(cat, 0) + 1
            if max_report is None or disagree <= max_report:
                print("DISAGREE %s: %s" % (rel, reason), flush=True)
    if max_report is not None and disagree > max_report:
        print("(%d more disagreements not shown)" % (disagree - max_report))
    if max_report is not None and shown_pos > max_report:
        print("(%d more position differences not shown)" % (shown_pos - max_report))
    if by_field:
        cats = sorted(by_field.items(), key=lambda kv: (-kv[1], kv[0]))
        print("disagreements by field: " + " ".join("%s=%d" % kv for kv in cats))

    def pct(n):
        return 100.0 * n / rejected if rejected else 100.0
    print("error positions: %d files CPython rejects, %.1f%% line agree, %.1f%% line+col agree" % (
        rejected, pct(line_agree), pct(col_agree)))
    print("%d agree, %d disagree" % (agree, disagree))
    if disagree:
        return 1
    if min_line_col is not None and pct(col_agree) < min_line_col:
        print("line+col agreement %.1f%% is below %s%%" % (pct(col_agree), min_line_col))
        return 1
    return 0


def main(argv):
    if len(argv) >= 1 and argv[0] == "--compare":
        args = argv[1:]
        max_report = None
        jobs = os.cpu_count() or 1
        positions = False
        min_line_col = None
        pos = []
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--positions":
                positions = True
                i += 1
                continue
            if a in ("--max-report", "--jobs", "--min-line-col") and i + 1 < len(args):
                try:
                    n = float(args[i + 1]) if a == "--min-line-col" else int(args[i + 1])
                except ValueError:
                    print("pyastdump: %s needs a number" % a, file=sys.stderr)
                    return 2
                if a == "--max-report":
                    max_report = n
                elif a == "--jobs":
                    jobs = max(1, n)
                else:
                    min_line_col = n
                i += 2
                continue
            pos.append(a)
            i += 1
        if len(pos) != 2:
            print(__doc__, file=sys.stderr)
            return 2
        return compare(pos[0], pos[1], max_report, jobs, positions, min_line_col)
    if len(argv) != 1 or argv[0].startswith("--"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as f:
            src = f.read()
    except OSError as e:
        print("pyastdump: %s" % e, file=sys.stderr)
        return 2
    ok, out = dump_source(src, argv[0])
    sys.stdout.write(out + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
