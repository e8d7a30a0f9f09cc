#!/usr/bin/env python3
"""Writes the certificate corpus tests/certs/{valid,invalid,malformed}/ for kernelrank-check.

Every number in these files is computed here, in plain Python, independently of the C++
checker (which is never run by this script):
  * R_N(G) by explicit enumeration of all compositions of G into parts >= 2;
  * overlaps by comparing '0'/'1' characters;
  * the trace sum S = sum_j floor(2^P / (1 + c_j)), c_j = sum_{i != j} rho_ij^-2, with
    fractions.Fraction, and the bound floor(S / 2^P) + 1 (1 with a single row);
  * the dominance row sums sum_{j != i} 1/rho_ij with Fraction;
  * family digests with hashlib.sha256;
  * the rule trace-uniform cases by tests/check/generated_reference.py (SplitMix64 words,
    every pair's overlap, Sigma and T with Fraction);
  * the rule shifted-trace cases by tests/check/shifted_reference.py (the witness family's
    chains, e_ij, C_j and T_W with Fraction);
  * the layered heads (<case>.model, upper bounds) by tests/check/layered_reference.py (every
    profile's error with Fraction; the shipped heads' max errors as docs/upper-bounds.md has them).
Each invalid/malformed case gets a <case>.expect file: what it tests, which file and line
the error must name, and a fragment of the expected message. Families sit next to their
certificate as <case>.family. Run from anywhere: python3 tests/certs/generate.py
"""
import hashlib
import itertools
import os
import random
import sys
from fractions import Fraction
from functools import lru_cache

HERE = os.path.dirname(os.path.abspath(__file__))
# The generated-rows cases (rule trace-uniform) come from the checker tests' own reference.
sys.path.insert(0, os.path.join(HERE, "..", "check"))
import generated_reference  # noqa: E402
import layered_reference  # noqa: E402
import product_reference  # noqa: E402
import shifted_reference  # noqa: E402


# ---------------------------------------------------------------- mathematics
def compositions(total):
    """All tuples of parts >= 2 summing to total."""
    if total == 0:
        yield ()
        return
    for first in range(2, total + 1):
        for rest in compositions(total - first):
            yield (first,) + rest


@lru_cache(maxsize=None)
def R(n, gap):
    best = 0
    for parts in compositions(gap):
        product = 1
        for g in parts:
            product *= (n - 2) * (g - 1)
        best = max(best, product)
    assert best > 0, "no chain for gap %d" % gap
    return best


def ov(x, z):
    return sum(1 for a, b in zip(x, z) if a == "1" and b == "1")


def cube_gaps(rows):
    """rows: list of (own, query). Returns G[i][j] = <q_i,c_j> - <q_i,c_i>."""
    return [[ov(q, c2) - ov(q, c) for (c2, _) in rows] for (c, q) in rows]


def trace_sum(rho_inv_sq_columns, precision):
    """rho_inv_sq_columns[j] = c_j as a Fraction."""
    total = 0
    for c in rho_inv_sq_columns:
        x = 1 + c
        total += (2 ** precision * x.denominator) // x.numerator
    return total


def trace_bound(S, precision, rows):
    return S // 2 ** precision + 1 if rows >= 2 else 1


def cube_trace(rows, n, precision):
    G = cube_gaps(rows)
    N = len(rows)
    cols = []
    for j in range(N):
        c = Fraction(0)
        for i in range(N):
            if i != j:
                assert G[i][j] >= 2
                c += Fraction(1, R(n, G[i][j]) ** 2)
        cols.append(c)
    S = trace_sum(cols, precision)
    return S, trace_bound(S, precision, N)


def cube_trace_ignoring_small_gaps(rows, n, precision):
    """The trace sum and bound computed over the pairs with G >= 2 only: what a checker that
    let pairs with G < 2 through would compute (its histogram starts at gap 2). The invalid
    gap cases state these, so that the gap check alone rejects them."""
    G = cube_gaps(rows)
    N = len(rows)
    cols = [sum((Fraction(1, R(n, G[i][j]) ** 2) for i in range(N) if i != j and G[i][j] >= 2),
                Fraction(0)) for j in range(N)]
    S = trace_sum(cols, precision)
    return S, trace_bound(S, precision, N)


def cube_dominance_ignoring_small_gaps(rows, n):
    G = cube_gaps(rows)
    return [sum((Fraction(1, R(n, G[i][j])) for j in range(len(rows)) if j != i and G[i][j] >= 2),
                Fraction(0)) for i in range(len(rows))]


def cube_dominance(rows, n):
    G = cube_gaps(rows)
    sums = [sum((Fraction(1, R(n, G[i][j])) for j in range(len(rows)) if j != i), Fraction(0))
            for i in range(len(rows))]
    return sums


def frac_text(x):
    return str(x.numerator) if x.denominator == 1 else "%d/%d" % (x.numerator, x.denominator)


def complement(x):
    return "".join("1" if b == "0" else "0" for b in x)


# ---------------------------------------------------------------- codes
def hamming8_weight4():
    """The 14 weight-4 words of the extended Hamming [8,4,4] code (distances 4 and 8)."""
    gen = ["11110000", "11001100", "10101010", "11111111"]
    words = set()
    for coeffs in itertools.product([0, 1], repeat=4):
        w = [0] * 8
        for c, g in zip(coeffs, gen):
            if c:
                w = [a ^ int(b) for a, b in zip(w, g)]
        words.add("".join(map(str, w)))
    out = sorted(w for w in words if w.count("1") == 4)
    assert len(out) == 14
    return out


def golay_dodecads():
    g = 0b110001110101  # x^11+x^10+x^6+x^5+x^4+x^2+1, the cyclic [23,12,7] Golay code
    words = []
    for msg in range(4096):
        c = 0
        for k in range(12):
            if msg >> k & 1:
                c ^= g << k
        c |= (bin(c).count("1") & 1) << 23  # extend by a parity bit
        words.append(c)
    weights = [bin(w).count("1") for w in words]
    assert weights.count(8) == 759 and weights.count(12) == 2576
    return ["".join("1" if w >> k & 1 else "0" for k in range(24)) for w in words
            if bin(w).count("1") == 12]


# ---------------------------------------------------------------- writing
def write(folder, name, text, binary=False):
    path = os.path.join(HERE, folder, name)
    with open(path, "wb") as f:
        f.write(text if binary else text.encode("utf-8"))


def expect(folder, case, tests, line, message, where="cert"):
    write(folder, case + ".expect",
          "tests: %s\nwhere: %s\nline: %d\nmessage: %s\n" % (tests, where, line, message))


def cube_text(rows, n, rule, S, K, m=None, mode="first", cls="NK", positions="independent",
              construction=None):
    m = m if m is not None else len(rows[0][0])
    lines = ["kernelrank-certificate 1",
             "task cube m=%d n=%d mode=%s class=%s positions=%s" % (m, n, mode, cls, positions)]
    if construction:
        lines.append("construction " + construction)
    lines.append(rule)
    lines.append("rows %d" % len(rows))
    lines += ["row %s %s" % r for r in rows]
    lines += ["sum %s" % S, "claim r >= %d" % K, "end"]
    return "\n".join(lines) + "\n"


def line_of(text, prefix, occurrence=1):
    seen = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith(prefix):
            seen += 1
            if seen == occurrence:
                return number
    raise KeyError(prefix)


