#!/usr/bin/env bash
# "Certified" means the checker said so (issue 47): every output of certify, witness,
# transition, reproduce, search, min-rank and bound that calls a bound certified also shows the checker's status line
# ("s VERIFIED", the line kernelrank-check prints), with --cert or without; a bound that was
# not checked is "claimed (not checked)". And transition's lower side is bound's: the two
# commands' JSON give the same number and source at the same m.
# Usage: run_certified_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

# The rule on the last output: "certified" only beside the checker's "s VERIFIED" line, and a
# bound without that line is "claimed (not checked)".
# Paths are left out first: the source tree's own name may contain the word.
certified_rule() {
  count=$((count + 1))
  local verified=0
  sed -e "s|$src||g" -e "s|$work||g" "$work/out" >"$work/said"
  grep -qE '(^|: )s VERIFIED$' "$work/said" && verified=1
  if grep -q 'certified' "$work/said" && [ "$verified" -eq 0 ]; then
    fail "$1: says certified without the checker's s VERIFIED line: ${out:0:400}"
  fi
  if [ "$verified" -eq 0 ] && grep -q 'r >= ' "$work/said" &&
    ! grep -q 'claimed (not checked)' "$work/said"; then
    fail "$1: a bound neither checked nor said to be claimed: ${out:0:400}"
  fi
}

family="$src/instances/witness-m24.family"
run 0 "certify without --cert" -- "$kr" certify --family "$family"
contains "certify: the bound" "$out" "certified: any NK model solving this family has r >= 18"
contains "certify: the checker's line" "$out" "checked in memory by kernelrank-check: s VERIFIED"
certified_rule "certify without --cert"
run 0 "certify with --cert" -- "$kr" certify --family "$family" --cert "$work/w24.cert"
certified_rule "certify with --cert"
contains "certify: the file" "$out" "certificate written to $work/w24.cert"
run 0 "certify --json" -- "$kr" --json certify --family "$family"
contains "certify --json: checked" "$out" '"checked": true'
contains "certify --json: the checker's status" "$out" '"checker_status": "s VERIFIED"'
# No bound: nothing certified, nothing claimed.
run 1 "certify without a bound" -- "$kr" certify --family "$src/tests/data/families/small.family"
certified_rule "certify without a bound"
case "$out" in *"s VERIFIED"*) fail "certify without a bound shows a checker line" ;; esac

run 0 "witness" -- "$kr" witness --m 12 --out "$work/w12.family" --cert "$work/w12.cert"
contains "witness: the checker's line" "$out" "s VERIFIED"
certified_rule "witness"

for m in 3 6 12; do
  run 0 "transition --m $m" -- "$kr" transition --m "$m" || continue
  contains "transition --m $m: the checker's line" "$out" \
    "checked in memory by kernelrank-check: s VERIFIED"
  certified_rule "transition --m $m"
done
run 0 "transition --m 12 --cert" -- "$kr" transition --m 12 --cert "$work/t12.cert"
certified_rule "transition --m 12 --cert"

run 0 "reproduce without --cert" -- "$kr" reproduce
contains "reproduce: the checker's line" "$out" "checked in memory by kernelrank-check: s VERIFIED"
certified_rule "reproduce without --cert"
run 0 "reproduce --json" -- "$kr" --json reproduce --small-m 4 --large-m 8
contains "reproduce --json: the checker's status" "$out" '"checker_status": "s VERIFIED"'

# search: "refuted (certified)" beside the checker's line (docs/min-rank.md: r >= 2 at m = 4).
run 1 "search --m 4 --r 1" -- "$kr" search --m 4 --r 1 --no-cross-check
contains "search: certified" "$out" "refuted (certified)"
certified_rule "search --m 4 --r 1"

run 0 "bound --m 12" -- "$kr" bound --m 12
contains "bound: the checker's line" "$out" "checked in memory by kernelrank-check: s VERIFIED"
certified_rule "bound --m 12"
run 0 "bound --words" -- "$kr" bound --m 16 --words 300 --seed 3
contains "bound --words: the checker's line" "$out" "checked in memory by kernelrank-check: s VERIFIED"
certified_rule "bound --words"
run 0 "bound --json" -- "$kr" --json bound --m 12
contains "bound --json: the checker's status" "$out" '"checker_status": "s VERIFIED"'

# min-rank: its refuted-certified cells beside the checker's line (r(4) = 2: r = 1 is refuted).
run 0 "min-rank --m-max 4" -- "$kr" min-rank --m-max 4 --class NK --no-cross-check --threads 1
contains "min-rank: certified cells" "$out" "refuted-certified"
contains "min-rank: the checker's line" "$out" "each certificate checked in memory by kernelrank-check: s VERIFIED"
certified_rule "min-rank --m-max 4"

# transition's lower side is bound's: the same number and source in the two JSON outputs.
same_lower() {
  count=$((count + 1))
  python3 - "$work/transition.json" "$work/bound.json" <<'PY' || fail "transition --m $1 and bound --m $1 differ"
import json, sys
transition = json.load(open(sys.argv[1]))
bound = json.load(open(sys.argv[2]))
row = [r for r in transition["rows"] if r["n"] == 3][0]
got = (row["lower_bound"], row["lower_source"])
want = (bound["bound"], bound["source"])
if got != want:
    print("transition", got, "bound", want)
    sys.exit(1)
PY
}
for m in 3 12; do
  "$kr" --json transition --m "$m" >"$work/transition.json" 2>/dev/null ||
    fail "transition --m $m --json"
  "$kr" --json bound --m "$m" >"$work/bound.json" 2>/dev/null || fail "bound --m $m --json"
  same_lower "$m"
done

finish
