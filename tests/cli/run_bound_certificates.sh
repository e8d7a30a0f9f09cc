#!/usr/bin/env bash
# Every shipped certificate of docs/bound-table.md verifies with the independent
# checker, and claims the bound the table states.
# Usage: run_bound_certificates.sh KERNELRANK_CHECK SOURCE_DIR [MAX_M]
# With MAX_M, only the certificates for m <= MAX_M (the mutation runs: m = 41..48 are large
# trace certificates, about two minutes of checking, with no rule the smaller ones lack).
set -u
check="$1"
src="$2"
max_m="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
count=0
for packed in "$src"/instances/bound-certificates/bound-m*-n3.cert.xz; do
  [ -e "$packed" ] || continue
  name=$(basename "$packed" .xz)
  m=${name#bound-m}; m=${m%-n3.cert}
  [ -n "$max_m" ] && [ "$m" -gt "$max_m" ] && continue
  xz -dc "$packed" > "$work/$name" || { echo "FAIL: cannot decompress $packed"; failures=$((failures + 1)); continue; }
  count=$((count + 1))
  if ! "$check" "$work/$name" > "$work/out" 2>&1; then
    echo "FAIL: $name does not verify"; tail -3 "$work/out"; failures=$((failures + 1)); continue
  fi
  claim=$(sed -n 's/^claim r >= //p' "$work/$name" | tail -n 1)  # an inherit certificate embeds a second claim
  grep -q "^| $m | [0-9,]* |" "$src/docs/bound-table.md" || { echo "FAIL: no table row for m=$m"; failures=$((failures + 1)); continue; }
  table=$(grep -m1 "^| $m | " "$src/docs/bound-table.md" | awk -F'|' '{gsub(/[ ,]/, "", $3); print $3}')
  [ "$claim" = "$table" ] || { echo "FAIL: m=$m certificate claims $claim, table says $table"; failures=$((failures + 1)); }
done
echo "$count certificates, $failures failures"
[ "$count" -ge "${max_m:-64}" ] && [ "$failures" -eq 0 ]
