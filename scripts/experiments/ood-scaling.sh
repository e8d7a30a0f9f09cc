#!/usr/bin/env bash
# The OOD-scaling experiment (docs/experiments.md, experiment 2). At each width m: a training
# pool of 4,000 distinct length-3 instances and a disjoint test pool of 2,000, tokens drawn
# uniformly from the weight-m/2 words, a random query position (`generate --weight`, seed 1;
# disjointness checked here too); relu and square heads with r = 1, 2, 4, ..., 256 trained
# with `train --recipe ood`, and the dense softmax head started near L5; seeds 1-3. Every
# model is decided on both pools (relu and square exactly, softmax by ball arithmetic), and
# where the whole weight-m/2 slice is small (m <= SLICE_MAX_M, default 8: 1,029,000
# instances) every relu and square model on all of it too (slice.json).
# The certified lower bound for the pools: the larger of `certify` on the training pool and
# the code bound on weight-m/2 rows (`bound --only-code --code` on lexicodes of weight m/2 and
# distance 4 (m <= 20), 6 and 8, the best of them; complement queries have weight m/2 too, so
# every instance of the argument lies in the weight-m/2 slice), each checked by
# kernelrank-check. Beside it, the same recipe on uniformly random tokens (UNIFORM_WIDTHS,
# relu and softmax, with the whole cube's bound) shows what the token weight changes. Writes
# the table (table.md), the transition ranks r*(m) (transitions.txt) and the figures
# (accuracy against r per feature map, r* against m).
#   scripts/experiments/ood-scaling.sh [full|ci] [OUT_DIR]       (default: full build/ood-full)
# full: m = 8, 12, 16, 20, 24 (about 51 minutes on 2 cores; docs/experiments.md);
# ci: m = 8 only, r in {2, 32}, 1 seed, 200 steps, no uniform run.
# WIDTHS, RANKS, SEEDS, EPOCHS, FEATURES, UNIFORM_WIDTHS, SLICE_MAX_M, THREADS override the
# preset.
set -euo pipefail
cd "$(dirname "$0")/../.."
preset="${1:-full}"
out="${2:-build/ood-$preset}"
case "$preset" in
  full) widths="8 12 16 20 24"; ranks=1,2,4,8,16,32,64,128,256; seeds=1,2,3; epochs=2000
        uniform="8 12" ;;
  ci) widths="8"; ranks=2,32; seeds=1; epochs=200; uniform="" ;;
  *) echo "usage: $0 [full|ci] [OUT_DIR]" >&2; exit 2 ;;
esac
widths="${WIDTHS:-$widths}"
ranks="${RANKS:-$ranks}"
seeds="${SEEDS:-$seeds}"
epochs="${EPOCHS:-$epochs}"
features="${FEATURES:-relu,square},softmax"
uniform="${UNIFORM_WIDTHS-$uniform}"
threads="${THREADS:-0}"
slice_max_m="${SLICE_MAX_M:-8}"
[ -n "${KR:-}" ] || { scripts/build.sh >/dev/null; KR=build/kernelrank; }
CHECK="$(dirname "$KR")/kernelrank-check"
mkdir -p "$out"
start=$(date +%s)

# pools DIR M [--weight W]: the two pools, checked disjoint.
pools() {
  local dir=$1 m=$2
  shift 2
  "$KR" --quiet generate --m "$m" "$@" --n 3 --mode all --train 4000 --test 2000 --seed 1 \
    --format family --out-prefix "$dir/pool" >/dev/null
  /usr/bin/python3 - "$dir/pool-train.family" "$dir/pool-test.family" <<'PY'
import sys
def rows(p): return {l.strip() for l in open(p) if l.strip() and not l.startswith(("#", "kernelrank"))}
overlap = rows(sys.argv[1]) & rows(sys.argv[2])
if overlap: sys.exit(f"train and test pools overlap in {len(overlap)} instances")
PY
}

# train_pools DIR FEATURES: the grid on DIR's pools.
train_pools() {
  "$KR" --quiet train --recipe ood --train "$1/pool-train.family" --test "$1/pool-test.family" \
    --feature "$2" --r "$ranks" --seed "$seeds" --epochs "$epochs" --threads "$threads" \
    --out "$1" >"$1/train.txt"
}