# ---------------------------------------------------------------- families
class FamilyCert:
    """A family certificate: rows, steps (pos, q, a, b, k), pair chains (i, j, [step ids])."""

    def __init__(self, m, n, mode, positions, rows):
        self.m, self.n, self.mode, self.positions, self.rows = m, n, mode, positions, rows
        self.steps = []
        self.pairs = []
        self.arrangement_limit = {}  # step id -> number of S3 arrangements written

    def variant(self, steps=None, pairs=None):
        """A copy with other steps or pairs (the faulty certificates of the invalid cases):
        its family, sums and claims follow from what it states."""
        v = FamilyCert(self.m, self.n, self.mode, self.positions, self.rows)
        v.steps = list(self.steps if steps is None else steps)
        v.pairs = list(self.pairs if pairs is None else pairs)
        v.arrangement_limit = dict(self.arrangement_limit)
        return v

    def step(self, pos, q, a, b, k):
        self.steps.append((pos, q, a, b, k))
        return len(self.steps)

    def factor(self, sid):
        pos, q, a, b, k = self.steps[sid - 1]
        g = ov(q, b) - ov(q, a)
        return Fraction((self.n - 1 - k) * (g - 1), k)

    def rho(self, chain):
        r = Fraction(1)
        for sid in chain:
            r *= self.factor(sid)
        return r

    def instances(self, sid):
        """The instances (query position, tokens) step sid needs: S1, S2, then S3_k (every
        arrangement of its keys, in lexicographic order of the a/b patterns, with dependent
        positions; `arrangement_limit[sid]` keeps only the first few)."""
        pos, q, a, b, k = self.steps[sid - 1]
        n = self.n
        out = []
        key_patterns = [["a"] * (n - 1), ["b"] * (n - 1)]
        s3 = ["a"] * k + ["b"] * (n - 1 - k)
        if self.positions == "dependent":
            # Lexicographic order of the patterns ('a' < 'b') is the lexicographic order of
            # the tuples of a-slots, so combinations list them in sorted order without
            # enumerating (n-1)! permutations.
            limit = self.arrangement_limit.get(sid)
            for slots in itertools.islice(itertools.combinations(range(n - 1), k), limit):
                key_patterns.append(["a" if t in slots else "b" for t in range(n - 1)])
        else:
            key_patterns.append(list(reversed(s3)))  # any order will do: keys are a multiset
        for pattern in key_patterns:
            keys = [a if p == "a" else b for p in pattern]
            out.append((pos, keys[:pos - 1] + [q] + keys[pos - 1:]))
        return out

    def family_text(self, drop=None, extra=()):
        needed = []
        for sid in range(1, len(self.steps) + 1):
            for inst in self.instances(sid):
                if inst not in needed:
                    needed.append(inst)
        if drop is not None:
            needed.remove(drop)
        lines = ["kernelrank-family 1 m=%d n=%d" % (self.m, self.n),
                 "# generated by tests/certs/generate.py"]
        for pos, toks in list(needed) + list(extra):
            lines.append("%d %s" % (pos, " ".join(toks)))
        return "\n".join(lines) + "\n"

    def text(self, rule, S, K, digest, pairs=None, steps=None):
        pairs = self.pairs if pairs is None else pairs
        steps = self.steps if steps is None else steps
        lines = ["kernelrank-certificate 1",
                 "task family m=%d n=%d mode=%s class=NK positions=%s sha256=%s"
                 % (self.m, self.n, self.mode, self.positions, digest),
                 "construction generated by tests/certs/generate.py",
                 rule, "steps %d" % len(steps)]
        for sid, (pos, q, a, b, k) in enumerate(steps, start=1):
            lines.append("step %d pos=%d q=%s a=%s b=%s k=%d" % (sid, pos, q, a, b, k))
        lines.append("rows %d" % len(self.rows))
        lines += ["row %s %s" % r for r in self.rows]
        lines.append("pairs %d" % len(pairs))
        for i, j, chain in pairs:
            lines.append("pair %d %d : %s" % (i, j, " ".join(map(str, chain))))
        lines += ["sum %s" % S, "claim r >= %d" % K, "end"]
        return "\n".join(lines) + "\n"

    def trace(self, precision, pairs=None):
        pairs = self.pairs if pairs is None else pairs
        N = len(self.rows)
        cols = [Fraction(0)] * N
        for i, j, chain in pairs:
            cols[j - 1] += 1 / self.rho(chain) ** 2
        S = trace_sum(cols, precision)
        return S, trace_bound(S, precision, N)

    def dominance(self):
        sums = [Fraction(0)] * len(self.rows)
        for i, j, chain in self.pairs:
            sums[i - 1] += 1 / self.rho(chain)
        return sums


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- the corpus
def main():
    for folder in ("valid", "invalid", "malformed"):
        os.makedirs(os.path.join(HERE, folder), exist_ok=True)
        for name in os.listdir(os.path.join(HERE, folder)):
            os.remove(os.path.join(HERE, folder, name))

    words = hamming8_weight4()
    rows_h = [(c, complement(c)) for c in words]  # own c_i, query q_i = complement

    # ---- valid cube certificates
    # The example of docs/certificate-format.md (R_3(4) = 3, c_j = 1/9).
    spec_rows = [("11110000", "00001111"), ("00001111", "11110000")]
    S, K = cube_trace(spec_rows, 3, 64)
    assert S == 33204139332677192908 and K == 2
    write("valid", "spec_example.cert", cube_text(spec_rows, 3, "rule trace precision=64", S, K,
                                                  construction="hand-made example: two disjoint weight-4 words"))
    for count in range(2, 7):
        sel = rows_h[:count]
        S, K = cube_trace(sel, 3, 64)
        write("valid", "hamming_m8_rows%d.cert" % count,
              cube_text(sel, 3, "rule trace precision=64", S, K,
                        construction="first %d weight-4 words of the extended Hamming code" % count))
    S, K = cube_trace(rows_h, 3, 64)
    write("valid", "hamming_m8_rows14.cert", cube_text(rows_h, 3, "rule trace precision=64", S, K))
    S, K = cube_trace(rows_h, 5, 128)
    write("valid", "hamming_m8_n5_p128.cert", cube_text(rows_h, 5, "rule trace precision=128", S, K))
    S, K = cube_trace(rows_h[:4], 3, 0)
    assert S == 0 and K == 1
    write("valid", "precision0.cert", cube_text(rows_h[:4], 3, "rule trace precision=0", S, K))
    S, K = cube_trace(rows_h[:1], 3, 64)
    assert S == 2 ** 64 and K == 1
    write("valid", "single_row.cert", cube_text(rows_h[:1], 3, "rule trace precision=64", S, K))
    S, K = cube_trace(rows_h, 3, 64)
    write("valid", "weaker_claim.cert", cube_text(rows_h, 3, "rule trace precision=64", S, K - 1))
    write("valid", "claim_zero.cert", cube_text(rows_h[:3], 3, "rule trace precision=64",
                                                cube_trace(rows_h[:3], 3, 64)[0], 0))
    S, K = cube_trace(rows_h[:5], 4, 64)
    write("valid", "last_dependent_pf.cert",
          cube_text(rows_h[:5], 4, "rule trace precision=64", S, K, mode="last", cls="PF",
                    positions="dependent"))
    # Queries that are not complements: Hamming words on coordinates 1..8 plus random bits
    # on 9..12 in both tokens, kept when every gap is still >= 2 and some <q_i,c_i> > 0.
    rnd = random.Random(20240611)
    while True:
        rows = [(c + "".join(rnd.choice("01") for _ in range(4)),
                 complement(c) + "".join(rnd.choice("01") for _ in range(4)))
                for c in (words[0], words[3], words[7], words[12], words[13])]
        G = cube_gaps(rows)
        if all(G[i][j] >= 2 for i in range(5) for j in range(5) if i != j) and \
                sum(1 for c, q in rows if ov(q, c) > 0) >= 2:
            break
    S, K = cube_trace(rows, 3, 64)
    write("valid", "general_queries_m12.cert", cube_text(rows, 3, "rule trace precision=64", S, K))
    # Lexical freedom: CRLF, tabs, comments, blank lines, UTF-8 in comments and text.
    S, K = cube_trace(rows_h[:3], 3, 64)
    lines = cube_text(rows_h[:3], 3, "rule trace precision=64", S, K,
                      construction="Hamming words \u2014 \u00fcn\u00efc\u00f6d\u00e9 is fine here"
                      ).rstrip("\n").split("\n")
    lines = [line.replace("row ", "row\t \t") for line in lines]
    lines[0] += "  # trailing comment \u2713"
    lines.insert(4, "# a comment line")
    lines.insert(5, "")
    lines.insert(6, "   \t ")
    write("valid", "lexical_crlf_tabs_comments.cert", "\r\n".join(lines) + "\r\n")
    # Four-byte UTF-8 at both ends of its range (U+10000, U+10FFFF) and in between (U+1F600).
    S, K = cube_trace(rows_h[:2], 3, 64)
    write("valid", "utf8_four_byte_comments.cert",
          "# \U00010000 \U0001F600 \U0010FFFF\n" +
          cube_text(rows_h[:2], 3, "rule trace precision=64", S, K,
                    construction="four-byte characters \U0001F600 in the text"))
    # Tokens of three 64-bit words (m = 130): random weight-40 own tokens, queries equal to
    # the complement with coordinates 129 and 130 forced to 1 (so the last word is used).
    rnd = random.Random(130)
    wide = []
    while len(wide) < 8:
        ones = set(rnd.sample(range(128), 40))
        c = "".join("1" if t in ones else "0" for t in range(128)) + "00"
        wide.append((c, complement(c[:128]) + "11"))
    G = cube_gaps(wide)
    assert all(G[i][j] >= 2 for i in range(8) for j in range(8) if i != j)
    S, K = cube_trace(wide, 3, 64)
    write("valid", "wide_m130.cert", cube_text(wide, 3, "rule trace precision=64", S, K))
    sums = cube_dominance(wide, 1000)
    assert max(sums) <= 1
    write("valid", "wide_m130_dominance_n1000.cert",
          cube_text(wide, 1000, "rule dominance", frac_text(max(sums)), 8))
    # Dominance: n = 20 gives R(2) = 18, R(4) = 324; every row: 12/18 + 1/324 <= 1.
    sums = cube_dominance(rows_h, 20)
    assert max(sums) <= 1
    write("valid", "dominance_hamming_n20.cert",
          cube_text(rows_h, 20, "rule dominance", frac_text(max(sums)), len(rows_h)))
    write("valid", "dominance_single_row.cert",
          cube_text(rows_h[:1], 3, "rule dominance", "0", 1))
    # Dominance with a row sum of exactly 1: m=8 n=4, R_4(2)=2, rows 1..3 (gaps 2).
    sums = cube_dominance(rows_h[:3], 4)
    assert max(sums) == 1
    write("valid", "dominance_equal_one.cert",
          cube_text(rows_h[:3], 4, "rule dominance", frac_text(max(sums)), 3))
    # The 2576 dodecads of the extended Golay code (gaps 4, 6, 8, 12).
    dode = golay_dodecads()
    golay_rows = [(c, complement(c)) for c in dode]
    S, K = cube_trace_fast(golay_rows, 3, 64)
    write("valid", "golay_dodecads_m24.cert",
          cube_text(golay_rows, 3, "rule trace precision=64", S, K,
                    construction="the 2576 dodecads of the extended Golay code, q = complement"))

    # ---- invalid cube certificates (exit 1)
    base_rows = rows_h[:4]
    S, K = cube_trace(base_rows, 3, 64)
    base = cube_text(base_rows, 3, "rule trace precision=64", S, K)
    base_S = S  # the sum base states (negative_sum states its negative)
    for delta, name in ((1, "plus"), (-1, "minus")):
        write("invalid", "sum_%s_one.cert" % name, base.replace("sum %d" % S, "sum %d" % (S + delta)))
        expect("invalid", "sum_%s_one" % name, "the stated trace sum is off by %+d" % delta,
               line_of(base, "sum"), "differs from the recomputed sum %d" % S)
    write("invalid", "claim_too_high.cert", base.replace("claim r >= %d" % K, "claim r >= %d" % (K + 1)))
    expect("invalid", "claim_too_high", "a claim one above floor(T)+1", line_of(base, "claim"),
           "is stronger than the bound r >= %d" % K)
    # The gap cases below state the sum and claim computed over the pairs with G >= 2 only
    # (cube_trace_ignoring_small_gaps): a checker that let the small gap through would
    # verify them, so the gap check is the only thing that can reject them.
    # Gap 1: <q_1,c_2> = 1 while <q_1,c_1> = 0.
    rows = [("11100000", "00011000"), ("00010000", "11100000")]
    G = cube_gaps(rows)  # G_12 = 1 - 0 = 1, G_21 = 3 - 0 = 3
    assert G[0][1] == 1 and G[1][0] == 3
    # Without pair (1,2): c_1 = 1/R_3(3)^2 = 1/4, c_2 = 0, T = 4/5 + 1 = 9/5, bound 2.
    S, K = cube_trace_ignoring_small_gaps(rows, 3, 64)
    assert S == 2 ** 64 + (2 ** 64 * 4) // 5 and K == 2
    text = cube_text(rows, 3, "rule trace precision=64", S, K)
    write("invalid", "gap_one.cert", text)
    expect("invalid", "gap_one", "rows 1 and 2 with G_12 = 1 (no gap domination step)",
           line_of(text, "row ", 1), "rows 1 and 2: gap G = <q_i,c_j> - <q_i,c_i> = 1 - 0 = 1 < 2")
    rows = [("11110000", "00001111"), ("11100000", "00011111")]
    G = cube_gaps(rows)  # G_12 = 0 - 0 = 0; G_21 = 1 - 0 = 1
    # Both pairs are below 2: without them both row sums are 0 and the claim is the 2 rows.
    sums = cube_dominance_ignoring_small_gaps(rows, 3)
    assert sums == [0, 0]
    text = cube_text(rows, 3, "rule dominance", frac_text(max(sums)), 2)
    write("invalid", "dominance_gap_zero.cert", text)
    expect("invalid", "dominance_gap_zero", "a gap of 0 under the dominance rule",
           line_of(text, "row ", 1), "rows 1 and 2: gap G = <q_i,c_j> - <q_i,c_i> = 0 - 0 = 0")
    # Negative gap found at row 3 (rows 1, 2 fine).
    rows = [("11110000", "00001111"), ("00001111", "11110000"), ("11000000", "00111111")]
    G = cube_gaps(rows)
    assert G[0][1] == 4 and G[1][0] == 4 and G[0][2] == 0
    text = cube_text(rows, 3, "rule trace precision=8",
                     *cube_trace_ignoring_small_gaps(rows, 3, 8))
    write("invalid", "gap_zero_first_row.cert", text)
    expect("invalid", "gap_zero_first_row", "G_13 = 0 is reported at row 1's line",
           line_of(text, "row ", 1), "rows 1 and 3: gap G")
    rows = [("11110000", "00001111"), ("00001111", "11110000"), ("11001100", "00001100")]
    G = cube_gaps(rows)
    assert G[0][1] == 4 and G[1][0] == 4 and G[0][2] == 2 and G[1][2] == 2
    assert G[2][0] == 0 - 2  # <q3,c1> = 0, <q3,c3> = 2
    text = cube_text(rows, 3, "rule trace precision=8",
                     *cube_trace_ignoring_small_gaps(rows, 3, 8))
    write("invalid", "negative_gap_row3.cert", text)
    expect("invalid", "negative_gap_row3", "G_31 = -2: the first failing pair is at row 3",
           line_of(text, "row ", 3), "rows 3 and 1: gap G = <q_i,c_j> - <q_i,c_i> = 0 - 2 = -2 < 2")
    # m = 130: row 8's own token becomes c_1 with two 1s moved (distance 4 from c_1, so
    # <q_8,c_1> = 2 on coordinates 1..128) plus a 1 at coordinate 130, under q_8's 1 there:
    # <q_8,c_8> = 1 and G_81 = 2 - 1 = 1, a failure visible only through the third word.
    wide_bad = list(wide)
    c1 = wide[0][0]
    ones = [t for t in range(128) if c1[t] == "1"][:2]
    zeros = [t for t in range(128) if c1[t] == "0"][:2]
    c8 = "".join("0" if t in ones else "1" if t in zeros else c1[t] for t in range(128))
    wide_bad[7] = (c8 + "01", complement(c8) + "11")
    G = cube_gaps(wide_bad)
    firsts = [(i, j) for i in range(8) for j in range(8) if i != j and G[i][j] < 2]
    assert firsts and firsts[0][0] == 7, firsts
    i, j = firsts[0]
    text = cube_text(wide_bad, 3, "rule trace precision=64",
                     *cube_trace_ignoring_small_gaps(wide_bad, 3, 64))
    write("invalid", "wide_m130_small_gap.cert", text)
    expect("invalid", "wide_m130_small_gap", "a gap below 2 found through the third token word",
           line_of(text, "row ", 8), "rows 8 and %d: gap G = <q_i,c_j> - <q_i,c_i> = %d - 1 = %d < 2"
           % (j + 1, G[i][j] + 1, G[i][j]))
    text = cube_text(rows_h[:1], 3, "rule trace precision=64", str(2 ** 64), 2)
    write("invalid", "single_row_claim_two.cert", text)
    expect("invalid", "single_row_claim_two", "one row gives only r >= 1", line_of(text, "claim"),
           "stronger than the bound r >= 1")
    sums = cube_dominance(rows_h, 10)  # R_10(2) = 8: 12/8 + 1/64 > 1
    assert sums[0] > 1
    text = cube_text(rows_h, 10, "rule dominance", frac_text(max(sums)), len(rows_h))
    write("invalid", "dominance_row_sum_over_one.cert", text)
    expect("invalid", "dominance_row_sum_over_one", "row sums 12/8 + 1/64 > 1 at n=10",
           line_of(text, "row ", 1), "row 1: sum over j != i of 1/R_N(G_ij) = %s > 1" % frac_text(sums[0]))
    sums = cube_dominance(rows_h, 20)
    wrong = max(sums) + Fraction(1, 1000)
    text = cube_text(rows_h, 20, "rule dominance", frac_text(wrong), len(rows_h))
    write("invalid", "dominance_wrong_sum.cert", text)
    expect("invalid", "dominance_wrong_sum", "the stated largest row sum is not the recomputed one",
           line_of(text, "sum"), "differs from the recomputed largest row sum %s" % frac_text(max(sums)))
    text = cube_text(rows_h, 20, "rule dominance", frac_text(max(sums)), len(rows_h) + 1)
    write("invalid", "dominance_claim_too_high.cert", text)
    expect("invalid", "dominance_claim_too_high", "dominance allows at most the number of rows",
           line_of(text, "claim"), "stronger than the bound r >= 14")
    S4, K4 = cube_trace(base_rows, 4, 64)
    assert S4 != S
    text = base.replace("n=3", "n=4")
    write("invalid", "sum_for_other_n.cert", text)
    expect("invalid", "sum_for_other_n", "a sum computed for n=3 under a task with n=4",
           line_of(text, "sum"), "differs from the recomputed sum %d" % S4)

    # ---- family certificates
    # m=8, n=4, rows: three Hamming words, q = complement. Gaps: c1,c2,c3 pairwise distance 4
    # (gap 2); single steps with k=1 have f = (n-2)(g-1) = 2.
    fam_words = [words[0], words[1], words[2]]
    frows = [(c, complement(c)) for c in fam_words]
    for i in range(3):
        for j in range(3):
            if i != j:
                assert ov(frows[i][1], frows[j][0]) - ov(frows[i][1], frows[i][0]) == 2
    # Add a fourth row whose pairs with row 1 use real chains: c4 = complement of c1 gives
    # G_14 = 4: chain c1 -> z -> c4 with <q1,z> = 2 (two steps, f = 2 * 2 = 4) and, the other
    # way, a single step with k = 2: f = (n-1-2)(g-1)/2 = 3/2.
    fc = FamilyCert(8, 4, "first", "independent",
                    frows + [(complement(words[0]), words[0])])
    fr = fc.rows
    step_ids = {}
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            q, a, b = fr[i][1], fr[i][0], fr[j][0]
            g = ov(q, b) - ov(q, a)
            if (i, j) == (0, 3):
                ones = [t for t in range(8) if q[t] == "1"]
                z = "".join("1" if t in ones[:2] else "0" for t in range(8))  # <q1, z> = 2
                assert ov(q, z) == 2 and g == 4
                s1 = fc.step(1, q, a, z, 1)
                s2 = fc.step(1, q, z, b, 1)
                fc.pairs.append((i + 1, j + 1, [s1, s2]))
            elif (i, j) == (3, 0):
                assert g == 4
                fc.pairs.append((i + 1, j + 1, [fc.step(1, q, a, b, 2)]))
            else:
                assert g >= 2
                key = (q, a, b)
                if key not in step_ids:
                    step_ids[key] = fc.step(1, q, a, b, 1)
                fc.pairs.append((i + 1, j + 1, [step_ids[key]]))
    # rho_14 = 2 * 2 (two gap-2 steps, f = (4-1-1)(2-1)/1 = 2), rho_41 = (4-1-2)(4-1)/2 = 3/2.
    assert fc.rho([c for i, j, c in fc.pairs if (i, j) == (1, 4)][0]) == 4
    assert fc.rho([c for i, j, c in fc.pairs if (i, j) == (4, 1)][0]) == Fraction(3, 2)
    noise = [(1, [fr[0][1], fr[1][0], fr[2][0], fr[3][0]]), (1, ["10101010"] * 4)]
    ftext = fc.family_text(extra=noise)
    S, K = fc.trace(64)
    fS, fK = S, K  # kept for the invalid family cases below
    good_family_cert = fc.text("rule trace precision=64", S, K, digest(ftext))
    write("valid", "family_trace.cert", good_family_cert)
    write("valid", "family_trace.family", ftext)
    write("valid", "family_weaker_claim.cert", fc.text("rule trace precision=64", S, K - 1, digest(ftext)))
    write("valid", "family_weaker_claim.family", ftext)
    # HEX64 may be written in either case.
    write("valid", "family_uppercase_digest.cert",
          good_family_cert.replace(digest(ftext), digest(ftext).upper()))
    write("valid", "family_uppercase_digest.family", ftext)
    # Dominance: three rows, every rho = 2 (gap-2 steps, k = 1), row sums 1/2 + 1/2 = 1.
    fam3 = FamilyCert(8, 4, "first", "independent", frows)
    for i in range(3):
        for j in range(3):
            if i != j:
                fam3.pairs.append((i + 1, j + 1, [fam3.step(1, frows[i][1], frows[i][0], frows[j][0], 1)]))
    sums = fam3.dominance()
    assert max(sums) == 1  # 1/2 + 1/2
    f3text = fam3.family_text()
    write("valid", "family_dominance.cert",
          fam3.text("rule dominance", frac_text(max(sums)), 3, digest(f3text)))
    write("valid", "family_dominance.family", f3text)
    # Position-dependent maps, mode=all, query at position 2: every arrangement of S3's keys.
    fdep = FamilyCert(8, 4, "all", "dependent", frows)
    for i in range(3):
        for j in range(3):
            if i != j:
                fdep.pairs.append((i + 1, j + 1, [fdep.step(2, frows[i][1], frows[i][0], frows[j][0], 1)]))
    fdtext = fdep.family_text()
    S, K = fdep.trace(32)
    dep_cert = fdep.text("rule trace precision=32", S, K, digest(fdtext))
    write("valid", "family_dependent_all.cert", dep_cert)
    write("valid", "family_dependent_all.family", fdtext)

    # ---- invalid family certificates (exit 1)
    # Each case differs from a valid certificate in one respect only: its family holds every
    # instance its steps name (family_text of the faulty certificate), and its sum and claim
    # are the ones its own steps and chains give (as a checker without the one check that
    # fails would compute them). So the targeted check alone can reject it.
    def fam_case(name, cert_text, fam_text, tests, line, message, where="cert"):
        write("invalid", name + ".cert", cert_text)
        write("invalid", name + ".family", fam_text)
        expect("invalid", name, tests, line, message, where)

    def consistent(v, extra=()):
        """The family text, certificate text (trace, P = 64) and the text for a variant."""
        vtext = v.family_text(extra=extra)
        return vtext, v.text("rule trace precision=64", *v.trace(64), digest(vtext))

    fam_case("family_digest_mismatch", good_family_cert, ftext + "# one more comment\n",
             "the family file differs by one comment line from the one the digest names", 0,
             "SHA-256 of the family file is %s" % digest(ftext + "# one more comment\n"),
             where="family")
    # Missing S3 of step 1 (pair 1 2): drop that instance from the family.
    s3 = fc.instances(1)[2]
    dropped = fc.family_text(drop=s3, extra=noise)
    fam_case("family_missing_s3", fc.text("rule trace precision=64", *fc.trace(64), digest(dropped)),
             dropped, "step 1's S3_k instance is not in the family", line_of(good_family_cert, "step 1 "),
             "the family has no instance S3_k = (q, a^1, b^2)")
    s2 = fc.instances(1)[1]
    dropped = fc.family_text(drop=s2, extra=noise)
    fam_case("family_missing_s2", fc.text("rule trace precision=64", *fc.trace(64), digest(dropped)),
             dropped, "step 1's S2 instance is not in the family", line_of(good_family_cert, "step 1 "),
             "the family has no instance S2 = (q, b^(N-1))")
    dropped = fdep.family_text(drop=fdep.instances(2)[3])  # one arrangement of step 2's S3
    fam_case("family_dependent_missing_arrangement",
             fdep.text("rule trace precision=32", *fdep.trace(32), digest(dropped)), dropped,
             "positions=dependent: one of the three arrangements of step 2's S3_1 is missing",
             line_of(dep_cert, "step 2 "), "the family has no instance S3_k = (q, a^1, b^2) with query q at position 2, keys in order:")
    chain_14 = [c for i, j, c in fc.pairs if (i, j) == (1, 4)][0]  # c1 -> z -> c4
    chain_12 = [c for i, j, c in fc.pairs if (i, j) == (1, 2)][0]  # c1 -> c2
    # A chain that does not link: c1 -> c2, then z -> c4 (rho = 2 * 2, as before).
    v = fc.variant(pairs=[(i, j, (chain_12 + chain_14[1:] if (i, j) == (1, 4) else c)) for i, j, c in fc.pairs])
    vtext, text = consistent(v, noise)
    fam_case("family_chain_not_linking", text, vtext, "pair 1 4: c1 -> c2 followed by z -> c4",
             line_of(text, "pair 1 4 "), "pair 1 4: step %d (line %d) does not link"
             % (chain_14[1], line_of(text, "step %d " % chain_14[1])))
    # Starts at z (rho_14 = 2): the sum is the one with that factor.
    v = fc.variant(pairs=[(i, j, (chain_14[1:] if (i, j) == (1, 4) else c)) for i, j, c in fc.pairs])
    vtext, text = consistent(v, noise)
    fam_case("family_chain_wrong_start", text, vtext, "pair 1 4's chain starts at z, not c_1",
             line_of(text, "pair 1 4 "), "pair 1 4: the first step, step %d" % chain_14[1])
    v = fc.variant(pairs=[(i, j, (chain_12 if (i, j) == (1, 4) else c)) for i, j, c in fc.pairs])
    vtext, text = consistent(v, noise)
    fam_case("family_chain_wrong_end", text, vtext, "pair 1 4's chain ends at c_2, not c_4",
             line_of(text, "pair 1 4 "), "pair 1 4: the last step's b differs from the own token c_j")
    # A step from c_1 to c_4 made for another query q' (q_1 with its first 1 cleared): it starts
    # and ends where pair 1 4 needs, gap <q',c4> - <q',c1> = 3 - 0 = 3, f = 2 * 2 = 4 (the same
    # rho_14 as the real chain); only its query differs from q_1.
    q1, c1, c4 = fr[0][1], fr[0][0], fr[3][0]
    q_other = q1.replace("1", "0", 1)
    assert ov(q_other, c4) - ov(q_other, c1) == 3
    v = fc.variant()
    sid_other = v.step(1, q_other, c1, c4, 1)
    v.pairs = [(i, j, ([sid_other] if (i, j) == (1, 4) else c)) for i, j, c in fc.pairs]
    assert v.rho([sid_other]) == fc.rho(chain_14) == 4
    vtext, text = consistent(v, noise)
    fam_case("family_chain_wrong_query", text, vtext, "pair 1 4 uses a step made for another query",
             line_of(text, "pair 1 4 "), "has q different from the query token q_i of row i")
    v = fc.variant(pairs=[p for p in fc.pairs if (p[0], p[1]) != (2, 3)])
    vtext, text = consistent(v, noise)
    fam_case("family_missing_pair", text, vtext, "no pair line for rows 2 3", line_of(text, "pairs"),
             "no pair line for rows 2 3")
    # The missing pair in the first column, after pairs of earlier rows in that column.
    v = fc.variant(pairs=[p for p in fc.pairs if (p[0], p[1]) != (3, 1)])
    vtext, text = consistent(v, noise)
    fam_case("family_missing_pair_first_column", text, vtext, "no pair line for rows 3 1",
             line_of(text, "pairs"), "no pair line for rows 3 1")
    dup = fc.pairs[:5] + [fc.pairs[1]] + fc.pairs[5:]
    dup = [p for p in dup if (p[0], p[1]) != (4, 3)]  # keep the count at N(N-1)
    v = fc.variant(pairs=dup)
    vtext, text = consistent(v, noise)
    fam_case("family_duplicate_pair", text, vtext, "pair 1 3 given twice",
             line_of(text, "pair %d %d " % fc.pairs[1][:2], 2),
             "pair 1 3: a second pair line for the same rows (the first is on line %d)"
             % line_of(text, "pair %d %d " % fc.pairs[1][:2], 1))
    # k = 2 on a gap-2 step: f = (4-1-2)(2-1)/2 = 1/2 < 1. The family has its S3_2 and the
    # sum uses rho_12 = 1/2.
    steps = list(fc.steps)
    pos, q, a, b, k = steps[0]
    steps[0] = (pos, q, a, b, 2)
    v = fc.variant(steps=steps)
    assert v.factor(1) == Fraction(1, 2)
    vtext, text = consistent(v, noise)
    fam_case("family_factor_below_one", text, vtext, "k = 2 on a gap-2 step gives f = 1/2",
             line_of(text, "step 1 "), "factor f = (N-1-k)(g-1)/k = 1/2 < 1")
    # k = 0 would divide by zero in f: the range check must come first.
    steps[0] = (pos, q, a, b, 0)
    v = fc.variant(steps=steps)
    vtext = v.family_text(extra=noise)  # S3_0 = (q, b^3) = S2
    text = v.text("rule trace precision=64", fS, fK, digest(vtext))
    fam_case("family_k_zero", text, vtext, "k = 0: f = (N-1-k)(g-1)/k is undefined",
             line_of(text, "step 1 "), "k=0 is outside 1..N-2 = 1..2")
    # k = 3 > N-2 = 2 gives f = 0 as well, so this fault never stands alone; the sum is the
    # one before the change (S3_3 = (q, a^3) = S1 is in the family).
    steps[0] = (pos, q, a, b, 3)
    v = fc.variant(steps=steps)
    vtext = v.family_text(extra=noise)
    text = v.text("rule trace precision=64", fS, fK, digest(vtext))
    fam_case("family_k_too_large", text, vtext, "k = 3 > N-2 = 2", line_of(text, "step 1 "),
             "k=3 is outside 1..N-2 = 1..2")
    # A further step with a and b of step 1 swapped (gap -2), used by no chain: every step is
    # checked. (A gap below 2 makes f = (N-1-k)(g-1)/k < 1 too: that cannot be avoided.)
    v = fc.variant()
    pos, q, a, b, k = fc.steps[0]
    sid_swapped = v.step(pos, q, b, a, 1)
    vtext, text = consistent(v, noise)
    fam_case("family_step_gap_negative", text, vtext, "a and b swapped: gap -2",
             line_of(text, "step %d " % sid_swapped), "gap g = <q,b> - <q,a> = -2 < 2")
    # Step 1 at position 2 under mode=first; the family has its instances at position 2.
    steps = list(fc.steps)
    steps[0] = (2, q, a, b, 1)
    v = fc.variant(steps=steps)
    vtext, text = consistent(v, noise)
    fam_case("family_mode_first_pos2", text, vtext, "mode=first but a step queries position 2",
             line_of(text, "step 1 "), "mode=first queries position 1, but the step has pos=2")
    text = fc.text("rule trace precision=64", fS + 1, fK, digest(ftext))
    fam_case("family_wrong_sum", text, ftext, "family trace sum off by one", line_of(text, "sum"),
             "differs from the recomputed sum %d" % fS)
    text = fc.text("rule trace precision=64", fS, fK + 1, digest(ftext))
    fam_case("family_claim_too_high", text, ftext, "family claim one above the bound", line_of(text, "claim"),
             "stronger than the bound r >= %d" % fK)
    # A well-formed family of length 5 (each instance gets one more copy of its last token).
    other = "\n".join(line + " " + line.split()[-1] if line[:1].isdigit() else line
                      for line in ftext.split("\n")).replace("n=4", "n=5", 1)
    fam_case("family_header_mismatch", fc.text("rule trace precision=64", fS, fK, digest(other)), other,
             "the family's n=5 differs from the task's n=4", 1, "the family has m=8 n=5", where="family")
    # positions=dependent, mode=all: pair 2 1 queries position 3 while the others query 2.
    # Every instance each step needs is present, so the mix of positions is the only fault.
    fmix = FamilyCert(8, 4, "all", "dependent", frows)
    for i in range(3):
        for j in range(3):
            if i != j:
                pos = 3 if (i, j) == (1, 0) else 2
                fmix.pairs.append((i + 1, j + 1, [fmix.step(pos, frows[i][1], frows[i][0], frows[j][0], 1)]))
    fmtext = fmix.family_text()
    text = fmix.text("rule trace precision=32", *fmix.trace(32), digest(fmtext))
    fam_case("family_dependent_mixed_positions", text, fmtext,
             "positions=dependent with chains querying positions 2 and 3 (different summed kernels)",
             line_of(text, "pair 2 1 "), "pair 2 1: positions=dependent needs one query position for all "
             "chains: this chain has pos=3, the chain on line %d pos=2" % line_of(text, "pair 1 2 "))
    # One chain whose own steps move from position 2 to position 3: the rows of fc, mode=all,
    # every chain starts at position 2 (so the check across chains passes), and pair 1 4 is
    # c1 -> z at position 2, then z -> c4 at position 3 (rho_14 = 2 * 2). Every instance of
    # every step, with every arrangement under positions=dependent, is in the family; the
    # sum and claim are those of these chains. Only the check within a chain rejects it.
    for positions in ("dependent", "independent"):
        fpos = FamilyCert(8, 4, "all", positions, fr)
        for (i, j, chain) in fc.pairs:
            moved = []
            for t, sid in enumerate(chain):
                _, q, a, b, k = fc.steps[sid - 1]
                moved.append(fpos.step(2 if t == 0 else 3, q, a, b, k))
            fpos.pairs.append((i, j, moved))
        assert [fpos.steps[s - 1][0] for s in [c for i, j, c in fpos.pairs if (i, j) == (1, 4)][0]] == [2, 3]
        assert fpos.rho([c for i, j, c in fpos.pairs if (i, j) == (1, 4)][0]) == 4
        fptext = fpos.family_text()
        text = fpos.text("rule trace precision=64", *fpos.trace(64), digest(fptext))
        second = [c for i, j, c in fpos.pairs if (i, j) == (1, 4)][0][1]
        fam_case("family_%s_chain_changes_position" % positions, text, fptext,
                 "positions=%s: the chain of pair 1 4 has its first step at position 2 and its "
                 "second at position 3" % positions, line_of(text, "pair 1 4 "),
                 "pair 1 4: step %d (line %d) has pos=3, the chain's earlier steps pos=2"
                 % (second, line_of(text, "step %d " % second)))
    # positions=dependent, n = 12: step 1 (pair 1 2) has k = 5, so S3_5 needs C(11,5) = 462
    # arrangements of its keys, but the family holds only 67 instances (S1 of each row, S2 of
    # each step, the 11 arrangements of each of the five k = 1 steps, and 3 of the 462). The
    # checker refuses before looking them up one by one. f = (12-1-5)(2-1)/5 = 6/5 >= 1 and
    # the sum and claim use rho_12 = 6/5, the other rho = 10.
    fbig = FamilyCert(8, 12, "all", "dependent", frows)
    for i in range(3):
        for j in range(3):
            if i != j:
                k = 5 if (i, j) == (0, 1) else 1
                fbig.pairs.append((i + 1, j + 1, [fbig.step(1, frows[i][1], frows[i][0], frows[j][0], k)]))
    fbig.arrangement_limit[1] = 3
    assert fbig.factor(1) == Fraction(6, 5) and fbig.factor(2) == 10
    fbtext = fbig.family_text()
    count = sum(1 for line in fbtext.split("\n") if line[:1].isdigit())
    assert count == 67 < 462
    text = fbig.text("rule trace precision=64", *fbig.trace(64), digest(fbtext))
    fam_case("family_dependent_too_many_arrangements", text, fbtext,
             "S3_5 of step 1 needs C(11,5) = 462 arrangements; the family has 67 instances",
             line_of(text, "step 1 "), "S3_k = (q, a^5, b^6) needs C(N-1,k) arrangements of its keys, "
             "more than the 67 instances in the family")
    # The boundary: one row (no pairs), one step with n = 5, k = 2, C(4,2) = 6 arrangements; the
    # family holds S1, S2 and 4 of the 6, exactly 6 instances. C(N-1,k) is not more than the
    # family, so the checker looks the arrangements up and names the first missing one, the
    # fifth in the checker's order, which is lexicographic ('a' < 'b'): of aabb, abab, abba,
    # baab, baba, bbaa the family keeps the first four, and the fifth is b a b a.
    fcap = FamilyCert(8, 5, "all", "dependent", frows[:1])
    fcap.step(1, frows[0][1], frows[0][0], frows[1][0], 2)
    fcap.arrangement_limit[1] = 4
    fctext = fcap.family_text()
    assert sum(1 for line in fctext.split("\n") if line[:1].isdigit()) == 6
    text = fcap.text("rule trace precision=64", *fcap.trace(64), digest(fctext))
    assert fcap.trace(64) == (2 ** 64, 1)
    fam_case("family_dependent_arrangements_at_family_size", text, fctext,
             "C(4,2) = 6 arrangements and 6 instances: no refusal up front, the fifth arrangement is missing",
             line_of(text, "step 1 "), "the family has no instance S3_k = (q, a^2, b^2) with query q at "
             "position 1, keys in order: b a b a")
    # Dominance above 1: gap-2 steps with k=2 on a family with n=5: f = (5-1-2)(1)/2 = 1,
    # row sums 1 + 1 = 2 > 1.
    f5 = FamilyCert(8, 5, "first", "independent", frows)
    for i in range(3):
        for j in range(3):
            if i != j:
                f5.pairs.append((i + 1, j + 1, [f5.step(1, frows[i][1], frows[i][0], frows[j][0], 2)]))
    sums = f5.dominance()
    assert sums[0] == 2
    f5text = f5.family_text()
    text = f5.text("rule dominance", "2", 3, digest(f5text))
    fam_case("family_dominance_over_one", text, f5text, "row sums 1 + 1 = 2 > 1", line_of(text, "row "),
             "row 1: sum over j != i of 1/rho_ij = 2 > 1")

    # ---- malformed certificates (exit 2)
    def bad(name, text, tests, line, message, binary=False, family=None, where="cert"):
        write("malformed", name + ".cert", text, binary)
        if family is not None:
            write("malformed", name + ".family", family)
        expect("malformed", name, tests, line, message, where)

    L = base.split("\n")  # base: 4 Hamming rows, lines 1..10 + end at 11

    def with_line(number, new):
        lines = list(L)
        lines[number - 1] = new
        return "\n".join(lines)

    bad("bad_header", with_line(1, "kernelrank-cert 1"), "wrong header keyword", 1,
        "expected header 'kernelrank-certificate 1'")
    # Format 2 reads every format 1 rule, so the first unsupported version is 3.
    bad("bad_version", with_line(1, "kernelrank-certificate 4"), "unsupported version", 1,
        "unsupported certificate format version '4', expected 1, 2 or 3")
    bad("unknown_statement", "\n".join(L[:2] + ["hint fast"] + L[2:]), "an unknown statement", 3,
        "unknown statement 'hint': expected 'rule'")
    bad("out_of_order", "\n".join(L[:2] + [L[3]] + [L[2]] + L[4:]), "rows before rule", 3,
        "statement 'rows' out of order: expected 'rule'")
    bad("rows_count_too_large", with_line(4, "rows 5"), "rows 5 with four row lines", 9,
        "expected 'row' line 5 of the 5 declared on line 4, found 'sum'")
    bad("rows_count_too_small", with_line(4, "rows 3"), "rows 3 with four row lines", 8,
        "more 'row' lines than the 3 declared on line 4")
    bad("token_width", with_line(6, "row 1100110 00110011"), "a 7-bit own token at m=8", 6,
        "has width 7, expected m=8")
    bad("token_not_binary", with_line(6, "row 11001120 00110011"), "a '2' in a token", 6,
        "token has '2' at coordinate 7")
    bad("negative_integer", with_line(2, L[1].replace("m=8", "m=-8")), "m=-8", 2,
        "expected m as a decimal integer without sign")
    bad("plus_integer", with_line(2, L[1].replace("n=3", "n=+3")), "n=+3", 2,
        "expected n as a decimal integer without sign")
    bad("leading_zero", with_line(3, "rule trace precision=064"), "precision=064", 3,
        "expected precision as a decimal integer without sign or leading zeros, found '064'")
    # A key with no '=' that is exactly as long as the key: nothing may be read past it.
    bad("key_without_value", with_line(3, "rule trace precision"), "'precision' without '='", 3,
        "expected 'precision=...', found 'precision'")
    bad("negative_sum", with_line(9, "sum -%d" % base_S), "a negative sum", 9,
        "the trace rule's sum must be a decimal integer")
    bad("truncated_no_end", "\n".join(L[:9]) + "\n", "the file stops after 'sum'", 9,
        "unexpected end of file: expected 'claim'")
    bad("missing_end", "\n".join(L[:10]) + "\n", "no 'end' line", 10,
        "unexpected end of file: expected 'end'")
    bad("trailing_after_end", base + "row 11110000 00001111\n", "a statement after 'end'", 12,
        "unexpected 'row' after 'end'")
    bad("end_with_field", with_line(11, "end now"), "'end' with an extra field", 11,
        "unexpected extra field 'now'")
    bad("nul_byte", base.replace("claim r", "claim\0r"), "a NUL byte", 10, "NUL byte at column 6")
    bad("invalid_utf8", base.replace("kernelrank-certificate 1", "kernelrank-certificate 1 # \xff"
                                     ).encode("latin-1"), "a lone 0xFF byte in a comment", 1,
        "invalid UTF-8 at column 28", binary=True)
    bad("overlong_utf8", (base.rstrip("\n") + " # ").encode() + b"\xc0\xaf\n", "an overlong '/'", 11,
        "invalid UTF-8 at column 7", binary=True)
    bad("surrogate_utf8", b"# \xed\xa0\x80\n" + base.encode(), "an encoded UTF-16 surrogate", 1,
        "invalid UTF-8 at column 3", binary=True)
    bad("empty_file", "", "an empty file", 0, "empty file")
    bad("blank_lines_only", "\n  \n# just a comment\n", "no statement at all", 0, "empty file")
    # Random bytes: the first line must fail on its first NUL, or else its first invalid UTF-8.
    rng = random.Random(7)
    junk = bytes(rng.randrange(256) for _ in range(512))
    first = junk.split(b"\n")[0]
    if b"\0" in first:
        junk_message = "NUL byte at column %d" % (first.index(b"\0") + 1)
    else:
        try:
            first.decode("utf-8")
            raise AssertionError("expected invalid UTF-8 in the random line")
        except UnicodeDecodeError as error:
            junk_message = "invalid UTF-8 at column %d" % (error.start + 1)
    bad("binary", junk, "random bytes", 1, junk_message, binary=True)
    bad("extra_field", with_line(6, L[5] + " 11111111"), "a row with three tokens", 6,
        "unexpected extra field '11111111'")
    bad("missing_field", with_line(2, L[1].replace(" positions=independent", "")),
        "the task without positions=", 2, "too few fields")
    bad("fields_out_of_order", with_line(2, L[1].replace("m=8 n=3", "n=3 m=8")),
        "n= before m=", 2, "expected 'm=...', found 'n=3'")
    bad("n_too_small", with_line(2, L[1].replace("n=3", "n=2")), "n=2", 2, "n=2 is out of range 3..1000")
    bad("n_too_large", with_line(2, L[1].replace("n=3", "n=1001")), "n=1001", 2,
        "n 1001 exceeds the limit 1000")
    bad("m_too_large", with_line(2, L[1].replace("m=8", "m=4097")), "m=4097", 2,
        "m 4097 exceeds the limit 4096")
    bad("precision_too_large", with_line(3, "rule trace precision=257"), "precision=257", 3,
        "precision 257 exceeds the limit 256")
    bad("too_many_rows", with_line(4, "rows 200001"), "rows 200001", 4,
        "the number of rows 200001 exceeds the limit 200000")
    bad("zero_rows", "\n".join(L[:3] + ["rows 0"] + L[8:]), "rows 0", 4, "at least one row")
    bad("sha256_in_cube", with_line(2, L[1] + " sha256=" + "0" * 64), "a digest on a cube task", 2,
        "'sha256=' is for family certificates only")
    bad("steps_in_cube", "\n".join(L[:3] + ["steps 0"] + L[3:]), "a steps block in a cube certificate", 4,
        "'steps' appears in family certificates only")
    bad("fraction_sum_trace", with_line(9, "sum 1/2"), "a fraction under the trace rule", 9,
        "the trace rule's sum must be a decimal integer")
    dom = cube_text(rows_h, 20, "rule dominance", "2/4", 14)
    bad("fraction_not_lowest_terms", dom, "sum 2/4", line_of(dom, "sum"), "not in lowest terms")
    dom = cube_text(rows_h, 20, "rule dominance", "3/1", 14)
    bad("fraction_denominator_one", dom, "sum 3/1", line_of(dom, "sum"), "not in lowest terms")
    bad("bad_claim", with_line(10, "claim r > 2"), "'>' instead of '>='", 10, "expected 'claim r >= <K>'")
    bad("unknown_mode", with_line(2, L[1].replace("mode=first", "mode=middle")), "mode=middle", 2,
        "unknown mode 'middle'")
    bad("cube_with_family_argument", base, "a FAMILY argument for a cube certificate", 0,
        "a cube certificate takes no FAMILY argument", family=ftext)
    bad("family_without_argument", good_family_cert, "a family certificate without FAMILY", 0,
        "a family certificate needs the FAMILY file argument")
    F = good_family_cert.split("\n")
    pair_line = line_of(good_family_cert, "pair 1 2 ")

    def fwith(number, new):
        lines = list(F)
        lines[number - 1] = new
        return "\n".join(lines)

    bad("pair_row_out_of_range", fwith(pair_line, "pair 1 5 : 1"), "row index 5 of 4 rows", pair_line,
        "the row index j 5 exceeds the limit 4", family=ftext)
    bad("pair_with_itself", fwith(pair_line, "pair 2 2 : 1"), "pair 2 2", pair_line,
        "a row is not paired with itself", family=ftext)
    bad("pair_step_out_of_range", fwith(pair_line, "pair 1 2 : %d" % (len(fc.steps) + 1)),
        "an undeclared step id", pair_line, "a step id %d exceeds the limit %d" % (len(fc.steps) + 1, len(fc.steps)),
        family=ftext)
    bad("pair_without_colon", fwith(pair_line, "pair 1 2 1"), "no ':'", pair_line,
        "expected 'pair <i> <j> : <step id> ...'", family=ftext)
    step2 = line_of(good_family_cert, "step 2 ")
    bad("step_ids_out_of_order", fwith(step2, F[step2 - 1].replace("step 2 ", "step 3 ")),
        "step ids 1, 3", step2, "step ids must be 1, 2, 3, ... in order", family=ftext)
    bad("step_pos_zero", fwith(step2, F[step2 - 1].replace("pos=1", "pos=0")), "pos=0", step2,
        "pos=0: positions count from 1", family=ftext)
    bad("family_missing_pairs_block", "\n".join(F[:pair_line - 2] + F[pair_line + len(fc.pairs) - 1:]),
        "a family certificate without 'pairs'", pair_line - 1, "statement 'sum' out of order: expected 'pairs'",
        family=ftext)
    bad("family_bad_digest_text", fwith(2, F[1].replace("sha256=", "sha256=zz")),
        "a digest that is not hexadecimal", 2, "sha256= must be 64 hexadecimal digits", family=ftext)
    fbad = ftext.replace("\n1 ", "\n1 0000000 ", 1)
    bad("family_file_bad_line", good_family_cert.replace(digest(ftext), digest(fbad)),
        "the family file has an instance line with an extra field", 3,
        "expected a query position and 4 tokens, found 6 fields", family=fbad, where="family")
    fbad = ftext.replace("n=4", "n=4 x=1", 1)
    bad("family_file_bad_header", good_family_cert, "the family header has an extra field", 1,
        "unexpected extra field 'x=1'", family=fbad, where="family")
    fbad = ftext.replace("\n1 ", "\n5 ", 1)
    bad("family_file_bad_position", good_family_cert, "query position 5 in a family of length 4", 3,
        "the query position 5 exceeds the limit 4", family=fbad, where="family")

    # ---- messages of the parser that no case above reaches
    bad("unknown_class", with_line(2, L[1].replace("class=NK", "class=XX")), "class=XX", 2,
        "unknown class 'XX', expected NK or PF")
    bad("unknown_positions", with_line(2, L[1].replace("positions=independent", "positions=sometimes")),
        "positions=sometimes", 2, "unknown positions 'sometimes', expected independent or dependent")
    bad("m_zero", with_line(2, L[1].replace("m=8", "m=0")), "m=0", 2, "m=0 is out of range 1..4096")
    bad("unknown_task_kind", with_line(2, L[1].replace("task cube", "task square")), "task square ...", 2,
        "expected 'task cube ...' or 'task family ...'")
    bad("task_without_kind", with_line(2, "task"), "a task line with no kind", 2,
        "expected 'task cube ...' or 'task family ...'")
    bad("unknown_rule_kind", with_line(3, "rule average"), "rule average", 3,
        "expected 'rule trace precision=<P>' or 'rule dominance'")
    bad("pairs_in_cube", "\n".join(L[:8] + ["pairs 0"] + L[8:]), "a pairs block in a cube certificate", 9,
        "'pairs' appears in family certificates only")
    bad("claim_leading_zero", with_line(10, "claim r >= 02"), "claim r >= 02", 10,
        "expected K as a decimal integer without sign or leading zeros, found '02'")
    dom = cube_text(rows_h, 20, "rule dominance", "1/02", 14)
    bad("fraction_part_leading_zero", dom, "sum 1/02", line_of(dom, "sum"),
        "expected the sum as an integer or a fraction p/q, found '1/02'")
    bad("utf8_above_u10ffff", (base.rstrip("\n") + " # ").encode() + b"\xf4\x90\x80\x80\n",
        "F4 90 80 80 would be U+110000, above U+10FFFF", 11, "invalid UTF-8 at column 7", binary=True)
    bad("utf8_overlong_four_bytes", (base.rstrip("\n") + " # ").encode() + b"\xf0\x8f\xbf\xbf\n",
        "F0 8F BF BF is U+FFFF in four bytes (overlong)", 11, "invalid UTF-8 at column 7", binary=True)
    bad("pair_row_zero", fwith(pair_line, "pair 0 2 : 1"), "row index 0", pair_line,
        "row indices count from 1", family=ftext)
    bad("pair_step_zero", fwith(pair_line, "pair 1 2 : 0"), "step id 0", pair_line,
        "step ids count from 1", family=ftext)
    steps_line = line_of(good_family_cert, "steps ")
    rows_line = line_of(good_family_cert, "rows ")
    no_steps = "\n".join(F[:steps_line - 1] + ["steps 0"] + F[rows_line - 1:])
    bad("pair_step_without_steps", no_steps, "a pair names step 1 under 'steps 0'", line_of(no_steps, "pair "),
        "step id '1' but no steps are declared", family=ftext)
    step1 = line_of(good_family_cert, "step 1 ")
    bad("step_token_width", fwith(step1, F[step1 - 1].replace(" q=", " q=0", 1)), "a 9-bit q= at m=8", step1,
        "has width 9, expected m=8", family=ftext)
    bad("family_digest_not_hex", fwith(2, F[1].replace("sha256=" + digest(ftext)[0], "sha256=g")),
        "64 characters, one of them 'g'", 2, "sha256= must be 64 hexadecimal digits", family=ftext)
    bad("family_file_bad_keyword", good_family_cert, "the family header says kernelrank-families", 1,
        "expected header 'kernelrank-family 1 m=<m> n=<n>'",
        family=ftext.replace("kernelrank-family 1", "kernelrank-families 1", 1), where="family")
    bad("family_file_bad_version", good_family_cert, "family format version 2", 1,
        "unsupported family format version '2', expected 1",
        family=ftext.replace("kernelrank-family 1", "kernelrank-family 2", 1), where="family")
    flines = ftext.split("\n")
    assert flines[2][:1] == "1"
    fields = flines[2].split(" ")
    fields[2] = fields[2][:2] + "2" + fields[2][3:]
    flines[2] = " ".join(fields)
    bad("family_file_bad_token", good_family_cert, "a '2' in the first key of the first instance", 3,
        "token has '2' at coordinate 3, expected only '0' and '1'", family="\n".join(flines), where="family")

    format2(rows_h, base, L)
    dependence_corpus()
    generated_reference.write_corpus(write, expect, line_of)  # rule trace-uniform
    product_reference.write_corpus(write, expect, line_of, hamming8_weight4(),
                                   golay_dodecads())  # rule trace-product
    shifted_reference.write_corpus(write, expect, line_of)  # rule shifted-trace
    layered_reference.write_corpus(write, expect, line_of)  # layered heads (upper bounds)


