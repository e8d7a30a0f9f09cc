#!/usr/bin/env bash
# Resource limits (docs/robustness.md): parameters that would take hours or gigabytes are
# refused before any work, with exit code 3 and a message "kernelrank: resource limit:"
# that says what the run would need and what to use instead; no output file is created.
# Where the message names a way out (a smaller size, a limit flag), the suggested command
# is run too and must succeed. Each command runs under `timeout` only as a guard against
# a hang (an up-front refusal takes milliseconds); a timeout counts as a failure.
# Usage: run_limit_tests.sh KERNELRANK SOURCE_DIR
set -u
kr=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
count=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run EXPECTED_EXIT NAME -- command...: stdout/stderr in $out/$err.
run() {
  local expected=$1 name=$2
  shift 3
  count=$((count + 1))
  timeout 600 "$@" >"$work/out" 2>"$work/err" </dev/null
  local code=$?
  out=$(cat "$work/out")
  err=$(cat "$work/err")
  if [ "$code" -eq 124 ]; then fail "$name: still running after 600 s (not refused up front)"; return 1; fi
  if [ "$code" -ne "$expected" ]; then
    fail "$name: exit $code, expected $expected"
    echo "  stderr: ${err:0:400}"
    return 1
  fi
  return 0
}
# refused NAME NEEDLE... -- command...: exit 3, the resource-limit prefix, every needle.
refused() {
  local name=$1
  shift
  local needles=()
  while [ "$1" != "--" ]; do needles+=("$1"); shift; done
  shift
  run 3 "$name" -- "$@" || return
  case $err in "kernelrank: resource limit: "*) ;; *) fail "$name: no 'resource limit' prefix: ${err:0:300}" ;; esac
  for needle in "${needles[@]}"; do
    case $err in *"$needle"*) ;; *) fail "$name: message lacks '$needle': ${err:0:300}" ;; esac
  done
}
no_output() {  # no_output NAME PATH...
  local name=$1
  shift
  for path in "$@"; do [ -e "$path" ] && fail "$name: $path was created"; done
  ls -A "$work" | grep -q '\.tmp-' && fail "$name: a temporary file was left behind"
  return 0
}

# ---- overlap profiles: C(m+n,n) * n steps, n <= 1000 -------------------------------------
refused "eval: T(4096,3) through profiles" "C(m+n,n) * n = 3.4e+10" "--max-profile-work" -- \
  "$kr" eval --builtin softmax --base 3 --m 4096 --n 3
refused "eval: n beyond the profile scan (was a 2e9-step loop)" "n=2000000000 is above 1000" -- \
  "$kr" eval --builtin softmax --base 3 --m 100 --n 2000000000
refused "eval: m = 8, n = 5000 (was a stack overflow)" "above 1000" -- \
  "$kr" eval --builtin softmax --base 3 --m 8 --n 5000
refused "eval: a lowered --max-profile-work" "above the limit of 1e+06" -- \
  "$kr" eval --builtin softmax --base 3 --m 200 --n 3 --max-profile-work 1000000
run 0 "eval: within a lowered --max-profile-work" -- \
  "$kr" eval --builtin softmax --base 3 --m 20 --n 3 --profiles --max-profile-work 1000000
refused "softmax-base: m = 1, n = 100000 (was a segfault)" "above 1000" -- \
  "$kr" softmax-base --m 1 --n 100000
refused "softmax-base: m = 4096" "lower --m or --n" -- "$kr" softmax-base --m 4096 --n 3
refused "transition: m = 4096" "lower --m" -- "$kr" transition --m 4096
refused "reproduce: --large-m 4096" "lower --large-m" -- "$kr" reproduce --large-m 4096

# ---- exact powers of a long base ---------------------------------------------------------
refused "eval: softmax base 1e100000 at m = 4096" "kernel values" "bits each" -- \
  "$kr" eval --builtin softmax --base 1e100000 --m 4096 --n 3
refused "eval: product base 1e100000 at m = 16" "kernel values" -- \
  "$kr" eval --builtin product --base 1e100000 --m 16 --n 3

# ---- brute force -------------------------------------------------------------------------
refused "eval: brute force of T(30,3) forced" "out of reach" -- \
  "$kr" eval --builtin softmax --base 3 --m 30 --n 3 --brute-force
refused "eval: tabular model on T(2,40)" "instances" -- \
  "$kr" eval --model "$2/tests/data/models/tabular_m2.model" --n 40
