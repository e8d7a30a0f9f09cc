#!/usr/bin/env bash
# Runs every example command of README.md, docs/model-format.md, docs/open-questions.md and
# docs/python.md (lines starting with ./build/, or with PYTHONPATH=build/python or
# python3 -c for the Python module, inside ```sh blocks; the python3 -c lines need the
# module registered by scripts/build.sh) against the given build directory, from the
# source directory.
# Output files the examples write under build/ go to a temporary directory.
# Each example must exit with the code, and print on stdout the fragment, that
# tests/cli/readme_expectations.txt gives for its exact text (the file says where each
# value comes from). An example without an entry fails, and so does an entry that matches
# no example: a new README example needs its line in the expectations file.
# Usage: run_readme_examples.sh BUILD_DIR SOURCE_DIR
set -u
build="$(cd "$1" && pwd)"
src="$2"
expectations="$(cd "$(dirname "$0")" && pwd)/readme_expectations.txt"
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

# The expectations, keyed by the command text: EXIT | FRAGMENT | COMMAND.
declare -A want_exit want_fragment used
while IFS= read -r entry; do
  case "$entry" in ''|'#'*) continue ;; esac
  codes="${entry%% | *}"
  rest="${entry#* | }"
  fragment="${rest%% | *}"
  command="${rest#* | }"
  if [ "$codes" = "$entry" ] || [ "$fragment" = "$rest" ] || [ -z "$command" ] ||
      ! [[ "$codes" =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "FAIL: malformed line in $expectations: $entry"
    failures=$((failures + 1))
    continue
  fi
  if [ -n "${want_exit[$command]+x}" ]; then
    echo "FAIL: two entries for: $command"
    failures=$((failures + 1))
  fi
  want_exit[$command]=$codes
  want_fragment[$command]=$fragment
done < "$expectations"

while IFS= read -r line; do
  case "$line" in
    '```sh') in_block=1; continue ;;
    '```') in_block=0; continue ;;
  esac
  [ "$in_block" -eq 1 ] || continue
  case "$line" in ./build/*|'PYTHONPATH=build/python '*|'python3 -c '*) ;; *) continue ;; esac
  if [ -z "${want_exit[$line]+x}" ]; then
    echo "FAIL (no entry in tests/cli/readme_expectations.txt): $line"
    failures=$((failures + 1))
    continue
  fi
  used[$line]=1
  if [ "$has_trainer" -eq 0 ]; then
    case "$line" in *"kernelrank train "*|*build/trained/*) skipped=$((skipped + 1)); continue ;; esac
  fi
  # A build without the Python module (the sanitizer build) skips its examples.
  if [ ! -d "$build/python" ]; then
    case "$line" in 'PYTHONPATH=build/python '*|'python3 -c '*) skipped=$((skipped + 1)); continue ;; esac
  fi
  # Binaries from the build under test; files written to build/ go to the temp dir.
  cmd="${line//.\/build\/kernelrank-check /$build/kernelrank-check }"
  cmd="${cmd//.\/build\/kernelrank /$build/kernelrank }"
  cmd="${cmd// build\// $work/}"
  cmd="${cmd//PYTHONPATH=build\/python /PYTHONPATH=$build/python }"
  count=$((count + 1))
  bash -c "$cmd" >"$work/out" 2>"$work/err" </dev/null
  code=$?
  case ",${want_exit[$line]}," in
    *",$code,"*) ;;
    *)
      echo "FAIL (exit $code, expected ${want_exit[$line]}): $line"
      head -5 "$work/err"
      case "$line" in 'python3 -c '*) echo "  (scripts/install-python-path.sh registers the module; scripts/build.sh runs it)" ;; esac
      failures=$((failures + 1))
      continue ;;
  esac
  if ! grep -qF -- "${want_fragment[$line]}" "$work/out"; then
    echo "FAIL (stdout lacks '${want_fragment[$line]}'): $line"
    head -5 "$work/out"
    failures=$((failures + 1))
  fi
done < <(cat README.md docs/model-format.md docs/open-questions.md; [ -f docs/python.md ] && cat docs/python.md)

for command in "${!want_exit[@]}"; do
  if [ -z "${used[$command]+x}" ]; then
    echo "FAIL (entry matches no README example): $command"
    failures=$((failures + 1))
  fi
done
echo "$count README and docs examples, $failures failures, $skipped skipped (no trainer or Python module in this build)"
[ "$count" -gt 0 ] && [ "$failures" -eq 0 ]
