#!/usr/bin/env bash
# The shipped layered heads (instances/upper/): each verifies with kernelrank-check with the
# r of its header, which is recomputed here from its layers (python3's math.comb, not the
# producer's or the checker's binomials) and must match instances/upper/summary.tsv; each is
# decided SOLVES by `kernelrank eval` through its profiles; and the same head with one
# correction value changed so that the profile (w = m, u1 = u2 = 0) has error exactly 1/2
# (its output is m + g_m(0), its target m) is refused by both.
# Usage: run_upper_heads.sh KERNELRANK SOURCE_DIR
set -u
kr=$1
src=$2
check="$(dirname "$kr")/kernelrank-check"
. "$(dirname "$0")/test_lib.sh"

heads=("$src"/instances/upper/layered-m*-*.model)
count=$((count + 1))
[ "${#heads[@]}" -ge 45 ] || fail "only ${#heads[@]} shipped heads"
for file in "${heads[@]}"; do
  name=$(basename "$file" .model)
  m=$(sed -n 's/^kernelrank-model 1 kind=layered m=\([0-9]*\) .*/\1/p' "$file")
  model_class=${name##*-}
  r=$(python3 -c '
import math, sys
m = int(sys.argv[1])
layers = [int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith("layer ")]
print(sum(math.comb(m, j) for j in layers))' "$m" "$file")
  listed=$(awk -F'\t' -v m="$m" -v c="$model_class" '$1 == m && $2 == c {print $3}' \
    "$src/instances/upper/summary.tsv")
  count=$((count + 1))
  [ "$r" = "$listed" ] || fail "$name: layers give r = $r, summary.tsv lists '$listed'"
  run 0 "$name verifies" -- "$check" "$file" || continue
  contains "$name verifies" "$out" "c upper: r <= $r"
  run 0 "$name solves" -- "$kr" eval --model "$file" --n 3 || continue
  contains "$name solves" "$out" "SOLVES"
  # g_m(0) := 1/2 on the last correction line (w = m): that profile's error becomes 1/2.
  broken="$work/$name-broken.model"
  awk -v m="$m" '$1 == "correction" && $2 == m {$3 = "1/2"} {print}' "$file" > "$broken"
  run 1 "$name with an error of 1/2 is refused" -- "$check" "$broken"
  contains "$name with an error of 1/2 is refused" "$out" "s NOT VERIFIED"
  run 1 "$name with an error of 1/2 fails eval" -- "$kr" eval --model "$broken" --n 3
done
finish
