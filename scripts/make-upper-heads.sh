#!/usr/bin/env bash
# Regenerates the shipped layered heads instances/upper/layered-m<M>-<CLASS>.model with
# `kernelrank upper` (exact layer-set LPs; each head verified by the checker before it is
# written) and their summary instances/upper/summary.tsv (m, class, r, layers, optimal, LPs,
# seconds), from which docs/bound-table.md's upper columns are made.
# Usage: scripts/make-upper-heads.sh [M_MIN M_MAX [CLASS]]   (default 4 64 PF)
set -euo pipefail
cd "$(dirname "$0")/.."
m_min=${1:-4}
m_max=${2:-64}
model_class=${3:-PF}
[ -x build/kernelrank ] || scripts/build.sh kernelrank kernelrank-check
summary=instances/upper/summary.tsv
[ -f "$summary" ] || printf 'm\tclass\tr\tlayers\toptimal\tlps\tseconds\tmax_error_decimal\n' > "$summary"
for ((m = m_min; m <= m_max; m++)); do
  out=instances/upper/layered-m$m-$model_class.model
  json=$(build/kernelrank --json upper --m "$m" --class "$model_class" --out "$out" --lp-budget 4000)
  row=$(python3 -c '
import json, sys
from fractions import Fraction
d = json.loads(sys.argv[1])
print("\t".join([str(d["m"]), d["class"], d["r"], ",".join(map(str, d["layers"])),
                 str(d["optimal"]).lower(), str(d["lps"]), "%.1f" % d["seconds"],
                 "%.12f" % float(Fraction(d["max_error"]))]))' "$json")
  # Replace this (m, class) row, keep the others, sorted by class then m (under a lock, so
  # that runs over different ranges may go side by side).
  (
    flock 9
    { head -n 1 "$summary"; { tail -n +2 "$summary" | awk -F'\t' -v m="$m" -v c="$model_class" \
        '!($1 == m && $2 == c)'; echo "$row"; } | sort -t$'\t' -k2,2 -k1,1n; } > "$summary.tmp.$$"
    mv "$summary.tmp.$$" "$summary"
  ) 9> "${TMPDIR:-/tmp}/kernelrank-upper-summary.lock"
  echo "$row" >&2
done
