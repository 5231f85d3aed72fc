# scripts/lib/tilegym-repo.sh: helpers of the integration tests (sourced).
# A TileGym-shaped git repository made from fixtures/example (four ops with
# pre-existing findings), and a new op added to it, correct or with a slip.

# make_tilegym_repo DIR REMOTE: DIR becomes a clone of the bare repository
# REMOTE, whose main holds fixtures/example; DIR has origin/main and
# origin/HEAD, as a clone of GitHub has.
make_tilegym_repo() {
    local dir=$1 remote=$2 src seed
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/fixtures/example
    seed=$(mktemp -d)
    cp -R "$src/." "$seed/"
    git -C "$seed" init -q -b main
    git -C "$seed" add -A
    git -C "$seed" -c user.name=ci -c user.email=ci@example.com commit -qm "TileGym-shaped base"
    git init -q --bare -b main "$remote"
    git -C "$seed" push -q "$remote" main
    rm -rf "$seed"
    git clone -q "$remote" "$dir"
    git -C "$dir" config user.name ci
    git -C "$dir" config user.email ci@example.com
}

# add_op DIR NAME [slip]: adds op NAME to the repository at DIR, a copy of
# softmax in every step's file: the dispatch stub in ops.py, the cuTile
# module, its import and __all__ entry in cutile/__init__.py, a test and a
# benchmark. With "slip", the function's import in cutile/__init__.py is
# left out (rule TG303). Nothing is staged.
add_op() {
    local dir=$1 name=$2 slip=${3:-}
    local ops=$dir/src/tilegym/ops
    sed "s/softmax/$name/g" "$ops/cutile/softmax.py" >"$ops/cutile/$name.py"
    sed "s/softmax/$name/g" "$dir/tests/ops/test_softmax.py" >"$dir/tests/ops/test_$name.py"
    sed "s/softmax/$name/g" "$dir/tests/benchmark/bench_softmax.py" >"$dir/tests/benchmark/bench_$name.py"
    python3 - "$ops" "$name" "$slip" <<'PY'
import re, sys
ops, name, slip = sys.argv[1:]
src = open(f"{ops}/ops.py").read()
stub = re.search(r'\n@dispatch\(\n    "softmax",\n\)\ndef softmax\(.*?\n    raise NotImplementedError\([^\n]*\n', src, re.S).group(0)
open(f"{ops}/ops.py", "w").write(src + "\n" + stub.replace("softmax", name))
init = open(f"{ops}/cutile/__init__.py").read()
init = init.replace("    from . import softmax\n", f"    from . import softmax\n    from . import {name}\n")
if slip != "slip":
    init = init.replace("    from .softmax import softmax\n", f"    from .softmax import softmax\n    from .{name} import {name}\n")
init = init.replace('        "silu_and_mul",\n', f'        "silu_and_mul",\n        "{name}",\n')
open(f"{ops}/cutile/__init__.py", "w").write(init)
PY
}

# snapshot_self DIR: DIR becomes a git repository whose one commit on main
# is this working tree (tracked files and untracked ones git does not
# ignore): what a user gets at a commit of tilegym-lint. Prints the commit.
snapshot_self() {
    local dir=$1 top
    top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    mkdir -p "$dir"
    (cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$dir"
    git -C "$dir" init -q -b main
    git -C "$dir" add -A
    git -C "$dir" -c user.name=ci -c user.email=ci@example.com commit -qm snapshot
    git -C "$dir" rev-parse HEAD
}
