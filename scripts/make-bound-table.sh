#!/usr/bin/env bash
# Regenerates the certified bound table (docs/bound-table.md) and its certificates
# (instances/bound-certificates/bound-m<M>-n3.cert.xz) for m = M_MIN..M_MAX.
# Each m is one `kernelrank bound --m M --cert ...` run (deterministic: seeds are fixed),
# checked at once by kernelrank-check; finished rows are kept, so the script resumes.
# The rows of every m ever computed live in docs/data/bound-table.jsonl (one JSON object
# per m, with the times measured when it was made); a run replaces the rows of its m range
# and re-renders the whole table, so one m can be redone without the hours of the others.
# Usage: scripts/make-bound-table.sh [M_MIN] [M_MAX]    (default 1 64; needs a build)
set -euo pipefail
cd "$(dirname "$0")/.."
m_min="${1:-1}"
m_max="${2:-64}"
out=instances/bound-certificates
rows=build/bound-table-rows
mkdir -p "$out" "$rows"
for m in $(seq "$m_min" "$m_max"); do
  cert="build/bound-m$m-n3.cert"
  [ -s "$rows/m$m.json" ] && [ -s "$out/bound-m$m-n3.cert.xz" ] && continue
  start=$(date +%s%N)
  build/kernelrank --quiet --json bound --m "$m" --cert "$cert" > "$rows/m$m.tmp"
  produce=$(( ($(date +%s%N) - start) / 1000000 ))
  start=$(date +%s%N)
  build/kernelrank-check "$cert" > /dev/null
  check=$(( ($(date +%s%N) - start) / 1000000 ))
  python3 - "$rows/m$m.tmp" "$produce" "$check" > "$rows/m$m.json" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))
row.pop("tried", None)
row.pop("gap_histogram", None)
row["produce_seconds"] = round(int(sys.argv[2]) / 1000, 1)
row["check_seconds"] = round(int(sys.argv[3]) / 1000, 2)
print(json.dumps(row))
PY
  rm -f "$rows/m$m.tmp"
  xz -9 -c "$cert" > "$out/bound-m$m-n3.cert.xz.tmp" && mv "$out/bound-m$m-n3.cert.xz.tmp" "$out/bound-m$m-n3.cert.xz"
  echo "m=$m done: $(python3 -c "import json;print(json.load(open('$rows/m$m.json'))['bound'])")" >&2
done
python3 scripts/bound_table_markdown.py "$rows" "$m_min" "$m_max" docs/data/bound-table.jsonl > docs/bound-table.md.tmp
mv docs/bound-table.md.tmp docs/bound-table.md
