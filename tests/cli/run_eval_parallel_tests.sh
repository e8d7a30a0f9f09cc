#!/usr/bin/env bash
# eval on threads and shards (docs/cli.md, eval and eval-merge): the report is byte for byte
# the same for --threads 1, 2 and 3 and for the merge of 3 shards, in text and JSON, for a
# model that fails (so the worst instance and the listed failures matter) and one that
# solves, tabular and parametric; eval-merge refuses a missing shard, a duplicate, a partial
# of another model or task, mixed K and malformed files; min-rank's table does not depend
# on --threads; bench eval reports both ratios.
# Usage: run_eval_parallel_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
data="$src/tests/data"
. "$(dirname "$0")/test_lib.sh"

same_file() {  # same_file NAME A B
  count=$((count + 1))
  if ! cmp -s "$2" "$3"; then
    fail "$1: outputs differ"
    diff "$2" "$3" | head -8
  fi
}

# threads NAME EXPECTED_EXIT EVAL_ARGS...: --threads 1, 2, 3 give identical text and JSON.
threads() {
  local name="$1" expected="$2"; shift 2
  local t
  for t in 1 2 3; do
    run "$expected" "$name (--threads $t)" -- "$kr" eval "$@" --threads "$t" || return
    printf '%s\n' "$out" > "$work/t$t.txt"
    run "$expected" "$name (--json --threads $t)" -- "$kr" --json eval "$@" --threads "$t" || return
    printf '%s\n' "$out" > "$work/t$t.json"
  done
  same_file "$name: text, threads 1 vs 2" "$work/t1.txt" "$work/t2.txt"
  same_file "$name: text, threads 1 vs 3" "$work/t1.txt" "$work/t3.txt"
  same_file "$name: JSON, threads 1 vs 2" "$work/t1.json" "$work/t2.json"
  same_file "$name: JSON, threads 1 vs 3" "$work/t1.json" "$work/t3.json"
}

# shards NAME EXPECTED_EXIT EVAL_ARGS...: 3 shards merged (in any order) print what the
# unsharded run prints, text and JSON.
shards() {
  local name="$1" expected="$2"; shift 2
  local k
  rm -f "$work"/part*.json
  run "$expected" "$name (unsharded)" -- "$kr" eval "$@" || return
  printf '%s\n' "$out" > "$work/whole.txt"
  run "$expected" "$name (unsharded, --json)" -- "$kr" --json eval "$@" || return
  printf '%s\n' "$out" > "$work/whole.json"
  for k in 1 2 3; do
    run 0 "$name (shard $k/3)" -- "$kr" eval "$@" --threads 2 --shard "$k/3" --partial "$work/part$k.json" || return
    contains "$name (shard $k/3)" "$out" "partial $k/3 of"
  done
  run "$expected" "$name (merge)" -- "$kr" eval-merge "$work/part3.json" "$work/part1.json" "$work/part2.json" || return
  printf '%s\n' "$out" > "$work/merged.txt"
  same_file "$name: merged text" "$work/whole.txt" "$work/merged.txt"
  run "$expected" "$name (merge, --json)" -- "$kr" --json eval-merge "$work/part1.json" "$work/part2.json" "$work/part3.json" || return
  printf '%s\n' "$out" > "$work/merged.json"
  same_file "$name: merged JSON" "$work/whole.json" "$work/merged.json"
  # Atomic writes leave nothing else behind.
  count=$((count + 1))
  if ls -a "$work" | grep -q '\.tmp-'; then fail "$name: a temporary file was left behind"; fi
}

head_model="$data/safetensors/head_m3_square_pos3.model"      # parametric, position dependent
relu_head="$data/safetensors/head_m3_relu_f32.safetensors"     # parametric safetensors head

# --- threads -----------------------------------------------------------------------------
threads "softmax base 2 fails T(6,3)" 1 --builtin softmax --base 2 --m 6 --n 3 --failures 5
threads "softmax base 3 solves T(6,3)" 0 --builtin softmax --base 3 --m 6 --n 3
threads "rank1-mean, mode all" 1 --builtin rank1-mean --m 4 --n 4 --mode all --failures 7
threads "tabular model file" 1 --model "$data/models/tabular_m2.model" --n 3 --mode last
threads "parametric positional head" 1 --model "$head_model" --n 3 --mode all --failures 4
threads "profiles" 1 --builtin softmax --base 2 --m 60 --n 3 --profiles --failures 4

# --- shards ------------------------------------------------------------------------------
shards "tabular file, fails" 1 --model "$data/models/tabular_m2.model" --n 3 --failures 4
shards "built-in, solves" 0 --builtin softmax --base 3 --m 5 --n 3
shards "built-in, fails, mode all" 1 --builtin softmax --base 2 --m 5 --n 3 --mode all --failures 6
shards "parametric positional head" 1 --model "$head_model" --n 3 --failures 5
shards "safetensors head" 1 --model "$relu_head" --n 3 --mode last --failures 3
shards "profiles" 1 --builtin softmax --base 2 --m 40 --n 3 --profiles --failures 3
shards "family" 1 --builtin rank1-mean --family "$data/families/small.family"
"$kr" code --lexicode --m 6 --w 3 --d 2 --out "$work/lex6.code" > /dev/null
shards "token set" 1 --builtin softmax --base 2 --tokens "$work/lex6.code" --n 3 --failures 4