# ---------------------------------------------------------------- format 2
# The m = 5 core (theory.md section 4: T(5,3) needs rank 3): for each key pair (x, y), the
# queries for which x is above y and those for which y is above x. "x above y for q" is an
# L2 step with a = x, b = y, which needs <q,y> - <q,x> >= 2 (asserted below).
M5_CORE = [
    ("00011", "11100", "01100 10100 11000 11100 11101 11110", "00011"),
    ("00110", "11001", "01001 10001 11000 11001 11011 11101", "00110"),
    ("00111", "11000", "11000", "00011 00101 00110 00111 01111 10111"),
    ("01001", "10110", "00110 10010 10100 10110 10111 11110", "01001"),
    ("01011", "10100", "10100", "00011 01001 01010 01011 01111 11011"),
]


def order_sides(steps, keypairs):
    """Per keypair (x, y, step ids): the queries with x above y and those with y above x."""
    out = []
    for x, y, ids in keypairs:
        x_above, y_above = [], []
        for sid in ids:
            pos, q, a, b, k = steps[sid - 1]
            assert (a, b) in ((x, y), (y, x)), "step %d compares other tokens" % sid
            (x_above if (a, b) == (x, y) else y_above).append(q)
        out.append((x_above, y_above))
    return out


def first_consistent_orientation(sides):
    """The first orientation (bit t set: keypair t reversed, its y-above queries first) whose
    threshold graph has no cycle, or None. Cycles are found by deleting sinks until nothing
    is left, not by the checker's method (Kahn's algorithm from the sources)."""
    for mask in range(2 ** len(sides)):
        edges = set()
        for t, (x_above, y_above) in enumerate(sides):
            before, after = (y_above, x_above) if mask >> t & 1 else (x_above, y_above)
            edges |= {(q, ("threshold", t)) for q in before}
            edges |= {(("threshold", t), q) for q in after}
        nodes = {u for e in edges for u in e}
        while True:
            sinks = {v for v in nodes if not any(e[0] == v for e in edges)}
            if not sinks:
                break
            nodes -= sinks
            edges = {e for e in edges if e[1] not in sinks}
        if not nodes:
            return mask
    return None