refused "domination: every triple of {0,1}^24" "use a family" -- \
  "$kr" domination --builtin softmax --base 3 --m 24

# ---- codes: pairwise statistics and construction sizes -----------------------------------
refused "code: Johnson m=4096 w=2 (8.4e6 words, 4.6 GB)" "pairs to compare" -- \
  "$kr" code --johnson --m 4096 --w 2 --out "$work/j.code"
no_output "code --johnson" "$work/j.code"
refused "code: Johnson m=24 w=12 (2.7e6 words)" "about 200000 words" -- \
  "$kr" code --johnson --m 24 --w 12
refused "code: lexicode over C(40,20) words" "C(40,20)" "random greedy" -- \
  "$kr" code --lexicode --m 40 --w 20 --d 4
refused "code: random greedy, 1e5 words of width 4096" "lower --max-words" -- \
  "$kr" code --random --m 4096 --w 2048 --d 2 --seed 1
run 0 "code: random greedy with the suggested --max-words" -- \
  "$kr" code --random --m 4096 --w 2048 --d 2 --seed 1 --max-words 2000
python3 -c 'import sys
for i in range(250000): sys.stdout.write(format(i, "018b") + "\n")' >"$work/big.code"
refused "code: statistics of a 250000-word code file" "pairs to compare" "use a smaller code" -- \
  "$kr" code --file "$work/big.code" --out "$work/big-copy.code"
no_output "code --file" "$work/big-copy.code"

# ---- instances and generated families ----------------------------------------------------
refused "instances: T(24,3) to a file" "writes at most 10000000" -- \
  "$kr" instances --m 24 --n 3 --out "$work/all.family"
no_output "instances --out" "$work/all.family"
refused "instances: 2^23 instances of 23 tokens in memory" "in memory" -- \
  "$kr" instances --m 1 --n 23 --out "$work/all.family"
no_output "instances --out (memory)" "$work/all.family"
refused "instances: n = 2000000" "lower --n" -- "$kr" instances --m 4 --n 2000000
run 0 "instances: listing the first of 2^66 instances" -- "$kr" instances --m 22 --n 3 --limit 2
case $out in *"73786976294838206464 in all"*) ;; *) fail "instances: the exact total of T(22,3) is not printed: ${out:0:300}" ;; esac
# Past 2^64 - 1 (2^72 = 4722366482869645213696 for T(24,3)) the listing still exits 0, with the
# JSON total as a decimal string; docs/cli.md says so and no longer promises exit 3.
run 0 "instances: past 2^64 - 1 instances" -- "$kr" --json instances --m 24 --n 3 --limit 1
case $out in *'"total": "4722366482869645213696"'*) ;; *) fail "instances: JSON total of T(24,3): ${out:0:300}" ;; esac
count=$((count + 1))
section=$(awk '/^## instances/ {s = 1; next} /^## / {s = 0} s' "$src/docs/cli.md")
case $section in
  *"a task with more than 2^64 - 1 instances (even without"*) fail "docs/cli.md: instances promises exit 3 past 2^64 - 1" ;;
  *"Without \`--out\`, a task of any size is listed (exit 0)"*) ;;
  *) fail "docs/cli.md: instances does not say that a task of any size is listed with exit 0" ;;
esac
refused "generate: 100000 instances of 1000 tokens of width 4096" "1 GiB" -- \
  "$kr" generate --m 4096 --n 1000 --train 100000 --out-prefix "$work/g"
refused "generate: --train near 2^64 (the sum wrapped around)" "at most 10000000" -- \
  "$kr" generate --train 18446744073709551615 --test 2 --out-prefix "$work/g"
refused "generate: 1e7 instances of 40 one-bit tokens in memory" "in memory" -- \
  "$kr" generate --m 1 --n 40 --train 5000000 --test 5000000 --out-prefix "$work/g"
no_output "generate" "$work/g-train.family" "$work/g-test.family" "$work/g-train.csv"

# ---- witness: constructions too large to enumerate ---------------------------------------
refused "witness: lexicodes of width 64" "C(64,32)" -- \
  "$kr" witness --m 64 --out "$work/w.family" --cert "$work/w.cert"
no_output "witness" "$work/w.family" "$work/w.cert"

echo "$count checks, $failures failures"
[ "$failures" -eq 0 ]