# --- eval-merge refuses what does not add up ------------------------------------------------
rm -f "$work"/part*.json "$work"/other*.json
for k in 1 2 3; do
  "$kr" eval --builtin softmax --base 2 --m 4 --n 3 --shard "$k/3" --partial "$work/part$k.json" > /dev/null
done
run 2 "merge: a missing shard" -- "$kr" eval-merge "$work/part1.json" "$work/part3.json"
contains "merge: a missing shard" "$err" "shard 2/3 is missing"
run 2 "merge: a duplicate" -- "$kr" eval-merge "$work/part1.json" "$work/part2.json" "$work/part2.json" "$work/part3.json"
contains "merge: a duplicate" "$err" "is given twice"
"$kr" eval --builtin softmax --base 3 --m 4 --n 3 --shard 2/3 --partial "$work/other2.json" > /dev/null
run 2 "merge: another model" -- "$kr" eval-merge "$work/part1.json" "$work/other2.json" "$work/part3.json"
contains "merge: another model" "$err" "belongs to a different run"
contains "merge: another model" "$err" "the model (SHA-256"
"$kr" eval --builtin softmax --base 2 --m 4 --n 3 --mode last --shard 2/3 --partial "$work/other2.json" > /dev/null
run 2 "merge: another task" -- "$kr" eval-merge "$work/part1.json" "$work/other2.json" "$work/part3.json"
contains "merge: another task" "$err" "the query mode"
"$kr" eval --builtin softmax --base 2 --m 4 --n 3 --shard 2/4 --partial "$work/other2.json" > /dev/null
run 2 "merge: mixed K" -- "$kr" eval-merge "$work/part1.json" "$work/other2.json" "$work/part3.json"
contains "merge: mixed K" "$err" "same K"
"$kr" eval --builtin softmax --base 2 --m 4 --n 3 --failures 2 --shard 2/3 --partial "$work/other2.json" > /dev/null
run 2 "merge: another --failures" -- "$kr" eval-merge "$work/part1.json" "$work/other2.json" "$work/part3.json"
contains "merge: another --failures" "$err" "--failures"
printf 'not json\n' > "$work/bad.json"
run 2 "merge: malformed partial" -- "$kr" eval-merge "$work/part1.json" "$work/bad.json" "$work/part3.json"
contains "merge: malformed partial" "$err" "bad.json:0: error:"
sed 's/"failing": "[0-9]*"/"failing": "99999"/' "$work/part2.json" > "$work/bad.json"
run 2 "merge: tampered counts" -- "$kr" eval-merge "$work/part1.json" "$work/bad.json" "$work/part3.json"
contains "merge: tampered counts" "$err" "bad.json:0: error:"
run 2 "merge: no file" -- "$kr" eval-merge "$work/nope.json"
run 2 "merge: no arguments" -- "$kr" eval-merge

# --- bad options -----------------------------------------------------------------------------
run 2 "--shard without --partial" -- "$kr" eval --builtin softmax --m 3 --shard 1/2
contains "--shard without --partial" "$err" "--partial"
run 2 "--shard 0/3" -- "$kr" eval --builtin softmax --m 3 --shard 0/3 --partial "$work/x.json"
run 2 "--shard 4/3" -- "$kr" eval --builtin softmax --m 3 --shard 4/3 --partial "$work/x.json"
run 2 "--shard 1/03" -- "$kr" eval --builtin softmax --m 3 --shard 1/03 --partial "$work/x.json"
run 2 "--cross-check with --partial" -- "$kr" eval --builtin rank1-mean --m 3 --cross-check --partial "$work/x.json"
run 2 "--threads -1" -- "$kr" eval --builtin softmax --m 3 --threads -1
run 2 "partial into a missing directory" -- "$kr" eval --builtin softmax --m 3 --shard 1/2 --partial "$work/no/such/dir.json"
count=$((count + 1))
if [ -e "$work/x.json" ]; then fail "a refused run wrote its partial"; fi

# --- min-rank: the table does not depend on --threads ------------------------------------------
for t in 1 2 3; do
  run 0 "min-rank --threads $t" -- "$kr" min-rank --m-max 3 --threads "$t" --quiet || continue
  printf '%s\n' "$out" | sed 's/, [0-9.]* s//g' > "$work/mr$t.txt"
done
same_file "min-rank: threads 1 vs 2" "$work/mr1.txt" "$work/mr2.txt"
same_file "min-rank: threads 1 vs 3" "$work/mr1.txt" "$work/mr3.txt"
run 2 "min-rank --threads -2" -- "$kr" min-rank --m-max 2 --threads -2

# --- bench eval reports the single-thread and all-thread ratios ------------------------------------
run 0 "bench eval" -- "$kr" bench eval --m 4 --n 3 --repetitions 3 --threads 2
contains "bench eval" "$out" "ratio exact/double: "
contains "bench eval" "$out" "(1 thread, median of 3"
contains "bench eval" "$out" "(2 threads, median of 3"
contains "bench eval" "$out" "(identical in every run)"
run 0 "bench eval --json" -- "$kr" --json bench eval --m 3 --n 3 --repetitions 2 --threads 2 --enumeration ordered
contains "bench eval --json" "$out" '"ratio_all_threads"'
contains "bench eval --json" "$out" '"single_thread"'
contains "bench eval --json" "$out" '"all_threads"'
run 2 "bench eval --repetitions 0" -- "$kr" bench eval --m 3 --repetitions 0
run 2 "bench eval --enumeration sorted" -- "$kr" bench eval --m 3 --enumeration sorted

finish
