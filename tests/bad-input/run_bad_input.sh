#!/usr/bin/env bash
# Runs every malformed file of tests/bad-input/ through each command that reads its kind,
# kernelrank's and kernelrank-check's, and compares with the case's .expect file.
#
#   model/   model files (text and JSON)   eval, counterexample (--out), domination
#   family/  family files                  eval, certify (--cert), counterexample (--out), check
#   code/    code files                    code (--out), eval (--tokens), instances (--out),
#                                          witness (--out --cert), bound (--cert), generate
#   cert/    certificates (+ CASE.family)  check, baseline (certify --baseline, --cert)
#
# CASE.expect has one line per command of its kind: TOOL EXIT LINE MESSAGE-FRAGMENT (LINE is
# LINE:COLUMN for JSON models, whose errors name the column too).
# EXIT 0 is allowed only where the file is well-formed for that command (a certificate
# that the checker finds wrong is a fine --baseline), never for kernelrank-check.
# A run passes when its exit code is EXIT, it did not crash (exit < 128, no
# sanitizer report), stderr has a line "FILE:LINE: error: ..." containing the fragment
# (LINE "-": the fragment anywhere on stderr), no output file and no temporary file was
# left behind, and, for kernelrank-check, stdout has exactly one status line,
# "s NOT VERIFIED". Every case runs a second time with CRLF line endings and must give
# the same result, unless its .expect says "# no-crlf". Generated cases: a directory and
# a missing path for every command, a sparse file over 1 GiB, a number of a million
# digits; and valid files converted to CRLF must give the same output as the originals.
#
# Usage: run_bad_input.sh KERNELRANK KERNELRANK_CHECK SOURCE_DIR [PART]
#   PART: all (default); model (the model cases, about half of the runs); rest (the other
#   kinds, the generated cases and the CRLF comparisons). CTest runs the two halves as two
#   tests, so that neither comes near the 300 s budget per test under the sanitizers.
set -u
export LC_ALL=C
kr=$1
checker=$2
src=$3
part=${4:-all}
case $part in
  all) corpus_kinds="model family code cert"; extras=1 ;;
  model) corpus_kinds="model"; extras=0 ;;
  rest) corpus_kinds="family code cert"; extras=1 ;;
  *) echo "run_bad_input.sh: PART must be all, model or rest, found '$part'" >&2; exit 2 ;;
esac
corpus=$src/tests/bad-input
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out_dir=$work/outputs
mkdir -p "$out_dir" "$work/crlf" "$work/generated"
family_cert=$src/tests/certs/valid/family_trace.cert
family_file=$src/tests/certs/valid/family_trace.family
passed=0
failed=0

tools_of() {
  case $1 in
    model) echo "eval counterexample domination" ;;
    family) echo "eval certify counterexample check" ;;
    code) echo "code eval instances witness bound generate" ;;
    cert) echo "check baseline" ;;
  esac
}

# Sets the array `cmd` for running TOOL of KIND on FILE (outputs go to $out_dir).
command_for() {
  local kind=$1 tool=$2 file=$3
  case $kind/$tool in
    model/eval) cmd=("$kr" eval --model "$file" --n 3) ;;
    model/counterexample) cmd=("$kr" counterexample --model "$file" --out "$out_dir/ce.family") ;;
    model/domination) cmd=("$kr" domination --model "$file") ;;
    family/eval) cmd=("$kr" eval --builtin rank1-mean --family "$file") ;;
    family/certify) cmd=("$kr" certify --family "$file" --cert "$out_dir/c.cert") ;;
    family/counterexample)
      cmd=("$kr" counterexample --builtin rank1-mean --family "$file" --out "$out_dir/ce.family") ;;
    family/check) cmd=("$checker" "$family_cert" "$file") ;;
    code/code) cmd=("$kr" code --file "$file" --out "$out_dir/c.code") ;;
    code/eval) cmd=("$kr" eval --builtin rank1-mean --tokens "$file" --n 2) ;;
    code/instances) cmd=("$kr" instances --tokens "$file" --n 2 --out "$out_dir/i.family") ;;
    code/witness) cmd=("$kr" witness --code "$file" --out "$out_dir/w.family" --cert "$out_dir/w.cert") ;;
    code/bound) cmd=("$kr" bound --code "$file" --cert "$out_dir/b.cert") ;;
    code/generate) cmd=("$kr" generate --code "$file" --out-prefix "$out_dir/g") ;;
    cert/check)
      cmd=("$checker" "$file")
      local family=${file%.cert}.family
      if [ -e "$family" ]; then cmd+=("$family"); fi ;;
    cert/baseline)
      cmd=("$kr" certify --family "$family_file" --baseline "$file" --cert "$out_dir/c.cert") ;;
    *) return 1 ;;
  esac
}

