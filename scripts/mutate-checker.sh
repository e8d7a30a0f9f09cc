#!/usr/bin/env bash
# Mutation testing of the certificate checker (src/check/) and of the producer's exact core
# (R_n, gap domination, the trace and dominance sums, the comparison with 1/2, the order
# argument); docs/robustness.md, "Mutation testing".
#
# The mutants come from scripts/mutation/mutants.py (a fixed, deterministic list; one
# mutation each). The script copies the source tree once to WORK/src, configures WORK/build
# once (Ninja when available, -DKERNELRANK_TORCH=OFF, -D_GLIBCXX_ASSERTIONS), builds and
# tests the unmutated tree, then for each mutant: applies it, rebuilds only the targets it
# touches (the one mutated file is recompiled and relinked), runs the tests with a timeout,
# restores the file.
#
#   checker mutant: in the trace-product files (certificate_product, checksum_code,
#                   product_rule) first a fast stage with only kernelrank-check rebuilt: the
#                   corpus cases of format 3 (rule trace-product) and, except with --sample,
#                   the producer's product certificates cached in WORK/fast-certs (each must
#                   verify; with its claim raised by one it must not). Its survivors, and
#                   every other checker mutant, link and run kernelrank_check_tests,
#                   tests/check/run_cert_corpus.sh and tests/cli/run_bound_certificates.sh
#                   with the mutant kernelrank-check.
#   core mutant:    the kernelrank_tests cases of the mutated file's area (doctest -tc),
#                   then, if they pass, the whole kernelrank_tests
#
# A mutant is killed when a test fails, crashes or times out; stillborn when it does not
# compile (not counted in the score); survived otherwise. A survivor listed with its reason
# in scripts/mutation/equivalent.txt is shown as "equivalent" (it still counts as
# survived). One table row per mutant, then
#   mutants: N, killed K, survived S (equivalent E), stillborn B, score P%
# with P = K / (K + S).
# Everything on stdout is deterministic except the final "time:" line.
#
# Usage: scripts/mutate-checker.sh [MODE] [OPTIONS]
#   --all            every mutant (default; about 1200, some 5 hours on two cores)
#   --every K        with --all or --list: only the mutants whose key hash is divisible by
#                    K, a sample fixed by the keys alone (docs/robustness.md uses K = 6)
#   --sample         the fixed CI sample, scripts/mutation/sample.txt: all must be killed
#                    (first stage of tests only)
#   --only KEY...    the named mutants (keys from --list)
#   --list           print the mutant list and exit
#   --group G        checker or core only (with --all, --list or --sample)
#   --match REGEX    with --all or --list: only the mutants whose key or file:line matches
#                    the extended regular expression (e.g. 'certificate_product|product_rule')
#   --producer BIN   the unmutated kernelrank that writes WORK/fast-certs once (default
#                    ROOT/build/kernelrank; without it the fast stage has the corpus cases only;
#                    delete WORK/fast-certs to write them again)
#   --work DIR       scratch directory (default ${TMPDIR:-/tmp}/kernelrank-mutation); reused
#                    across runs, only changed source files are copied again
#   --results FILE   also write the table as tab-separated values
#   --jobs N         build jobs (default 2)
# Exit: 0 when every survivor is a listed equivalent (for --sample: all killed), 1 otherwise, 2 on errors
# (the unmutated tree fails to build or to pass its tests).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
gen=$root/scripts/mutation/mutants.py
mode=all
group=
work=${TMPDIR:-/tmp}/kernelrank-mutation
results=
jobs=2
only=()
every=1
match=
producer=$root/build/kernelrank
while [ $# -gt 0 ]; do
  case $1 in
    --all) mode=all ;;
    --sample) mode=sample ;;
    --list) mode=list ;;
    --only) mode=only; shift
            while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do only+=("$1"); shift; done
            continue ;;
    --group) group=$2; shift ;;
    --every) every=$2; shift ;;
    --match) match=$2; shift ;;
    --producer) producer=$2; shift ;;
    --work) work=$2; shift ;;
    --results) results=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "mutate-checker.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
group_args=(--every "$every")
[ -n "$group" ] && group_args+=(--group "$group")
if [ "$mode" = list ]; then
  [ -z "$match" ] && exec python3 "$gen" list --root "$root" "${group_args[@]}"
  python3 "$gen" list --root "$root" "${group_args[@]}" | awk -v re="$match" '$2 ~ re || $5 ~ re'
  exit 0
