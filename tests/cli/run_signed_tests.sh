#!/usr/bin/env bash
# Signed single heads through the CLI (docs/model-format.md, declared classes and negative
# denominators; docs/open-questions.md): the shipped L2 counterexample is solved on its three
# instances with two negative denominators (D1 = -3, D3 = -1), eval prints and merges that
# count, domination flags the failing inequality, and declared classes the data contradicts
# are refused on the header line.
#
# Usage: run_signed_tests.sh KERNELRANK SOURCE_DIR
set -u
kr=$1
src=$2
. "$(dirname "$0")/test_lib.sh"

dir="$src/instances/models/signed"
model="$dir/l2-counterexample-m3.model"
family="$dir/l2-counterexample-m3.family"

run 0 "L2 counterexample solved" -- "$kr" eval --model "$model" --family "$family"
contains "declared class" "$out" \
  "class:       signed (declared; the kernel has negative values: alpha(110, 110) = -1 < 0)"
contains "negative count" "$out" "negative denominators: 2 solved instances have a negative denominator"
contains "negative example" "$out" "(denominator -3)"
contains "verdict" "$out" "verdict:     SOLVES"

run 0 "L2 counterexample json" -- "$kr" --json eval --model "$model" --family "$family"
contains "json count" "$out" '"negative_solved": "2"'
contains "json denominator" "$out" '"denominator": "-3"'

# Shards and their merge give the same count.
run 0 "shard 1/2" -- "$kr" eval --model "$model" --family "$family" --shard 1/2 --partial "$work/p1.json"
run 0 "shard 2/2" -- "$kr" eval --model "$model" --family "$family" --shard 2/2 --partial "$work/p2.json"
run 0 "merge" -- "$kr" eval-merge "$work/p2.json" "$work/p1.json"
contains "merged count" "$out" "negative denominators: 2 solved instances have a negative denominator"
contains "merged example" "$out" "(denominator -3)"
contains "partial version" "$(cat "$work/p1.json")" '"version": 2'

# domination flags W + 2A = -3 <= W + 2B = 1 with S1, S2, S3 all solved.
run 1 "domination flags the inequality" -- "$kr" domination --model "$model" --family "$family"
contains "domination class" "$out" "signed"
contains "domination all solved" "$out" "S1, S2 and S3 all solved"

# An NK model prints no negative-denominator line; its JSON still has the count.
run 0 "NK model" -- "$kr" eval --builtin softmax --base 3 --m 3
case "$out" in *"negative denominators"*) fail "NK model prints a negative-denominator line";; esac
run 0 "NK model json" -- "$kr" --json eval --builtin softmax --base 3 --m 3
contains "NK json count" "$out" '"negative_solved": "0"'

# Declarations the data contradicts are refused on the header line.
sed 's/class=signed/class=NK/' "$model" >"$work/nk.model"
run 2 "class=NK refused" -- "$kr" eval --model "$work/nk.model" --family "$family"
contains "NK refusal line" "$err" "nk.model:8: error: the header declares class=NK but alpha(110, 110) = -1 < 0"
sed 's/class=signed/class=PF/' "$model" >"$work/pf.model"
run 2 "class=PF refused" -- "$kr" eval --model "$work/pf.model" --family "$family"
contains "PF refusal line" "$err" "pf.model:8: error: the header declares class=PF but"
sed 's/class=signed/class=maybe/' "$model" >"$work/bad.model"
run 2 "unknown class refused" -- "$kr" eval --model "$work/bad.model" --family "$family"
contains "unknown class message" "$err" "bad.model:8: error: expected class=PF, class=NK or class=signed"

finish
