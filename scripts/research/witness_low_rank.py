#!/usr/bin/python3
"""A low-rank NK head for a complement witness family (docs/min-rank.md, "The witness family").

Float proposes, the exact evaluator decides. A witness family (kernelrank witness) has rows
(q_i, c_i = complement of q_i); each row's keys are every c_j and the intermediates z of the
chains from c_i (supersets of c_i). With alpha(q_i, q_i) = 0 and the readout
F_q(z) = <q, z> - 1/2 + EPS, the instances of row i ask exactly for

  (q, c_i, c_j) at gap g:          alpha(q_i, c_i) > (g - 1 + EPS)/(1 - EPS) alpha(q_i, c_j)
  (q, c_i, z), (q, z, c_j) chains: the same factor for each link, through alpha(q_i, z)

and alpha(q_i, c_j) > 0 (no zero denominators). So the 24 x 24 block A = alpha(q_i, c_j),
rows scaled to a unit diagonal, must have off-diagonal entries in (0, 1/rho_ij), rho_ij the
product of the factors along the row's chain to c_j. Alternating projections (rank-r
truncation by SVD, then clipping into the box) propose such an A = U V^T of rank r; U and V
are rounded to dyadic rationals, and the exact A they give is what the model uses. Each
intermediate z of row i gets phi_K(z) = t_z phi_K(c_i) (so alpha(q, z) = t_z alpha(q, c_i) >= 0
for every query q: the kernel is nonnegative on every listed pair, class NK), with t_z between
the two factors of its link. The script writes the head as kind=features and checks it with
Fractions; `kernelrank eval --model OUT --family FAMILY` is the verdict.

Usage: witness_low_rank.py FAMILY R OUT [SEED [project|descend]]
(the proposal: alternating projections, or Adam on the squared violations.)
"""
import sys
from fractions import Fraction

import numpy as np

EPS = Fraction(1, 100)
DENOMINATOR = 2**20


def read_family(path):
    instances = []
    for line in open(path):
        line = line.split("#")[0].split()
        if not line or line[0] == "kernelrank-family":
            continue
        position = int(line[0]) - 1
        tokens = line[1:]
        instances.append((tokens[position], tuple(sorted(tokens[:position] + tokens[position + 1:]))))
    return instances


def overlap(a, b):
    return sum(x == "1" and y == "1" for x, y in zip(a, b))


def complement(t):
    return "".join("1" if x == "0" else "0" for x in t)


def link_factor(gap):
    return (gap - 1 + EPS) / (1 - EPS)


def structure(instances):
    """Queries, their complements, the factor each row needs per column, the intermediates."""
    queries = []
    for q, _ in instances:
        if q not in queries:
            queries.append(q)
    own = [complement(q) for q in queries]
    keys = {q: set() for q in queries}
    for q, pair in instances:
        keys[q].update(pair)
    k = len(queries)
    factor = [[None] * k for _ in range(k)]
    middles = {}
    for i, q in enumerate(queries):
        for z in keys[q]:
            if z in own:
                continue
            if overlap(z, own[i]) != own[i].count("1"):
                sys.exit("row %d: key %s is neither a complement nor a superset of c_i" % (i, z))
            middles.setdefault(i, []).append(z)
        present = {pair for qq, pair in instances if qq == q}
        for j, c in enumerate(own):
            if j == i:
                continue
            if c not in keys[q]:
                sys.exit("row %d does not use column %d" % (i, j))
            direct = tuple(sorted((own[i], c)))
            if direct in present:
                factor[i][j] = link_factor(overlap(q, c))
                continue
            via = [z for z in middles.get(i, []) if tuple(sorted((z, c))) in present]
            if len(via) != 1:
                sys.exit("row %d, column %d: expected one intermediate, found %d" % (i, j, len(via)))
            s = overlap(q, via[0])
            factor[i][j] = link_factor(s) * link_factor(overlap(q, c) - s)
    return queries, own, factor, middles


def upper_bounds(factor):
    """1/factor off the diagonal, 1 on it: the box of the rows scaled to a unit diagonal."""
    ub = np.ones((len(factor), len(factor)))
    for i, row in enumerate(factor):
        for j, f in enumerate(row):
            if i != j:
                ub[i, j] = 1 / float(f)
    return ub


def propose(factor, r, seed, iterations=20000):
    k, ub = len(factor), upper_bounds(factor)
    hi, lo = ub * 0.97, ub * 0.01
    np.fill_diagonal(hi, 1)
    np.fill_diagonal(lo, 1)
    rng = np.random.default_rng(seed)
    n = np.clip(np.eye(k) + rng.uniform(0, 0.1, (k, k)), lo, hi)
    for _ in range(iterations):
        u, s, vt = np.linalg.svd(n)
        low = (u[:, :r] * s[:r]) @ vt[:r]
        if np.any(np.diag(low) <= 0):
            return None
        low /= np.diag(low)[:, None]
        if np.all(low >= lo * 0.5) and np.all(low <= np.maximum(hi, ub * 0.985)):
            raw = u[:, :r] * s[:r]
            return raw / np.diag(raw @ vt[:r])[:, None], vt[:r].T
        n = np.clip(low, lo, hi)
    return None