fi

started=$(date +%s)
src=$work/src
bld=$work/build
log=$work/log
mkdir -p "$work" "$log" || exit 2
work=$(cd "$work" && pwd); src=$work/src; bld=$work/build; log=$work/log

# ---- the scratch tree ----------------------------------------------------------------
python3 "$gen" sync --root "$root" --to "$src" --skip "$work" || exit 2
# _GLIBCXX_ASSERTIONS: a mutant that indexes one past the end of a vector or string_view
# aborts (and is killed) instead of silently reading the neighbouring memory. The checker is
# always built with them (src/check/CMakeLists.txt).
flags=-D_GLIBCXX_ASSERTIONS
generator=()
[ ! -f "$bld/CMakeCache.txt" ] && command -v ninja >/dev/null && generator=(-G Ninja)
compiler_cache_args=()
if [ "$mode" = sample ]; then
  # The CI sample builds in WORK/src/build, configured as scripts/build.sh configures build/:
  # the same flags and the same paths relative to the build directory, so with ccache every
  # unmutated object is the one the main build compiled, and only mutated files compile.
  flags=
  bld=$src/build
  generator=()
  pushd "$root" > /dev/null && source scripts/lib/compiler-cache.sh && popd > /dev/null
fi
if ! grep -q "^CMAKE_CXX_FLAGS:STRING=$flags\$" "$bld/CMakeCache.txt" 2>/dev/null; then
  cmake -S "$src" -B "$bld" "${generator[@]}" "${compiler_cache_args[@]}" -DKERNELRANK_TORCH=OFF \
        -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=$flags" > "$log/configure.log" 2>&1 ||
    { echo "mutate-checker.sh: configuring $bld failed, see $log/configure.log" >&2; exit 2; }
fi

checker_targets=(kernelrank_check_tests kernelrank-check)
core_targets=(kernelrank_tests)

# The doctest cases of each core file's area (first stage).
core_filter() {
  local kills="core mutation kills:*"
  case $1 in
    src/bounds/amplification.cpp) echo "$kills,amplification:*,domination:*,rank-bound:*,counterexample:*,witness:*,certify:*" ;;
    src/bounds/domination_check.cpp) echo "$kills,domination:*,counterexample:*" ;;
    src/bounds/rank_bound.cpp) echo "$kills,rank-bound:*,witness:*,certify:*,search: r = 1 at m = 4*" ;;
    src/eval/evaluate.cpp) echo "$kills,evaluate:*,builtin:*,domination:*,counterexample:*,oracle:*,profiles: agree*" ;;
    src/eval/tabulated_eval.cpp) echo "$kills,evaluate:*,builtin:*,counterexample:*,softmax-base:*" ;;
    src/bounds/order_argument.cpp) echo "$kills,search: the cube task*,search: r = 1 at m = 4*,search: the order argument*,search: r = 3 at m = 5*,search: the minimal-rank*" ;;
    *) echo "*" ;;
  esac
}

# Soft limits only, so that the tests' own child processes can still set theirs.
limited() {  # limited SECONDS CMD...: run with a timeout and a 6 GB address-space cap
  local seconds=$1; shift
  ( ulimit -S -v 6000000; exec timeout -k 5 "$seconds" "$@" )
}

build() {  # build LOGFILE TARGET...
  local out=$1; shift
  nice -n 15 cmake --build "$bld" -j "$jobs" --target "$@" > "$out" 2>&1
}

first_doctest_failure() {  # the first failing test case named in a doctest log
  local name
  name=$(grep -m1 '^TEST CASE:' "$1" | sed 's/^TEST CASE: *//')
  [ -n "$name" ] && echo "$name" || echo "(no test case named)"
}

