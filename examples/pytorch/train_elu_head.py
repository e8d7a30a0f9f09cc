#!/bin/sh
''':'
# Shell prologue: run this file with the first interpreter that can import torch
# (python3 on PATH, then Debian's /usr/bin/python3). Python reads these lines as a string.
for py in python3 /usr/bin/python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import torch' >/dev/null 2>&1; then
    exec "$py" "$0" "$@"
  fi
done
echo "train_elu_head.py: no Python interpreter with torch found (tried python3, /usr/bin/python3)" >&2
exit 77
'''
# Train a single normalized linear-attention head (elu+1 features) on the Min-IP task with
# plain PyTorch, export it as safetensors by hand, and let kernelrank decide exactly whether
# the exported weights solve the training family. See examples/pytorch/README.md.

import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import torch
from torch import nn

DESCRIPTION = """\
Train a single-head normalized linear-attention model (fast-transformers naming,
feature map elu(u) + 1, plus a query-dependent readout) on the Min-IP task T(m, n), export
its state_dict as a safetensors file (written by hand, no safetensors package), and print
kernelrank's exact verdict on the training family next to PyTorch's float error.

The family comes from `kernelrank generate` (a few hundred random instances; --source
generate) or `kernelrank instances` (the whole cube with every query position or the first;
--source cube). Files written to --out: the family, head.safetensors, kernelrank-eval.json
and summary.json.

Exit code: 0 the run completed and kernelrank's CLI and the Python module (if importable)
agree; 1 they disagree; 2 bad arguments, or kernelrank could not evaluate the file (its
stderr is shown); 3 the exported file did not read back bit for bit; 77 no interpreter
with torch (from the shell prologue)."""

DTYPES = {  # --dtype -> (safetensors dtype, torch dtype, bytes per value)
    "float32": ("F32", torch.float32, 4),
    "float64": ("F64", torch.float64, 8),
    "float16": ("F16", torch.float16, 2),
    "bfloat16": ("BF16", torch.bfloat16, 2),
}
ST_TO_TORCH = {st: (tdt, size) for st, tdt, size in DTYPES.values()}

# --layout -> tensor name of each submodule in the file, metadata, feature map.
LAYOUTS = {
    "fast-transformers": {
        "names": {"query_projection": "query_projection", "key_projection": "key_projection",
                  "value_projection": "value_projection", "readout_c": "readout_c",
                  "readout_e": "readout_e"},
        "metadata": {"layout": "fast-transformers", "feature_map": "elu1"},
        "feature": "elu1",
    },
    # kernelrank's own layout (docs/model-format.md §11): relu features, exact rational head.
    "kernelrank": {
        "names": {"query_projection": "query", "key_projection": "key",
                  "value_projection": "value", "readout_c": "readout_c",
                  "readout_e": "readout_e"},
        "metadata": {"format": "kernelrank-head", "version": "1", "activation": "relu"},
        "feature": "relu",
    },
}


def log(*args):
    print(*args, flush=True)


def die(message):
    sys.stderr.write("train_elu_head.py: %s\n" % message)
    raise SystemExit(2)


# ---------------------------------------------------------------------------------------
# The model


class LinearAttentionHead(nn.Module):
    """One head of normalized linear attention with a query-dependent readout.

    alpha_ij = <phi(Wq x_i + bq), phi(Wk x_j + bk)>, v_j = Wv x_j + bv,
    o_i = sum_j alpha_ij v_j / sum_j alpha_ij, y_i = <readout_c(x_i), o_i> + readout_e(x_i);
    the keys are all n tokens of the sequence (the query included)."""

    def __init__(self, m, r, d, feature="elu1"):
        super().__init__()
        self.query_projection = nn.Linear(m, r)
        self.key_projection = nn.Linear(m, r)
        self.value_projection = nn.Linear(m, d)
        self.readout_c = nn.Linear(m, d)
        self.readout_e = nn.Linear(m, 1)
        self.feature = feature
        if feature == "relu":  # start with live relu features (a zero denominator fails)
            for layer in (self.query_projection, self.key_projection):
                nn.init.uniform_(layer.bias, 0.5, 1.0)

    def phi(self, u):
        if self.feature == "elu1":
            return nn.functional.elu(u) + 1.0
        return torch.relu(u)

    def forward(self, x, eps=0.0, with_den=False):
        """x: [B, n, m] -> y: [B, n] (the output for every query position)."""
        q = self.phi(self.query_projection(x))          # [B, n, r]
        k = self.phi(self.key_projection(x))            # [B, n, r]
        v = self.value_projection(x)                    # [B, n, d]
        alpha = torch.einsum("bir,bjr->bij", q, k)      # [B, n, n]
        den = alpha.sum(-1, keepdim=True)               # [B, n, 1]
        o = torch.einsum("bij,bjd->bid", alpha, v) / (den + eps)
        y = (self.readout_c(x) * o).sum(-1) + self.readout_e(x).squeeze(-1)
        return (y, den.squeeze(-1)) if with_den else y


