#!/usr/bin/env bash
# The large certificates of docs/bound-table.md ("Generated rows"): for each M:N pair,
# `kernelrank bound --m M --words N` on all cores (which also runs the checker's library on
# the text before writing it), then the standalone kernelrank-check, both timed. The
# certificates go to instances/bound-certificates/generated/, one JSON row per m (with the
# times and the thread count) to docs/data/generated-bounds.jsonl. Finished m are kept, so
# the script resumes; pass BIN=dir to use another build directory.
# Usage: scripts/make-generated-bounds.sh [M:N ...]
#        default: 64:300000 80:300000 96:1000000 128:1000000 192:300000 256:1000000
# This is hours of work for the six defaults on two cores; CI runs none of it (the test
# suite checks the shipped certificates' small cousins and every shipped certificate's
# generator statement, see bound_certificates).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${BIN:-build}"
out=instances/bound-certificates/generated
data=docs/data/generated-bounds.jsonl
mkdir -p "$out"
touch "$data"
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(64:300000 80:300000 96:1000000 128:1000000 192:300000 256:1000000)
threads=$(nproc)
for spec in "${specs[@]}"; do
  m="${spec%%:*}"; words="${spec##*:}"
  cert="$out/bound-m$m-n3-words$words.cert"
  grep -q "\"m\": $m," "$data" && [ -s "$cert" ] && continue
  start=$(date +%s%N)
  "$bin/kernelrank" --quiet --json bound --m "$m" --words "$words" --cert "$cert.tmp" > "$cert.json.tmp"
  produce=$(( ($(date +%s%N) - start) / 1000000 ))
  mv "$cert.tmp" "$cert"
  start=$(date +%s%N)
  "$bin/kernelrank-check" "$cert" > /dev/null
  check=$(( ($(date +%s%N) - start) / 1000000 ))
  python3 - "$cert.json.tmp" "$produce" "$check" "$threads" "$cert" >> "$data" <<'PY'
import json, os, sys
row = json.load(open(sys.argv[1]))
keep = {k: row[k] for k in ("m", "n", "bound", "words", "weight", "seed", "kept", "unordered_pairs", "trace_decimal")}
keep["produce_seconds"] = int(sys.argv[2]) / 1000
keep["check_seconds"] = int(sys.argv[3]) / 1000
keep["threads"] = int(sys.argv[4])
keep["certificate"] = sys.argv[5]
keep["certificate_bytes"] = os.path.getsize(sys.argv[5])
print(json.dumps(keep, sort_keys=False).replace('"m":', '"m":', 1))
PY
  rm -f "$cert.json.tmp"
  echo "m = $m: r >= $(python3 -c "import json;print(json.load(open('/dev/stdin'))['bound'])" < <(tail -1 "$data")), produce ${produce} ms, check ${check} ms" >&2
done
