#!/usr/bin/env bash
# The PyTorch example (examples/pytorch/train_elu_head.py) end to end.
#
# Runs the example with --quick into a scratch directory, then, independently of it:
#   * checks that the exported head.safetensors is a valid safetensors file (header length,
#     JSON header without duplicate keys, byte ranges that tile the buffer exactly, shapes
#     and dtypes of the ten tensors, metadata);
#   * runs `KERNELRANK eval --model HEAD --layout LAYOUT --family FAMILY --json` itself and
#     requires its verdict and failing count to equal those in the example's summary.json;
#   * reruns the example with the same seed and requires a byte-identical head (determinism).
# Usage: run_pytorch_example.sh KERNELRANK_BINARY [LAYOUT]
#   LAYOUT: fast-transformers (default; elu1 features) or kernelrank (relu features).
# Exit codes: 0 all checks pass, 1 a check failed, 77 skip (no Python with torch), 2 usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 KERNELRANK_BINARY [LAYOUT]" >&2
  exit 2
fi
kr="$1"
layout="${2:-fast-transformers}"
here="$(cd "$(dirname "$0")" && pwd)"
script="$here/../../examples/pytorch/train_elu_head.py"

py=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import torch' >/dev/null 2>&1; then
    py="$candidate"
    break
  fi
done
if [ -z "$py" ]; then
  echo "SKIP: no Python interpreter with torch (tried python3, /usr/bin/python3)"
  exit 77
fi

# With the Python module built, the example must get its verdict too (and agree with the CLI).
if [ -n "${KERNELRANK_PYTHON_MODULE_DIR:-}" ]; then
  export PYTHONPATH="$KERNELRANK_PYTHON_MODULE_DIR${PYTHONPATH:+:$PYTHONPATH}"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
count=0
failures=0
fail() { failures=$((failures + 1)); echo "FAIL: $*"; }
check() { count=$((count + 1)); }  # counts a check; the caller calls fail when it does not hold

# 1. The example itself.
check
"$py" "$script" --quick --kernelrank "$kr" --layout "$layout" --seed 3 --out "$work/run1" \
  >"$work/run1.out" 2>"$work/run1.err"
code=$?
if [ "$code" -ne 0 ]; then
  fail "train_elu_head.py --quick exited $code, expected 0"
  echo "  stdout (tail):"; tail -n 15 "$work/run1.out" | sed 's/^/    /'
  echo "  stderr (tail):"; tail -n 15 "$work/run1.err" | sed 's/^/    /'
fi
summary="$work/run1/summary.json"
head_file="$work/run1/head.safetensors"
check
if [ ! -f "$summary" ] || [ ! -f "$head_file" ]; then
  fail "the example wrote no summary.json or head.safetensors in $work/run1"
  echo "$count checks, $failures failed"
  exit 1
fi
if [ "$code" -eq 0 ]; then
  for needle in "PyTorch float max error" "kernelrank exact verdict" "float/exact disagreements"; do
    check
    grep -q "$needle" "$work/run1.out" || fail "the example's output lacks '$needle'"
  done
fi

# 2. The exported file is valid safetensors with the expected tensors (m = 3, r = 4, d = 3).
check
if ! "$py" - "$head_file" "$layout" <<'EOF'
import json, struct, sys
path, layout = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
assert len(data) >= 8, "shorter than 8 bytes"
(hlen,) = struct.unpack("<Q", data[:8])
assert 8 + hlen <= len(data), "header length %d overruns the file (%d bytes)" % (hlen, len(data))
def no_dups(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), "duplicate keys %r" % keys
    return dict(pairs)
header = json.loads(data[8:8 + hlen].decode("utf-8"), object_pairs_hook=no_dups)
buf_len = len(data) - 8 - hlen
meta = header.pop("__metadata__", None)
want_meta = ({"layout": "fast-transformers", "feature_map": "elu1"} if layout == "fast-transformers"
             else {"format": "kernelrank-head", "version": "1", "activation": "relu"})
assert meta == want_meta, "metadata %r, expected %r" % (meta, want_meta)
names = (("query_projection", "key_projection", "value_projection") if layout == "fast-transformers"
         else ("query", "key", "value"))
m, r, d = 3, 4, 3
want = {names[0] + ".weight": [r, m], names[0] + ".bias": [r],
        names[1] + ".weight": [r, m], names[1] + ".bias": [r],
        names[2] + ".weight": [d, m], names[2] + ".bias": [d],
        "readout_c.weight": [d, m], "readout_c.bias": [d],
        "readout_e.weight": [1, m], "readout_e.bias": [1]}
assert set(header) == set(want), "tensors %s, expected %s" % (sorted(header), sorted(want))
size = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2}
spans = []
for name, entry in header.items():
    assert set(entry) == {"dtype", "shape", "data_offsets"}, "%s: keys %s" % (name, sorted(entry))
    assert entry["dtype"] == "F32", "%s: dtype %s, expected F32" % (name, entry["dtype"])
    assert entry["shape"] == want[name], "%s: shape %s, expected %s" % (name, entry["shape"], want[name])
    b, e = entry["data_offsets"]
    count = 1
    for s in entry["shape"]:
        count *= s
    assert e - b == count * size[entry["dtype"]], "%s: %d bytes for %d values" % (name, e - b, count)
    spans.append((b, e, name))
at = 0
for b, e, name in sorted(spans):
    assert b == at, "%s starts at %d, expected %d (gap or overlap)" % (name, b, at)
    at = e
