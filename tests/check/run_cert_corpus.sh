#!/usr/bin/env bash
# Runs the real kernelrank-check over the certificate corpus (certificates <case>.cert and
# layered heads <case>.model, docs/certificate-format.md) and checks, for every case:
#   valid/     exit 0, exactly one status line "s VERIFIED", nothing on stderr;
#   invalid/   exit 1, exactly one status line "s NOT VERIFIED";
#   malformed/ exit 2, exactly one status line "s NOT VERIFIED";
# and for invalid/malformed exactly one error line "FILE:LINE: error: ..." naming the file
# and line given in <case>.expect and containing its message fragment. Every stdout line
# must be a comment ("c ...") or the status line. <case>.family, when present, is passed
# as the FAMILY argument. A few argument errors are checked at the end.
# Usage: run_cert_corpus.sh CHECKER CORPUS_DIR
set -u
checker=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# STOP_AT_FIRST_FAILURE=1 stops at the first failing case (the mutation harness needs only
# the first). The checks below use shell builtins: a few forks per case added up to most of
# the run's time.
stop_at_first=${STOP_AT_FIRST_FAILURE:-0}

problem() {
  echo "FAIL $1: $2" >&2
  echo "  stdout:" >&2; printf '    %s\n' "${out_lines[@]}" >&2
  echo "  stderr:" >&2; printf '    %s\n' "${err_lines[@]}" >&2
}

# check_run NAME EXPECTED_EXIT STATUS_LINE ERROR_PREFIX MESSAGE -- ARGS...
# ERROR_PREFIX empty: no error line may appear.
check_run() {
  local name=$1 want_exit=$2 want_status=$3 prefix=$4 message=$5
  shift 6
  "$checker" "$@" >"$work/out" 2>"$work/err"
  local got_exit=$?
  mapfile -t out_lines < "$work/out"
  mapfile -t err_lines < "$work/err"
  local l statuses=0 status_line="" other=0 errors=0 found=0
  for l in "${out_lines[@]}"; do
    case $l in
      "s "*) statuses=$((statuses + 1)); status_line=$l ;;
      "c "*) ;;
      *) other=1 ;;
    esac
  done
  for l in "${out_lines[@]}" "${err_lines[@]}"; do
    if [[ $l == *": error: "* ]]; then
      errors=$((errors + 1))
      [[ $l == "$prefix"* && $l == *"$message"* ]] && found=1
    fi
  done
  local ok=1
  if [ "$got_exit" -ne "$want_exit" ]; then
    problem "$name" "exit $got_exit, expected $want_exit"; ok=0
  elif [ "$statuses" -ne 1 ] || [ "$status_line" != "$want_status" ]; then
    problem "$name" "expected exactly one status line '$want_status'"; ok=0
  elif [ "$other" -ne 0 ]; then
    problem "$name" "stdout has a line that is neither a comment nor the status line"; ok=0
  elif [ -z "$prefix" ]; then
    if [ -s "$work/err" ]; then problem "$name" "unexpected output on stderr"; ok=0; fi
  elif [ "$errors" -ne 1 ]; then
    problem "$name" "expected exactly one error line, found $errors"; ok=0
  elif [ "$found" -ne 1 ]; then
    problem "$name" "expected an error line starting '$prefix' containing '$message'"; ok=0
  fi
  if [ "$ok" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  if [ "$ok" -eq 0 ] && [ "$stop_at_first" = 1 ]; then
    echo "$passed passed, $failed failed (stopped at the first failure)"
    exit 1
  fi
}

expect_field() {  # expect_field FILE KEY: the first "KEY: value" line's value
  local l
  while IFS= read -r l || [ -n "$l" ]; do
    if [[ $l == "$2: "* ]]; then printf '%s\n' "${l#"$2: "}"; return; fi
  done < "$1"
}

for folder in valid invalid malformed; do
  case $folder in
    valid) code=0; status="s VERIFIED" ;;
    invalid) code=1; status="s NOT VERIFIED" ;;
    malformed) code=2; status="s NOT VERIFIED" ;;
  esac
  count=0
  for cert in "$corpus/$folder"/*.cert "$corpus/$folder"/*.model; do
    [ -e "$cert" ] || continue
    count=$((count + 1))
    base=${cert%.*}
    name="$folder/$(basename "$base")"
    args=("$cert")
    [ -e "$base.family" ] && args+=("$base.family")
    if [ "$folder" = valid ]; then
      check_run "$name" 0 "$status" "" "" -- "${args[@]}"
      continue
    fi
    if [ ! -f "$base.expect" ]; then
      echo "FAIL $name: no $base.expect" >&2; failed=$((failed + 1)); continue
    fi
    where=$(expect_field "$base.expect" where)
    line=$(expect_field "$base.expect" line)
    message=$(expect_field "$base.expect" message)
    file=$cert
    [ "$where" = family ] && file=$base.family
    if [ -z "$line" ]; then
      echo "FAIL $name: $base.expect has no 'line:'" >&2; failed=$((failed + 1)); continue
    fi
    check_run "$name" "$code" "$status" "$file:$line: error: " "$message" -- "${args[@]}"
  done
  if [ "$count" -eq 0 ]; then
    echo "FAIL $folder: no certificates found in $corpus/$folder" >&2; failed=$((failed + 1))
  fi
done

# Arguments and files.
valid_family_cert=$corpus/valid/family_trace.cert
check_run "args/none" 2 "s NOT VERIFIED" "kernelrank-check: error: usage" "" --
check_run "args/three" 2 "s NOT VERIFIED" "kernelrank-check: error: usage" "" -- a b c
check_run "args/missing-cert" 2 "s NOT VERIFIED" "$work/absent.cert:0: error: " "cannot open" \
  -- "$work/absent.cert"
check_run "args/missing-family" 2 "s NOT VERIFIED" "$work/absent.family:0: error: " "cannot open" \
  -- "$valid_family_cert" "$work/absent.family"
check_run "args/directory" 2 "s NOT VERIFIED" "$corpus:0: error: " "is a directory, expected a file" -- "$corpus"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