# decide_slice DIR M: every exact model of DIR on every length-3 instance over the weight-m/2
# words (query mode all), into DIR/slice.json: {model name: [failing, instances]}.
decide_slice() {
  "$KR" --quiet code --johnson --m "$2" --w $(($2 / 2)) --out "$1/slice.code" >/dev/null
  for model in "$1"/*.model; do
    "$KR" --quiet --json eval --model "$model" --tokens "$1/slice.code" --n 3 --mode all \
      >"${model%.model}.slice.json" || [ $? -eq 1 ]  # exit 1: the model fails somewhere
  done
  /usr/bin/python3 - "$1" <<'PY'
import json, pathlib, sys
out = {}
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.slice.json")):
    report = json.load(open(p))["report"]
    out[p.name[:-len(".slice.json")]] = [report["failing"], report["instances"]]
json.dump(out, open(pathlib.Path(sys.argv[1]) / "slice.json", "w"), indent=1)
PY
}

# pool_certificate DIR: the training pool's own certified bound, checked (random pools rarely
# hold a domination triple: then certify exits 1 and the pool certifies nothing beyond 1).
pool_certificate() {
  local status=0
  "$KR" --quiet --json certify --family "$1/pool-train.family" --cert "$1/pool.cert" \
    >"$1/certify.json" || status=$?
  case $status in
    0) "$CHECK" "$1/pool.cert" "$1/pool-train.family" >/dev/null || return 1
       json_field "$1/certify.json" bound ;;
    1) echo 1 ;;
    *) echo "certify on the training pool of $1 failed (exit $status)" >&2; return 1 ;;
  esac
}

json_field() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@"; }

scales=()
for m in $widths; do
  dir="$out/m$m"
  mkdir -p "$dir"
  pools "$dir" "$m" --weight $((m / 2))
  pool_bound=$(pool_certificate "$dir")
  # Rows of weight m/2 with complement queries (weight m/2 too): the argument's instances and
  # its amplification chains use weight-m/2 tokens only (docs/experiments.md).
  rows_bound=1
  distances="4 6 8"
  [ "$m" -le 20 ] || distances="6 8"  # d = 4 lexicodes grow past 10^4 words beyond m = 20
  for d in $distances; do
    "$KR" --quiet code --lexicode --m "$m" --w $((m / 2)) --d "$d" --out "$dir/lex-d$d.code" >/dev/null
    "$KR" --quiet --json bound --only-code --m "$m" --code "$dir/lex-d$d.code" \
      --cert "$dir/rows-d$d.cert" >"$dir/rows-d$d.json"
    "$CHECK" "$dir/rows-d$d.cert" >/dev/null
    b=$(json_field "$dir/rows-d$d.json" bound)
    if [ "$b" -gt "$rows_bound" ]; then rows_bound=$b; cp "$dir/rows-d$d.cert" "$dir/rows.cert"; fi
  done
  train_pools "$dir" "$features"
  if [ "$m" -le "$slice_max_m" ]; then decide_slice "$dir" "$m"; fi
  scales+=(--scale "m = $m" "$m" "$dir/report.json" "$pool_bound" "$rows_bound" \
    "weight-$((m / 2)) rows")
done
uniform_scales=()
for m in $uniform; do
  dir="$out/uniform-m$m"
  mkdir -p "$dir"
  pools "$dir" "$m"
  # Any token may occur: the bound for the whole cube task T(m,3) holds.
  "$KR" --quiet --json bound --m "$m" --cert "$dir/cube.cert" >"$dir/cube.json"
  "$CHECK" "$dir/cube.cert" >/dev/null
  train_pools "$dir" relu,softmax
  uniform_scales+=(--scale "m = $m, uniform tokens" "$m" "$dir/report.json" \
    "$(pool_certificate "$dir")" \
    "$(json_field "$dir/cube.json" bound)" "the cube T($m,3)")
done

/usr/bin/python3 scripts/experiments/experiment_table.py ood "${scales[@]}" \
  --transitions "$out/transitions.txt" >"$out/table.md"
if [ ${#uniform_scales[@]} -gt 0 ]; then
  { echo; echo "### Uniformly random tokens (no weight constraint)";
    /usr/bin/python3 scripts/experiments/experiment_table.py ood "${uniform_scales[@]}"; } \
    >>"$out/table.md"
fi
IFS=, read -r -a kernel_features <<<"${FEATURES:-relu,square}"
for feature in "${kernel_features[@]}"; do
  plot_args=()
  for m in $widths; do
    bound=$(awk -v m="$m" '$1 == m {print $5; exit}' "$out/transitions.txt")
    plot_args+=(--report "$out/m$m/report.json" --label "m = $m" --bound "$bound")
  done
  "$KR" plot accuracy-vs-r "${plot_args[@]}" --feature "$feature" \
    --title "OOD pools (weight m/2): exact test accuracy of $feature heads against r" \
    --out "$out/ood-accuracy-vs-r-$feature" >/dev/null
done
"$KR" plot transition-vs-m --transitions "$out/transitions.txt" \
  --out "$out/ood-transition-vs-m" >/dev/null
echo "OOD scaling ($preset): $(($(date +%s) - start)) s; $out/table.md"
