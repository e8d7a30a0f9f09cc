#!/usr/bin/env bash
# The OOD-scaling experiment (docs/experiments.md). At three widths m = 12, 16, 24: the
# training family is the witness family of that width (`kernelrank witness`, whose certificate
# bounds every model that solves it) plus 1000 seeded random instances; the test pool is 1000
# further random instances, disjoint from the training family (checked). Square heads with
# r = 1..128 in powers of 2 (relu by default, FEATURES overrides) and the dense softmax head
# (decided by ball arithmetic), 3 seeds each; exact-sequence accuracy on the test pool from
# the decided verdicts; table and accuracy-vs-r plot. WIDTHS, RANKS, SEEDS override the grid.
#   scripts/experiments/ood-scaling.sh [full|ci] [OUT_DIR]       (default: full build/ood-full)
# full: 3000 epochs (36 minutes on 2 cores shared with other jobs; docs/experiments.md);
# ci: m = 12 only, r in {1,16}, 1 seed, 100 epochs.
set -euo pipefail
cd "$(dirname "$0")/../.."
preset="${1:-full}"
out="${2:-build/ood-$preset}"
case "$preset" in
  full) widths="12 16 24"; ranks=1,2,4,8,16,32,64,128; seeds=1,2,3; epochs=3000 ;;
  ci) widths="12"; ranks=1,16; seeds=1; epochs=100 ;;
  *) echo "usage: $0 [full|ci] [OUT_DIR]" >&2; exit 2 ;;
esac
widths="${WIDTHS:-$widths}"
ranks="${RANKS:-$ranks}"
seeds="${SEEDS:-$seeds}"
epochs="${EPOCHS:-$epochs}"
features="${FEATURES:-relu},softmax"
[ -n "${KR:-}" ] || { scripts/build.sh >/dev/null; KR=build/kernelrank; }
CHECK="$(dirname "$KR")/kernelrank-check"
mkdir -p "$out"
start=$(date +%s)
scales=()
plot_args=()
for m in $widths; do
  dir="$out/m$m"
  mkdir -p "$dir"
  "$KR" --quiet witness --m "$m" --out "$dir/witness.family" --cert "$dir/witness.cert" >/dev/null
  "$CHECK" "$dir/witness.cert" "$dir/witness.family" >/dev/null
  "$KR" --quiet generate --m "$m" --n 3 --train 1000 --test 1000 --seed "$m" --format family \
    --out-prefix "$dir/random" >/dev/null
  # Training family = witness instances + random training pool (one header).
  { head -n 1 "$dir/witness.family"; grep -hv '^\(#\|kernelrank-family\)' "$dir/witness.family" \
      "$dir/random-train.family"; } >"$dir/train.family"
  /usr/bin/python3 - "$dir/train.family" "$dir/random-test.family" <<'PY'
import sys
def rows(p): return {l.strip() for l in open(p) if l.strip() and not l.startswith(("#", "kernelrank"))}
overlap = rows(sys.argv[1]) & rows(sys.argv[2])
if overlap: sys.exit(f"train and test pools overlap in {len(overlap)} instances")
PY
  "$KR" --quiet --json certify --family "$dir/train.family" --cert "$dir/train.cert" >"$dir/certify.json"
  "$CHECK" "$dir/train.cert" "$dir/train.family" >/dev/null
  bound=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bound"])' "$dir/certify.json")
  # Kernel heads: the default recipe (query-token bumps, band loss, 2 constant features);
  # softmax: started near L5.
  "$KR" --quiet train --train "$dir/train.family" --test "$dir/random-test.family" \
    --feature "$features" --r "$ranks" --seed "$seeds" --epochs "$epochs" --threads 1 \
    --out "$dir" >"$dir/train.txt"
  scales+=(--scale "m = $m" "$dir/report.json" "$bound")
  plot_args+=(--report "$dir/report.json" --label "m = $m" --bound "$bound")
done
/usr/bin/python3 scripts/experiments/experiment_table.py ood "${scales[@]}" >"$out/table.md"
"$KR" plot accuracy-vs-r "${plot_args[@]}" \
  --title "OOD scaling: exact-sequence accuracy on disjoint test pools" \
  --out "$out/ood-accuracy-vs-r" >/dev/null
echo "OOD scaling ($preset): $(($(date +%s) - start)) s; $out/table.md"