assert at == buf_len, "tensors cover %d of %d buffer bytes" % (at, buf_len)
print("safetensors ok: %d tensors, header %d bytes, buffer %d bytes" % (len(header), hlen, buf_len))
EOF
then
  fail "head.safetensors is not the expected safetensors file"
fi

# 3. kernelrank's verdict, obtained here, equals the one the example recorded.
family="$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["family"])' "$summary")"
check
"$kr" eval --model "$head_file" --layout "$layout" --family "$family" --json >"$work/eval.json" 2>"$work/eval.err"
ecode=$?
if [ "$ecode" -ne 0 ] && [ "$ecode" -ne 1 ] && [ "$ecode" -ne 5 ]; then
  fail "kernelrank eval exited $ecode, expected a verdict (0, 1 or 5)"
  head -c 600 "$work/eval.err" | sed 's/^/    /'
else
  check
  if ! "$py" - "$summary" "$work/eval.json" "$ecode" <<'EOF'
import json, os, sys
summary = json.load(open(sys.argv[1]))
report = json.load(open(sys.argv[2]))["report"]
code = int(sys.argv[3])
verdict = {0: "solves", 1: "fails", 5: "undecided"}[code]
if code != 5:
    assert bool(report["solves"]) == (code == 0), "exit %d but solves=%s" % (code, report["solves"])
assert summary["verdict"] == verdict, "example says %r, kernelrank eval says %r" % (summary["verdict"], verdict)
assert str(summary["failing"]) == str(report["failing"]), \
    "example says %s failing, kernelrank eval says %s" % (summary["failing"], report["failing"])
assert summary["max_error"] == report["max_error"], \
    "example says max error %s, kernelrank eval says %s" % (summary["max_error"], report["max_error"])
assert summary["instances"] == int(report["instances"]), "instance counts differ"
if os.environ.get("KERNELRANK_PYTHON_MODULE_DIR"):
    assert summary.get("module") is not None, "the Python module is built but the example did not use it"
    assert "error" not in summary["module"], "the Python module raised: %s" % summary["module"]["error"]
if summary.get("module") is not None:
    assert summary.get("agree") is True, "the example found the CLI and the Python module disagreeing"
print("verdict ok: %s, %s failing of %s" % (verdict, report["failing"], report["instances"]))
EOF
  then
    fail "the example's summary.json disagrees with kernelrank eval"
  fi
fi

# 4. Determinism: the same seed gives the same bytes (the files are written before the
# evaluation, so this is checked even when the evaluation failed above).
"$py" "$script" --quick --kernelrank "$kr" --layout "$layout" --seed 3 --out "$work/run2" \
  >"$work/run2.out" 2>"$work/run2.err"
code2=$?
check
[ "$code2" -eq "$code" ] || fail "the second run exited $code2, the first $code"
check
cmp -s "$head_file" "$work/run2/head.safetensors" || fail "two runs with --seed 3 wrote different heads"
check
cmp -s "$family" "$work/run2/$(basename "$family")" || fail "two runs with --seed 3 wrote different families"

# 5. The trained head moved to within 1e-12 of the band edge on one instance (readout_e.bias
# shifts y by the same amount): undecided at 24 bits, decided at higher precision, on the
# right side of the edge (tests/heads/shift_bias.py).
if [ "$layout" = fast-transformers ]; then
  first="$(grep -v '^#' "$family" | sed -n 2p)"
  printf '%s\n%s\n' "$(grep -v '^#' "$family" | sed -n 1p)" "$first" >"$work/one.family"
  "$kr" --json eval --model "$head_file" --layout "$layout" --family "$work/one.family" \
    --precision 1024 --max-precision 1024 >"$work/one.json" 2>"$work/one.err"
  for side in below above; do
    distance="-1/1000000000000"; expect=0
    [ "$side" = above ] && { distance="1/1000000000000"; expect=1; }
    check
    "$py" - "$work/one.json" "$head_file" "$work/edge-$side.safetensors" "$distance" "$here/../heads/shift_bias.py" <<'PY' || fail "shifting the head ($side)"
import json, subprocess, sys
worst = json.load(open(sys.argv[1]))["report"]["worst"]
subprocess.run([sys.executable, sys.argv[5], sys.argv[2], sys.argv[3], "readout_e.bias", worst["output_lo"],
                worst["output_hi"], str(worst["target"]), sys.argv[4]], check=True, stdout=subprocess.DEVNULL)
PY
    check
    "$kr" eval --model "$work/edge-$side.safetensors" --layout "$layout" --family "$work/one.family" \
      --precision 24 --max-precision 24 >"$work/edge.out" 2>&1
    c=$?; [ "$c" -eq 5 ] || { fail "edge ($side) at 24 bits: exit $c, expected 5 (undecided)"; cat "$work/edge.out"; }
    check
    "$kr" eval --model "$work/edge-$side.safetensors" --layout "$layout" --family "$work/one.family" \
      --precision 24 >"$work/edge.out" 2>&1
    c=$?; [ "$c" -eq "$expect" ] || { fail "edge ($side): exit $c, expected $expect"; cat "$work/edge.out"; }
    grep -q "decided at:  [0-9]* bits: 1;" "$work/edge.out" && ! grep -q "decided at:  24 bits" "$work/edge.out" \
      || fail "edge ($side) was not decided above 24 bits"
  done
fi

echo "$((count - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