report() {  # report NAME PROBLEM
  echo "FAIL $1: $2" >&2
  echo "  command: ${cmd[*]:0:8}" >&2
  echo "  stderr: $(head -c 600 "$work/err")" >&2
  failed=$((failed + 1))
}

# run_case NAME KIND TOOL FILE EXIT LINE FRAGMENT
run_case() {
  local name=$1 kind=$2 tool=$3 file=$4 want_exit=$5 want_line=$6 fragment=$7
  if ! command_for "$kind" "$tool" "$file"; then
    echo "FAIL $name: unknown tool '$tool' for $kind" >&2; failed=$((failed + 1)); return
  fi
  rm -rf "${out_dir:?}"/* "$out_dir"/.[!.]* 2>/dev/null
  "${cmd[@]}" >"$work/out" 2>"$work/err" </dev/null
  local got=$?
  if [ "$want_exit" -eq 0 ] && [ "$tool" = check ]; then
    report "$name" "the corpus expects the checker to exit 0"; return
  fi
  if [ "$got" -ge 128 ]; then report "$name" "crashed (exit $got)"; return; fi
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$work/err"; then
    report "$name" "sanitizer report"; return
  fi
  if [ "$got" -ne "$want_exit" ]; then report "$name" "exit $got, expected $want_exit"; return; fi
  # Exit 0: the file is well-formed for this command (a certificate the checker finds
  # wrong is a fine --baseline); nothing more to check.
  if [ "$want_exit" -eq 0 ]; then passed=$((passed + 1)); return; fi
  if [ "$want_line" = "-" ]; then
    if ! grep -qF -- "$fragment" "$work/err"; then report "$name" "stderr lacks '$fragment'"; return; fi
  elif ! P="$file:$want_line: error: " M=$fragment awk \
      'index($0, ENVIRON["P"]) == 1 && index($0, ENVIRON["M"]) > 0 { found = 1 } END { exit !found }' \
      "$work/err"; then
    report "$name" "no line '$file:$want_line: error: ...$fragment...'"; return
  fi
  if [ -n "$(ls -A "$out_dir")" ]; then
    report "$name" "left output behind: $(ls -A "$out_dir" | tr '\n' ' ')"; return
  fi
  if [ "$tool" = check ]; then
    if [ "$(grep -c '^s ' "$work/out")" -ne 1 ] || ! grep -qx 's NOT VERIFIED' "$work/out"; then
      report "$name" "expected exactly one status line 's NOT VERIFIED'"; return
    fi
  fi
  passed=$((passed + 1))
}

# run_expectations KIND CASE_FILE EXPECT_FILE FILE_TO_RUN LABEL
run_expectations() {
  local kind=$1 case_file=$2 expect=$3 file=$4 label=$5
  local seen=" "
  while read -r tool want_exit want_line fragment; do
    case $tool in ''|'#'*) continue ;; esac
    seen="$seen$tool "
    run_case "$label/$tool" "$kind" "$tool" "$file" "$want_exit" "$want_line" "$fragment"
  done <"$expect"
  for tool in $(tools_of "$kind"); do
    case $seen in *" $tool "*) ;; *)
      echo "FAIL $label: $expect has no line for '$tool'" >&2; failed=$((failed + 1)) ;;
    esac
  done
}

# ---- the corpus ----------------------------------------------------------------------
for kind in $corpus_kinds; do
  count=0
  for case_file in "$corpus/$kind"/*; do
    case $case_file in *.expect) continue ;; esac
    if [ "$kind" = cert ]; then case $case_file in *.cert) ;; *) continue ;; esac; fi
    base=${case_file%.*}
    name=$kind/$(basename "$case_file")
    if [ ! -f "$base.expect" ]; then
      echo "FAIL $name: no $(basename "$base").expect" >&2; failed=$((failed + 1)); continue
    fi
    count=$((count + 1))
    run_expectations "$kind" "$case_file" "$base.expect" "$case_file" "$name"
    # The same file with CRLF line endings must fail in the same way.
    if ! grep -q 'no-crlf' "$base.expect" && [ "$(wc -l <"$case_file")" -gt 0 ] &&
        ! grep -q $'\r' "$case_file"; then
      crlf=$work/crlf/$(basename "$case_file")
      sed 's/$/\r/' "$case_file" >"$crlf"
      # sed adds a CR to an unterminated last line too; keep it unterminated.
      if [ -n "$(tail -c 1 "$case_file")" ]; then truncate -s -1 "$crlf"; fi
      [ -e "$base.family" ] && cp "$base.family" "${crlf%.*}.family"
      run_expectations "$kind" "$case_file" "$base.expect" "$crlf" "$name (CRLF)"
    fi
  done
  if [ "$count" -eq 0 ]; then echo "FAIL $kind: no cases" >&2; failed=$((failed + 1)); fi
done

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
[ "$extras" -eq 1 ] || finish

# ---- generated cases -------------------------------------------------------------------
gen=$work/generated
mkdir -p "$gen/a-directory.model" "$gen/a-directory.family" "$gen/a-directory.code" \
         "$gen/a-directory.cert"
for kind in model family code cert; do
  for tool in $(tools_of "$kind"); do
    # Every tool names the problem (the checker once said only "read error").
    dir_message="is a directory, expected a file"
    if [ "$tool" = check ]; then missing_message="cannot open the file"; else missing_message="cannot open file"; fi
    run_case "generated/directory.$kind/$tool" "$kind" "$tool" "$gen/a-directory.$kind" 2 0 "$dir_message"
    run_case "generated/missing.$kind/$tool" "$kind" "$tool" "$gen/missing.$kind" 2 0 "$missing_message"
  done
done

# A sparse file just over 1 GiB: kernelrank refuses it by size, the checker (which
# streams) at 64 MiB without a line break.
truncate -s $(((1 << 30) + 1)) "$gen/huge.model"
run_case "generated/huge.model/eval" model eval "$gen/huge.model" 2 0 "file larger than 1 GiB"
cp --sparse=always "$gen/huge.model" "$gen/huge.cert"
run_case "generated/huge.cert/check" cert check "$gen/huge.cert" 2 1 "line longer than 67108864 bytes"
rm -f "$gen/huge.model" "$gen/huge.cert"

# A number of 1,000,001 digits in a kernel table (the reader's limit is 1,000,000).
{
  printf 'kernelrank-model 1 kind=tabular m=1\ntokens 1\n1\nkernel\n'
  head -c 1000001 /dev/zero | tr '\0' '7'
  printf '\nreadout\n0\n'
} >"$gen/long-number.model"
for tool in eval counterexample domination; do
  run_case "generated/long-number.model/$tool" model "$tool" "$gen/long-number.model" 2 5 \
    "number longer than 1,000,000 characters"
done

# ---- CRLF is accepted: valid files give the same output with CRLF line endings ----------
same_with_crlf() {  # same_with_crlf NAME FILE COMMAND... (FILE inside COMMAND is replaced)
  local name=$1 file=$2
  shift 2
  local crlf=$work/crlf/ok-$(basename "$file")
  sed 's/$/\r/' "$file" >"$crlf"
  local original=() converted=()
  for arg in "$@"; do
    original+=("${arg//@FILE@/$file}")
    converted+=("${arg//@FILE@/$crlf}")
  done
  "${original[@]}" >"$work/out-lf" 2>&1
  local lf_exit=$?
  "${converted[@]}" >"$work/out-crlf" 2>&1
  local crlf_exit=$?
  sed -i "s|$crlf|$file|g" "$work/out-crlf"
  if [ "$lf_exit" -ge 2 ]; then
    echo "FAIL crlf/$name: the LF original fails with exit $lf_exit" >&2; failed=$((failed + 1))
  elif [ "$lf_exit" -ne "$crlf_exit" ] || ! cmp -s "$work/out-lf" "$work/out-crlf"; then
    echo "FAIL crlf/$name: CRLF gives exit $crlf_exit and different output" >&2
    diff "$work/out-lf" "$work/out-crlf" | head -5 >&2
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}
printf '# a small code\n000111\n011100\n110001\n101010\n' >"$gen/ok.code"
same_with_crlf model "$src/tests/data/models/tabular_m2.model" "$kr" eval --model @FILE@ --n 2
same_with_crlf json "$src/tests/data/models/tabular_m2.json" "$kr" eval --model @FILE@ --n 2
printf '%s\n' 'kernelrank-model 1 kind=features m=2 r=2 d=1' \
  'token 00 phiQ 1 2 phiK 1/2 0 v 0 c 0 e 0' 'token 01 phiQ 1 2 phiK 1/2 0 v 1/3 c 2 e 0.5' \
  'token 10 phiQ 0 3 phiK 3 0.5 v 5 c -1 e 0' 'token 11 phiQ 2 1 phiK 1 1 v 1 c 1 e 1' \
  >"$gen/ok-features.model"
same_with_crlf features "$gen/ok-features.model" "$kr" eval --model @FILE@ --n 2
same_with_crlf family "$src/tests/data/families/small.family" \
  "$kr" eval --builtin rank1-mean --family @FILE@
same_with_crlf code "$gen/ok.code" "$kr" code --file @FILE@
same_with_crlf cert "$src/tests/certs/valid/spec_example.cert" "$checker" @FILE@
same_with_crlf cert-dominance "$src/tests/certs/valid/dominance_hamming_n20.cert" "$checker" @FILE@

finish