def orientation_digits(mask, count):
    return "".join("1" if mask >> t & 1 else "0" for t in range(count))


class OrderCert:
    """A certificate of rule order: steps (pos, q, a, b, k) and keypairs (x, y, [step ids])."""

    def __init__(self, m, n, rank, mode="first", cls="NK", positions="independent"):
        self.m, self.n, self.rank, self.mode, self.cls, self.positions = m, n, rank, mode, cls, positions
        self.steps = []
        self.keypairs = []

    def step(self, pos, q, a, b, k=1):
        self.steps.append((pos, q, a, b, k))
        return len(self.steps)

    def add_keypair(self, x, y, x_above, y_above, pos=1):
        ids = [self.step(pos, q, x, y) for q in x_above] + [self.step(pos, q, y, x) for q in y_above]
        self.keypairs.append((x, y, ids))

    def step_ok(self, sid):
        pos, q, a, b, k = self.steps[sid - 1]
        g = ov(q, b) - ov(q, a)
        return g >= 2 and 1 <= k <= self.n - 2 and (self.n - 1 - k) * (g - 1) >= k

    def bound(self):
        """rank + 1 when every step is an L2 step and the core is contradictory, else None."""
        if not all(self.step_ok(sid) for sid in range(1, len(self.steps) + 1)):
            return None
        sides = order_sides(self.steps, self.keypairs)
        if not sides or not all(x_above and y_above for x_above, y_above in sides):
            return None
        if self.rank == 1 or first_consistent_orientation(sides) is None:
            return self.rank + 1
        return None

    def queries(self):
        """The distinct query tokens of the core's steps, in order of first use."""
        out = []
        for x, y, ids in self.keypairs:
            for sid in ids:
                if self.steps[sid - 1][1] not in out:
                    out.append(self.steps[sid - 1][1])
        return out

    def keys(self):
        out = []
        for x, y, ids in self.keypairs:
            out += [z for z in (x, y) if z not in out]
        return out

    def step_instances(self):
        """S1, S2 and S3_k of every step, in step order, without repeats."""
        out = []
        n = self.n
        for pos, q, a, b, k in self.steps:
            for keys in ([a] * (n - 1), [b] * (n - 1), [a] * k + [b] * (n - 1 - k)):
                inst = (pos, keys[:pos - 1] + [q] + keys[pos - 1:])
                if inst not in out:
                    out.append(inst)
        return out

    def block_instances(self):
        """One instance (q, z^(n-1)) for every pair (query, key) of the core that no step
        instance uses (a pair is used when q sits at the query position and z is among the
        tokens, q itself included)."""
        used = {(toks[pos - 1], z) for pos, toks in self.step_instances() for z in toks}
        pos = self.n if self.mode == "last" else 1
        out = []
        for q in self.queries():
            for z in self.keys():
                if (q, z) not in used:
                    keys = [z] * (self.n - 1)
                    out.append((pos, keys[:pos - 1] + [q] + keys[pos - 1:]))
        return out

    def family_text(self, drop=None):
        instances = self.step_instances() + self.block_instances()
        if drop is not None:
            instances.remove(drop)
        lines = ["kernelrank-family 1 m=%d n=%d" % (self.m, self.n),
                 "# generated by tests/certs/generate.py: steps, then the block pairs"]
        lines += ["%d %s" % (pos, " ".join(toks)) for pos, toks in instances]
        return "\n".join(lines) + "\n"

    def text(self, claim, family_digest=None, header=2, construction=None):
        kind = "family" if family_digest else "cube"
        lines = ["kernelrank-certificate %d" % header,
                 "task %s m=%d n=%d mode=%s class=%s positions=%s%s"
                 % (kind, self.m, self.n, self.mode, self.cls, self.positions,
                    " sha256=" + family_digest if family_digest else "")]
        if construction:
            lines.append("construction " + construction)
        lines += ["rule order rank=%d" % self.rank, "steps %d" % len(self.steps)]
        lines += ["step %d pos=%d q=%s a=%s b=%s k=%d" % ((sid,) + st)
                  for sid, st in enumerate(self.steps, start=1)]
        lines.append("core %d" % len(self.keypairs))
        lines += ["keypair %s %s : %s" % (x, y, " ".join(map(str, ids))) for x, y, ids in self.keypairs]
        lines += ["claim r >= %d" % claim, "end"]
        return "\n".join(lines) + "\n"