def descend(factor, r, seed, steps=80000, rate=0.005):
    """Adam on the squared violations of the same box, over U and V directly."""
    k, ub = len(factor), upper_bounds(factor)
    off = ~np.eye(k, dtype=bool)
    hi, lo = ub * 0.985, ub * 0.002
    rng = np.random.default_rng(seed)
    u = rng.normal(0, 1, (k, r))
    v = u + rng.normal(0, 0.1, (k, r))
    moments = [[np.zeros_like(u), np.zeros_like(u)], [np.zeros_like(v), np.zeros_like(v)]]
    for t in range(1, steps + 1):
        a = u @ v.T
        d = np.diag(a)
        over = np.maximum(a - hi * d[:, None], 0) * off
        under = np.maximum(lo * d[:, None] - a, 0) * off
        short = np.maximum(1 - d, 0)
        if not over.any() and not under.any() and not short.any():
            return u / d[:, None], v
        grad = 2 * over - 2 * under
        grad[np.arange(k), np.arange(k)] += -(2 * over * hi).sum(1) + (2 * under * lo).sum(1) - 2 * short
        for (p, g), (m1, m2) in zip(((u, grad @ v), (v, grad.T @ u)), moments):
            m1 *= 0.9
            m1 += 0.1 * g
            m2 *= 0.999
            m2 += 0.001 * g * g
            p -= rate * (m1 / (1 - 0.9**t)) / (np.sqrt(m2 / (1 - 0.999**t)) + 1e-12)
    return None


def exact(matrix):
    return [[Fraction(round(x * DENOMINATOR), DENOMINATOR) for x in row] for row in matrix]


def main():
    family, r, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    method = sys.argv[5] if len(sys.argv) > 5 else "project"
    instances = read_family(family)
    queries, own, factor, middles = structure(instances)
    k = len(queries)
    proposal = {"project": propose, "descend": descend}[method](factor, r, seed)
    if proposal is None:
        sys.exit("no proposal at r = %d (seed %d, %s)" % (r, seed, method))
    u, v = exact(proposal[0]), exact(proposal[1])
    a = [[sum(u[i][f] * v[j][f] for f in range(r)) for j in range(k)] for i in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and not 0 < a[i][j] * factor[i][j] < a[i][i]:
                sys.exit("rounded proposal misses row %d, column %d" % (i, j))
    scale = {}
    for i, zs in middles.items():
        for z in zs:
            s = overlap(queries[i], z)
            # t between the needs of the two links: alpha(q_i, z) = t alpha(q_i, c_i).
            worst = max(a[i][j] / a[i][i] * link_factor(overlap(queries[i], own[j]) - s)
                        for j in range(k) if j != i)
            upper = 1 / link_factor(s)
            if not worst < upper:
                sys.exit("row %d: no room for intermediate %s" % (i, z))
            scale[z] = (i, Fraction(round(float((worst * upper) ** 0.5) * DENOMINATOR), DENOMINATOR))
            if not worst < scale[z][1] < upper:
                sys.exit("row %d: rounding of t left the interval" % i)
    zero = ["0"] * r
    m = len(queries[0])
    lines = ["# NK head for %s: r = %d, from scripts/research/witness_low_rank.py %s %d %s %d %s"
             % (family.split("/")[-1], r, family, r, out, seed, method),
             "# alpha(q_i, c_j) = <U_i, V_j>; intermediates z of row i: phiK(z) = t_z V_i;",
             "# F_q(z) = <q, z> - 1/2 + 1/100; verify: kernelrank eval --model THIS --family FAMILY",
             "kernelrank-model 1 kind=features m=%d r=%d d=%d class=NK" % (m, r, m)]
    e = str(EPS - Fraction(1, 2))

    def line(token, phi_q, phi_k):
        bits = " ".join(token)
        return "token %s phiQ %s phiK %s v %s c %s e %s" % (
            token, " ".join(phi_q), " ".join(phi_k), bits, bits, e)

    for i, q in enumerate(queries):
        lines.append(line(q, [str(x) for x in u[i]], zero))
    for j, c in enumerate(own):
        lines.append(line(c, zero, [str(x) for x in v[j]]))
    for z, (i, t) in sorted(scale.items()):
        lines.append(line(z, zero, [str(t * x) for x in v[i]]))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s: r = %d, %d tokens" % (out, r, len(lines) - 4))


if __name__ == "__main__":
    main()
