#!/usr/bin/env bash
# Heads in the ecosystem's layouts and with transcendental feature maps through `eval`
# (docs/model-format.md §12, docs/cli.md#eval). The heads come from make_test_heads.py, a
# standard-library writer that shares no code with the C++ reader. Checked: the four dtypes
# give the same report; the same weights under another layout's names give the same report;
# performer's dk^(-1/4) normalizer equals kernelrank's exp head with halved weights at dk = 16;
# a relu head read through a layout equals the exact path; edge outputs end undecided (exit 5)
# and never as a verdict; threads do not change the report; every malformed head is refused
# with the tensor named.
# Usage: run_head_layout_tests.sh KERNELRANK_BINARY SOURCE_DIR
set -u
kr="$1"
src="$2"
# $work, fail, run (sets $out, $err, $code), contains, finish, count, failures: test_lib.sh
. "$(dirname "$0")/test_lib.sh"
python3 "$src/tests/heads/make_test_heads.py" "$work" || { fail "make_test_heads.py failed"; finish; }
h="$work"
# The report without the model line (layouts name themselves there).
body() { printf '%s\n' "$1" | grep -v '^model:'; }
same() {  # same NAME A B
  count=$((count + 1))
  [ "$2" == "$3" ] || fail "$1: reports differ: '${2:0:300}' vs '${3:0:300}'"
}

# --- dtypes: F64, F32, F16 and BF16 store the same multiples of 1/8 ------------------------
run 1 "fast-transformers elu1 f64" -- "$kr" eval --model "$h/ft_elu1_f64.safetensors" --layout fast-transformers --n 3
reference="$out"
contains "elu1 is decided rigorously" "$out" "verdict:     FAILS (decided rigorously)"
contains "ball method" "$out" "ball arithmetic from 64 bits"
for dtype in f32 f16 bf16; do
  run 1 "fast-transformers elu1 $dtype" -- "$kr" eval --model "$h/ft_elu1_$dtype.safetensors" \
    --layout fast-transformers --n 3 || continue
  same "$dtype gives the f64 report" "$out" "$reference"
done

# --- layouts: the same weights under other names -------------------------------------------
run 1 "kernelrank elu1" -- "$kr" eval --model "$h/kr_elu1.safetensors" --n 3
same "kernelrank layout = fast-transformers layout" "$(body "$out")" "$(body "$reference")"
run 1 "torch elu1" -- "$kr" eval --model "$h/torch_elu1.safetensors" --layout torch --feature-map elu1 --n 3
same "torch layout = fast-transformers layout" "$(body "$out")" "$(body "$reference")"
run 1 "torch elu1 from metadata" -- "$kr" eval --model "$h/torch_meta_elu1.safetensors" --n 3
same "metadata layout and feature_map" "$(body "$out")" "$(body "$reference")"
run 1 "out_projection readout" -- "$kr" eval --model "$h/ft_out.safetensors" --layout fast-transformers --n 3
out_projection="$out"
run 1 "the same readout in kernelrank's tensors" -- "$kr" eval --model "$h/kr_out_elu1.safetensors" --n 3
same "out_projection = constant readout_c" "$(body "$out")" "$(body "$out_projection")"
run 1 "performer exp" -- "$kr" eval --model "$h/performer_exp.safetensors" --layout performer --n 3
performer="$out"
contains "performer features" "$out" "exp features, m = 3, dk = 16, d = 3, r = 5"
run 1 "kernelrank exp, halved" -- "$kr" eval --model "$h/kr_exp_halved.safetensors" --n 3
same "performer's dk^(-1/4) = halving at dk = 16" "$(body "$out")" "$(body "$performer")"
run 1 "softmax with temperature" -- "$kr" eval --model "$h/kr_softmax.safetensors" --n 3
contains "softmax temperature" "$out" "temperature 3/4"

# --- rational maps take the exact path --------------------------------------------------------
run 1 "relu through fast-transformers" -- "$kr" eval --model "$h/ft_relu.safetensors" --layout fast-transformers \
  --feature-map relu --n 3
relu_layout="$out"
contains "relu is exact" "$out" "verdict:     FAILS"
run 1 "relu, kernelrank layout (parametric reader)" -- "$kr" eval --model "$h/kr_relu.safetensors" --n 3
same "relu: layout reader = parametric reader" "$(body "$relu_layout")" "$(body "$out")"
run 2 "--precision on an exact head" -- "$kr" eval --model "$h/kr_relu.safetensors" --n 3 --precision 128
contains "--precision refused" "$err" "apply to heads with transcendental features"

# --- edge outputs: undecided, never a verdict ------------------------------------------------
cat >"$work/edge.family" <<'FAM'
kernelrank-family 1 m=3 n=2
1 100 010
1 110 011
1 000 111
FAM
run 5 "edge head: undecided" -- "$kr" eval --model "$h/ft_edge.safetensors" --layout fast-transformers \
  --family "$work/edge.family" --max-precision 256
