#!/usr/bin/env python3
"""The random-row ceiling of the column-weighted trace bound (docs/bounds.md, "Past the ceiling").

For rows c_i drawn independently and uniformly from the weight-w words of {0,1}^m
(w = floor(m/2)) with complement queries, the gap of an ordered pair is
G = |c_j \\ c_i| = w - |c_i & c_j|, and |c_i & c_j| is hypergeometric:
P(|c_i & c_j| = k) = C(w,k) C(m-w,w-k) / C(m,w). Each column's c_j = sum_{i != j} R_3(G_ij)^-2
concentrates at (N-1) E[R_3(G)^-2], so the trace bound of N random rows is about

    T(N) = N / (1 + (N-1) E),   which tends to   S(m) = 1 / E[R_3(G)^-2]   as N grows.

Pairs with G < 2 have no factor (a certificate cannot contain them); here they count 0, as for
a code that avoids them (counting them as 1 changes S(m) by less than 0.2% for m >= 24).
R_3(G) = max over G = g_1 + ... + g_t, g_s >= 2, of prod (g_s - 1), by dynamic programming.
Everything is exact (fractions); the printout rounds.

Usage: scripts/research/random_row_ceiling.py [N]    (default N = 10^6; m = 24, 32, ..., 256)
       scripts/research/random_row_ceiling.py N M1 M2 ...
"""
import sys
from fractions import Fraction
from math import comb


def r3_table(m):
    best = [None] * (m + 1)
    best[0] = 1
    for g in range(2, m + 1):
        for part in range(2, g + 1):
            if best[g - part] is not None:
                value = best[g - part] * (part - 1)
                if best[g] is None or value > best[g]:
                    best[g] = value
    return best


def expected_inverse_square(m):
    w = m // 2
    r3 = r3_table(m)
    total = comb(m, w)
    e = Fraction(0)
    for k in range(0, w + 1):
        gap = w - k
        if gap >= 2:
            e += Fraction(comb(w, k) * comb(m - w, w - k), total) / (r3[gap] ** 2)
    return e


def main():
    n_rows = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**6
    widths = [int(a) for a in sys.argv[2:]] or [24, 32, 48, 64, 80, 96, 128, 192, 256]
    print(f"| m | S(m) = 1/E[R_3(G)^-2] | T(N) = N/(1+(N-1)E), N = {n_rows:,} |")
    print("|---:|---:|---:|")
    for m in widths:
        e = expected_inverse_square(m)
        s = 1 / e
        t = Fraction(n_rows) / (1 + (n_rows - 1) * e)
        print(f"| {m} | {float(s):.6g} | {float(t):.6g} |")


if __name__ == "__main__":
    main()
