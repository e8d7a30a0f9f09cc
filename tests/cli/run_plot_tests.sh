#!/usr/bin/env bash
# `kernelrank plot`: every kind writes a non-empty SVG (with an <svg> element) and a PNG (with
# the PNG signature) through gnuplot; bad input and bad options exit 2 naming the problem;
# an unwritable --out leaves no file behind; a missing gnuplot is reported as such (exit 3).
# Usage: run_plot_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
report="$src/tests/data/plots/sample-report.json"      # m=16-like scale: relu, square, softmax
report_b="$src/tests/data/plots/sample-report-b.json"  # m=24-like scale: relu, softmax
table="$src/docs/bound-table.md"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

# images NAME PREFIX: PREFIX.svg has an <svg> element, PREFIX.png starts with the PNG signature.
images() {
  count=$((count + 1))
  if [ ! -s "$2.svg" ] || ! grep -q "<svg" "$2.svg"; then fail "$1: $2.svg missing or not SVG"; fi
  count=$((count + 1))
  local signature
  signature="$(head -c 8 "$2.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')"
  [ "$signature" = "89504e470d0a1a0a" ] || fail "$1: $2.png missing or without the PNG signature"
}
# nothing_in NAME DIR: DIR holds no file at all (no image, no temporary file).
nothing_in() {
  count=$((count + 1))
  local left
  left="$(ls -A "$2" 2>/dev/null)"
  [ -z "$left" ] || fail "$1: files left behind in $2: $left"
}

if ! command -v gnuplot >/dev/null; then
  echo "gnuplot is not installed (apt-get install gnuplot-nox): the plot tests need it"
  echo "0 passed, 1 failed"
  exit 1
fi

# --- every kind writes both images ----------------------------------------------------------
run 0 "error-vs-r" -- "$kr" plot error-vs-r --report "$report" --bound 8 --out "$work/err"
images "error-vs-r" "$work/err"
contains "error-vs-r lists the files" "$out" "$work/err.png"
run 0 "error-vs-r test split with a title" -- "$kr" plot error-vs-r --report "$report_b" \
  --split test --bound 21 --title "m=24 test_split 'quoted'" --out "$work/err-b"
images "error-vs-r test split" "$work/err-b"
contains "user title is drawn literally" "$(cat "$work/err-b.svg" 2>/dev/null)" "m=24 test_split"
run 0 "accuracy-vs-r, two scales" -- "$kr" plot accuracy-vs-r \
  --report "$report" --label "m=16" --bound 8 \
  --report "$report_b" --label "m=24" --bound 21 --out "$work/acc"
images "accuracy-vs-r" "$work/acc"
run 0 "accuracy-vs-r, one scale, no bound" -- "$kr" plot accuracy-vs-r \
  --report "$report_b" --label "dodecads" --out "$work/acc1"
images "accuracy-vs-r one scale" "$work/acc1"
run 0 "accuracy-vs-r, --bound none for one scale" -- "$kr" plot accuracy-vs-r \
  --report "$report" --label a --bound none --report "$report_b" --label b --bound 21 \
  --out "$work/acc-none"
images "accuracy --bound none" "$work/acc-none"
run 0 "bound-vs-m with exact minimal ranks" -- "$kr" plot bound-vs-m --table "$table" \
  --min-rank "$src/docs/data/min-rank.txt" --out "$work/bound"
images "bound-vs-m" "$work/bound"
run 0 "bound-vs-m, table only, --json, --out with .png" -- "$kr" --json plot bound-vs-m \
  --table "$table" --out "$work/bound-only.png"
images "bound-vs-m table only" "$work/bound-only"
echo "$out" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert d["kind"] == "bound-vs-m" and len(d["files"]) == 2' 2>/dev/null \
  || fail "plot --json output is not as expected"

run 0 "accuracy-vs-r, square heads only" -- "$kr" plot accuracy-vs-r --report "$report" \
  --label "m=16" --bound 8 --feature square --out "$work/acc-square"
images "accuracy --feature square" "$work/acc-square"
count=$((count + 1))
grep -q "(relu)" "$work/acc-square.svg" && fail "--feature square still draws the relu curve"
run 2 "accuracy-vs-r, a feature map the report lacks" -- "$kr" plot accuracy-vs-r \
  --report "$report" --label a --feature tanh --out "$work/x"
contains "absent feature message" "$err" "no model with feature map 'tanh'"
transitions="$src/tests/data/plots/sample-transitions.txt"
run 0 "transition-vs-m" -- "$kr" plot transition-vs-m --transitions "$transitions" \
  --out "$work/transition"
images "transition-vs-m" "$work/transition"

# --- unwritable output: exit 2, nothing left behind ------------------------------------------
run 2 "missing output directory" -- "$kr" plot bound-vs-m --table "$table" \
  --out "$work/no/such/dir/fig"
contains "missing output directory message" "$err" "cannot write $work/no/such/dir/fig.svg"
mkdir "$work/readonly"
chmod 555 "$work/readonly"
if [ "$(id -u)" -ne 0 ]; then  # root writes into a 555 directory anyway
  run 2 "read-only output directory" -- "$kr" plot error-vs-r --report "$report" \
    --out "$work/readonly/fig"
  contains "read-only output directory message" "$err" "cannot write"
fi
nothing_in "read-only output directory" "$work/readonly"
chmod 755 "$work/readonly"
run 2 "--out naming a directory" -- "$kr" plot bound-vs-m --table "$table" --out "$work/"
contains "--out directory message" "$err" "--out must be a file prefix"

# --- malformed input: exit 2, the message names the file -------------------------------------
bad="$work/bad"
mkdir "$bad"
printf '{"format": "kernelrank-train-report", "version": 1, "models": [ {"name": "a"' \
  >"$bad/truncated.json"
