#!/usr/bin/env bash
# Regenerates the shipped data in instances/ (deterministic: same bytes every run).
#   instances/witness-m24.cert            the certificate of the shipped witness family
#                                         (instances/witness-m24.family is frozen: the models
#                                         of docs/min-rank.md are built for it; it was written
#                                         by `witness --m 24` when that chose the d = 12
#                                         lexicode, before the shifted trace rule made the
#                                         d = 10 lexicode score higher)
#   instances/models/*.model              example models (scripts/make_example_models.py)
#   instances/counterexamples/*           the failing instance found for each model
# Needs a build (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
kr=build/kernelrank
python3 scripts/make_example_models.py instances/models
"$kr" --quiet certify --family instances/witness-m24.family --cert instances/witness-m24.cert
build/kernelrank-check instances/witness-m24.cert instances/witness-m24.family
mkdir -p instances/counterexamples
for model in instances/models/*.model; do
  name=$(basename "$model" .model)
  for task in cube witness; do
    args=(--n 3)
    [ "$task" = witness ] && args=(--family instances/witness-m24.family)
    case "$name" in *m24*) ;; *) [ "$task" = witness ] && continue ;; esac
    out="instances/counterexamples/$name-$task"
    rm -f "$out.family"
    set +e
    "$kr" --quiet counterexample --model "$model" "${args[@]}" --out "$out.family" > "$out.txt"
    code=$?
    set -e
    [ "$code" -le 1 ] || { echo "counterexample failed for $model ($task)" >&2; exit 1; }
  done
done