contains "undecided verdict" "$out" "verdict:     undecided at 256 bits"
contains "undecided count" "$out" "undecided:   3"
contains "undecided listed" "$out" "  undecided: q=1 100 010  target 0"
run 5 "edge head --json" -- "$kr" --json eval --model "$h/ft_edge.safetensors" --layout fast-transformers \
  --family "$work/edge.family" --max-precision 128
contains "json undecided" "$out" '"undecided": "3"'
contains "json solves false" "$out" '"solves": false'
contains "json max error bound" "$out" '"max_error_lo": "'
run 1 "edge head on T(3,2): targets 2 and 3 fail outright" -- "$kr" eval --model "$h/ft_edge.safetensors" \
  --layout fast-transformers --n 2 --max-precision 128

# --- threads ----------------------------------------------------------------------------------
run 1 "threads 1" -- "$kr" eval --model "$h/kr_softmax.safetensors" --n 3 --mode all --threads 1
one="$out"
run 1 "threads 2" -- "$kr" eval --model "$h/kr_softmax.safetensors" --n 3 --mode all --threads 2
same "threads do not change the report" "$out" "$one"

# --- refusals -----------------------------------------------------------------------------------
refuse() {  # refuse FILE LAYOUT FRAGMENT
  run 2 "$1 refused" -- "$kr" eval --model "$h/$1.safetensors" --layout "$2" --n 2 || return
  contains "$1 names the file" "$err" "$h/$1.safetensors: error:"
  contains "$1 message" "$err" "$3"
}
refuse bad_unknown fast-transformers "unknown tensor 'query_projection.extra'"
refuse bad_missing fast-transformers "missing tensor 'key_projection.weight'"
refuse bad_shape fast-transformers "tensor 'key_projection.weight' has shape [3, 3], expected [dk, m] = [4, 3]"
refuse bad_nan fast-transformers "tensor 'value_projection.bias'"
refuse bad_two_readouts fast-transformers "give one readout"
refuse bad_no_readout fast-transformers "missing tensor 'readout_c.weight'"
refuse ft_elu1_f64 torch "unknown tensor 'key_projection.bias' for layout torch"
# kernelrank's layout: unknown metadata keys are refused for every activation (§11), not only
# for the relu/square/identity heads that the parametric reader takes.
for activation in relu elu1 taylor2 exp softmax; do
  for key in postions feature_map; do
    file="$h/kr_${activation}_$key.safetensors"
    run 2 "kr $activation with key $key" -- "$kr" eval --model "$file" --n 2 || continue
    contains "kr $activation $key names the file" "$err" "$file: error:"
    contains "kr $activation $key message" "$err" \
      "unknown metadata key \"$key\" (allowed: format, version, activation, positions)"
  done
done
run 1 "kernelrank elu1 with layout named" -- "$kr" eval --model "$h/kr_elu1_layout_named.safetensors" --n 3
same "a layout key naming kernelrank is accepted" "$(body "$out")" "$(body "$reference")"
# The parametric reader (relu) refused it as an unknown key while elu1 accepted it.
run 1 "kernelrank relu plain" -- "$kr" eval --model "$h/kr_relu.safetensors" --n 3
relu_plain="$out"
run 1 "kernelrank relu with layout named" -- "$kr" eval --model "$h/kr_relu_layout_named.safetensors" --n 3
same "relu: a layout key naming kernelrank is accepted" "$(body "$out")" "$(body "$relu_plain")"
run 2 "torch without a feature map" -- "$kr" eval --model "$h/torch_elu1.safetensors" --layout torch --n 2
contains "feature map needed" "$err" "give --feature-map"
run 2 "unknown layout" -- "$kr" eval --model "$h/torch_elu1.safetensors" --layout keras --n 2
contains "layout names" "$err" "layout must be kernelrank, fast-transformers, performer or torch, not 'keras'"
run 2 "layout contradicts metadata" -- "$kr" eval --model "$h/torch_meta_elu1.safetensors" --layout performer --n 2
contains "contradiction named" "$err" "contradicts the file's metadata layout"
run 2 "no layout for a foreign head" -- "$kr" eval --model "$h/ft_elu1_f64.safetensors" --n 2
contains "layout hint" "$err" "needs its layout given as an option"
run 2 "--layout on a text model" -- "$kr" eval --model "$src/instances/models/features-pf-m4-r2.model" --layout torch --n 2
run 2 "precision above the cap" -- "$kr" eval --model "$h/kr_elu1.safetensors" --n 2 --precision 512 --max-precision 256
run 2 "ball heads do not shard" -- "$kr" eval --model "$h/kr_elu1.safetensors" --n 2 --shard 1/2 --partial "$work/p"
run 2 "other commands refuse transcendental heads" -- "$kr" counterexample --model "$h/kr_elu1.safetensors" --n 3
contains "counterexample refusal" "$err" "elu1 head refused: its features are not rational"
finish
