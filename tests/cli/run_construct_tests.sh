#!/usr/bin/env bash
# `kernelrank construct` (docs/cli.md#construct): an exact head for the witness family, written
# only when it solves; failures, dependent queries and bad options leave no file behind.
# Usage: run_construct_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

family="$src/instances/witness-m24.family"
run 0 "witness family" -- "$kr" construct --family "$family" --out "$work/w24.model"
contains "r" "$out" "r = 24"
contains "verdict" "$out" "SOLVES"
# The file, read back by eval, solves the family (exit 0) with 24 relu features.
run 0 "eval the written head" -- "$kr" eval --model "$work/w24.model" --family "$family"
contains "eval verdict" "$out" "SOLVES"
contains "eval class" "$out" "PF"

run 0 "--json" -- "$kr" --json construct --family "$family" --out "$work/w24b.model" \
  --slope 15/64 --diagonal 256
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["r"] == 24 and d["queries"] == 24 and d["candidates"] == 1, d
assert d["slope"] == "15/64" and d["diagonal"] == "256"
assert d["evaluation"]["failing"] == "0", d["evaluation"]' \
  || fail "construct --json: fields"

# a = 0 puts the intermediates on a par with the own complement: fails, nothing written.
run 1 "a = 0 fails" -- "$kr" construct --family "$family" --out "$work/flat.model" --slope 0 --diagonal 64
contains "nothing written" "$out" "nothing written"
count=$((count + 1))
[ ! -e "$work/flat.model" ] || fail "a failing head was written"

printf 'kernelrank-family 1 m=3 n=3\n1 100 001 001\n1 010 001 001\n1 110 001 001\n' >"$work/dep.family"
run 2 "dependent queries" -- "$kr" construct --family "$work/dep.family" --out "$work/dep.model"
contains "dependent message" "$err" "query 110 (distinct query 3 of 3) is a linear combination"
count=$((count + 1))
[ ! -e "$work/dep.model" ] || fail "a model was written for dependent queries"

run 2 "bad slope" -- "$kr" construct --family "$family" --out "$work/x.model" --slope 1/0
contains "bad slope message" "$err" "--slope: expected an exact number"
run 2 "negative diagonal" -- "$kr" construct --family "$family" --out "$work/x.model" --diagonal -1
contains "negative diagonal message" "$err" "the diagonal B must be > 0"
run 2 "missing family" -- "$kr" construct --family "$work/none.family" --out "$work/x.model"
count=$((count + 1))
[ ! -e "$work/x.model" ] || fail "a model was written on bad input"

# docs/min-rank.md's witness sandwich states what the shipped files give: the lower bound is
# the claim of instances/witness-m24.cert (cli_tests has the checker verify it), the upper
# bounds the r of the shipped models (test_family_construction.cpp re-verifies them).
claim=$(sed -n 's/^claim r >= //p' "$src/instances/witness-m24.cert")
nk_r=$(sed -n 's/^kernelrank-model 1 .* r=\([0-9]*\) .*/\1/p' "$src/instances/models/witness-m24-nk-r20.features")
pf_r=$(sed -n 's/^kernelrank-model 1 .* r=\([0-9]*\) .*/\1/p' "$src/instances/models/witness-m24-relu-r24.model")
contains "NK sandwich" "$(cat "$src/docs/min-rank.md")" "| NK | r >= $claim: shifted trace rule"
contains "NK upper" "$(cat "$src/docs/min-rank.md")" "| r <= $nk_r: \`instances/models/witness-m24-nk-r$nk_r.features\`"
contains "PF sandwich" "$(cat "$src/docs/min-rank.md")" "| PF | r >= $claim (PF is inside NK)"
contains "PF upper" "$(cat "$src/docs/min-rank.md")" "| r <= $pf_r: \`instances/models/witness-m24-relu-r$pf_r.model\`"
contains "checked sandwich" "$(cat "$src/docs/min-rank.md")" "the checker-verified sandwich is $claim <= r <= $nk_r (NK) and
$claim <= r <= $pf_r (PF)"

finish
