#!/usr/bin/env bash
# The shipped generated-rows certificates (instances/bound-certificates/generated/, made by
# scripts/make-generated-bounds.sh, listed in docs/data/generated-bounds.jsonl): each is
# under 1 MB and states the generator its row names; those with at most 5e10 pairs are
# checked in full (the bound must be the row's), the larger ones by one shard of the
# checker's pair pass (about 2e8 pairs: the statements parse and the pass runs; the full
# check is the documented command, minutes to an hour on two cores).
# Under the sanitizers (third argument ON) every certificate gets the one-shard check only.
# Usage: run_generated_certificates.sh KERNELRANK_CHECK SOURCE_DIR [SANITIZED]
set -u
check="$(realpath "$1")"
src="$2"
full_limit=50000000000
case "${3:-OFF}" in ON|1|TRUE|YES) full_limit=0 ;; esac
# $work, fail, run, contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"
data="$src/docs/data/generated-bounds.jsonl"
[ -s "$data" ] || { fail "no $data"; finish; }
while IFS=$'\t' read -r m bound words weight cert pairs; do
  path="$src/$cert"
  count=$((count + 1))
  [ -s "$path" ] || { fail "m = $m: $cert missing"; continue; }
  count=$((count + 1))
  [ "$(stat -c %s "$path")" -lt 1000000 ] || fail "m = $m: $cert is not under 1 MB"
  contains "m = $m generator" "$(cat "$path")" "generated splitmix64 seed=1 count=$words weight=$weight queries=complement"
  contains "m = $m claim" "$(cat "$path")" "claim r >= $bound"
  if [ "$pairs" -le "$full_limit" ]; then
    run 0 "m = $m full check" -- "$check" "$path" && contains "m = $m bound" "$out" "c bound: r >= $bound (trace-uniform"
  else
    shards=$(( (pairs + 199999999) / 200000000 ))
    run 0 "m = $m shard 1/$shards" -- "$check" --shard "1/$shards" --partial "$work/part-m$m.txt" "$path" &&
      contains "m = $m partial" "$out" "s PARTIAL"
  fi
done < <(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("\t".join(str(x) for x in (r["m"], r["bound"], r["words"], r["weight"], r["certificate"], r["unordered_pairs"])))
' "$data")
finish
