#!/usr/bin/env bash
# Files that are no regular files (a FIFO with no writer, a device) are refused by name with
# exit 2 before they are opened: opening a FIFO for reading blocks until a writer comes, so
# without the check each command below would hang (the timeout turns a hang into exit 124).
# Covered: the producer's text, family, safetensors and multi-head readers, and the
# checker's own reader (src/check, which shares no code with the producer).
# Usage: run_special_file_tests.sh KERNELRANK KERNELRANK_CHECK SOURCE_DIR
set -u
kr=$1
check=$2
src=$3
. "$(dirname "$0")/test_lib.sh"
mkfifo "$work/pipe" "$work/pipe.safetensors" "$work/pipe.model" || { fail "mkfifo"; finish; }
model="$src/instances/models/features-nk-m5-r2.model"
cert="$src/instances/witness-m24.cert"
message="is not a regular file (a FIFO, socket or device), expected a file"

refused() {  # refused NAME FILE COMMAND...
  local name=$1 file=$2
  shift 2
  run 2 "$name" -- timeout 20 "$@" || return
  contains "$name names the file" "$err" "$file"
  contains "$name says why" "$err" "$message"
}
refused "eval --model FIFO" "$work/pipe" "$kr" eval --model "$work/pipe" --n 2
refused "eval --model FIFO.model" "$work/pipe.model" "$kr" eval --model "$work/pipe.model" --n 2
refused "eval --model FIFO.safetensors" "$work/pipe.safetensors" \
  "$kr" eval --model "$work/pipe.safetensors" --n 2
refused "eval --family FIFO" "$work/pipe" "$kr" eval --model "$model" --family "$work/pipe"
refused "counterexample --model FIFO" "$work/pipe" "$kr" counterexample --model "$work/pipe" --n 3
refused "domination --family FIFO" "$work/pipe" "$kr" domination --family "$work/pipe"
refused "check FIFO certificate" "$work/pipe" "$check" "$work/pipe"
refused "check FIFO family" "$work/pipe" "$check" "$cert" "$work/pipe"
# A character device: the same refusal (it would read forever or not at all).
refused "eval --model /dev/zero" /dev/zero "$kr" eval --model /dev/zero --n 2
refused "check /dev/zero" /dev/zero "$check" /dev/zero
# Unchanged: a directory and a missing file keep their own messages.
run 2 "eval --model DIR" -- "$kr" eval --model "$work" --n 2
contains "directory message" "$err" "is a directory, expected a file"
run 2 "eval --model MISSING" -- "$kr" eval --model "$work/missing.model" --n 2
contains "missing file message" "$err" "cannot open file"
finish
