#!/usr/bin/env bash
# action/run.sh: the Run step of action.yml. Inputs come from the
# environment (INPUT_PATH, INPUT_ARGS, INPUT_BASE, INPUT_SARIF_FILE) and the
# runner's GITHUB_* variables; nothing is substituted into the script.
#
# What is compared:
#   pull_request(_target): the base branch GITHUB_BASE_REF; the merge base
#     of origin/BASE and HEAD is found by fetching the base branch and
#     deepening the shallow clone until they meet (fetch-depth: 0 skips this);
#   push: the pushed range, from the event's "before" commit (a new branch:
#     the repository's default branch);
#   anything else, or INPUT_BASE: INPUT_BASE if set, else the whole tree.
set -euo pipefail

bin=${TILEGYM_LINT:-$RUNNER_TEMP/tilegym-lint}
cd "${GITHUB_WORKSPACE:-.}"
target=${INPUT_PATH:-.}
read -r -a extra <<<"${INPUT_ARGS:-}"

# A SARIF file the checked-out commit holds at that path (a pull request
# can commit one, or a symbolic link) must not be uploaded as if the run
# had written it when the run stops early, here or in tilegym-lint:
# remove it first.
if [ -n "${INPUT_SARIF_FILE:-}" ]; then
    rm -f -- "$INPUT_SARIF_FILE"
fi

event_field() { # event_field KEY...: a field of the event's JSON, or ""
    # (run in $(...): its error goes to stderr, which the runner reads too)
    [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -f "$GITHUB_EVENT_PATH" ] || return 0
    if ! command -v python3 >/dev/null; then
        echo "::error title=tilegym-lint::python3 is not on PATH; the action needs it to read the $GITHUB_EVENT_NAME event (set up Python, or pass the base input)" >&2
        exit 2
    fi
    python3 - "$GITHUB_EVENT_PATH" "$@" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    v = v.get(k) if isinstance(v, dict) else None
print(v if isinstance(v, str) else "")
PY
}

# not_option NAME VALUE: stops the job when a revision or branch name from an
# input or the event could be read by git as an option.
not_option() {
    case "$2" in
    -*)
        echo "::error title=tilegym-lint::$1 \"$2\" starts with '-'; give a branch or commit"
        exit 2
        ;;
    esac
}

shallow() { [ "$(git -C "$target" rev-parse --is-shallow-repository)" = true ]; }

# fetch ARGS...: git fetch from origin; a failure (no such branch or
# commit, no remote) stops the job with an annotation saying what.
fetch() {
    if ! git -C "$target" fetch --no-tags --quiet "$@" 2>"$RUNNER_TEMP/tilegym-lint-fetch.err"; then
        echo "::error title=tilegym-lint::cannot fetch ${*: -1} from origin: $(tr '\n' ' ' <"$RUNNER_TEMP/tilegym-lint-fetch.err")"
        exit 2
    fi
}

# reach REV REFSPEC: fetches REFSPEC if REV is missing, then deepens the
# clone until REV and HEAD have a merge base.
reach() {
    local rev=$1 refspec=$2 depth
    if ! git -C "$target" rev-parse --verify --quiet "$rev^{commit}" >/dev/null; then
        if shallow; then
            fetch --depth=1 origin "$refspec"
        else
            fetch origin "$refspec"
        fi
    fi
    for depth in 1 8 64 512; do
        git -C "$target" merge-base "$rev" HEAD >/dev/null 2>&1 && return 0
        shallow || break
        echo "tilegym-lint: deepening the clone by $depth to find the merge base of $rev and HEAD"
        fetch --deepen="$depth" origin "$refspec"
    done
    if ! git -C "$target" merge-base "$rev" HEAD >/dev/null 2>&1 && shallow; then
        fetch --unshallow origin "$refspec"
    fi
    git -C "$target" merge-base "$rev" HEAD >/dev/null 2>&1 || {
        echo "::error title=tilegym-lint::no merge base of $rev and HEAD"
        exit 2
    }
}

branch_base() { # branch_base BRANCH: origin/BRANCH, fetched and reachable
    reach "refs/remotes/origin/$1" "+refs/heads/$1:refs/remotes/origin/$1"
    echo "origin/$1" >"$RUNNER_TEMP/tilegym-lint-base"
}

not_option base "${INPUT_BASE:-}"
not_option GITHUB_BASE_REF "${GITHUB_BASE_REF:-}"
base=""
rm -f "$RUNNER_TEMP/tilegym-lint-base"
if [ -n "${INPUT_BASE:-}" ]; then
    if git -C "$target" ls-remote --exit-code --heads origin "$INPUT_BASE" >/dev/null 2>&1; then
        branch_base "$INPUT_BASE"
        base=$(cat "$RUNNER_TEMP/tilegym-lint-base")
    else
        reach "$INPUT_BASE" "$INPUT_BASE"
        base=$INPUT_BASE
    fi
else
    case "${GITHUB_EVENT_NAME:-}" in
    pull_request | pull_request_target)
        branch_base "$GITHUB_BASE_REF"
        base=$(cat "$RUNNER_TEMP/tilegym-lint-base")
        ;;
    push)
        before=$(event_field before)
        not_option before "$before"
        if [ -n "$before" ] && [ "$before" != 0000000000000000000000000000000000000000 ]; then
            reach "$before" "$before"
            base=$before
        else
            default=$(event_field repository default_branch)
            not_option default_branch "$default"
            if [ -n "$default" ] && [ "refs/heads/$default" != "${GITHUB_REF:-}" ]; then
                branch_base "$default"
                base=$(cat "$RUNNER_TEMP/tilegym-lint-base")
            fi
        fi
        ;;
    esac
fi

args=(--annotate)
if [ -n "$base" ]; then
    args+=(--diff "$base")
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    args+=(--summary "$GITHUB_STEP_SUMMARY")
fi
if [ -n "${INPUT_SARIF_FILE:-}" ]; then
    args+=(--sarif "$INPUT_SARIF_FILE")
    [ -n "${GITHUB_OUTPUT:-}" ] && echo "sarif-file=$INPUT_SARIF_FILE" >>"$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "compared=${base:-the whole tree}" >>"$GITHUB_OUTPUT"
fi
if [ -n "$base" ]; then
    echo "tilegym-lint: comparing with $base"
else
    # The whole tree: the configured baseline (if any) says which findings
    # are old; without one, a failing check says how to write it.
    echo "tilegym-lint: comparing with nothing (the whole tree, with the configured baseline if any)"
fi
status=0
"$bin" "${args[@]}" "${extra[@]}" -- "$target" || status=$?
exit "$status"
