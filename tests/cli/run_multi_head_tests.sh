#!/usr/bin/env bash
# Multi-head model files through the CLI (docs/model-format.md §13, docs/cli.md eval):
# verdicts and exit codes, the heads/features line, --json, single-head options refused by
# name, malformed files naming the real line, counterexample's exhaustive fallback.
# Usage: run_multi_head_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
. "$(dirname "$0")/test_lib.sh"
model="$src/instances/models/multihead/two-heads-m2.model"

# rank1-mean (n = 2) is exact on T(2,2); the second head adds 0: solves with error 0.
run 0 "two heads solve T(2,2)" -- "$kr" eval --model "$model" --n 2
contains "verdict" "$out" "SOLVES"
contains "max error 0" "$out" "max error:   0"
contains "features line" "$out" "heads:       2, features: 1 + 1 = 2"
# At n = 3 rank1-mean fails on 3 of the 64 first-query instances (q = 11 with keys 00/11),
# e.g. (11, 00, 00): (0 + 0 - 2)/3 = -2/3 against target 0.
run 1 "two heads fail T(2,3)" -- "$kr" eval --model "$model" --n 3
contains "failing count" "$out" "failing:     3"
contains "worst" "$out" "q=1 11 00 00  target 0  output -2/3"
run 0 "--json" -- "$kr" --json eval --model "$model" --n 2 --mode all
echo "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["report"]["solves"] is True and d["report"]["instances"] == "32", d["report"]
assert d["model"]["features"] == 2 and len(d["model"]["heads"]) == 2, d["model"]
' || fail "eval --json on a multi-head model"
count=$((count + 1))

# A family: the instance (11, 00, 00) at n = 3 fails.
printf 'kernelrank-family 1 m=2 n=3\n1 11 00 00\n1 01 01 01\n' >"$work/two.family"
run 1 "family" -- "$kr" eval --model "$model" --family "$work/two.family"
contains "family method" "$out" "method:      family"
contains "family failing" "$out" "failing:     1"

# Options that only single heads have are refused by name (exit 2).
run 2 "--profiles refused" -- "$kr" eval --model "$model" --n 2 --profiles
contains "names --profiles" "$err" "--profiles"
contains "says single heads" "$err" "only to single heads"
run 2 "--shard refused" -- "$kr" eval --model "$model" --n 2 --shard 1/2 --partial "$work/p"
contains "names --shard" "$err" "--shard, --partial"

# Malformed files name the real line, inside a head too.
sed 's/^token 01 phiQ 1 /token 01 phiQ 1\/0 /' "$model" >"$work/bad.model"
run 2 "bad number in head 2" -- "$kr" eval --model "$work/bad.model" --n 2
contains "line of the bad number" "$err" "bad.model:10: error: head 2:"
sed 's/heads=2/heads=3/' "$model" >"$work/count.model"
run 2 "wrong head count" -- "$kr" eval --model "$work/count.model" --n 2
contains "head count at the header" "$err" "count.model:4: error: wrong head count"

# counterexample: no proof-guided path for several heads; the exhaustive search finds one.
run 0 "counterexample falls back" -- "$kr" counterexample --model "$model" --n 3 --out "$work/ce.family"
contains "says L2 needs a single head" "$out" "the proof-guided search (L2) needs a single NK head"
contains "failing instance" "$out" "q=1 11 00 00"
run 1 "the counterexample family fails" -- "$kr" eval --model "$model" --family "$work/ce.family"
run 1 "no counterexample where the model solves" -- "$kr" counterexample --model "$model" --n 2
contains "none found" "$out" "no failing instance exists"

finish