run 2 "truncated report" -- "$kr" plot error-vs-r --report "$bad/truncated.json" --out "$bad/fig"
contains "truncated report names the file" "$err" "truncated.json:0: error: not valid JSON"
cat >"$bad/rational.json" <<'EOF'
{"format": "kernelrank-train-report", "version": 1, "train_family": "x", "test_family": null,
 "models": [{"name": "relu-r4-s1", "feature": "relu", "r": 4, "seed": 1,
             "train": {"instances": 10, "float_failing": 1, "float_error_rate": 0.1,
                       "exact": {"verdict": "fails", "failing": 1, "undefined": 0,
                                 "error_rate": "1/0", "max_error": null}}}]}
EOF
run 2 "report with a bad rational" -- "$kr" plot error-vs-r --report "$bad/rational.json" \
  --out "$bad/fig"
contains "bad rational names file, model and field" "$err" \
  "rational.json:0: error: models[0] (relu-r4-s1).train.exact.error_rate"
sed 's|"1/0"|"1/10"|' "$bad/rational.json" >"$bad/train-only.json"
run 2 "no test split" -- "$kr" plot error-vs-r --report "$bad/train-only.json" --split test \
  --out "$bad/fig"
contains "no test split message" "$err" "train-only.json:0: error: model 'relu-r4-s1' has no test"
printf '{"format": "something-else", "version": 1, "models": []}' >"$bad/format.json"
run 2 "wrong format tag" -- "$kr" plot accuracy-vs-r --report "$bad/format.json" --label x \
  --out "$bad/fig"
contains "wrong format tag message" "$err" "format.json:0: error: format"
run 2 "missing report file" -- "$kr" plot error-vs-r --report "$bad/absent.json" --out "$bad/fig"
contains "missing report message" "$err" "absent.json:0: error: cannot open file"
run 2 "not a bound table" -- "$kr" plot bound-vs-m --table "$src/docs/min-rank.md" --out "$bad/fig"
contains "not a bound table message" "$err" "min-rank.md:0: error: no bound table found"
printf '# m lower upper\n4 2 2\n6 4 3\n' >"$bad/min-rank.txt"
run 2 "min-rank interval upside down" -- "$kr" plot bound-vs-m --table "$table" \
  --min-rank "$bad/min-rank.txt" --out "$bad/fig"
contains "min-rank message names the line" "$err" "min-rank.txt:3: error: upper is below lower"
printf '8 relu 16 256 2\n8 relu 32 256 2\n' >"$bad/twice.txt"
run 2 "transitions: a width and map twice" -- "$kr" plot transition-vs-m \
  --transitions "$bad/twice.txt" --out "$bad/fig"
contains "transitions duplicate names the line" "$err" "twice.txt:2: error: a second line for m = 8"
printf '8 relu 16 256 2\n8 square - 256 3\n' >"$bad/bounds.txt"
run 2 "transitions: two bounds for one width" -- "$kr" plot transition-vs-m \
  --transitions "$bad/bounds.txt" --out "$bad/fig"
contains "transitions bounds message" "$err" "bounds.txt:2: error: m = 8 has two bounds"
printf '8 relu 512 256 2\n' >"$bad/above.txt"
run 2 "transitions: r* above the grid" -- "$kr" plot transition-vs-m \
  --transitions "$bad/above.txt" --out "$bad/fig"
contains "transitions r* message" "$err" "above.txt:1: error:"
printf '8 relu 16 256\n' >"$bad/short.txt"
run 2 "transitions: four fields" -- "$kr" plot transition-vs-m \
  --transitions "$bad/short.txt" --out "$bad/fig"
contains "transitions fields message" "$err" "expected five fields"
rm "$bad/"*.json "$bad/"*.txt
nothing_in "malformed inputs write nothing" "$bad"

# --- missing or bad options: exit 2 ----------------------------------------------------------
run 2 "missing --report" -- "$kr" plot error-vs-r --out "$work/x"
contains "missing --report message" "$err" "--report is required"
run 2 "missing --out" -- "$kr" plot bound-vs-m --table "$table"
contains "missing --out message" "$err" "--out is required"
run 2 "missing --label" -- "$kr" plot accuracy-vs-r --report "$report" --out "$work/x"
run 2 "missing kind" -- "$kr" plot --out "$work/x"
run 2 "unknown kind" -- "$kr" plot scatter --out "$work/x"
run 2 "unknown --split" -- "$kr" plot error-vs-r --report "$report" --split valid --out "$work/x"
run 2 "--bound 0" -- "$kr" plot error-vs-r --report "$report" --bound 0 --out "$work/x"
run 2 "labels and reports unpaired" -- "$kr" plot accuracy-vs-r --report "$report" \
  --report "$report_b" --label a --out "$work/x"
contains "unpaired message" "$err" "one --label per --report"
run 2 "bad accuracy --bound" -- "$kr" plot accuracy-vs-r --report "$report" --label a \
  --bound 8x --out "$work/x"
contains "bad --bound message" "$err" "positive integer or 'none'"
count=$((count + 1))
if [ -e "$work/x.svg" ] || [ -e "$work/x.png" ]; then fail "a refused command wrote files"; fi

# --- gnuplot missing: a clear message, exit 3 ------------------------------------------------
run 3 "gnuplot not on PATH" -- env PATH=/nonexistent "$kr" plot bound-vs-m \
  --table "$table" --out "$work/nognuplot"
contains "gnuplot missing message" "$err" "gnuplot not found: install gnuplot-nox"
count=$((count + 1))
if [ -e "$work/nognuplot.svg" ] || [ -e "$work/nognuplot.png" ]; then
  fail "files written without gnuplot"
fi

finish
