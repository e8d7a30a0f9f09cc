#!/usr/bin/env bash
# The reduced presets of both experiments (docs/experiments.md) end to end: certificates
# verify, every relu/square model carries an exact verdict (softmax: a ball-arithmetic one),
# none below its family's certified bound is decided solving (experiment_table.py exits 1 on
# such a contradiction), and the tables and plots are written.
# Usage: run_experiment_presets.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"
cd "$src" || exit 2
for experiment in witness-suite ood-scaling; do
  count=$((count + 1))
  KR="$kr" bash "scripts/experiments/$experiment.sh" ci "$work/$experiment" >"$work/log" 2>&1 ||
    { fail "$experiment ci preset"; cat "$work/log"; continue; }
  for f in table.md; do
    count=$((count + 1))
    [ -s "$work/$experiment/$f" ] || fail "$experiment: no $f"
  done
  count=$((count + 1))
  ls "$work/$experiment"/*.png >/dev/null 2>&1 || fail "$experiment: no plot"
  count=$((count + 1))
  /usr/bin/python3 - "$work/$experiment" <<'PY' || fail "$experiment: exact verdicts"
import json, pathlib, sys
reports = list(pathlib.Path(sys.argv[1]).rglob("report.json"))
assert reports
for path in reports:
    for m in json.load(open(path))["models"]:
        for split in ("train", "test"):
            if split not in m:
                continue
            verdict = m[split]["exact"]["verdict"]
            if m["feature"] == "softmax":
                assert m[split]["exact"]["method"].startswith("ball arithmetic"), (path, m["name"])
                assert verdict != "float-only", (path, m["name"])
            else:
                assert verdict in ("fails", "solves (verified exactly)"), (path, m["name"])
PY
done
# The table script refuses a report that claims an exact model below the certified bound.
count=$((count + 1))
cat >"$work/forged.json" <<'JSON'
{"format": "kernelrank-train-report", "version": 1, "models": [
 {"name": "square-r2-s1", "feature": "square", "r": 2, "seed": 1,
  "train": {"instances": 1, "float_failing": 0, "float_error_rate": 0.0, "disagreements": 0,
            "exact": {"verdict": "solves (verified exactly)", "failing": "0", "undefined": "0",
                      "error_rate": "0", "max_error": "1/4", "first_failure": null}}}]}
JSON
if /usr/bin/python3 scripts/experiments/experiment_table.py witness "$work/forged.json" --bound 14 \
    >/dev/null 2>"$work/err"; then
  fail "a forged exact model below the bound was accepted"
fi
grep -q contradiction "$work/err" || fail "forged report: no contradiction message"
finish
