#!/usr/bin/env python3
"""Writes the example models shipped in instances/models/ (fixed seeds, exact decimals).

The models are small on purpose: rank-1 and random low-rank heads that a researcher might
train, in each file format, plus the two built-ins the theory is about. Their counterexamples
are produced by scripts/make-instances.sh with `kernelrank counterexample`.
"""
import random
import sys
from fractions import Fraction
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else "instances/models")
out.mkdir(parents=True, exist_ok=True)


def write(name, text):
    (out / name).write_text(text)


write("rank1-mean-m24-n3.model",
      "# L1's rank-1 head (phi = 1, v(z) = z) with the mean-overlap readout for n = 3.\n"
      "kernelrank-model 1 kind=builtin name=rank1-mean m=24 n=3\n")
write("softmax-base3-m24.model",
      "# Dense softmax with scores -ln(3) <q,z> (theory.md L5): solves T(m,3) for every m.\n"
      "kernelrank-model 1 kind=builtin name=softmax m=24 base=3\n")


def affine_rows(rng, rows, m, lo, hi, bias_lo, bias_hi):
    lines = []
    for _ in range(rows):
        weights = [f"{rng.randint(lo, hi) / 4:g}" for _ in range(m)]
        lines.append(" ".join(weights + [f"{rng.randint(bias_lo, bias_hi) / 4:g}"]))
    return lines


def parametric(name, m, r, seed, comment):
    rng = random.Random(seed)
    lines = [f"# {comment}", f"kernelrank-model 1 kind=parametric m={m} r={r} d=1 activation=relu"]
    lines += ["WQ"] + affine_rows(rng, r, m, -4, 4, 0, 8)
    lines += ["WK"] + affine_rows(rng, r, m, -4, 4, 0, 8)
    lines += ["V"] + affine_rows(rng, 1, m, 0, 4, 0, 0)
    lines += ["C"] + affine_rows(rng, 1, m, 0, 4, 0, 0)
    lines += ["E"] + affine_rows(rng, 1, m, -2, 2, 0, 0)
    write(name, "\n".join(lines) + "\n")


parametric("relu-pf-m24-r4.model", 24, 4, 2024,
           "A random relu head at m = 24 with 4 positive features (PF by construction).")
parametric("relu-pf-m24-r12.model", 24, 12, 2025,
           "A random relu head at m = 24 with 12 positive features, below the certified 14.")


def feature_model(name, m, r, seed, signed, comment):
    """Per-token features over the whole cube {0,1}^m; signed features are shifted so
    that the kernel stays >= 0 (class NK without being PF)."""
    rng = random.Random(seed)
    tokens = [format(i, f"0{m}b") for i in range(2 ** m)]
    low, high = (-2, 2) if signed else (0, 3)
    phi_q = {t: [rng.randint(low, high) for _ in range(r)] for t in tokens}
    phi_k = {t: [rng.randint(low, high) for _ in range(r)] for t in tokens}
    if signed:
        # Append a constant feature pair (1, s) with s = -min kernel, so alpha >= 0.
        worst = min(sum(a * b for a, b in zip(phi_q[x], phi_k[z])) for x in tokens for z in tokens)
        shift = max(0, -worst)
        for t in tokens:
            phi_q[t].append(1)
            phi_k[t].append(shift)
    rr = len(phi_q[tokens[0]])
    lines = [f"# {comment}", f"kernelrank-model 1 kind=features m={m} r={rr} d=1"]
    for t in tokens:
        ones = t.count("1")
        v = [str(ones)]            # v(z) = |z|
        c = [str(Fraction(rng.randint(0, 4), 4))]
        e = str(Fraction(rng.randint(-4, 4), 4))
        lines.append(f"token {t} phiQ {' '.join(map(str, phi_q[t]))} phiK {' '.join(map(str, phi_k[t]))} "
                     f"v {' '.join(v)} c {' '.join(c)} e {e}")
    write(name, "\n".join(lines) + "\n")


feature_model("features-pf-m4-r2.model", 4, 2, 7, False,
              "Random nonnegative features (PF), r = 2, on the cube {0,1}^4.")
feature_model("features-nk-m5-r2.model", 5, 2, 8, True,
              "Random signed features made NK by a constant feature pair (r = 3), on {0,1}^5.")
