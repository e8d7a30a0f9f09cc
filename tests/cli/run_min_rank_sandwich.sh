#!/usr/bin/env bash
# docs/min-rank.md's sandwich "L <= r <= U" for m = 1..10 states what the shipped files prove:
# L is the claim of instances/bound-certificates/bound-m<m>-n3.cert.xz, which the checker
# verifies here; U is the r of a shipped model min-rank-m<m>-*-r<U>.* (re-verified exactly by
# kernelrank_tests); and no shipped model has fewer features than a verified lower bound.
# Usage: run_min_rank_sandwich.sh KERNELRANK_CHECK SOURCE_DIR
set -u
check="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
rows=0
for m in $(seq 1 10); do
  row=$(grep -E "^\| $m \| [0-9]+ <= r <= [0-9]+ \|" "$src/docs/min-rank.md")
  [ -n "$row" ] || { fail "no sandwich row for m=$m"; continue; }
  rows=$((rows + 1))
  lower=$(echo "$row" | sed -E 's/^\| [0-9]+ \| ([0-9]+) <= r <= ([0-9]+) \|.*/\1/')
  upper=$(echo "$row" | sed -E 's/^\| [0-9]+ \| ([0-9]+) <= r <= ([0-9]+) \|.*/\2/')
  packed="$src/instances/bound-certificates/bound-m$m-n3.cert.xz"
  if ! xz -dc "$packed" > "$work/c.cert" 2>/dev/null; then fail "m=$m: no certificate $packed"; continue; fi
  "$check" "$work/c.cert" > "$work/out" 2>&1 || { fail "m=$m: certificate does not verify"; tail -2 "$work/out"; }
  claim=$(sed -n 's/^claim r >= //p' "$work/c.cert" | tail -n 1)
  [ "$claim" = "$lower" ] || fail "m=$m: table says lower $lower, the certificate claims $claim"
  models=$(ls "$src/instances/models/min-rank/" | grep -E "^min-rank-m$m-(NK|PF)-r$upper\.(json|features)$" | wc -l)
  [ "$models" -ge 1 ] || fail "m=$m: no shipped model with r = $upper"
  for f in $(ls "$src/instances/models/min-rank/" | grep -E "^min-rank-m$m-"); do
    r=$(echo "$f" | sed -E 's/.*-r([0-9]+)\..*/\1/')
    [ "$r" -ge "$lower" ] || fail "m=$m: $f has $r features, below the certified lower bound $lower"
    [ "$r" -ge "$upper" ] || fail "m=$m: $f has $r features, below the table's upper bound $upper"
  done
  [ "$lower" -le "$upper" ] || fail "m=$m: lower $lower above upper $upper"
done
echo "$rows sandwich rows, $failures failures"
[ "$rows" -eq 10 ] && [ "$failures" -eq 0 ]
