#!/usr/bin/env bash
# Each model file is opened once per command (models/head_opener.hpp): eval and counterexample
# on a text, JSON, safetensors (with and without its suffix), ball-arithmetic and multi-head
# file, and a sharded eval, which also hashes the model. strace counts the open calls on the
# file; without strace the test is skipped (exit 0 with a note).
# Usage: run_open_once_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, count, failures, finish: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

if ! command -v strace >/dev/null || ! strace -f -o /dev/null true 2>/dev/null; then
  echo "strace unavailable: open counts not checked"
  exit 0
fi

# opened_once NAME FILE -- COMMAND...: the command gives a verdict (exit 0 or 1) and opens FILE
# exactly once.
opened_once() {
  local name="$1" file="$2"; shift 3
  count=$((count + 1))
  # LeakSanitizer cannot run under ptrace (the sanitizer build): leaks are checked elsewhere.
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    strace -f -qq -e trace=open,openat,openat2 -o "$work/trace" "$@" >"$work/out" 2>"$work/err"
  local code=$?
  if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
    fail "$name: exit $code, expected a verdict (0 or 1)"; echo "  stderr: $(head -c 400 "$work/err")"
    return
  fi
  local opens
  opens=$(grep -c -F "\"$file\"" "$work/trace")
  [ "$opens" -eq 1 ] || fail "$name: $file opened $opens times, expected once"
}

# Copies under fresh names, so that no other read of the checkout is counted.
cp "$src/tests/data/models/tabular_m2.model" "$work/text.model"
cp "$src/tests/data/models/tabular_m2.json" "$work/table.json"
cp "$src/tests/data/safetensors/head_m3_relu_f64.safetensors" "$work/relu.safetensors"
cp "$src/tests/data/safetensors/head_m3_relu_f64.safetensors" "$work/relu-head.bin"
cp "$src/instances/heads/elu1-m3-r4-trained.safetensors" "$work/elu1.safetensors"
cp "$src/instances/models/open/nk2-m2-1+1.multihead" "$work/two.multihead"

for file in text.model table.json relu.safetensors relu-head.bin elu1.safetensors two.multihead; do
  opened_once "eval $file" "$work/$file" -- "$kr" eval --model "$work/$file" --n 2
done
for file in text.model relu.safetensors two.multihead; do
  opened_once "counterexample $file" "$work/$file" -- "$kr" counterexample --model "$work/$file" --n 2
done
opened_once "eval --shard (the partial names the model's hash)" "$work/text.model" -- \
  "$kr" eval --model "$work/text.model" --n 2 --shard 1/1 --partial "$work/p.partial"

finish