# run_stage NAME LOGFILE: runs one stage of tests; prints the kill reason and returns 1 when
# the stage fails.
stage_result=
run_stage() {
  local name=$1 out=$2 rc
  case $name in
    fast) STOP_AT_FIRST_FAILURE=1 limited 120 bash "$src/tests/check/run_cert_corpus.sh" "$bld/kernelrank-check" \
            "$work/fast-corpus" > "$out" 2>&1 &&
          { [ $use_cached -eq 0 ] ||
            limited 120 bash "$root/scripts/mutation/check-cached.sh" "$bld/kernelrank-check" \
              "$work/fast-certs" >> "$out" 2>&1; } ;;
    check_tests) limited 60 "$bld/kernelrank_check_tests" --abort-after=1 > "$out" 2>&1 ;;
    corpus) STOP_AT_FIRST_FAILURE=1 limited 120 bash "$src/tests/check/run_cert_corpus.sh" "$bld/kernelrank-check" \
              "$src/tests/certs" > "$out" 2>&1 ;;
    bound_certs) limited 120 bash "$src/tests/cli/run_bound_certificates.sh" "$bld/kernelrank-check" \
                   "$src" 40 > "$out" 2>&1 ;;
    core_area) limited 120 "$bld/kernelrank_tests" --abort-after=1 "-tc=$(core_filter "$current_file")" \
                 > "$out" 2>&1 ;;
    core_full) limited 300 "$bld/kernelrank_tests" --abort-after=1 > "$out" 2>&1 ;;
  esac
  rc=$?
  [ $rc -eq 0 ] && return 0
  local why
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    why="timeout"
  else
    case $name in
      check_tests|core_area|core_full) why=$(first_doctest_failure "$out") ;;
      corpus|fast) why=$(grep -m1 '^FAIL ' "$out" | sed 's/^FAIL \([^:]*\):.*/\1/') ;;
      bound_certs) why=$(grep -m1 '^FAIL' "$out" | sed 's/^FAIL: //; s/ .*//') ;;
    esac
    [ $rc -gt 128 ] && why="$why (signal $((rc - 128)))"
  fi
  stage_result="$name: $why"
  return 1
}

stages_for() {  # stages_for GROUP: the stages after the fast one
  if [ "$1" = checker ]; then
    echo "check_tests corpus bound_certs"
  else
    if [ "$mode" = sample ]; then echo "core_area"; else echo "core_area core_full"; fi
  fi
}

# ---- the mutant list -------------------------------------------------------------------
case $mode in
  all) mapfile -t keys < <(python3 "$gen" list --root "$src" --format tsv "${group_args[@]}" | cut -f2) ;;
  sample) # --group picks the checker (C...) or the core (P...) half of the sample
    letter=; [ "$group" = checker ] && letter=C; [ "$group" = core ] && letter=P
    mapfile -t keys < <(grep -v '^#' "$root/scripts/mutation/sample.txt" |
                        awk -v l="$letter" 'NF && (l == "" || substr($1, 1, 1) == l) { print $1 }') ;;
  only) keys=("${only[@]}") ;;
esac
declare -A info equivalent
while read -r key reason; do
  case $key in ''|'#'*) continue ;; esac
  equivalent[$key]=$reason
done < "$root/scripts/mutation/equivalent.txt"
while IFS=$'\t' read -r number key grp op where what; do
  info[$key]="$number"$'\t'"$grp"$'\t'"$op"$'\t'"$where"$'\t'"$what"
done < <(python3 "$gen" list --root "$src" --format tsv)
if [ -n "$match" ] && [ "$mode" = all ]; then
  matching=()
  for key in "${keys[@]}"; do
    IFS=$'\t' read -r _ _ _ where _ <<< "${info[$key]}"
    if [[ $key =~ $match ]] || [[ $where =~ $match ]]; then matching+=("$key"); fi
  done
  keys=("${matching[@]}")
