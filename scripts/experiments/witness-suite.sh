#!/usr/bin/env bash
# The witness-suite experiment (docs/experiments.md): train relu and square heads with
# r in RANKS (3 seeds each) from the data-informed initialisation (bumps around the family's
# query tokens, the default) and from random weights, and softmax heads started near L5, on
# the shipped m = 24 witness family; decide every trained model (exactly, or by ball
# arithmetic for softmax), certify the family's bound, write the table and the transition
# figure (certified lower bound, constructed upper bound, trained verdicts).
#   scripts/experiments/witness-suite.sh [full|ci] [OUT_DIR]     (default: full build/witness)
# Environment: UPPER (default 20) and UPPER_SOURCE: the smallest r of a verified exact head
# for the family and where it comes from (default: the shipped NK model, docs/min-rank.md); RANKS, SEEDS and
# FEATURES override the preset's grid, RANDOM_RANKS and RANDOM_SEEDS the random-init part.
set -euo pipefail
cd "$(dirname "$0")/../.."
preset="${1:-full}"
out="${2:-build/witness-$preset}"
case "$preset" in
  full) ranks=1,2,4,8,12,14,16,20,24,32,64; seeds=1,2,3; epochs=6000; soft_epochs=2000 ;;
  ci) ranks=2,16; seeds=1; epochs=100; soft_epochs=10 ;;
  *) echo "usage: $0 [full|ci] [OUT_DIR]" >&2; exit 2 ;;
esac
ranks="${RANKS:-$ranks}"
seeds="${SEEDS:-$seeds}"
features="${FEATURES:-relu,square}"
random_ranks="${RANDOM_RANKS:-$ranks}"
random_seeds="${RANDOM_SEEDS:-$seeds}"
upper="${UPPER:-20}"
upper_source="${UPPER_SOURCE:-instances/models/witness-m24-nk-r20.features, NK, verified exactly}"
[ -n "${KR:-}" ] || { scripts/build.sh >/dev/null; KR=build/kernelrank; }
CHECK="$(dirname "$KR")/kernelrank-check"
family=instances/witness-m24.family
mkdir -p "$out"
start=$(date +%s)
"$KR" --quiet --json certify --family "$family" --cert "$out/witness.cert" >"$out/certify.json"
"$CHECK" "$out/witness.cert" "$family" >"$out/check.txt"
bound=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bound"])' "$out/certify.json")
common=(--quiet train --family "$family" --threads 1)
"$KR" "${common[@]}" --feature "$features" --r "$ranks" --seed "$seeds" --epochs "$epochs" \
  --init query-tokens --out "$out/data" >"$out/train-data.txt"
"$KR" "${common[@]}" --feature "$features" --r "$random_ranks" --seed "$random_seeds" \
  --epochs "$epochs" --init random --out "$out/random" >"$out/train-random.txt"
"$KR" "${common[@]}" --feature softmax --seed "$seeds" --epochs "$soft_epochs" \
  --out "$out/softmax" >"$out/train-softmax.txt"
/usr/bin/python3 - "$out/report.json" "$out/data/report.json" "$out/random/report.json" \
  "$out/softmax/report.json" <<'PY'
import json, sys
reports = [json.load(open(p)) for p in sys.argv[2:]]
merged = dict(reports[0])
merged["models"] = [m for r in reports for m in r["models"]]
json.dump(merged, open(sys.argv[1], "w"), indent=2)
PY
/usr/bin/python3 scripts/experiments/experiment_table.py witness "$out/report.json" --bound "$bound" \
  >"$out/table.md"
/usr/bin/python3 scripts/experiments/transition_plot.py "$out/report.json" --lower "$bound" \
  --upper "$upper" --upper-source "$upper_source" --out "$out/witness-transition"
echo "witness suite ($preset): certified r >= $bound; $(($(date +%s) - start)) s; $out/table.md"
