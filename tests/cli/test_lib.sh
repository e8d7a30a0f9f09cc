# Shared harness of the shell tests in tests/cli (run_plot_tests.sh, run_safetensors_tests.sh,
# run_train_tests.sh, run_experiment_presets.sh). Not a test itself: a script sources it,
# after `set -u`, as
#
#   . "$(dirname "$0")/test_lib.sh"
#
# and ends with `finish`. Sourcing it
#
# * creates a scratch directory $work (mktemp -d), removed by an EXIT trap however the
#   script ends (so a script must not install an EXIT trap of its own);
# * sets count=0 (checks made) and failures=0 (checks failed); every helper below that makes
#   a check adds 1 to count, and fail adds 1 to failures. A check done by hand in a script
#   adds to count itself (count=$((count + 1))) and calls fail when it does not hold;
# * sets $out, $err (empty) and $code (0) until the first `run`.
#
# Functions:
#
# fail MESSAGE...
#     Prints "FAIL: MESSAGE" and counts a failure (it does not count a check).
#
# run EXPECTED_EXIT NAME -- COMMAND [ARGS...]
#     Counts a check and runs COMMAND with stdout and stderr captured into $work/out and
#     $work/err; afterwards $out and $err hold their text (trailing newlines dropped) and
#     $code the exit code. If the exit code is not EXPECTED_EXIT, it fails "NAME: exit C,
#     expected E", prints the first 400 characters of stdout and stderr, and returns 1 (so
#     `run ... || continue` skips the checks that depend on it); otherwise it returns 0.
#     The third argument (conventionally --) is skipped unread.
#
# contains NAME TEXT NEEDLE
#     Counts a check; fails "NAME: missing 'NEEDLE' in: TEXT" unless TEXT contains NEEDLE.
#
# finish
#     Prints the closing line "P passed, F failed" (P = count - failures) and exits the
#     script: 0 if no check failed, 1 otherwise.

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
count=0
out=""
err=""
code=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() {
  local expected="$1" name="$2"; shift 3
  count=$((count + 1))
  "$@" >"$work/out" 2>"$work/err"
  code=$?
  out="$(cat "$work/out")"; err="$(cat "$work/err")"
  if [ "$code" -ne "$expected" ]; then
    fail "$name: exit $code, expected $expected"
    echo "  stdout: ${out:0:400}"; echo "  stderr: ${err:0:400}"
    return 1
  fi
  return 0
}

contains() {
  count=$((count + 1))
  case "$2" in *"$3"*) ;; *) fail "$1: missing '$3' in: ${2:0:400}";; esac
}

finish() {
  echo "$((count - failures)) passed, $failures failed"
  [ "$failures" -eq 0 ] && exit 0
  exit 1
}
