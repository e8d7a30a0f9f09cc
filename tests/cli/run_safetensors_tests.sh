#!/usr/bin/env bash
# safetensors heads through the kernelrank binary (docs/model-format.md §11).
#
# Each valid fixture in tests/data/safetensors is evaluated on a small family and must give
# exactly the output (verdict, exact max error, failing instances) and exit code of the same
# head written as a kind=parametric text model by make_fixtures.py, which shares no code with
# the C++ reader. The content sniffing must find a head without the .safetensors suffix.
# Every malformed fixture must exit 2 with "FILE: error:" and the fragments malformed.tsv
# lists on stderr.
# Usage: run_safetensors_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
data="$src/tests/data/safetensors"
# $work, fail, run (sets $out, $err, $code), contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"

# verdict NAME -- command...: like run, but a verdict of either kind (exit 0 or 1) is expected.
verdict() {
  local name="$1"; shift 2
  count=$((count + 1))
  "$@" >"$work/out" 2>"$work/err"
  code=$?
  out="$(cat "$work/out")"; err="$(cat "$work/err")"
  if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
    fail "$name: exit $code, expected a verdict (0 or 1)"; echo "  stderr: ${err:0:400}"
    return 1
  fi
  return 0
}
same() {  # same NAME A B
  count=$((count + 1))
  [ "$2" == "$3" ] || fail "$1: outputs differ: '${2:0:300}' vs '${3:0:300}'"
}

# Every valid head has m = 3; the position-dependent one has positions=3, hence n = 3.
cat >"$work/m3.family" <<'EOF'
kernelrank-family 1 m=3 n=3
1 101 011 110
2 111 000 101
3 001 010 100
1 000 000 000
2 110 110 011
EOF

# --- valid heads: the same result as the text model Python wrote --------------------------
for head in head_m3_relu_f64 head_m3_relu_f32 head_m3_relu_f16 head_m3_relu_bf16 \
            head_m3_square_pos3 head_m3_relu_d0; do
  verdict "$head as text" -- "$kr" eval --model "$data/$head.model" --family "$work/m3.family" \
    || continue
  text_code=$code; text_out="$out"
  run "$text_code" "$head as safetensors" -- "$kr" eval --model "$data/$head.safetensors" \
    --family "$work/m3.family" || continue
  same "$head: safetensors and text give the same report" "$out" "$text_out"
  contains "$head verdict" "$out" "verdict:"
  run "$text_code" "$head --json" -- "$kr" --json eval --model "$data/$head.safetensors" \
    --family "$work/m3.family"
  safetensors_json="$out"
  run "$text_code" "$head --json as text" -- "$kr" --json eval --model "$data/$head.model" \
    --family "$work/m3.family"
  same "$head: JSON reports agree" "$safetensors_json" "$out"
done
# A failing count and the exact maximum error are in the report (the square head: 13/16).
run 1 "position-dependent head fails the family" -- "$kr" eval \
  --model "$data/head_m3_square_pos3.safetensors" --family "$work/m3.family"
contains "position-dependent description" "$out" "position-dependent, n=3"

# --- dispatch on content: no .safetensors suffix ---------------------------------------------
cp "$data/head_m3_relu_d0.safetensors" "$work/head.bin"
verdict "head without suffix (text)" -- "$kr" eval --model "$data/head_m3_relu_d0.model" \
  --family "$work/m3.family"
text_out="$out"; text_code=$code
run "$text_code" "head without suffix" -- "$kr" eval --model "$work/head.bin" \
  --family "$work/m3.family"
same "sniffed head gives the same report" "$out" "$text_out"

# --- refusals: exit 2, "FILE: error:" and the listed fragments --------------------------------
while IFS=$'\t' read -r file fragments; do
  [ -n "$file" ] || continue
  # eval decides softmax heads with ball arithmetic (run_ball_tests.sh); counterexample reads
  # models exactly, so it still refuses this one.
  if [ "$file" = bad_softmax.safetensors ]; then
    run 2 "$file refused" -- "$kr" counterexample --model "$data/$file" --n 3 || continue
    contains "$file names the file" "$err" "$data/$file: error:"
    IFS=$'\t' read -r -a parts <<<"$fragments"
    for fragment in "${parts[@]}"; do contains "$file message" "$err" "$fragment"; done
    continue
  fi
  run 2 "$file refused" -- "$kr" eval --model "$data/$file" --n 2 || continue
  contains "$file names the file" "$err" "$data/$file: error:"
  IFS=$'\t' read -r -a parts <<<"$fragments"
  for fragment in "${parts[@]}"; do contains "$file message" "$err" "$fragment"; done
done <"$data/malformed.tsv"
run 2 "missing safetensors file" -- "$kr" eval --model "$work/nope.safetensors" --n 2
contains "missing file message" "$err" "nope.safetensors: error: cannot open file"
mkdir "$work/dir.safetensors"
run 2 "directory named .safetensors" -- "$kr" eval --model "$work/dir.safetensors" --n 2
contains "directory message" "$err" "dir.safetensors: error: is a directory"

finish
