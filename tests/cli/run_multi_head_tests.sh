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

# --- listing order: a one-head multi-head model lists what its head alone lists ----------
# Dense softmax base 2 on {0,1}^2 (model-format.md §6): many errors tie at 1/2 and at 2/3, so
# the enumeration order decides which failures are listed and which worst instance is named.
cat >"$work/soft.model" <<'MODEL'
kernelrank-model 1 kind=tabular m=2
tokens 4
00
01
10
11
kernel
1 1   1   1
1 1/2 1   1/2
1 1   1/2 1/2
1 1/2 1/2 1/4
readout
0 0 0 0
0 1 0 1
0 0 1 1
0 1 1 2
MODEL
{ echo "kernelrank-multihead 1 m=2 heads=1"; echo "head 1"; cat "$work/soft.model"; } >"$work/soft1.model"
listing() { printf '%s\n' "$1" | grep -E '^(worst:|  q=)'; }
for mode in first last all; do
  run 1 "softmax head, mode $mode" -- "$kr" eval --model "$work/soft.model" --n 3 --mode "$mode" --failures 4 || continue
  single="$(listing "$out")"
  run 1 "one-head multi-head, mode $mode" -- "$kr" eval --model "$work/soft1.model" --n 3 --mode "$mode" --failures 4 || continue
  count=$((count + 1))
  [ "$single" == "$(listing "$out")" ] || fail "mode $mode: listings differ: '$single' vs '$(listing "$out")'"
  case $mode in
    # By hand, in the documented order (query position, query token, other positions):
    # with query token 01, keys (00,00) give 1/5, (00,01) 1/2, (00,10) 1/5, (00,11) 1/2; the
    # first error 2/3 is query 11 with keys (00,11): (1/4 * 2) * 2 / (1 + 1/4 + 1/4).
    last)
      contains "mode last: first failures" "$(listing "$out")" "  q=3 00 01 01  target 0  output 1/2 (~0.5000)  error 1/2 (~0.5000)
  q=3 00 11 01  target 0"
      contains "mode last: worst" "$out" "worst:       q=3 00 11 11  target 0  output 2/3" ;;
    all) contains "mode all: worst in pass q=1" "$out" "worst:       q=1 11 00 11  target 0  output 2/3" ;;
  esac
done

# --- positions=P heads read sequences of length 1..P (model-format.md) --------------------
# The P = 3 head restricted to n = 2 is, by construction, the P = 2 head written from the same
# formulas (block (i, j) depends only on i and j); the two must give the same report.
position_head() {  # position_head P
  echo "kernelrank-model 1 kind=tabular m=1 positions=$1"
  printf 'tokens 2\n0\n1\n'
  for i in $(seq 1 "$1"); do
    for j in $(seq 1 "$1"); do
      printf 'kernel %s %s\n%s 1\n1 %s\n' "$i" "$j" "$i" "$((i + j))"
      printf 'readout %s %s\n0 1/%s\n%s 1\n' "$i" "$j" "$j" "$((i * j % 2))"
    done
  done
}
position_head 3 >"$work/pos3.model"
position_head 2 >"$work/pos2.model"
for p in 2 3; do
  { echo "kernelrank-multihead 1 m=1 heads=2"; echo "head 1"; cat "$work/pos$p.model"; echo "head 2"
    printf 'kernelrank-model 1 kind=features m=1 r=1 d=0\ntoken 0 phiQ 1 phiK 1 v c e 0\ntoken 1 phiQ 1 phiK 1 v c e 0\n'
  } >"$work/multi-pos$p.model"
done
report() { printf '%s\n' "$1" | grep -vE '^(model|head [0-9]|  class|  features|heads):'; }
for kind in "" multi-; do
  for n in 1 2; do
    "$kr" eval --model "$work/${kind}pos2.model" --n "$n" --mode all --failures 100 >"$work/short" 2>&1
    run "$?" "${kind}positions=3 at n=$n" -- "$kr" eval --model "$work/${kind}pos3.model" --n "$n" --mode all --failures 100
    contains "${kind}positions=3 at n=$n is evaluated" "$out" "failing:"
    count=$((count + 1))
    [ "$(report "$out")" == "$(report "$(cat "$work/short")")" ] ||
      fail "${kind}positions=3 at n=$n differs from positions=2: '${out:0:300}' vs '$(head -c 300 "$work/short")'"
  done
  run 2 "${kind}positions=3 at n=4" -- "$kr" eval --model "$work/${kind}pos3.model" --n 4 || continue
  contains "${kind}positions=3 at n=4 message" "$err" "position 4 is outside 1..3 of this position-dependent model"
done
count=$((count + 1))
grep -q 'position dependent for sequences of$' "$src/docs/model-format.md" &&
  grep -q '^length 1..n: a shorter sequence' "$src/docs/model-format.md" ||
  fail "docs/model-format.md does not say that positions=n heads read lengths 1..n"

finish
