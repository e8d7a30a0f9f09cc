#!/usr/bin/env python3
"""Write the upper-bound PF models for T(m,3), m = 7..10 (docs/upper-bounds.md).

Construction ("layered missing-set kernel"). For a set J of layer sizes (0 in J) the
features are the subsets S of {1..m} with |S| in J, and

    phiQ(q)_S = c_|S| * [S subset of q],     phiK(z)_S = [S and z disjoint],

so alpha(q,z) = sum_{j in J} c_j * C(u, j) with u = |q| - <q,z>, the number of ones of q
that z misses. All entries are >= 0 (class PF) and r = sum_{j in J} C(m, j).

Readout. With G = J minus {0, 1}, the value vector is v(z) = (z_1..z_m, [S and z disjoint]
for |S| in G), and for a query of weight w

    c(q) = ((1 - b_w) q, g_{w,|S|} [S subset of q] for |S| in G),   e(q) = a_w + b_w w,

so F_q(z) = <q,z> + a_w + b_w u + sum_{j in G} g_{w,j} C(u, j): the overlap plus a
correction that depends on u only. Both alpha and F depend only on (|q|, <q,z>).

The coefficients below were found by linear programming (docs/upper-bounds.md explains the
LP) and rounded to small rationals; this script does not search, it re-checks every overlap
profile exactly with fractions before writing anything, and exits non-zero if one fails.

Usage: scripts/upper-bound-models.py [--out DIR] [--check-only] [M ...]   (default M = 7 8 9 10)
"""

import argparse
import itertools
import os
import sys
from fractions import Fraction as Fr
from math import comb

# Readouts (a_w, b_w, {j: g_{w,j}}) for the kernel 2 + 3 C(u,2), query weights 0..9.
# They are shared by m = 8, 9, 10 (the profiles of weight w do not depend on m).
_PAIR_READOUT = [
    (Fr(0), Fr(0), {2: Fr(0)}),
    (Fr(-1, 4), Fr(-1, 2), {2: Fr(0)}),
    (Fr(-1, 3), Fr(-1, 4), {2: Fr(0)}),
    (Fr(-1, 3), Fr(-1, 3), {2: Fr(1, 4)}),
    (Fr(-1, 3), Fr(-2, 7), {2: Fr(1, 5)}),
    (Fr(-3, 8), Fr(-1, 5), {2: Fr(1, 9)}),
    (Fr(-5, 13), Fr(-1, 7), {2: Fr(1, 16)}),
    (Fr(-2, 5), Fr(0), {2: Fr(0)}),
    (Fr(-37, 88), Fr(-4, 83), {2: Fr(1, 91)}),
    (Fr(-93, 200), Fr(-1, 34), {2: Fr(1, 197)}),
]

# m -> (kernel coefficients {j: c_j}, readouts indexed by query weight 0..m)
MODELS = {
    7: ({0: 2, 1: 9, 6: 12}, [
        (Fr(0), Fr(0), {6: Fr(0)}),
        (Fr(0), Fr(0), {6: Fr(0)}),
        (Fr(0), Fr(0), {6: Fr(0)}),
        (Fr(-1, 3), Fr(0), {6: Fr(0)}),
        (Fr(-1, 3), Fr(0), {6: Fr(0)}),
        (Fr(-20, 43), Fr(-1, 47), {6: Fr(0)}),
        (Fr(-9, 19), Fr(-1, 47), {6: Fr(1, 25)}),
        (Fr(-9, 19), Fr(-1, 47), {6: Fr(1, 25)}),
    ]),
    8: ({0: 2, 2: 3}, _PAIR_READOUT[:9]),
    9: ({0: 2, 2: 3}, _PAIR_READOUT[:10]),
    10: ({0: 2, 2: 3, 10: 9},
         [(a, b, {**g, 10: Fr(0)}) for (a, b, g) in _PAIR_READOUT[:10]] +
         [(Fr(-32, 65), Fr(-4, 79), {2: Fr(1, 85), 10: Fr(-9, 98)})]),
}


def kernel_of_u(coef, u):
    return sum(Fr(c) * comb(u, j) for j, c in coef.items())


def readout_of_u(readout, w, u):
    a, b, g = readout[w]
    return (w - u) + a + b * u + sum(gj * comb(u, j) for j, gj in g.items())


