#!/usr/bin/env bash
# Strong scaling of `bound --words` on this machine (docs/scale-out.md, "Measured here"):
# the same certificate made with 1 thread, 2 threads, and 2 MPI ranks of 1 thread each,
# wall-clock times of each run (pair pass plus the checker's library on the text), and a
# byte comparison of the certificates. Usage: scripts/bench-scaling.sh [M] [WORDS] [BIN]
set -euo pipefail
cd "$(dirname "$0")/.."
m="${1:-128}"
words="${2:-200000}"
bin="${3:-build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mpi_flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)
timed() {  # timed LABEL COMMAND...: prints LABEL and the wall-clock seconds
  local label="$1"; shift
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null
  end=$(date +%s%N)
  python3 -c 'import sys; print(f"{sys.argv[1]:<28} {(int(sys.argv[3]) - int(sys.argv[2])) / 1e9:8.2f} s")' "$label" "$start" "$end"
}
echo "bound --m $m --words $words ($(python3 -c "print(f'{$words*($words-1)//2:.3g}')") unordered pairs), $(nproc) cores"
timed "1 process, 1 thread" "$bin/kernelrank" --quiet bound --m "$m" --words "$words" --threads 1 --cert "$work/a.cert"
timed "1 process, 2 threads" "$bin/kernelrank" --quiet bound --m "$m" --words "$words" --threads 2 --cert "$work/b.cert"
if grep -q '^KERNELRANK_WITH_MPI:BOOL=ON' "$bin/CMakeCache.txt" 2>/dev/null; then
  timed "2 MPI ranks, 1 thread each" mpirun "${mpi_flags[@]}" -np 2 "$bin/kernelrank" --quiet bound --m "$m" \
    --words "$words" --threads 1 --mpi --cert "$work/c.cert"
  cmp "$work/a.cert" "$work/c.cert" && echo "certificates: 2 MPI ranks = 1 process"
fi
cmp "$work/a.cert" "$work/b.cert" && echo "certificates: 2 threads = 1 thread"