# ---------------------------------------------------------------------------------------
# Family files (docs/file-formats.md#family-files)


def parse_family(path):
    """Returns (m, n, instances) with instances a list of (query position 1-based, [tokens])."""
    m = n = None
    instances = []
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if m is None:
                if (len(fields) != 4 or fields[0] != "kernelrank-family" or fields[1] != "1"
                        or not fields[2].startswith("m=") or not fields[3].startswith("n=")):
                    raise ValueError("%s:%d: not a kernelrank-family 1 header" % (path, lineno))
                m, n = int(fields[2][2:]), int(fields[3][2:])
                continue
            if len(fields) != n + 1:
                raise ValueError("%s:%d: expected %d fields" % (path, lineno, n + 1))
            pos, tokens = int(fields[0]), fields[1:]
            if not 1 <= pos <= n or any(len(t) != m or set(t) - {"0", "1"} for t in tokens):
                raise ValueError("%s:%d: bad instance" % (path, lineno))
            instances.append((pos, tokens))
    if m is None:
        raise ValueError("%s: no header" % path)
    return m, n, instances


def token_bits(token):
    return [1.0 if c == "1" else 0.0 for c in token]  # leftmost character = coordinate 1


def min_ip_targets(x):
    """x: [B, n, m] 0/1 -> [B, n]: t_i = min_j <x_i, x_j> (j over all positions)."""
    return torch.einsum("bim,bjm->bij", x, x).min(-1).values


def family_tensors(instances, dtype):
    x = torch.tensor([[token_bits(t) for t in tokens] for _, tokens in instances], dtype=dtype)
    pos = torch.tensor([p - 1 for p, _ in instances], dtype=torch.long)
    return x, pos


# ---------------------------------------------------------------------------------------
# safetensors, written and read by hand (docs/model-format.md §11)


def tensor_bytes(tensor, st_dtype):
    tdt, _ = ST_TO_TORCH[st_dtype]
    t = tensor.detach().to(torch.float64).to(tdt).contiguous().flatten()
    if st_dtype == "BF16":
        arr = t.view(torch.int16).numpy().astype("<i2")
    elif st_dtype == "F16":
        arr = t.numpy().astype("<f2")
    elif st_dtype == "F32":
        arr = t.numpy().astype("<f4")
    else:
        arr = t.numpy().astype("<f8")
    if not torch.isfinite(t.to(torch.float64)).all():
        raise ValueError("a value is not finite in %s" % st_dtype)
    return arr.tobytes()


