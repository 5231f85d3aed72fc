#!/usr/bin/env python3
"""Runs a composite action's steps as a GitHub runner would, for tests.

Usage: run-action.py ACTION_DIR KEY=VALUE...  (the action's inputs)

The runner's GITHUB_* and RUNNER_* variables come from the environment.
Each `run:` step runs with `bash --noprofile --norc -eo pipefail FILE`, its
`env:` evaluated; `${{ inputs.X }}`, `${{ github.action_path }}` and
`${{ steps.ID.outputs.X }}` are the only expressions evaluated, and only in
`env:` and `with:` -- a `run:` holding `${{` is refused (inputs must reach
scripts through env). `uses:` steps are skipped: setup-go is the machine's
Go. Exits with the status of the first failing step.
"""
import os, re, subprocess, sys, tempfile
import yaml

action_dir = sys.argv[1]
with open(os.path.join(action_dir, "action.yml")) as f:
    action = yaml.safe_load(f)
inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
for kv in sys.argv[2:]:
    k, _, v = kv.partition("=")
    if k not in inputs:
        sys.exit(f"run-action: the action has no input {k!r}")
    inputs[k] = v
assert action["runs"]["using"] == "composite"
outputs = {}

def evaluate(text):
    def sub(m):
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr[len("inputs."):]]
        if expr == "github.action_path":
            return os.path.abspath(action_dir)
        m2 = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
        if m2:
            return outputs.get(m2.group(1), {}).get(m2.group(2), "")
        sys.exit(f"run-action: unsupported expression {expr!r}")
    return re.sub(r"\$\{\{(.*?)\}\}", sub, str(text))

env = dict(os.environ, GITHUB_ACTION_PATH=os.path.abspath(action_dir))
for i, step in enumerate(action["runs"]["steps"]):
    name = step.get("name") or step.get("uses") or f"step {i}"
    if "uses" in step:
        print(f"run-action: skipping {step['uses']} (emulated by the machine)", flush=True)
        continue
    if "${{" in step["run"]:
        sys.exit(f"run-action: step {name!r}: an expression in run: (pass it through env:)")
    assert step.get("shell") == "bash", name
    step_env = dict(env)
    for k, v in (step.get("env") or {}).items():
        step_env[k] = evaluate(v)
    out = tempfile.NamedTemporaryFile("w", delete=False, dir=env.get("RUNNER_TEMP"))
    out.close()
    step_env["GITHUB_OUTPUT"] = out.name
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False, dir=env.get("RUNNER_TEMP")) as script:
        script.write(step["run"])
    print(f"run-action: == {name}", flush=True)
    rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script.name],
                         env=step_env, cwd=env.get("GITHUB_WORKSPACE"))
    if "id" in step:
        vals = {}
        for line in open(out.name):
            k, sep, v = line.rstrip("\n").partition("=")
            if sep:
                vals[k] = v
        outputs[step["id"]] = vals
    if rc != 0:
        print(f"run-action: step {name!r} failed with {rc}", flush=True)
        sys.exit(rc)
print("run-action: outputs " + repr(outputs), flush=True)
