#!/usr/bin/env bash
# The witness-suite experiment (docs/experiments.md): train relu and square heads with
# r in {1,2,4,8,12,14,16,24,32,64} (3 seeds each) and the dense softmax baseline on the shipped
# m = 24 witness family, verify every trained model exactly, certify the family's bound, and
# write the table and the error-vs-r plot.
#   scripts/experiments/witness-suite.sh [full|ci] [OUT_DIR]     (default: full build/witness)
# full: 6000 epochs (274 s on 2 cores); ci: r in {2,8,16}, 1 seed, 300 epochs.
set -euo pipefail
cd "$(dirname "$0")/../.."
preset="${1:-full}"
out="${2:-build/witness-$preset}"
case "$preset" in
  full) ranks=1,2,4,8,12,14,16,24,32,64; seeds=1,2,3; epochs=6000 ;;
  ci) ranks=2,8,16; seeds=1; epochs=300 ;;
  *) echo "usage: $0 [full|ci] [OUT_DIR]" >&2; exit 2 ;;
esac
[ -n "${KR:-}" ] || { scripts/build.sh >/dev/null; KR=build/kernelrank; }
CHECK="$(dirname "$KR")/kernelrank-check"
family=instances/witness-m24.family
mkdir -p "$out"
start=$(date +%s)
"$KR" --quiet --json certify --family "$family" --cert "$out/witness.cert" >"$out/certify.json"
"$CHECK" "$out/witness.cert" "$family" >"$out/check.txt"
bound=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bound"])' "$out/certify.json")
"$KR" --quiet train --family "$family" --feature relu,square,softmax --r "$ranks" --seed "$seeds" \
  --epochs "$epochs" --lr 0.03 --out "$out" >"$out/train.txt"
/usr/bin/python3 scripts/experiments/experiment_table.py witness "$out/report.json" --bound "$bound" \
  >"$out/table.md"
"$KR" plot error-vs-r --report "$out/report.json" --bound "$bound" \
  --title "Witness suite (m = 24, 1176 instances): exact verdicts of trained heads" \
  --out "$out/witness-error-vs-r" >/dev/null
echo "witness suite ($preset): certified r >= $bound; $(($(date +%s) - start)) s; $out/table.md"
