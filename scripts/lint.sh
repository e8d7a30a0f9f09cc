#!/usr/bin/env bash
# Static checks on the project's own code (docs/robustness.md, "Static checks"):
#   1. clang-format: every tracked C++ file is formatted as .clang-format says;
#   2. clang-tidy: the checks in .clang-tidy, as errors, on every translation unit under src/
#      (headers under src/ and include/ through them), with build/'s compile commands;
#      scripts/lint-tidy.py runs it, and on a warm machine only on what changed.
# Usage: scripts/lint.sh [BUILD_DIR]   (default build/, configured by scripts/build.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
command -v clang-format >/dev/null && command -v clang-tidy >/dev/null || {
  echo "lint.sh: needs clang-format and clang-tidy (apt-get install clang-format clang-tidy)" >&2
  exit 2
}
[ -f "$build/compile_commands.json" ] || {
  echo "lint.sh: no $build/compile_commands.json; run scripts/build.sh first" >&2
  exit 2
}
git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror
echo "lint.sh: clang-format: $(git ls-files '*.cpp' '*.hpp' | wc -l) files formatted"
scripts/lint-tidy.py "$build"
