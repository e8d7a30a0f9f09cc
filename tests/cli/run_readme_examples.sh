#!/usr/bin/env bash
# Runs every example command of README.md (lines starting with ./build/ inside
# ```sh blocks) against the given build directory, from the source directory.
# Output files the examples write under build/ go to a temporary directory.
# A command passes when it exits 0 or 1 (1 is a legitimate "fails/refuted").
# Usage: run_readme_examples.sh BUILD_DIR SOURCE_DIR
set -u
build="$(cd "$1" && pwd)"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 2
failures=0
count=0
skipped=0
in_block=0
# A build without libtorch (the sanitizer build) cannot train: skip the training examples and
# the ones that read their output.
has_trainer=1
grep -q '^KERNELRANK_TORCH:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null || has_trainer=0
while IFS= read -r line; do
  case "$line" in
    '```sh') in_block=1; continue ;;
    '```') in_block=0; continue ;;
  esac
  [ "$in_block" -eq 1 ] || continue
  case "$line" in ./build/*) ;; *) continue ;; esac
  if [ "$has_trainer" -eq 0 ]; then
    case "$line" in *"kernelrank train "*|*build/trained/*) skipped=$((skipped + 1)); continue ;; esac
  fi
  # Binaries from the build under test; files written to build/ go to the temp dir.
  cmd="${line//.\/build\/kernelrank-check /$build/kernelrank-check }"
  cmd="${cmd//.\/build\/kernelrank /$build/kernelrank }"
  cmd="${cmd// build\// $work/}"
  count=$((count + 1))
  bash -c "$cmd" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" -gt 1 ]; then
    echo "FAIL (exit $code): $line"
    head -5 "$work/err"
    failures=$((failures + 1))
  fi
done < README.md
echo "$count README examples, $failures failures, $skipped skipped (no trainer in this build)"
[ "$count" -gt 0 ] && [ "$failures" -eq 0 ]
