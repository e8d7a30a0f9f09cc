#!/usr/bin/env bash
# Training throughput: `kernelrank train` against a plain-PyTorch run of the same recipe
# (scripts/experiments/torch_reference.py), same family, same r, same number of steps, one
# thread each, measured back to back in one run; prints both rates and their ratio.
#   scripts/experiments/throughput.sh [STEPS] [R] [FAMILY] [RECIPE]
#   (default 1000 32 witness-m24 witness; RECIPE ood trains in minibatches, and FAMILY is then
#   a training pool such as `generate --m 16 --weight 8 --train 4000` writes)
set -euo pipefail
cd "$(dirname "$0")/../.."
steps="${1:-1000}"
r="${2:-32}"
family="${3:-instances/witness-m24.family}"
recipe="${4:-witness}"
[ -n "${KR:-}" ] || { scripts/build.sh >/dev/null; KR=build/kernelrank; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# --band 0 keeps the loss positive, so that both runs take every step.
"$KR" --quiet --json train --recipe "$recipe" --family "$family" --feature relu --r "$r" \
  --epochs "$steps" --band 0 --threads 1 --out "$out" >"$out/kr.json"
/usr/bin/python3 scripts/experiments/torch_reference.py "$family" --r "$r" --steps "$steps" \
  --recipe "$recipe" --band 0 --json >"$out/torch.json"
/usr/bin/python3 - "$out/kr.json" "$out/torch.json" <<'PY'
import json, sys
kr = json.load(open(sys.argv[1]))["models"][0]
ref = json.load(open(sys.argv[2]))
batch = kr["recipe"]["batch"] or kr["train"]["instances"]
instances = min(batch, kr["train"]["instances"])  # processed per step
kr_rate = instances * kr["recipe"]["steps"] / kr["timing"]["train_seconds"]
ratio = kr_rate / ref["instance_epochs_per_second"]
print(f"kernelrank train: {kr_rate:.0f} instance-epochs/s "
      f"({kr['recipe']['steps']} steps in {kr['timing']['train_seconds']:.1f} s)")
print(f"plain PyTorch:    {ref['instance_epochs_per_second']:.0f} instance-epochs/s "
      f"({ref['steps']} steps in {ref['seconds']:.1f} s)")
print(f"ratio (kernelrank / PyTorch): {ratio:.2f}")
PY
