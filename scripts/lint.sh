#!/usr/bin/env bash
# Static checks on the project's own code (docs/robustness.md, "Static checks"):
#   1. clang-format: every tracked C++ file is formatted as .clang-format says;
#   2. clang-tidy: the checks in .clang-tidy, as errors, on every translation unit under src/
#      (headers under src/ and include/ through them), with build/'s compile commands.
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/, configured by scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
command -v clang-format >/dev/null && command -v run-clang-tidy >/dev/null || {
  echo "lint.sh: needs clang-format and clang-tidy (apt-get install clang-format clang-tidy)" >&2
  exit 2
}
[ -f "$build/compile_commands.json" ] || {
  echo "lint.sh: no $build/compile_commands.json; run scripts/build.sh first" >&2
  exit 2
}
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror
echo "lint.sh: clang-format: $(git ls-files '*.cpp' '*.hpp' | wc -l) files formatted"
# Every translation unit under src/ except src/train/: libtorch's headers do not parse with
# clang 14 against GCC 12's library (they build with GCC); train/ holds only the torch glue.
files="^$PWD/src/(?!train/)"
run-clang-tidy -p "$build" -j "$(nproc)" -quiet "$files" > "$build/clang-tidy.log" 2>&1 || {
  grep -E "error:|warning:" "$build/clang-tidy.log" | sort -u | head -50 >&2
  echo "lint.sh: clang-tidy found problems, see $build/clang-tidy.log" >&2
  exit 1
}
count=$(grep -cP "\"file\": \"$PWD/src/(?!train/)" "$build/compile_commands.json")
echo "lint.sh: clang-tidy: $count translation units clean"