def check_profiles(m, coef, readout):
    """Exact max error over every profile (w, u1, u2) of T(m,3); raises if one fails."""
    worst = Fr(0)
    worst_at = None
    for w in range(m + 1):
        K = [kernel_of_u(coef, u) for u in range(w + 1)]
        f = [readout_of_u(readout, w, u) for u in range(w + 1)]
        if K[0] <= 0:
            raise SystemExit(f"m={m}: alpha(q,q) = {K[0]} is not > 0 at |q| = {w}")
        for u2 in range(w + 1):
            for u1 in range(u2 + 1):
                den = K[0] + K[u1] + K[u2]
                y = (K[0] * f[0] + K[u1] * f[u1] + K[u2] * f[u2]) / den
                err = abs(y - (w - u2))
                if err >= Fr(1, 2):
                    raise SystemExit(f"m={m}: profile w={w} u=({u1},{u2}) has error {err}")
                if err > worst:
                    worst, worst_at = err, (w, u1, u2)
    return worst, worst_at


def fmt(x):
    x = Fr(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def write_model(m, coef, readout, worst, path):
    layers = sorted(coef)
    feats = [S for j in layers for S in itertools.combinations(range(m), j)]
    vlayers = [j for j in layers if j >= 2]
    vfeats = [S for j in vlayers for S in itertools.combinations(range(m), j)]
    r, d = len(feats), m + len(vfeats)
    lines = [
        f"# kernelrank upper bound: T({m},3), class PF, r = {r} (2^m = {2 ** m})",
        f"# written by scripts/upper-bound-models.py; construction in docs/upper-bounds.md",
        "# features: subsets S of the coordinates with |S| in {" + ", ".join(map(str, layers)) + "};",
        "# phiQ(q)_S = c_|S| [S subset of q], phiK(z)_S = [S and z disjoint], "
        "c = " + ", ".join(f"c_{j} = {coef[j]}" for j in layers),
        "# alpha(q,z) = " + " + ".join(f"{coef[j]} C(u,{j})" for j in layers) +
        ", u = |q| - <q,z>",
        f"# v(z) = (z, [S and z disjoint] for |S| in {{{', '.join(map(str, vlayers))}}}); "
        "F_q(z) = <q,z> + a_w + b_w u + sum_j g_wj C(u,j)",
        f"# exact max error over all profiles: {fmt(worst)}",
        f"kernelrank-model 1 kind=features m={m} r={r} d={d}",
    ]
    for bits in itertools.product("01", repeat=m):
        tok = "".join(bits)
        ones = {i for i in range(m) if tok[i] == "1"}
        w = len(ones)
        a, b, g = readout[w]
        phiq = [coef[len(S)] if set(S) <= ones else 0 for S in feats]
        phik = [1 if not (set(S) & ones) else 0 for S in feats]
        v = [1 if i in ones else 0 for i in range(m)] + [1 if not (set(S) & ones) else 0
                                                         for S in vfeats]
        c = [(1 - b) if i in ones else 0 for i in range(m)] + [g[len(S)] if set(S) <= ones else 0
                                                               for S in vfeats]
        e = a + b * w
        lines.append(f"token {tok} phiQ {' '.join(map(fmt, phiq))} phiK {' '.join(map(fmt, phik))}"
                     f" v {' '.join(map(fmt, v))} c {' '.join(map(fmt, c))} e {fmt(e)}")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "instances", "models", "min-rank"))
    ap.add_argument("--check-only", action="store_true", help="check the profiles, write nothing")
    ap.add_argument("m", nargs="*", type=int, default=sorted(MODELS))
    args = ap.parse_args()
    for m in args.m:
        if m not in MODELS:
            sys.exit(f"no coefficients for m = {m} (have {sorted(MODELS)})")
        coef, readout = MODELS[m]
        assert len(readout) == m + 1 and all(c >= 0 for c in coef.values()) and coef[0] > 0
        worst, at = check_profiles(m, coef, readout)
        r = sum(comb(m, j) for j in coef)
        msg = f"m={m}: r={r} (2^m={2 ** m}), exact max error {fmt(worst)} ~ {float(worst):.5f} at (w,u1,u2)={at}"
        if not args.check_only:
            path = os.path.join(args.out, f"min-rank-m{m}-PF-r{r}.features")
            write_model(m, coef, readout, worst, path)
            msg += f" -> {os.path.normpath(path)} ({os.path.getsize(path)} bytes)"
        print(msg)


if __name__ == "__main__":
    main()
