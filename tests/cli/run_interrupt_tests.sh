#!/usr/bin/env bash
# Interrupted runs leave no partial output (docs/robustness.md): commands that write
# certificates and family files are stopped with SIGINT or SIGTERM at several points,
# then every file left behind must be complete (byte-identical to the file an
# uninterrupted run writes), no temporary file ".NAME.tmp-PID" may remain, and running
# the command again must give byte-identical files (determinism).
#
# The points are events, not delays: "as soon as the process runs", "once K certificates
# exist", "while a temporary file exists". At each point the process is first frozen with
# SIGSTOP, so that what the test sees next cannot change; if it still has work left (fewer
# certificates than the full set, its temporary file not yet renamed, its second file not yet
# written), the signal is sent, the process resumed, and it must die by that signal: exit
# status 130 for SIGINT, 143 for SIGTERM. A binary that ignored the signals, or caught them
# and exited normally, would finish its work instead and fail here. Only when the frozen
# process has no work left (it finished just before) may it end either way. Every command
# must be caught with work left, after its first write began (so with the handler installed),
# at least once; the points that are short windows are retried (up to 5 runs) until one is.
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
# Returns once the background shell has exec'd the command (or the command has already
# ended): a signal that reaches the shell before its exec is swallowed there, and the command
# would then run to completion.
launch() {
  set -m
  "$@" >/dev/null 2>&1 &
  pid=$!
  set +m
  pids+=("$pid")
  while ! started "$pid" "$1"; do :; done
}
started() {  # started PID PROGRAM: PID runs PROGRAM, or has ended (gone or a zombie)
  local exe state
  exe=$(readlink "/proc/$1/exe" 2>/dev/null)
  [ "$exe" = "$(readlink -f "$2")" ] && return 0
  read -r _ _ state _ < "/proc/$1/stat" 2>/dev/null || return 0
  [ "$state" = Z ]
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

fewer_certificates() { ! at_least_certificates "$1" "$2"; }
lacks() { [ ! -e "$1" ]; }

# interrupt LABEL PID SIGNAL CONDITION ARGS...: freezes the process (SIGSTOP), then evaluates
# CONDITION, which holds when the process provably has work left. Sends SIGNAL and resumes
# the process (SIGCONT; the pending signal is delivered before it runs on) and reaps it.
# With work left it must have died by the signal (status 128 + its number); otherwise it may
# also have finished (status 0). Sets last_required to 1 when death was required, else 0.
required=0
last_required=0
interrupt() {
  local label=$1 pid=$2 signal=$3
  shift 3
  kill -STOP "$pid" 2>/dev/null
  local work_left=0
  "$@" && work_left=1
  kill -s "$signal" "$pid" 2>/dev/null
  kill -CONT "$pid" 2>/dev/null
  wait "$pid"
  local status=$?
  local death=$((128 + $(kill -l "$signal")))
  check
  last_required=$work_left
  if [ "$work_left" -eq 1 ]; then
    [ "$status" -eq "$death" ] ||
      fail "$label: exited with $status, expected death by SIG$signal (status $death)"
  elif [ "$status" -ne 0 ] && [ "$status" -ne "$death" ]; then
    fail "$label: exited with $status (expected death by SIG$signal or success)"
  else
    echo "note: $label: the process had finished its work when frozen; death not required"
  fi
}
# caught_with_work_left COMMAND: some scenario of COMMAND with the handler installed required
# death by the signal ($required counts them).
caught_with_work_left() {
  check
  [ "$required" -gt 0 ] || fail "$1: no scenario caught the process with work left"
  required=0
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
  interrupt "bound --table, SIG$signal after $certs certificates" "$pid" "$signal" \
    fewer_certificates "$dir" "$expected"
  [ "$certs" -gt 0 ] && required=$((required + last_required))
  check_outputs "bound --table, SIG$signal after $certs certificates" "$dir" "$work/table-ref"
  # A second run into the same directory completes the set, byte for byte.
  "${table[@]}" --cert-dir "$dir" >/dev/null || fail "bound --table rerun failed"
  same_files "bound --table rerun after SIG$signal" "$dir" "$work/table-ref"
done
caught_with_work_left "bound --table"

# ---- a large family file: signal while its temporary file exists -------------------------
# 2^20 instances (about 25 MB): writing and syncing it leaves a window in which the
# temporary file exists; the signal handler must remove it.
instances=("$kr" --quiet instances --m 10 --n 2)
mkdir -p "$work/family-ref"
"${instances[@]}" --out "$work/family-ref/all.family" >/dev/null ||
  fail "uninterrupted instances --out failed"
for signal in TERM INT; do
  dir=$work/family-$signal
  for attempt in 1 2 3 4 5; do
    rm -rf "$dir"
    mkdir -p "$dir"
    launch "${instances[@]}" --out "$dir/all.family"
    if wait_until "$pid" "" has_temporary "$dir"; then
      # Frozen with its temporary file still there, it has not renamed it yet: the handler
      # must remove it and the process die.
      interrupt "instances --out, SIG$signal during the write" "$pid" "$signal" has_temporary "$dir"
      [ -e "$dir/all.family" ] && echo "note: instances --out finished its write before SIG$signal"
    else
      wait "$pid"
      last_required=0
      echo "note: the temporary file of instances --out was not seen; no SIG$signal sent"
    fi
    [ "$last_required" -eq 1 ] && break
  done
  required=$((required + last_required))
  check_outputs "instances --out, SIG$signal during the write" "$dir" "$work/family-ref"
  "${instances[@]}" --out "$dir/all.family" >/dev/null || fail "instances --out rerun failed"
  same_files "instances --out rerun after SIG$signal" "$dir" "$work/family-ref"
done
caught_with_work_left "instances --out"

# ---- witness: a family file and its certificate ------------------------------------------
witness=("$kr" --quiet witness --golay octads --max-instances 2000)
mkdir -p "$work/witness-ref"
"${witness[@]}" --out "$work/witness-ref/w.family" --cert "$work/witness-ref/w.cert" >/dev/null ||
  fail "uninterrupted witness failed"
for spec in "start INT" "family TERM"; do
  set -- $spec
  event=$1 signal=$2
  dir=$work/witness-$event
  for attempt in 1 2 3 4 5; do
    rm -rf "$dir"
    mkdir -p "$dir"
    launch "${witness[@]}" --out "$dir/w.family" --cert "$dir/w.cert"
    if [ "$event" = family ]; then
      wait_until "$pid" "" has_any_file "$dir"
    fi
    # Until the certificate (its second file) exists, it has work left.
    interrupt "witness, SIG$signal at $event" "$pid" "$signal" lacks "$dir/w.cert"
    # At the start no handler is installed yet (the default action ends it): only the
    # point after the first write began counts, and it is retried until caught.
    [ "$event" = start ] && break
    [ "$last_required" -eq 1 ] && break
  done
  [ "$event" = family ] && required=$((required + last_required))
  check_outputs "witness, SIG$signal at $event" "$dir" "$work/witness-ref"
  "${witness[@]}" --out "$dir/w.family" --cert "$dir/w.cert" >/dev/null || fail "witness rerun failed"
  same_files "witness rerun after SIG$signal" "$dir" "$work/witness-ref"
done
caught_with_work_left "witness"

echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
