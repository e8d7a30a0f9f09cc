#!/usr/bin/env bash
# Interrupted runs leave no partial output (docs/robustness.md): commands that write
# certificates and family files are stopped with SIGINT or SIGTERM at several points,
# then every file left behind must be complete (byte-identical to the file an
# uninterrupted run writes), no temporary file ".NAME.tmp-PID" may remain, and running
# the command again must give byte-identical files (determinism).
#
# The points are events, not delays: "as soon as the process runs", "once K certificates
# exist", "while a temporary file exists". A run may finish before its signal lands; the
# checks hold either way.
# Usage: run_interrupt_tests.sh KERNELRANK SOURCE_DIR
set -u
shopt -s nullglob
kr=$1
work=$(mktemp -d)
pids=()
cleanup() {
  # A background subshell signalled before its exec runs this trap too: only the main
  # shell may clean up.
  [ "$BASHPID" = "$$" ] || return
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
checks=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { checks=$((checks + 1)); }

# Starts a command in the background; its pid is $pid. Job control is on for the start
# only: without it, background commands of a script ignore SIGINT.
launch() {
  set -m
  "$@" >/dev/null 2>&1 &
  pid=$!
  set +m
  pids+=("$pid")
}

# Polls until the function CONDITION succeeds or the process has exited (returns 1 then).
# Builtins only, so that short windows (a temporary file being written) are seen; PAUSE
# is the sleep between polls ("" for none).
wait_until() {  # wait_until PID PAUSE CONDITION ARGS...
  local pid=$1 pause=$2
  shift 2
  while ! "$@"; do
    kill -0 "$pid" 2>/dev/null || return 1
    [ -n "$pause" ] && sleep "$pause"
  done
  return 0
}
at_least_certificates() { local files=("$1"/*.cert); [ "${#files[@]}" -ge "$2" ]; }
has_temporary() { local files=("$1"/.*.tmp-*); [ "${#files[@]}" -gt 0 ]; }
has_any_file() { local files=("$1"/* "$1"/.[!.]*); [ "${#files[@]}" -gt 0 ]; }

# Every file in DIR must be one of the reference files, byte for byte; no temporaries.
check_outputs() {  # check_outputs LABEL DIR REFERENCE_DIR
  local label=$1 dir=$2 reference=$3
  check
  local name
  for path in "$dir"/* "$dir"/.[!.]*; do
    name=$(basename "$path")
    case $name in
      .*.tmp-*) fail "$label: temporary file $name left behind" ;;
      *) if [ ! -f "$reference/$name" ]; then
           fail "$label: unexpected file $name"
         elif ! cmp -s "$path" "$reference/$name"; then
           fail "$label: $name is not the complete file (differs from an uninterrupted run)"
         fi ;;
    esac
  done
}

same_files() {  # same_files LABEL DIR REFERENCE_DIR: the same names and bytes
  local label=$1 dir=$2 reference=$3
  check
  if ! diff -r "$dir" "$reference" >/dev/null; then
    fail "$label: the files differ from the uninterrupted run"
    diff -rq "$dir" "$reference" | head -5
  fi
}

# stop PID SIGNAL: sends the signal and reaps the process; a process killed by the
# signal has status 128 + its number, one that finished first has its own exit code.
stop() {
  local pid=$1 signal=$2
  kill -s "$signal" "$pid" 2>/dev/null
  wait "$pid"
  local status=$?
  check
  if [ "$status" -ne 0 ] && [ "$status" -lt 128 ]; then
    fail "interrupted run exited with $status (expected death by SIG$signal or success)"
  fi
}

# ---- bound --table --cert-dir: one certificate per m -------------------------------------
table=("$kr" --quiet bound --table --m-min 8 --m-max 13)
mkdir -p "$work/table-ref"
"${table[@]}" --cert-dir "$work/table-ref" >/dev/null || fail "uninterrupted bound --table failed"
expected=$(ls "$work/table-ref" | wc -l)
check
[ "$expected" -eq 6 ] || fail "the reference run wrote $expected certificates, expected 6"

point=0
for spec in "0 INT" "1 TERM" "3 INT" "5 TERM"; do
  set -- $spec
  certs=$1 signal=$2
  point=$((point + 1))
  dir=$work/table-$point
  mkdir -p "$dir"
  launch "${table[@]}" --cert-dir "$dir"
  wait_until "$pid" 0.01 at_least_certificates "$dir" "$certs"
  stop "$pid" "$signal"
  check_outputs "bound --table, SIG$signal after $certs certificates" "$dir" "$work/table-ref"
  # A second run into the same directory completes the set, byte for byte.
  "${table[@]}" --cert-dir "$dir" >/dev/null || fail "bound --table rerun failed"
  same_files "bound --table rerun after SIG$signal" "$dir" "$work/table-ref"
done

# ---- a large family file: signal while its temporary file exists -------------------------
# 2^20 instances (about 25 MB): writing and syncing it leaves a window in which the
# temporary file exists; the signal handler must remove it.
instances=("$kr" --quiet instances --m 10 --n 2)
mkdir -p "$work/family-ref"
"${instances[@]}" --out "$work/family-ref/all.family" >/dev/null ||
  fail "uninterrupted instances --out failed"
for signal in TERM INT; do
  dir=$work/family-$signal
  mkdir -p "$dir"
  launch "${instances[@]}" --out "$dir/all.family"
  if wait_until "$pid" "" has_temporary "$dir"; then
    stop "$pid" "$signal"
    [ -e "$dir/all.family" ] && echo "note: instances --out finished its write before SIG$signal"
  else
    wait "$pid"
    echo "note: the temporary file of instances --out was not seen; no SIG$signal sent"
  fi
  check_outputs "instances --out, SIG$signal during the write" "$dir" "$work/family-ref"
  "${instances[@]}" --out "$dir/all.family" >/dev/null || fail "instances --out rerun failed"
  same_files "instances --out rerun after SIG$signal" "$dir" "$work/family-ref"
done

# ---- witness: a family file and its certificate ------------------------------------------
witness=("$kr" --quiet witness --golay octads --max-instances 2000)
mkdir -p "$work/witness-ref"
"${witness[@]}" --out "$work/witness-ref/w.family" --cert "$work/witness-ref/w.cert" >/dev/null ||
  fail "uninterrupted witness failed"
for spec in "start INT" "family TERM"; do
  set -- $spec
  event=$1 signal=$2
  dir=$work/witness-$event
  mkdir -p "$dir"
  launch "${witness[@]}" --out "$dir/w.family" --cert "$dir/w.cert"
  if [ "$event" = family ]; then
    wait_until "$pid" "" has_any_file "$dir"
  fi
  stop "$pid" "$signal"
  check_outputs "witness, SIG$signal at $event" "$dir" "$work/witness-ref"
  "${witness[@]}" --out "$dir/w.family" --cert "$dir/w.cert" >/dev/null || fail "witness rerun failed"
  same_files "witness rerun after SIG$signal" "$dir" "$work/witness-ref"
done

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