def inherit_text(m, n, claim, embedded, mode="first", cls="NK", positions="independent",
                 header=2, kind="cube"):
    lines = ["kernelrank-certificate %d" % header,
             "task %s m=%d n=%d mode=%s class=%s positions=%s" % (kind, m, n, mode, cls, positions),
             "construction the embedded task padded with zero coordinates",
             "rule inherit", "begin-embedded"]
    lines += embedded.rstrip("\n").split("\n")
    lines += ["end-embedded", "claim r >= %d" % claim, "end"]
    return "\n".join(lines) + "\n"


def m5_core(cls="NK", pairs=None):
    core = OrderCert(5, 3, 2, cls=cls)
    for x, y, x_above, y_above in (M5_CORE if pairs is None else pairs):
        core.add_keypair(x, y, x_above.split(), y_above.split())
    return core


def format2(rows_h, base, L):
    """Format 2: the v1 rules under header 2, the order rule and the inherit rule."""
    # ---- the m = 5 core, checked here before anything is written
    for x, y, x_above, y_above in M5_CORE:
        for q in x_above.split():
            assert ov(q, y) - ov(q, x) >= 2, (x, y, q)
        for q in y_above.split():
            assert ov(q, x) - ov(q, y) >= 2, (x, y, q)
    core5 = m5_core()
    assert core5.bound() == 3
    # Every pair is needed: without any one of them some orientation is acyclic.
    drop_masks = []
    for t in range(len(M5_CORE)):
        v = m5_core(pairs=M5_CORE[:t] + M5_CORE[t + 1:])
        mask = first_consistent_orientation(order_sides(v.steps, v.keypairs))
        assert mask is not None and v.bound() is None
        drop_masks.append(mask)

    # ---- valid
    write("valid", "v2_trace.cert", base.replace("kernelrank-certificate 1", "kernelrank-certificate 2", 1))
    sums = cube_dominance(rows_h, 20)
    write("valid", "v2_dominance.cert",
          cube_text(rows_h, 20, "rule dominance", frac_text(max(sums)), len(rows_h))
          .replace("kernelrank-certificate 1", "kernelrank-certificate 2", 1))
    core5_text = core5.text(3, construction="the m=5 core: five key pairs, an odd cycle of thresholds")
    write("valid", "order_m5_rank2.cert", core5_text)
    write("valid", "order_m5_rank2_weaker_claim.cert", core5.text(2))
    core5_pf = m5_core(cls="PF")
    write("valid", "order_m5_rank2_pf.cert", core5_pf.text(3))
    # T(4,3) at rank 1: 1100 prefers 0011 (<1100,1100> - <1100,0011> = 2 - 0) and 0011
    # prefers 1100, so the two query rows cannot be multiples of one vector.
    core4 = OrderCert(4, 3, 1)
    core4.add_keypair("0011", "1100", ["1100"], ["0011"])
    assert core4.bound() == 2
    core4_text = core4.text(2, construction="one key pair, preferred either way by two queries")
    write("valid", "order_m4_rank1.cert", core4_text)
    core4_last = OrderCert(4, 3, 1, mode="last")
    core4_last.add_keypair("0011", "1100", ["1100"], ["0011"], pos=3)
    assert core4_last.bound() == 2
    write("valid", "order_m4_rank1_last.cert", core4_last.text(2))
    # The m = 5 core over an explicit family: the S1, S2, S3 of every step, plus one
    # instance (q, z, z) for every block pair (query, key) that those leave unused.
    fam5 = m5_core()
    blocks = fam5.block_instances()
    assert blocks
    fam5_text = fam5.family_text()
    fam5_cert = fam5.text(3, digest(fam5_text))
    write("valid", "order_family_m5.cert", fam5_cert)
    write("valid", "order_family_m5.family", fam5_text)
    # Inherit: the m = 5 core into m = 8, and a format 1 trace certificate into m = 10.
    text = inherit_text(8, 3, 3, core5_text)
    write("valid", "inherit_order_m5_into_m8.cert", text)
    spec_rows = [("11110000", "00001111"), ("00001111", "11110000")]
    S, K = cube_trace(spec_rows, 3, 64)
    spec_text = cube_text(spec_rows, 3, "rule trace precision=64", S, K)
    write("valid", "inherit_trace_into_m10.cert", inherit_text(10, 3, K, spec_text))
    write("valid", "inherit_pf_from_nk.cert", inherit_text(6, 3, 2, core4_text, cls="PF"))

    # ---- invalid (exit 1): each differs from a valid certificate in one respect
    def case(name, text, tests, line, message, family=None, where="cert"):
        write("invalid", name + ".cert", text)
        if family is not None:
            write("invalid", name + ".family", family)
        expect("invalid", name, tests, line, message, where)

    for t in (1, 4):
        v = m5_core(pairs=M5_CORE[:t] + M5_CORE[t + 1:])
        text = v.text(3)
        case("order_not_contradictory_without_pair%d" % (t + 1), text,
             "the m=5 core without key pair %d: orientation %s is acyclic"
             % (t + 1, orientation_digits(drop_masks[t], 4)),
             line_of(text, "core "), "the core is not contradictory: orientation %s "
             % orientation_digits(drop_masks[t], 4))
    # A step of gap 1 (<1110,1100> - <1110,0011> = 2 - 1) inside the keypair; both
    # directions still have a valid step.
    v = OrderCert(4, 3, 1)
    v.add_keypair("0011", "1100", ["1100", "1110"], ["0011"])
    text = v.text(2)
    case("order_step_gap_one", text, "a keypair step with gap 1", line_of(text, "step 2 "),
         "gap g = <q,b> - <q,a> = 1 < 2")
    drop = (1, ["01100", "00011", "11100"])  # S3 of step 1: q = 01100, a = 00011, b = 11100
    assert fam5.steps[0] == (1, "01100", "00011", "11100", 1) and drop in fam5.step_instances()
    dropped = fam5.family_text(drop=drop)
    text = fam5.text(3, digest(dropped))
    case("order_family_missing_s3", text, "step 1's S3 is not in the family", line_of(text, "step 1 "),
         "the family has no instance S3_k = (q, a^1, b^1)", family=dropped)
    v = m5_core()
    x, y, ids = v.keypairs[0]
    foreign = v.keypairs[1][2][0]
    v.keypairs[0] = (x, y, ids + [foreign])
    text = v.text(3)
    case("order_keypair_foreign_step", text, "keypair 1 names a step of keypair 2",
         line_of(text, "keypair "), "keypair %s %s: step %d (line %d) compares a=%s and b=%s, not these two keys"
         % (x, y, foreign, line_of(text, "step %d " % foreign), v.steps[foreign - 1][2], v.steps[foreign - 1][3]))
    v = OrderCert(4, 3, 1)
    v.add_keypair("0011", "1100", ["1100"], ["0011"])
    v.keypairs[0] = ("0011", "1100", [1])
    text = v.text(2)
    case("order_keypair_one_direction", text, "a keypair whose steps all say 0011 is above 1100",
         line_of(text, "keypair "), "keypair 0011 1100: no step says 1100 is above 0011")
    v = OrderCert(4, 3, 1)
    v.add_keypair("0011", "1100", ["1100"], ["0011"])
    v.keypairs.append(("1100", "0011", [2, 1]))
    text = v.text(2)
    case("order_duplicate_keypair", text, "the key pair {0011, 1100} twice, in either order",
         line_of(text, "keypair ", 2), "keypair 1100 0011: the same two keys as the keypair on line %d"
         % line_of(text, "keypair ", 1))
    # NK over a family: drop one block instance (q, z, z); the first keypair naming z fails.
    pos, toks = blocks[len(blocks) // 2]
    q, z = toks[0], toks[1]
    dropped = fam5.family_text(drop=(pos, toks))
    text = fam5.text(3, digest(dropped))
    first_with_z = next(t for t, (x, y, ids) in enumerate(fam5.keypairs) if z in (x, y))
    case("order_family_block_unused", text, "class=NK and the block pair (%s, %s) is used by no instance"
         % (q, z), line_of(text, "keypair ", first_with_z + 1),
         "class=NK: no family instance has query %s and key %s" % (q, z), family=dropped)
    # The same family under PF needs no block: it verifies (valid, see above for NK).
    fam5_pf = m5_core(cls="PF")
    write("valid", "order_family_m5_pf_without_block.cert",
          fam5_pf.text(3, digest(dropped)))
    write("valid", "order_family_m5_pf_without_block.family", dropped)
    v = OrderCert(4, 3, 1, positions="dependent")
    v.add_keypair("0011", "1100", ["1100"], ["0011"])
    text = v.text(2)
    case("order_dependent_positions", text, "positions=dependent", line_of(text, "rule "),
         "the order rule is proven for position-independent maps only")
    text = core5.text(4)
    case("order_claim_too_strong", text, "r >= 4 from a rank-2 core", line_of(text, "claim"),
         "claim r >= 4 is stronger than the bound r >= 3")
    text = core4.text(3)
    case("order_rank1_claim_too_strong", text, "r >= 3 from a rank-1 core", line_of(text, "claim"),
         "claim r >= 3 is stronger than the bound r >= 2")
    v = OrderCert(4, 3, 1)
    v.step(1, "1100", "0011", "1100")
    text = v.text(2)
    case("order_empty_core", text, "a core without keypairs", line_of(text, "core "),
         "the core is not contradictory: it has no keypair")

    text = inherit_text(5, 3, 3, core5_text)
    case("inherit_m_not_smaller", text, "T(5,3) into T(5,3)", line_of(text, "task ", 2),
         "the embedded task has m=5, not below the m=5 of the outer task (line 2)")
    text = inherit_text(8, 4, 3, core5_text)
    case("inherit_other_n", text, "T(5,3) into T(8,4)", line_of(text, "task ", 2),
         "the embedded task has n=3, the outer task (line 2) n=4")
    text = inherit_text(8, 3, 3, core5_text, mode="all")
    case("inherit_other_mode", text, "mode=first into mode=all", line_of(text, "task ", 2),
         "the embedded task has mode=first, the outer task (line 2) mode=all")
    dep_rows = [(c, q) for c, q in spec_rows]
    S, K = cube_trace(dep_rows, 3, 64)
    dep_text = cube_text(dep_rows, 3, "rule trace precision=64", S, K, positions="dependent")
    text = inherit_text(10, 3, K, dep_text)
    case("inherit_other_positions", text, "positions=dependent into positions=independent",
         line_of(text, "task ", 2),
         "the embedded task has positions=dependent, the outer task (line 2) positions=independent")
    text = inherit_text(8, 3, 3, core5_pf.text(3))
    case("inherit_nk_from_pf", text, "an NK outer task over a PF bound", line_of(text, "task ", 2),
         "the embedded task has class=PF, whose bound says nothing about the class=NK")
    text = inherit_text(8, 3, 4, core5_text)
    case("inherit_claim_too_high", text, "r >= 4 over an embedded r >= 3", line_of(text, "claim", 2),
         "claim r >= 4 is stronger than the bound r >= 3")
    # The embedded claim, not its bound: r >= 2 (weaker than its 3) allows only r >= 2.
    text = inherit_text(8, 3, 3, core5.text(2))
    case("inherit_claim_above_embedded_claim", text, "the embedded certificate claims only r >= 2",
         line_of(text, "claim", 2), "claim r >= 3 is stronger than the bound r >= 2")
    text = inherit_text(8, 3, 4, core5.text(4))
    case("inherit_embedded_fails", text, "the embedded certificate's own claim is too strong",
         line_of(text, "claim", 1), "claim r >= 4 is stronger than the bound r >= 3")
    v = m5_core(pairs=M5_CORE[1:])
    text = inherit_text(8, 3, 3, v.text(3))
    case("inherit_embedded_not_contradictory", text, "the embedded core misses key pair 1",
         line_of(text, "core "), "the core is not contradictory: orientation %s"
         % orientation_digits(drop_masks[0], 4))

    # ---- malformed (exit 2)
    def bad(name, text, tests, line, message):
        write("malformed", name + ".cert", text)
        expect("malformed", name, tests, line, message)

    text = core4_text.replace("kernelrank-certificate 2", "kernelrank-certificate 1", 1)
    bad("order_under_header_1", text, "rule order in a format 1 file", line_of(text, "rule "),
        "rule order needs certificate format 2, but the header on line 1 says 1")
    text = inherit_text(8, 3, 3, core5_text, header=1)
    bad("inherit_under_header_1", text, "rule inherit in a format 1 file", line_of(text, "rule "),
        "rule inherit needs certificate format 2")
    text = core4_text.replace("rank=1", "rank=3")
    bad("order_rank_three", text, "rank=3", line_of(text, "rule "),
        "rank=3: the order rule refutes rank 1 or 2 only")
    text = core5_text.replace("core 5", "core 6")
    bad("order_core_count_too_large", text, "core 6 with five keypair lines", line_of(text, "claim"),
        "expected 'keypair' line 6 of the 6 declared on line %d, found 'claim'" % line_of(text, "core "))
    text = core5_text.replace("core 5", "core 4")
    bad("order_core_count_too_small", text, "core 4 with five keypair lines", line_of(text, "keypair ", 5),
        "more 'keypair' lines than the 4 declared on line %d" % line_of(text, "core "))
    text = core4_text.replace("keypair 0011 1100", "keypair 0011 0011")
    bad("order_keypair_equal_tokens", text, "keypair 0011 0011", line_of(text, "keypair "),
        "a keypair needs two different key tokens")
    text = core4_text.replace("keypair 0011 1100 : 1 2", "keypair 0011 1100 : 1 3")
    bad("order_unknown_step_id", text, "step id 3 of 2", line_of(text, "keypair "),
        "a step id 3 exceeds the limit 2")
    text = core4_text.replace("keypair 0011 1100 : 1 2", "keypair 0011 1100 :")
    bad("order_keypair_without_steps", text, "a keypair without step ids", line_of(text, "keypair "),
        "expected 'keypair <token> <token> : <step id> ...' with at least one step id")
    many = OrderCert(5, 3, 2)
    many.step(1, "11100", "00011", "11100")
    many.keypairs = [(format(t, "05b"), format(31 - t, "05b"), [1]) for t in range(21)]
    text = many.text(3)
    bad("order_too_many_keypairs", text, "core 21", line_of(text, "core "),
        "core 21: at most 20 keypairs")
    text = core4_text.replace("claim r >= 2", "rows 1\nrow 0011 1100\nclaim r >= 2")
    bad("order_with_rows", text, "a rows block under rule order", line_of(text, "rows "),
        "statement 'rows' out of order: expected 'claim'")
    text = core4_text.replace("steps 2\n", "").replace("step 1 pos=1 q=1100 a=0011 b=1100 k=1\n", "") \
        .replace("step 2 pos=1 q=0011 a=1100 b=0011 k=1\n", "")
    bad("order_without_steps", text, "rule order without a steps block", line_of(text, "core "),
        "statement 'core' out of order: expected 'steps'")
    text = inherit_text(10, 3, 3, inherit_text(8, 3, 3, core5_text))
    bad("inherit_nested", text, "an inherit certificate inside another", line_of(text, "rule ", 2),
        "rule inherit cannot be nested")
    text = inherit_text(8, 3, 3, core5_text, kind="family").replace(
        "positions=independent", "positions=independent sha256=" + "0" * 64, 1)
    bad("inherit_family_outer", text, "rule inherit on a family task", line_of(text, "rule "),
        "rule inherit is for cube tasks only")
    text = inherit_text(8, 3, 3, fam5_cert)
    bad("inherit_family_embedded", text, "a family certificate embedded", line_of(text, "task ", 2),
        "the embedded certificate of rule inherit must have a cube task")
    text = inherit_text(8, 3, 3, core5_text).replace("end-embedded\n", "")
    bad("inherit_missing_end_embedded", text, "no end-embedded line", line_of(text, "claim", 2),
        "statement 'claim' out of order: expected 'end-embedded'")
    text = inherit_text(8, 3, 3, core5_text).rstrip("\n").rsplit("\n", 3)[0] + "\n"
    bad("inherit_truncated_after_embedded", text, "the file stops after the embedded 'end'",
        len(text.split("\n")) - 1, "unexpected end of file: expected 'end-embedded'")
    text = inherit_text(8, 3, 3, core5_text).split("begin-embedded\n")[0] + "begin-embedded\n"
    bad("inherit_truncated_after_begin_embedded", text, "the file stops after begin-embedded",
        line_of(text, "begin-embedded"),
        "unexpected end of file: expected the embedded certificate's header")
    text = inherit_text(8, 3, 3, core5_text).replace("end-embedded\n", "end-embedded\njunk here\n")
    bad("inherit_junk_after_end_embedded", text, "a line of junk after end-embedded",
        line_of(text, "junk"), "unknown statement 'junk': expected 'claim'")
    text = inherit_text(8, 3, 3, core5_text).replace("end-embedded\n", "end-embedded now\n")
    bad("inherit_end_embedded_extra_field", text, "end-embedded with a field",
        line_of(text, "end-embedded"), "unexpected extra field 'now'")
    text = inherit_text(8, 3, 3, core5_text).replace("end\nend-embedded", "end-embedded")
    bad("inherit_embedded_without_end", text, "the embedded certificate has no 'end'",
        line_of(text, "end-embedded"), "statement 'end-embedded' out of order: expected 'end'")


# ---------------------------------------------------------------- the dependence rule
class DependenceCert:
    """A certificate of rule dependence: R + 1 queries, steps (pos, q, a, b, k) and covers
    (signs, a, b, [step ids]), one step per nonzero sign."""

    def __init__(self, m, n, rank, queries, mode="first", cls="NK", positions="independent"):
        self.m, self.n, self.rank, self.mode, self.cls, self.positions = m, n, rank, mode, cls, positions
        self.queries = list(queries)
        self.steps = []
        self.covers = []

    def step(self, pos, q, a, b, k=1):
        self.steps.append((pos, q, a, b, k))
        return len(self.steps)

    def add_cover(self, signs, a, b):
        """'+' at query i: a step q_i, a above b; '-': b above a."""
        pos = self.n if self.mode == "last" else 1
        ids = [self.step(pos, q, a, b) if t == "+" else self.step(pos, q, b, a)
               for t, q in zip(signs, self.queries) if t != "0"]
        self.covers.append((signs, a, b, ids))

    def step_ok(self, sid):
        pos, q, a, b, k = self.steps[sid - 1]
        g = ov(q, b) - ov(q, a)
        return g >= 2 and 1 <= k <= self.n - 2 and (self.n - 1 - k) * (g - 1) >= k

    def first_uncovered(self, family):
        """The first sign pattern in lexicographic order ('0' < '+' < '-') that the task
        requires and no cover covers, or None. Tested against every cover directly, not by
        the checker's closure: c covers t when c or -c equals t wherever t is nonzero."""
        neg = {"+": "-", "-": "+", "0": "0"}
        for t in itertools.product("0+-", repeat=len(self.queries)):
            if set(t) == {"0"} or (not family and not ("+" in t and "-" in t)):
                continue
            if not any(all(x == "0" or x == y for x, y in zip(t, c)) or
                       all(x == "0" or neg[x] == y for x, y in zip(t, c))
                       for c, a, b, ids in self.covers):
                return "".join(t)
        return None

    def bound(self, family=False):
        """rank + 1 when every step is an L2 step, every cover's steps match its signs and
        every required pattern is covered, else None."""
        if self.positions == "dependent" or not all(self.step_ok(s) for s in range(1, len(self.steps) + 1)):
            return None
        for signs, a, b, ids in self.covers:
            nonzero = [(t, q) for t, q in zip(signs, self.queries) if t != "0"]
            assert len(nonzero) == len(ids)
            for (t, q), sid in zip(nonzero, ids):
                _, sq, sa, sb, _ = self.steps[sid - 1]
                if sq != q or (sa, sb) != ((a, b) if t == "+" else (b, a)):
                    return None
        return None if self.first_uncovered(family) else self.rank + 1

    def step_instances(self):
        """S1, S2 and S3_k of every step, in step order, without repeats."""
        out = []
        n = self.n
        for pos, q, a, b, k in self.steps:
            for keys in ([a] * (n - 1), [b] * (n - 1), [a] * k + [b] * (n - 1 - k)):
                inst = (pos, keys[:pos - 1] + [q] + keys[pos - 1:])
                if inst not in out:
                    out.append(inst)
        return out

    def family_text(self, drop=None):
        instances = self.step_instances()
        if drop is not None:
            instances.remove(drop)
        lines = ["kernelrank-family 1 m=%d n=%d" % (self.m, self.n),
                 "# generated by tests/certs/generate.py: S1, S2, S3_k of every step"]
        lines += ["%d %s" % (pos, " ".join(toks)) for pos, toks in instances]
        return "\n".join(lines) + "\n"

    def text(self, claim, family_digest=None, header=2, construction=None):
        kind = "family" if family_digest else "cube"
        lines = ["kernelrank-certificate %d" % header,
                 "task %s m=%d n=%d mode=%s class=%s positions=%s%s"
                 % (kind, self.m, self.n, self.mode, self.cls, self.positions,
                    " sha256=" + family_digest if family_digest else "")]
        if construction:
            lines.append("construction " + construction)
        lines += ["rule dependence rank=%d" % self.rank, "queries %d" % len(self.queries)]
        lines += ["query %s" % q for q in self.queries]
        lines.append("steps %d" % len(self.steps))
        lines += ["step %d pos=%d q=%s a=%s b=%s k=%d" % ((sid,) + st)
                  for sid, st in enumerate(self.steps, start=1)]
        lines.append("covers %d" % len(self.covers))
        lines += ["cover %s %s %s : %s" % (signs, a, b, " ".join(map(str, ids)))
                  for signs, a, b, ids in self.covers]
        lines += ["claim r >= %d" % claim, "end"]
        return "\n".join(lines) + "\n"


def token_union(tokens, m):
    return "".join("1" if any(t[k] == "1" for t in tokens) else "0" for k in range(m))


def disjoint_pairs(m, n=3, mode="first", cls="NK", positions="independent", one_signed=False,
                   full_only=False):
    """Queries q_i = the i-th pair of coordinates, rank m/2 - 1. For every sign pattern t with
    its first nonzero '+' (mixed ones only unless one_signed; only those without zeros if
    full_only), a cover with B = the union of the q_i with t_i = '+' and A = that of the
    q_i with t_i = '-': each q_i lies in one of them and misses the other, so every step has
    gap 2 - 0 = 2 and, with n = 3 and k = 1, factor 1."""
    queries = ["0" * (2 * i) + "11" + "0" * (m - 2 * i - 2) for i in range(m // 2)]
    v = DependenceCert(m, n, m // 2 - 1, queries, mode, cls, positions)
    for t in itertools.product("0+-", repeat=len(queries)):
        nonzero = [x for x in t if x != "0"]
        if not nonzero or nonzero[0] != "+" or (full_only and "0" in t):
            continue
        if not one_signed and "-" not in t:
            continue
        a = token_union([q for x, q in zip(t, queries) if x == "-"], m)
        b = token_union([q for x, q in zip(t, queries) if x == "+"], m)
        v.add_cover("".join(t), a, b)
    for sid in range(1, len(v.steps) + 1):
        pos, q, a, b, k = v.steps[sid - 1]
        assert ov(q, b) - ov(q, a) == 2 and v.step_ok(sid)
    return v


def dependence_corpus():
    """Format 2, rule dependence: valid, invalid and malformed cases."""
    d8 = disjoint_pairs(8)
    assert len(d8.covers) == 25 and d8.bound() == 4
    assert d8.first_uncovered(True) == "++++"  # a family would need the one-signed patterns too
    d8_min = disjoint_pairs(8, full_only=True)
    assert len(d8_min.covers) == 7 and d8_min.bound() == 4
    for t in range(len(d8_min.covers)):  # each full-support cover is needed
        v = disjoint_pairs(8, full_only=True)
        signs = v.covers[t][0]
        del v.covers[t]
        assert v.first_uncovered(False) == signs
    d4 = disjoint_pairs(4)
    assert [c[0] for c in d4.covers] == ["+-"] and d4.bound() == 2
    d6 = disjoint_pairs(6)
    assert len(d6.covers) == 6 and d6.bound() == 3
    d4_last = disjoint_pairs(4, mode="last")
    assert d4_last.steps[0][0] == 3 and d4_last.bound() == 2
    fam4 = disjoint_pairs(4, one_signed=True)
    assert [c[0] for c in fam4.covers] == ["0+", "+0", "++", "+-"] and fam4.bound(True) == 2
    fam4_text = fam4.family_text()

    # ---- valid
    d8_text = d8.text(4, construction="four disjoint pairs: a cover for every mixed sign pattern")
    write("valid", "dependence_m8_rank3.cert", d8_text)
    write("valid", "dependence_m8_rank3_minimal.cert",
          d8_min.text(4, construction="four disjoint pairs: the seven covers without zeros"))
    write("valid", "dependence_m8_rank3_weaker_claim.cert", d8.text(3))
    d4_text = d4.text(2)
    write("valid", "dependence_m4_rank1.cert", d4_text)
    write("valid", "dependence_m4_rank1_last.cert", d4_last.text(2))
    write("valid", "dependence_m6_rank2.cert", d6.text(3))
    write("valid", "dependence_family_m4_rank1.cert", fam4.text(2, digest(fam4_text)))
    write("valid", "dependence_family_m4_rank1.family", fam4_text)

    # ---- invalid (exit 1)
    def case(name, text, tests, line, message, family=None):
        write("invalid", name + ".cert", text)
        if family is not None:
            write("invalid", name + ".family", family)
        expect("invalid", name, tests, line, message)

    v = disjoint_pairs(8)
    t = next(t for t, c in enumerate(v.covers) if c[0] == "+--+")
    del v.covers[t]  # its steps stay: an unused step is checked all the same
    assert v.first_uncovered(False) == "+--+" and v.bound() is None
    text = v.text(4)
    case("dependence_missing_mixed_pattern", text, "the m=8 covers without +--+",
         line_of(text, "covers "), "the covers miss the sign pattern +--+: no cover agrees")
    v = disjoint_pairs(4, one_signed=True)
    v.covers = [c for c in v.covers if c[0] != "+-"]
    assert v.first_uncovered(False) == "+-"
    text = v.text(2)
    case("dependence_cube_only_one_signed", text, "a cube certificate with the covers 0+ +0 ++ only",
         line_of(text, "covers "), "the covers miss the sign pattern +-: no cover agrees")
    v = disjoint_pairs(4, one_signed=True)
    v.covers = [c for c in v.covers if c[0] != "++"]
    assert v.first_uncovered(True) == "++" and v.first_uncovered(False) is None
    ftext = v.family_text()
    text = v.text(2, digest(ftext))
    case("dependence_family_missing_one_signed", text,
         "a family certificate without ++ (enough in the cube, not in a family)",
         line_of(text, "covers "), "the covers miss the sign pattern ++: no cover agrees with it, "
         "or with its negation, wherever it is nonzero (a family task needs every nonzero pattern",
         family=ftext)
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 1100 : 2 1")
    case("dependence_cover_wrong_query", text, "the cover's steps in the wrong order",
         line_of(text, "cover "), "cover +- 0011 1100: step 2 (line %d) has q=0011, but sign 1 is "
         "for query 1100 (line %d)" % (line_of(text, "step 2 "), line_of(text, "query 1100")))
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 1100 0011 : 1 2")
    case("dependence_cover_wrong_direction", text, "the cover's keys swapped",
         line_of(text, "cover "), "cover +- 1100 0011: step 1 (line %d) says a=0011 is above "
         "b=1100, but sign 1 ('+') needs a=1100 above b=0011" % line_of(text, "step 1 "))
    # An extra step of gap 1 (<1110,1100> - <1110,0011> = 2 - 1) that no cover names.
    v = disjoint_pairs(4)
    sid = v.step(1, "1110", "0011", "1100")
    assert not v.step_ok(sid)
    text = v.text(2)
    case("dependence_step_gap_one", text, "an unused step with gap 1", line_of(text, "step %d " % sid),
         "gap g = <q,b> - <q,a> = 1 < 2")
    text = d8.text(5)
    case("dependence_claim_too_strong", text, "r >= 5 from rank 3", line_of(text, "claim"),
         "claim r >= 5 is stronger than the bound r >= 4")
    v = disjoint_pairs(4, positions="dependent")
    text = v.text(2)
    case("dependence_dependent_positions", text, "positions=dependent", line_of(text, "rule "),
         "the dependence rule is proven for position-independent maps only")
    drop = (1, ["1100", "0000", "1111"])  # S3 of the ++ cover's first step
    assert fam4.steps[2] == (1, "1100", "0000", "1111", 1) and drop in fam4.step_instances()
    dropped = fam4.family_text(drop=drop)
    text = fam4.text(2, digest(dropped))
    case("dependence_family_missing_s3", text, "step 3's S3 is not in the family",
         line_of(text, "step 3 "), "the family has no instance S3_k = (q, a^1, b^1)", family=dropped)

    # ---- malformed (exit 2)
    def bad(name, text, tests, line, message):
        write("malformed", name + ".cert", text)
        expect("malformed", name, tests, line, message)

    text = d4_text.replace("kernelrank-certificate 2", "kernelrank-certificate 1", 1)
    bad("dependence_under_header_1", text, "rule dependence in a format 1 file", line_of(text, "rule "),
        "rule dependence needs certificate format 2, but the header on line 1 says 1")
    for rank, word in ((0, "zero"), (13, "thirteen")):
        text = d4_text.replace("rank=1", "rank=%d" % rank)
        bad("dependence_rank_" + word, text, "rank=%d" % rank, line_of(text, "rule "),
            "rank=%d: the dependence rule refutes ranks 1 to 12 only" % rank)
    text = d4_text.replace("queries 2", "queries 3")
    bad("dependence_queries_count", text, "queries 3 at rank 1", line_of(text, "queries "),
        "queries 3: the dependence rule at rank 1 takes R + 1 = 2 queries")
    text = d4_text.replace("query 1100", "query 0011")
    bad("dependence_duplicate_query", text, "the query 0011 twice", line_of(text, "query ", 2),
        "query '0011' repeats the query on line %d" % line_of(text, "query "))
    text = d4_text.replace("query 1100\nquery 0011\n", "query 1100\n")
    bad("dependence_too_few_query_lines", text, "queries 2 with one query line", line_of(text, "steps "),
        "expected 'query' line 2 of the 2 declared on line %d, found 'steps'" % line_of(text, "queries "))
    text = d4_text.replace("queries 2\nquery 1100\nquery 0011\n", "")
    bad("dependence_without_queries", text, "rule dependence without queries", line_of(text, "steps "),
        "statement 'steps' out of order: expected 'queries'")
    text = d4_text.replace("cover +- ", "cover +-+ ")
    bad("dependence_signs_too_long", text, "signs +-+ for two queries", line_of(text, "cover "),
        "signs '+-+' have length 3, expected one sign per query: 2")
    text = d4_text.replace("cover +- ", "cover + ")
    bad("dependence_signs_too_short", text, "signs + for two queries", line_of(text, "cover "),
        "signs '+' have length 1, expected one sign per query: 2")
    text = d4_text.replace("cover +- ", "cover +x ")
    bad("dependence_signs_bad_character", text, "signs +x", line_of(text, "cover "),
        "signs '+x': 'x' is not +, - or 0")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover 00 0011 1100 : 1")
    bad("dependence_signs_all_zero", text, "signs 00", line_of(text, "cover "),
        "signs '00' are all 0: a cover needs a sign")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 1100 : 1")
    bad("dependence_too_few_step_ids", text, "two nonzero signs, one step id", line_of(text, "cover "),
        "signs '+-': the cover names 1 step id(s) for 2 nonzero sign(s), it needs one per nonzero sign")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +0 0011 1100 : 1 2")
    bad("dependence_too_many_step_ids", text, "one nonzero sign, two step ids", line_of(text, "cover "),
        "signs '+0': the cover names 2 step id(s) for 1 nonzero sign(s), it needs one per nonzero sign")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 1100 : 1 3")
    bad("dependence_unknown_step_id", text, "step id 3 of 2", line_of(text, "cover "),
        "a step id 3 exceeds the limit 2")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 0011 : 1 2")
    bad("dependence_cover_equal_tokens", text, "cover +- 0011 0011", line_of(text, "cover "),
        "a cover needs two different key tokens")
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 1100 1 2")
    bad("dependence_cover_without_colon", text, "a cover line without ':'", line_of(text, "cover "),
        "expected 'cover <signs> <token> <token> : <step id> ...'")
    # Four fields: the length test must come before the colon is looked up.
    text = d4_text.replace("cover +- 0011 1100 : 1 2", "cover +- 0011 1100")
    bad("dependence_cover_four_fields", text, "a cover line that ends after its tokens",
        line_of(text, "cover "), "expected 'cover <signs> <token> <token> : <step id> ...'")
    text = d4_text.replace("covers 1", "covers 2")
    bad("dependence_covers_count_too_large", text, "covers 2 with one cover line", line_of(text, "claim"),
        "expected 'cover' line 2 of the 2 declared on line %d, found 'claim'" % line_of(text, "covers "))
    text = d4_text.replace("claim r >= 2", "rows 1\nrow 0011 1100\nclaim r >= 2")
    bad("dependence_with_rows", text, "a rows block under rule dependence", line_of(text, "rows "),
        "statement 'rows' out of order: expected 'claim'")
    text = d4_text.replace("claim r >= 2", "sum 1\nclaim r >= 2")
    bad("dependence_with_sum", text, "a sum line under rule dependence", line_of(text, "sum "),
        "statement 'sum' out of order: expected 'claim'")
    text = d4_text.replace("covers 1", "core 1")
    bad("dependence_with_core", text, "a core instead of covers", line_of(text, "core "),
        "statement 'core' out of order: expected 'covers'")


def cube_trace_fast(rows, n, precision):
    """cube_trace with integer bit operations, for the 2576-row Golay certificate."""
    ints = [(int(c[::-1], 2), int(q[::-1], 2)) for c, q in rows]
    own = [bin(q & c).count("1") for c, q in ints]
    cols = []
    for j, (cj, _) in enumerate(ints):
        hist = {}
        for i, (_, qi) in enumerate(ints):
            if i != j:
                g = bin(qi & cj).count("1") - own[i]
                assert g >= 2
                hist[g] = hist.get(g, 0) + 1
        cols.append(sum((Fraction(cnt, R(n, g) ** 2) for g, cnt in hist.items()), Fraction(0)))
    S = trace_sum(cols, precision)
    return S, trace_bound(S, precision, len(rows))


if __name__ == "__main__":
    main()