def write_safetensors(path, named_tensors, st_dtype, metadata):
    """named_tensors: list of (name, tensor) in the order to store them."""
    header = {"__metadata__": dict(metadata)}
    blobs, offset = [], 0
    for name, tensor in named_tensors:
        blob = tensor_bytes(tensor, st_dtype)
        header[name] = {"dtype": st_dtype, "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # pad the header to a multiple of 8 bytes
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def read_safetensors(path):
    """A strict re-reader: returns (metadata, {name: (st_dtype, shape, raw bytes)}, order)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError("%s: shorter than 8 bytes" % path)
    (hlen,) = struct.unpack("<Q", data[:8])
    if 8 + hlen > len(data):
        raise ValueError("%s: header length %d overruns the file" % (path, hlen))

    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("%s: duplicate key in header" % path)
        return dict(pairs)

    header = json.loads(data[8:8 + hlen].decode("utf-8"), object_pairs_hook=no_duplicates)
    buf = data[8 + hlen:]
    metadata = header.pop("__metadata__", {})
    if not all(isinstance(v, str) for v in metadata.values()):
        raise ValueError("%s: metadata values must be strings" % path)
    tensors, spans = {}, []
    for name, entry in header.items():
        if set(entry) != {"dtype", "shape", "data_offsets"} or entry["dtype"] not in ST_TO_TORCH:
            raise ValueError("%s: bad entry %r" % (path, name))
        begin, end = entry["data_offsets"]
        count = 1
        for s in entry["shape"]:
            count *= s
        if end - begin != count * ST_TO_TORCH[entry["dtype"]][1]:
            raise ValueError("%s: %r: byte range does not match its shape" % (path, name))
        tensors[name] = (entry["dtype"], list(entry["shape"]), buf[begin:end])
        spans.append((begin, end, name))
    spans.sort()
    at = 0
    for begin, end, name in spans:
        if begin != at:
            raise ValueError("%s: %r starts at %d, expected %d (gap or overlap)" % (path, name, begin, at))
        at = end
    if at != len(buf):
        raise ValueError("%s: tensors cover %d of %d buffer bytes" % (path, at, len(buf)))
    return metadata, tensors, list(header)


def decode(st_dtype, shape, raw):
    """Raw little-endian bytes -> float64 torch tensor (exact: every stored value fits)."""
    if st_dtype == "BF16":
        bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        values = bits.view(np.float32).astype(np.float64)
    else:
        values = np.frombuffer(raw, dtype={"F16": "<f2", "F32": "<f4", "F64": "<f8"}[st_dtype])
        values = values.astype(np.float64)
    return torch.from_numpy(values.copy()).reshape(shape)


def check_round_trip(path, named_tensors, st_dtype, metadata):
    """Re-reads the file and requires every tensor to be bit for bit the stored conversion."""
    meta, tensors, order = read_safetensors(path)
    if meta != metadata:
        raise ValueError("metadata read back as %r" % meta)
    if order != [name for name, _ in named_tensors]:
        raise ValueError("tensor order read back as %r" % order)
    for name, tensor in named_tensors:
        dt, shape, raw = tensors[name]
        if dt != st_dtype or shape != list(tensor.shape):
            raise ValueError("%s read back as %s %s" % (name, dt, shape))
        if raw != tensor_bytes(tensor, st_dtype):
            raise ValueError("%s: bytes differ" % name)
        expected = tensor.detach().to(torch.float64).to(ST_TO_TORCH[st_dtype][0]).to(torch.float64)
        if not torch.equal(decode(dt, shape, raw), expected):
            raise ValueError("%s: values differ" % name)
    return tensors


# ---------------------------------------------------------------------------------------
# kernelrank


def run(cmd):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        die("cannot run %s: %s (give the binary with --kernelrank PATH)" % (cmd[0], e.strerror or e))
    return proc.returncode, proc.stdout, proc.stderr


def make_family(args, out):
    mode = "all" if args.query == "all" else "first"
    if args.source == "cube":
        path = os.path.join(out, "cube-m%d-n%d-%s.family" % (args.m, args.n, mode))
        cmd = [args.kernelrank, "instances", "--m", str(args.m), "--n", str(args.n),
               "--mode", mode, "--out", path]
    else:
        prefix = os.path.join(out, "minip-m%d-n%d" % (args.m, args.n))
        path = prefix + "-train.family"
        cmd = [args.kernelrank, "generate", "--m", str(args.m), "--n", str(args.n),
               "--mode", mode, "--train", str(args.instances), "--test", "0",
               "--seed", str(args.seed), "--format", "family", "--out-prefix", prefix]
    log("$ " + " ".join(cmd))
    code, stdout, stderr = run(cmd)
    if code != 0:
        sys.stderr.write(stderr)
        die("kernelrank could not write the family (exit %d)" % code)
    return path


def show_rational(s):
    if s is None:
        return "undefined (zero denominator)"
    return "%s (~%.6g)" % (s, float(Fraction(s)))


def show_error(obj, key="max_error"):
    """An exact rational, or with ball arithmetic (elu1 heads) the enclosure [lo, hi]."""
    hi, lo = obj.get(key), obj.get(key + "_lo")
    if hi is None:
        return "undefined (zero denominator)"
    if lo is None or lo == hi:
        return show_rational(hi)
    return "in [%s, %s] (~%.6g)" % (lo, hi, float(Fraction(hi)))


def show_output(f):
    if f.get("output_lo") is not None and f.get("output_hi") is not None:
        return "%s, in [%s, %s]" % (f.get("output"), f["output_lo"], f["output_hi"])
    return show_rational(f.get("output"))


def instance_key(query, tokens):
    return (int(query), tuple(tokens))


def module_verdict(path, layout, family):
    """kernelrank's Python module, if importable: (available, verdict dict or error text)."""
    try:
        import kernelrank
    except Exception as e:  # ImportError, or a broken extension
        return False, "import kernelrank failed (%s: %s)" % (type(e).__name__, e)
    try:
        res = kernelrank.evaluate(path, layout=layout, family=family)
        failures = []
        for f in list(getattr(res, "failures", []) or []):
            get = (lambda k: f.get(k)) if isinstance(f, dict) else (lambda k: getattr(f, k, None))
            failures.append({"query": get("query"), "tokens": list(get("tokens") or [])})
        return True, {"solves": bool(res.solves), "failing": int(res.failing), "failures": failures}
    except Exception as e:
        return True, "kernelrank.evaluate raised %s: %s" % (type(e).__name__, e)


# ---------------------------------------------------------------------------------------


def main():
    p = argparse.ArgumentParser(description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernelrank", default="build/kernelrank", metavar="PATH",
                   help="the kernelrank binary (default: build/kernelrank)")
    p.add_argument("--out", metavar="DIR", help="directory for the written files (default: a new temporary directory)")
    p.add_argument("--m", type=int, default=3, help="token width (default 3)")
    p.add_argument("--n", type=int, default=3, help="sequence length (default 3)")
    p.add_argument("--r", type=int, default=4, help="features (default 4)")
    p.add_argument("--d", type=int, help="value width (default m)")
    p.add_argument("--seed", type=int, default=1, help="seed of torch and of `generate` (default 1)")
    p.add_argument("--steps", type=int, default=3000, help="Adam steps in float32 (default 3000)")
    p.add_argument("--lr", type=float, default=0.01, help="Adam learning rate (default 0.01)")
    p.add_argument("--finetune-steps", type=int, default=500,
                   help="Adam steps in float64 after the float32 run, at lr/10 (default 500; 0: none)")
    p.add_argument("--source", choices=["generate", "cube"], default="generate",
                   help="family: `kernelrank generate` (random instances) or `kernelrank instances` "
                        "(the whole cube) (default generate)")
    p.add_argument("--instances", type=int, default=400,
                   help="instances drawn by `generate` (default 400)")
    p.add_argument("--query", choices=["all", "first"], default="all",
                   help="all: loss over every query position, family mode all; first: position 1 "
                        "only, family mode first (default all)")
    p.add_argument("--dtype", choices=list(DTYPES), default="float32",
                   help="stored dtype: F32, F64, F16 or BF16 (default float32)")
    p.add_argument("--layout", choices=list(LAYOUTS), default="fast-transformers",
                   help="fast-transformers (elu1 features; default) or kernelrank (tensors query, key, "
                        "value, ...; relu features, evaluated as an exact rational head)")
    p.add_argument("--quick", action="store_true",
                   help="a few seconds for CI: 300 float32 steps, 100 float64 steps, 200 instances")
    p.add_argument("--failures", type=int, help="failing instances kernelrank lists (default: all)")
    args = p.parse_args()
    if args.d is None:
        args.d = args.m
    if args.quick:
        args.steps, args.finetune_steps = min(args.steps, 300), min(args.finetune_steps, 100)
        args.instances = min(args.instances, 200)
    if min(args.m, args.n, args.r) < 1 or args.d < 0 or args.steps < 0 or args.finetune_steps < 0:
        p.error("--m, --n, --r must be >= 1, --d, --steps, --finetune-steps >= 0")
    if args.source == "cube" and args.m * args.n > 16:
        p.error("--source cube is for small tasks (m * n <= 16); use --source generate")

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)

    out = args.out or tempfile.mkdtemp(prefix="kernelrank-pytorch-")
    os.makedirs(out, exist_ok=True)
    layout = LAYOUTS[args.layout]

    # 1. The family, from kernelrank.
    family = make_family(args, out)
    fm, fn, instances = parse_family(family)
    if (fm, fn) != (args.m, args.n):
        die("%s has m=%d n=%d, expected m=%d n=%d" % (family, fm, fn, args.m, args.n))
    log("family: %s (%d instances of T(%d,%d), query %s)" % (family, len(instances), fm, fn, args.query))

    # 2. Training.
    x, pos = family_tensors(instances, torch.float32)
    targets = min_ip_targets(x)
    head = LinearAttentionHead(args.m, args.r, args.d, layout["feature"])
    eps = 1e-6 if layout["feature"] == "relu" else 0.0  # relu features can all vanish

    def loss_of(model, x, targets):
        y, den = model(x, eps, with_den=True)
        if args.query == "first":
            y, den, targets = y[:, :1], den[:, :1], targets[:, :1]
        loss = ((y - targets) ** 2).mean()
        if layout["feature"] == "relu":  # keep the denominators away from 0 (exactly 0 fails)
            loss = loss + torch.relu(0.1 - den).mean()
        return loss

    def train(model, x, targets, steps, lr, label):
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        loss = None
        for step in range(steps):
            opt.zero_grad()
            loss = loss_of(model, x, targets)
            loss.backward()
            opt.step()
            if steps >= 10 and (step + 1) % max(1, steps // 5) == 0:
                log("  %s step %5d  loss %.3e" % (label, step + 1, loss.item()))
        return loss

    log("training: r=%d d=%d features %s, %d Adam steps in float32 (lr %g)%s"
        % (args.r, args.d, layout["feature"], args.steps, args.lr,
           ", then %d in float64" % args.finetune_steps if args.finetune_steps else ""))
    train(head, x, targets, args.steps, args.lr, "float32")
    with torch.no_grad():
        y32 = head(x, eps)
        err32 = (y32.gather(1, pos[:, None]).squeeze(1) - targets.gather(1, pos[:, None]).squeeze(1)).abs()
    float32_max_error = err32.max().item()
    log("float32 max error on the family instances: %.6g" % float32_max_error)
    if args.finetune_steps:
        head = head.double()
        train(head, x.double(), targets.double(), args.finetune_steps, args.lr / 10, "float64")

    # 3. Export, and re-read bit for bit.
    st_dtype = DTYPES[args.dtype][0]
    named = [(layout["names"][name.split(".")[0]] + "." + name.split(".", 1)[1], t)
             for name, t in head.state_dict().items()]
    path = os.path.join(out, "head.safetensors")
    try:
        write_safetensors(path, named, st_dtype, layout["metadata"])
        stored = check_round_trip(path, named, st_dtype, layout["metadata"])
    except ValueError as e:
        log("export failed: %s" % e)
        return 3
    log("wrote %s (%s, %d tensors, %d bytes); re-read bit for bit: ok"
        % (path, st_dtype, len(named), os.path.getsize(path)))

    # Float64 evaluation of the weights as stored (after rounding to the stored dtype).
    ref = LinearAttentionHead(args.m, args.r, args.d, layout["feature"]).double()
    inverse = {v: k for k, v in layout["names"].items()}
    ref.load_state_dict({inverse[n.split(".")[0]] + "." + n.split(".", 1)[1]: decode(*stored[n]) for n, _ in named})
    x64, _ = family_tensors(instances, torch.float64)
    t64 = min_ip_targets(x64).gather(1, pos[:, None]).squeeze(1)
    with torch.no_grad():
        y64 = ref(x64).gather(1, pos[:, None]).squeeze(1)
    err64 = (y64 - t64).abs()
    float_fail = ~(err64 < 0.5)  # NaN (zero denominator) counts as a failure
    undefined64 = int(torch.isnan(err64).sum())
    float64_max_error = err64[~torch.isnan(err64)].max().item() if undefined64 < len(instances) else float("nan")
    float_fail_keys = {instance_key(p_, toks) for (p_, toks), f in zip(instances, float_fail.tolist()) if f}
    log("float64 evaluation of the stored weights: max error %.6g, %d of %d instances fail (|y - t| >= 1/2)%s"
        % (float64_max_error, int(float_fail.sum()), len(instances),
           ", %d of them with a zero denominator" % undefined64 if undefined64 else ""))

    # 4. kernelrank's exact verdict.
    failures_to_list = args.failures if args.failures is not None else max(1, len(instances))
    cmd = [args.kernelrank, "eval", "--model", path, "--layout", args.layout, "--family", family,
           "--failures", str(failures_to_list), "--threads", "1", "--json"]
    log("$ " + " ".join(cmd))
    code, stdout, stderr = run(cmd)
    summary = {"family": family, "model": path, "layout": args.layout, "dtype": st_dtype,
               "instances": len(instances), "float32_max_error": float32_max_error,
               "float64_max_error": float64_max_error, "float64_failing": int(float_fail.sum()),
               "float64_undefined": undefined64,
               "cli_exit": code, "verdict": None, "failing": None, "max_error": None,
               "module": None, "agree": None, "float_exact_disagreements": None}
    result = 0
    report = None
    if code in (0, 1, 5):
        try:
            report = json.loads(stdout)["report"]
        except (ValueError, KeyError) as e:
            log("kernelrank's JSON could not be read (%s): %s" % (e, stdout[:400]))
            result = 2
    else:
        log("kernelrank eval failed with exit %d:\n%s" % (code, stderr.strip()))
        if "--layout" in stderr and "not expected" in stderr:
            log("(this kernelrank has no eval --layout option yet; rebuild it)")
        result = 2
    if report is not None:
        verdict = {0: "solves", 1: "fails", 5: "undecided"}[code]
        if code != 5 and bool(report.get("solves")) != (code == 0):
            log("kernelrank's exit code %d contradicts its report (solves=%s)" % (code, report.get("solves")))
            result = 2
        summary.update(verdict=verdict, failing=str(report.get("failing")), max_error=report.get("max_error"))
        log("")
        log("PyTorch float max error:  %.6g (float32 training), %.6g (float64, stored weights)"
            % (float32_max_error, float64_max_error))
        log("kernelrank exact verdict: %s: %s of %s instances fail%s, max error %s%s"
            % (verdict.upper(), report.get("failing"), report.get("instances"),
               ", %s undecided" % report["undecided"] if report.get("undecided") not in (None, "0") else "",
               show_error(report),
               " [%s]" % report["verdict"] if "verdict" in report else ""))
        failures = report.get("failures") or []
        if failures:
            f = failures[0]
            log("first failing instance:   q=%s %s  target %s  exact output %s  error %s"
                % (f.get("query"), " ".join(f.get("tokens", [])), f.get("target"),
                   show_output(f), show_error(f, "error")))
        # Float/exact disagreements, over the instances kernelrank lists as failing and, when
        # it lists all of them, over the whole family.
        exact_fail_keys = {instance_key(f["query"], f["tokens"]) for f in failures}
        undecided_keys = {instance_key(f["query"], f["tokens"]) for f in report.get("undecided_instances") or []}
        complete = str(len(failures)) == str(report.get("failing"))
        float_pass_exact_fail = sorted(exact_fail_keys - float_fail_keys)
        exact_pass_float_fail = sorted(float_fail_keys - exact_fail_keys - undecided_keys) if complete else None
        summary["float_exact_disagreements"] = {
            "float_pass_exact_fail": [{"query": q, "tokens": list(t)} for q, t in float_pass_exact_fail],
            "float_fail_exact_pass": None if exact_pass_float_fail is None
            else [{"query": q, "tokens": list(t)} for q, t in exact_pass_float_fail]}
        log("float/exact disagreements: %d float-pass/exact-fail, %s float-fail/exact-pass%s"
            % (len(float_pass_exact_fail),
               "?" if exact_pass_float_fail is None else len(exact_pass_float_fail),
               "" if complete else " (kernelrank listed only %d failures)" % len(failures)))
        for q, t in float_pass_exact_fail[:5] + (exact_pass_float_fail or [])[:5]:
            i = next(k for k, inst in enumerate(instances) if instance_key(*inst) == (q, t))
            log("  q=%d %s  float64 output %.17g  target %d" % (q, " ".join(t), y64[i].item(), int(t64[i].item())))

        # The Python module, if `import kernelrank` works (docs/python.md).
        available, mod = module_verdict(path, args.layout, family)
        if not available:
            log("Python module: %s; skipped" % mod)
        elif isinstance(mod, str):
            log("Python module: %s" % mod)
            summary["module"] = {"error": mod}
            summary["agree"] = False
            result = 1
        else:
            agree = mod["solves"] == bool(report.get("solves")) and str(mod["failing"]) == str(report.get("failing"))
            if code == 5:
                agree = False if mod["solves"] else agree
            summary["module"] = {"solves": mod["solves"], "failing": mod["failing"]}
            summary["agree"] = agree
            log("Python module verdict:    %s, %d failing: %s the CLI"
                % ("SOLVES" if mod["solves"] else "FAILS", mod["failing"], "agrees with" if agree else "DISAGREES with"))
            if not agree:
                result = 1
    with open(os.path.join(out, "kernelrank-eval.json"), "w") as f:
        f.write(stdout)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2, sort_keys=True)
        f.write("\n")
    log("files in %s: %s, head.safetensors, kernelrank-eval.json, summary.json" % (out, os.path.basename(family)))
    return result


if __name__ == "__main__":
    sys.exit(main())