fi
[ ${#keys[@]} -gt 0 ] || { echo "mutate-checker.sh: no mutants" >&2; exit 2; }
# The files whose mutants go through the fast stage first: the trace-product rule, which the
# fast stage's corpus cases and product certificates exercise (other mutants would only
# pay for it).
fast_files='^src/check/(certificate_product|checksum_code|product_rule)\.cpp:'
has_fast_stage() { [[ $1 =~ $fast_files ]]; }  # has_fast_stage FILE:LINE
need_checker=0; need_core=0; need_fast=0; core_files=()
for key in "${keys[@]}"; do
  if [ -z "${info[$key]+x}" ]; then
    echo "mutate-checker.sh: no mutant $key in the current sources (its line changed?)" >&2; exit 2
  fi
  IFS=$'\t' read -r _ grp _ where _ <<< "${info[$key]}"
  if [ "$grp" = checker ]; then need_checker=1; else need_core=1; core_files+=("${where%%:*}"); fi
  if [ "$grp" = checker ] && has_fast_stage "$where"; then need_fast=1; fi
done
# The CI sample's product mutants are killed by corpus cases; writing the producer's
# certificates would cost more than running them saves.
use_cached=1
[ "$mode" = sample ] && use_cached=0
# A core file compiled in a unity batch would recompile its whole batch for every mutant
# (CMakeLists.txt lists the mutation targets that compile alone: kernelrank_compiled_alone).
core_unique=$(printf '%s\n' "${core_files[@]}" | sort -u)
for f in $core_unique; do
  if ! grep -qF "\"file\": \"$src/$f\"" "$bld/compile_commands.json"; then
    echo "mutate-checker.sh: $f is compiled in a unity batch; add it to" \
         "kernelrank_compiled_alone in CMakeLists.txt" >&2
    exit 2
  fi
done

# ---- the fast stage's inputs ------------------------------------------------------------
# The corpus cases of format 3 / rule trace-product (and family_trace, which the corpus
# script's argument checks use), copied afresh from the scratch tree.
if [ $need_fast -eq 1 ]; then
  rm -rf "$work/fast-corpus"
  for folder in valid invalid malformed; do
    mkdir -p "$work/fast-corpus/$folder"
    for cert in "$src/tests/certs/$folder"/*.cert; do
      if [ "$(head -n 1 "$cert" | tr -d '\0')" = "kernelrank-certificate 3" ] ||
         grep -qa '^rule trace-product' "$cert" ||
         [ "$folder/$(basename "$cert")" = valid/family_trace.cert ]; then
        cp "${cert%.cert}".* "$work/fast-corpus/$folder/"
      fi
    done
  done
fi

# ---- the unmutated tree must build and pass -----------------------------------------
targets=()
[ $need_checker -eq 1 ] && targets+=("${checker_targets[@]}")
[ $need_core -eq 1 ] && targets+=("${core_targets[@]}")
echo "c building the unmutated tree in $bld" >&2
build "$log/baseline-build.log" "${targets[@]}" ||
  { echo "mutate-checker.sh: the unmutated tree does not build, see $log/baseline-build.log" >&2; exit 2; }
# Product certificates written once by the unmutated producer: widths and context lengths
# where bound picks a product (a checksum class), each written in under 5 s. NAME.cert must
# verify; NAME.plus1.cert, the same with its claim raised by one, must not.
if [ $need_fast -eq 1 ] && [ $use_cached -eq 1 ] && [ ! -f "$work/fast-certs/complete" ]; then
  rm -rf "$work/fast-certs"; mkdir -p "$work/fast-certs"
  if [ -x "$producer" ]; then
    echo "c writing the fast stage's certificates with $producer" >&2
    for mn in 24:6 48:5 48:16 97:4 128:3 161:3 200:8 1428:3; do
      m=${mn%:*}; nn=${mn#*:}; f=$work/fast-certs/m$m-n$nn
      "$producer" bound --m "$m" --n "$nn" --cert "$f.cert" > /dev/null 2>&1 || { rm -f "$f.cert"; continue; }
      if [ "$(head -n 1 "$f.cert")" != "kernelrank-certificate 3" ]; then rm -f "$f.cert"; continue; fi
      python3 - "$f.cert" "$f.plus1.cert" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
last = max(i for i, l in enumerate(lines) if l.startswith("claim r >= "))
lines[last] = "claim r >= %d" % (int(lines[last].split()[3]) + 1)
open(sys.argv[2], "w").write("\n".join(lines))
PY
      # Kept only when the unmutated checker refuses it (the claim is the largest r).
      "$bld/kernelrank-check" "$f.plus1.cert" > /dev/null 2>&1
      [ $? -eq 1 ] || rm -f "$f.plus1.cert"
    done
  else
    echo "c no producer at $producer: the fast stage runs the corpus cases only" >&2
  fi
  touch "$work/fast-certs/complete"
fi
baseline_stages=()
[ $need_fast -eq 1 ] && baseline_stages+=(fast)
[ $need_checker -eq 1 ] && baseline_stages+=(check_tests corpus bound_certs)
if [ "$mode" = sample ]; then
  for f in $core_unique; do baseline_stages+=("core_area:$f"); done
elif [ $need_core -eq 1 ]; then
  baseline_stages+=(core_full)
fi
for st in "${baseline_stages[@]}"; do
  current_file=${st#core_area:}
  name=${st%%:*}
  if ! run_stage "$name" "$log/baseline-$name.log"; then
    echo "mutate-checker.sh: the unmutated tree fails $stage_result (log $log/baseline-$name.log)" >&2
    exit 2
  fi
done

# ---- the mutants ------------------------------------------------------------------------
saved=$work/saved-source
current_file=
restore() {
  if [ -n "$current_file" ] && [ -f "$saved" ]; then
    cp "$saved" "$src/$current_file" && rm -f "$saved"
  fi
}
trap 'restore; exit 130' INT TERM
trap 'restore' EXIT

[ -n "$results" ] && printf '#\tkey\tgroup\toperator\tlocation\tresult\tkilled by\tchange\n' > "$results"
printf '%-4s %-22s %-7s %-8s %-36s %-9s %s\n' "#" mutant group operator "file:line" result "killed by"
n=0; killed=0; survived=0; stillborn=0; equivalents=0
declare -A g_total g_killed g_survived g_stillborn g_equivalent
for key in "${keys[@]}"; do
  IFS=$'\t' read -r number grp op where what <<< "${info[$key]}"
  current_file=${where%%:*}
  cp "$src/$current_file" "$saved" || exit 2
  python3 "$gen" show "$key" --root "$src" > "$log/mutant.diff" 2>/dev/null || true
  python3 "$gen" apply "$key" --root "$src" > /dev/null || { restore; exit 2; }
  if [ "$grp" = checker ]; then tg=("${checker_targets[@]}"); else tg=("${core_targets[@]}"); fi
  result=survived; by="-"
  if [ "$grp" = checker ] && ! build "$log/mutant-build.log" kernelrank-check; then
    result=stillborn; by="does not compile"
  elif [ "$grp" = checker ] && has_fast_stage "$where" && ! run_stage fast "$log/mutant-fast.log"; then
    result=killed; by=$stage_result
  elif ! build "$log/mutant-build.log" "${tg[@]}"; then
    result=stillborn; by="does not compile"
  else
    for st in $(stages_for "$grp"); do
      if ! run_stage "$st" "$log/mutant-$st.log"; then
        result=killed; by=$stage_result; break
      fi
    done
  fi
  if [ "$result" = survived ]; then
    cp "$log/mutant.diff" "$log/survivor-$key.diff"
    if [ -n "${equivalent[$key]+x}" ]; then
      result=equivalent; by="(${equivalent[$key]%%:*})"
      equivalents=$((equivalents + 1)); g_equivalent[$grp]=$(( ${g_equivalent[$grp]:-0} + 1 ))
    fi
  fi
  restore
  current_file=
  n=$((n + 1))
  g_total[$grp]=$(( ${g_total[$grp]:-0} + 1 ))
  case $result in
    killed) killed=$((killed + 1)); g_killed[$grp]=$(( ${g_killed[$grp]:-0} + 1 )) ;;
    survived|equivalent) survived=$((survived + 1)); g_survived[$grp]=$(( ${g_survived[$grp]:-0} + 1 )) ;;
    stillborn) stillborn=$((stillborn + 1)); g_stillborn[$grp]=$(( ${g_stillborn[$grp]:-0} + 1 )) ;;
  esac
  printf '%-4s %-22s %-7s %-8s %-36s %-9s %s\n' "$number" "$key" "$grp" "$op" "$where" "$result" "$by"
  [ -n "$results" ] && printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$number" "$key" "$grp" "$op" \
                              "$where" "$result" "$by" "$what" >> "$results"
done
# Leave the scratch build unmutated for the next run.
build "$log/final-build.log" "${targets[@]}" || true

score() {  # score KILLED SURVIVED
  local valid=$(( $1 + $2 ))
  if [ $valid -eq 0 ]; then echo "n/a"; else awk -v k="$1" -v v="$valid" 'BEGIN { printf "%.1f%%", 100 * k / v }'; fi
}
for grp in checker core; do
  [ -n "${g_total[$grp]+x}" ] || continue
  echo "$grp: ${g_total[$grp]} mutants, killed ${g_killed[$grp]:-0}, survived ${g_survived[$grp]:-0}" \
       "(equivalent ${g_equivalent[$grp]:-0}), stillborn ${g_stillborn[$grp]:-0}," \
       "score $(score "${g_killed[$grp]:-0}" "${g_survived[$grp]:-0}")"
done
echo "mutants: $n, killed $killed, survived $survived (equivalent $equivalents), stillborn $stillborn," \
     "score $(score $killed $survived)"
echo "time: $(( $(date +%s) - started )) s"
if [ "$mode" = sample ]; then
  [ $killed -eq $n ] || { echo "mutate-checker.sh: a sample mutant was not killed" >&2; exit 1; }
  exit 0
fi
[ $survived -eq $equivalents ]
