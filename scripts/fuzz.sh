#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build-fuzz/ and runs one of them.
#   scripts/fuzz.sh TARGET SECONDS [extra libFuzzer options...]
#   scripts/fuzz.sh list            # the target names
# TARGET is one of the fuzz_* names in tests/fuzz/CMakeLists.txt. The run starts from the
# seed corpus tests/fuzz/corpus/TARGET (read only) and keeps what it finds in
# build-fuzz/corpus/TARGET; crashing inputs go to build-fuzz/artifacts/TARGET/ and the log
# to build-fuzz/logs/TARGET.log. Exit status: 0 when the run ended without a finding.
# See docs/robustness.md.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(fuzz_rational fuzz_token fuzz_code fuzz_family fuzz_model_text fuzz_model_json
         fuzz_certificate fuzz_certificate_family fuzz_certificate_steps)
if [ "${1:-}" = list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
if [ $# -lt 2 ]; then
  echo "usage: scripts/fuzz.sh TARGET SECONDS [libFuzzer options...] | scripts/fuzz.sh list" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
case " ${targets[*]} " in *" $target "*) ;; *) echo "unknown target '$target'" >&2; exit 2;; esac

build=build-fuzz
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DKERNELRANK_FUZZ=ON -DKERNELRANK_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target "$target" -j"$(nproc)" >/dev/null

mkdir -p "$build/corpus/$target" "$build/artifacts/$target" "$build/logs"
log=$build/logs/$target.log
# -timeout: an input running longer than 10 s counts as a hang; -rss_limit_mb: memory
# beyond 2 GB counts as a finding (libFuzzer's default, stated so it is visible).
status=0
"$build/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" "$@" \
  "$build/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|stat::|artifact_prefix|Test unit written)' "$log" || true
echo "log: $log (exit $status)"
exit "$status"
