#!/usr/bin/env python3
"""Independent reference for generated-rows certificates (rule trace-uniform, format 2).

Written from the specification alone (docs/certificate-format.md, "Generated rows"), in
plain Python and sharing nothing with the C++ checker:
  * SplitMix64 and the rejection sampler below(b) with Python integers masked to 64 bits;
  * the words: a partial Fisher-Yates shuffle of [0, ..., M-1], one fresh permutation per
    word, all words drawn from one stream;
  * R_N(G) by a memoised recursion over the last part of the composition, checked against
    a brute-force enumeration of all compositions for small G;
  * every unordered pair's overlap |c_i AND c_j| counted pair by pair (no tiles, no
    threads), and Sigma, T = K'^2 / (K' + Sigma) and floor(2^P T) with fractions.Fraction.

tests/certs/generate.py calls write_corpus() to add the generated-rows cases to the checker
corpus. Run directly, it prints the reference values that docs/certificate-format.md quotes
(python3 tests/check/generated_reference.py), or writes one certificate for a benchmark:
  python3 tests/check/generated_reference.py bench M COUNT SEED OUT
(a benchmark certificate states sum 0: its pair count is far beyond this script, so the
checker reports the recomputed sum as a mismatch).
"""
import itertools
import sys
from fractions import Fraction
from functools import lru_cache

MASK = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        assert 0 <= seed <= MASK
        self.state = seed

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, bound):
        assert 1 <= bound <= 1 << 32
        threshold = (1 << 64) % bound  # (2^64 - b) mod b
        while True:
            x = self.next()
            if x >= threshold:
                return x % bound


def generate(seed, count, m, weight):
    """The words c_1 .. c_count as Python integers, bit k = coordinate k (0-based)."""
    rng = SplitMix64(seed)
    words = []
    for _ in range(count):
        perm = list(range(m))
        for t in range(weight):
            j = t + rng.below(m - t)
            perm[t], perm[j] = perm[j], perm[t]
        word = 0
        for k in perm[:weight]:
            word |= 1 << k
        words.append(word)
    return words


def text_of(word, m):
    return "".join("1" if word >> k & 1 else "0" for k in range(m))


@lru_cache(maxsize=None)
def amplification(n, gap):
    """R_N(gap): the best product of (n-2)(g-1) over compositions of gap into parts >= 2
    (1 for gap 0, None for gap 1)."""
    if gap == 0:
        return 1
    best = None
    for last in range(2, gap + 1):
        rest = amplification(n, gap - last)
        if rest is not None:
            value = rest * (n - 2) * (last - 1)
            best = value if best is None else max(best, value)
    return best


def amplification_brute_force(n, gap):
    if gap == 0:
        return 1  # the empty composition
    best = None
    for parts in range(1, gap // 2 + 1):
        for cut in itertools.combinations(range(1, gap), parts - 1):
            bounds = (0,) + cut + (gap,)
            sizes = [b - a for a, b in zip(bounds, bounds[1:])]
            if min(sizes) < 2:
                continue
            product = 1
            for g in sizes:
                product *= (n - 2) * (g - 1)
            best = product if best is None else max(best, product)
    return best


class Evaluation:
    """Everything the checker recomputes for one certificate."""

    def __init__(self, m, n, precision, seed, count, weight, drops):
        self.m, self.n, self.precision = m, n, precision
        self.seed, self.count, self.weight = seed, count, weight
        self.drops = sorted(drops)
        dropped = set(drops)
        words = generate(seed, count, m, weight)
        self.kept = [(i + 1, w) for i, w in enumerate(words) if i + 1 not in dropped]
        kept = self.kept
        k = len(kept)
        self.histogram = [0] * (weight + 1)  # unordered pairs by overlap |c_i AND c_j|
        self.small = None  # the first kept pair (i < j) with overlap >= W - 1
        for a in range(k):
            ia, wa = kept[a]
            for b in range(a + 1, k):
                o = (wa & kept[b][1]).bit_count()
                self.histogram[o] += 1
                if o >= weight - 1 and self.small is None:
                    self.small = (ia, kept[b][0], o)
        assert sum(self.histogram) == k * (k - 1) // 2
        self.pairs = k * (k - 1) // 2
        if self.small is None:
            sigma = Fraction(0)
            for o, c in enumerate(self.histogram):
                if c:
                    sigma += Fraction(2 * c, amplification(n, weight - o) ** 2)
            self.sigma = sigma
            self.T = Fraction(k * k) / (k + sigma)
            self.sum = (2 ** precision * self.T.numerator) // self.T.denominator
            self.bound = self.sum // 2 ** precision + 1 if k >= 2 else 1
        else:
            self.sigma = self.T = self.sum = self.bound = None


def greedy_drops(seed, count, m, weight):
    """Drops every word whose overlap with an earlier kept word is >= W - 1."""
    kept, drops = [], []
    for i, w in enumerate(generate(seed, count, m, weight), start=1):
        if any((w & v).bit_count() >= weight - 1 for v in kept):
            drops.append(i)
        else:
            kept.append(w)
    return drops


def certificate_text(m, n, precision, seed, count, weight, drops, total, claim, header=2,
                     task=None, construction=None, queries="complement", generator="splitmix64"):
    task = task or "task cube m=%d n=%d mode=first class=NK positions=independent" % (m, n)
    lines = ["kernelrank-certificate %d" % header, task]
    if construction:
        lines.append("construction " + construction)
    lines += ["rule trace-uniform precision=%d" % precision,
              "generated %s seed=%d count=%d weight=%d queries=%s"
              % (generator, seed, count, weight, queries),
              "drops %d" % len(drops)]
    lines += ["drop %d" % i for i in drops]
    lines += ["sum %s" % total, "claim r >= %s" % claim, "end"]
    return "\n".join(lines) + "\n"


class Case:
    """A valid certificate and its evaluation; variants for the invalid and malformed cases."""

    def __init__(self, m, n, precision, seed, count, weight, drops, construction=None):
        self.args = (m, n, precision, seed, count, weight, list(drops))
        self.construction = construction
        self.ev = Evaluation(m, n, precision, seed, count, weight, drops)
        assert self.ev.small is None, "a valid case has no gap below 2"

    def text(self, **changes):
        m, n, precision, seed, count, weight, drops = self.args
        values = dict(m=m, n=n, precision=precision, seed=seed, count=count, weight=weight,
                      drops=drops, total=self.ev.sum, claim=self.ev.bound,
                      construction=self.construction)
        values.update(changes)
        return certificate_text(**values)


def small_gap_message(ev):
    i, j, o = ev.small
    return ("generated rows %d and %d: gap G = W - |c_i AND c_j| = %d - %d = %d < 2"
            % (i, j, ev.weight, o, ev.weight - o))


def write_corpus(write, expect, line_of):
    """Adds the generated-rows cases to tests/certs/{valid,invalid,malformed}. The callbacks
    are generate.py's: write(folder, name, text), expect(folder, case, tests, line, message),
    line_of(text, prefix[, occurrence])."""
    for g in range(0, 17):
        for n in (3, 4, 5, 6):
            assert amplification(n, g) == amplification_brute_force(n, g)
    assert amplification(3, 4) == 3 and amplification(3, 1) is None  # docs' example: R_3(4) = 3

    # ---- valid
    # The example of docs/certificate-format.md: without drop 6, rows 4 and 6 overlap in 7.
    docs = Case(16, 3, 16, 5, 12, 8, [6])
    assert docs.ev.sum == 227694 and docs.ev.bound == 4 and docs.ev.sigma == Fraction(1787, 75)
    assert Evaluation(16, 3, 16, 5, 12, 8, []).small == (4, 6, 7)
    write("valid", "generated_docs_example.cert", docs.text())
    needed = Case(8, 3, 64, 1, 50, 4, greedy_drops(1, 50, 8, 4),
                  "weight 4 in m = 8: the drops remove every word within distance 2 of an "
                  "earlier kept one")
    assert needed.args[6], "the m = 8 case needs drops"
    write("valid", "generated_m8_w4_drops.cert", needed.text())
    m16 = Case(16, 3, 64, 7, 200, 8, greedy_drops(7, 200, 16, 8))
    write("valid", "generated_m16_w8_drops.cert", m16.text())
    m32 = Case(32, 4, 64, 12345, 500, 16, [])
    write("valid", "generated_m32_w16.cert", m32.text())
    # The same words with three arbitrary drops: other K', other pairs, other sum.
    m32d = Case(32, 4, 64, 12345, 500, 16, [1, 250, 500])
    assert m32d.ev.sum != m32.ev.sum
    write("valid", "generated_m32_w16_three_drops.cert", m32d.text())
    # 5000 words: three tiles of 2048 rows, six tile pairs (the shard tests use it).
    m64 = Case(64, 3, 64, 2024, 5000, 32, [], "5000 random words of weight 32")
    write("valid", "generated_m64_w32_5000.cert", m64.text())
    m100 = Case(100, 6, 80, 99, 300, 37, [])  # two words per token, the last one partial
    write("valid", "generated_m100_w37.cert", m100.text())
    m256 = Case(256, 3, 128, 18446744073709551615, 200, 128, [])  # the largest seed
    write("valid", "generated_m256_w128_seed_max.cert", m256.text())
    m4096 = Case(4096, 3, 32, 0, 40, 2048, [2, 3])
    write("valid", "generated_m4096_w2048.cert", m4096.text())
    p0 = Case(24, 3, 0, 5, 60, 12, [])
    write("valid", "generated_precision_0.cert", p0.text())
    one = Case(8, 3, 16, 3, 5, 1, [1, 2, 4, 5])  # a single kept row: the bound is 1
    assert one.ev.bound == 1 and one.ev.sum == 2 ** 16
    write("valid", "generated_single_kept_row.cert", one.text())
    weaker = m16.text(claim=1)
    write("valid", "generated_weaker_claim.cert", weaker)
    # More than one tile of 2048 kept rows, with drops in both.
    drops24 = greedy_drops(77, 2600, 24, 12)
    assert any(i < 2048 for i in drops24) and any(i > 2200 for i in drops24)
    m24 = Case(24, 3, 64, 77, 2600, 12, drops24)
    assert len(m24.ev.kept) > 2048
    write("valid", "generated_m24_w12_two_tiles_drops.cert", m24.text())

    # ---- invalid (exit 1)
    def case(name, text, tests, line, message):
        write("invalid", name + ".cert", text)
        expect("invalid", name, tests, line, message)

    base = m32
    for name, change, key in (("seed", dict(seed=12346), "seed=12346"),
                              ("count", dict(count=499), "count=499"),
                              ("weight", dict(weight=15), "weight=15")):
        m, n, precision, seed, count, weight, drops = base.args
        values = dict(m=m, n=n, precision=precision, seed=seed, count=count, weight=weight,
                      drops=drops)
        values.update(change)
        ev = Evaluation(**values)
        assert ev.small is None and ev.sum != base.ev.sum
        text = base.text(**change)
        case("generated_altered_" + name, text, "the valid m = 32 certificate with " + key,
             line_of(text, "sum "), "sum %d differs from the recomputed sum %d"
             % (base.ev.sum, ev.sum))
    text = base.text(total=base.ev.sum + 1)
    case("generated_sum_off_by_one", text, "sum + 1", line_of(text, "sum "),
         "sum %d differs from the recomputed sum %d" % (base.ev.sum + 1, base.ev.sum))
    text = base.text(total=base.ev.sum - 1)
    case("generated_sum_minus_one", text, "sum - 1", line_of(text, "sum "),
         "sum %d differs from the recomputed sum %d" % (base.ev.sum - 1, base.ev.sum))
    text = base.text(claim=base.ev.bound + 1)
    case("generated_claim_too_strong", text, "claim floor(T) + 2", line_of(text, "claim"),
         "claim r >= %d is stronger than the bound r >= %d" % (base.ev.bound + 1, base.ev.bound))
    text = one.text(claim=2)
    case("generated_single_row_claim_2", text, "one kept row, claim 2", line_of(text, "claim"),
         "claim r >= 2 is stronger than the bound r >= 1")
    # Each drop of the m = 8 case is needed: without any one, a gap below 2 appears.
    m, n, precision, seed, count, weight, drops = needed.args
    for position in (0, len(drops) - 1):
        fewer = drops[:position] + drops[position + 1:]
        ev = Evaluation(m, n, precision, seed, count, weight, fewer)
        assert ev.small is not None and drops[position] in ev.small[:2]
        text = needed.text(drops=fewer)
        case("generated_needed_drop_%d_removed" % drops[position], text,
             "the m = 8 certificate without its drop of row %d" % drops[position],
             line_of(text, "generated "), small_gap_message(ev))
    ev = Evaluation(m, n, precision, seed, count, weight, [])
    text = needed.text(drops=[])
    case("generated_no_drops", text, "the m = 8 certificate without drops",
         line_of(text, "generated "), small_gap_message(ev))
    # The drops past row 2048 removed: the first pair with a gap below 2 lies in the second
    # tile (kept positions 2048 and up), and it is the smallest in (i, j) order.
    m, n, precision, seed, count, weight, drops = m24.args
    early = [i for i in drops if i <= 2048]
    ev = Evaluation(m, n, precision, seed, count, weight, early)
    assert ev.small is not None and ev.small[1] > 2048 + len(early)
    text = m24.text(drops=early)
    case("generated_small_gap_in_second_tile", text, "the m = 24 certificate without its drops "
         "past row 2048", line_of(text, "generated "), small_gap_message(ev))
    # Two kept rows, W = 1: every pair has gap 1 - overlap <= 1.
    ev = Evaluation(8, 3, 16, 3, 5, 1, [1, 2, 4])
    text = certificate_text(8, 3, 16, 3, 5, 1, [1, 2, 4], 65536, 1)
    case("generated_weight_1_two_rows", text, "W = 1 with two kept rows",
         line_of(text, "generated "), small_gap_message(ev))

    # ---- malformed (exit 2)
    def bad(name, text, tests, line, message):
        write("malformed", name + ".cert", text)
        expect("malformed", name, tests, line, message)

    v = m16.text()
    gen = next(l for l in v.split("\n") if l.startswith("generated "))
    bad("generated_under_header_1", v.replace("kernelrank-certificate 2", "kernelrank-certificate 1"),
        "rule trace-uniform in a format 1 file", line_of(v, "rule "),
        "rule trace-uniform needs certificate format 2, but the header on line 1 says 1")
    bad("generated_precision_257", v.replace("precision=64", "precision=257"), "precision=257",
        line_of(v, "rule "), "precision 257 exceeds the limit 256")
    t = v.replace("task cube m=16 n=3 mode=first class=NK positions=independent",
                  "task family m=16 n=3 mode=first class=NK positions=independent sha256=" + "0" * 64)
    bad("generated_family_task", t, "a family task with rule trace-uniform", line_of(t, "rule "),
        "rule trace-uniform is for cube tasks only (the task on line 2 is a family)")
    bad("generated_rule_extra_field", v.replace("precision=64", "precision=64 x"),
        "rule trace-uniform with an extra field", line_of(v, "rule "), "unexpected extra field 'x'")
    for name, old, new, message in (
            ("generator", "splitmix64", "xorshift64",
             "unknown generator 'xorshift64': expected 'splitmix64'"),
            ("seed_leading_zero", "seed=7", "seed=07", "expected the seed as a decimal integer"),
            ("seed_2_64", "seed=7", "seed=18446744073709551616",
             "the seed 18446744073709551616 exceeds the limit 18446744073709551615"),
            ("seed_negative", "seed=7", "seed=-7", "expected the seed as a decimal integer"),
            ("count_1", "count=200", "count=1", "count=1 is out of range 2..10000000"),
            ("count_too_large", "count=200", "count=10000001",
             "the count 10000001 exceeds the limit 10000000"),
            ("weight_0", "weight=8", "weight=0", "weight=0 is out of range 1..15 (1..m-1)"),
            ("weight_m", "weight=8", "weight=16", "weight=16 is out of range 1..15 (1..m-1)"),
            ("queries_other", "queries=complement", "queries=same",
             "unknown query rule 'same': expected queries=complement"),
            ("key_missing", "seed=7", "7", "expected 'seed=...', found '7'"),
            ("keys_swapped", "seed=7 count=200", "count=200 seed=7", "expected 'seed=...', found 'count=200'"),
            ("too_few_fields", " queries=complement", "", "too few fields: expected 'generated splitmix64"),
            ("extra_field", "queries=complement", "queries=complement x", "unexpected extra field 'x'")):
        t = v.replace(gen, gen.replace(old, new, 1))
        assert t != v
        bad("generated_" + name, t, "the generated line with %s" % new.strip() if new.strip() else
            "the generated line without queries=", line_of(t, "generated "), message)
    # The 4 GiB limit on the words: 9000000 * 64 * 8 bytes at m = 4096.
    t = certificate_text(4096, 3, 8, 1, 9000000, 5, [], 0, 1)
    bad("generated_too_much_memory", t, "count=9000000 at m=4096", line_of(t, "generated "),
        "count=9000000 words of m=4096 need 9000000 * 64 * 8 = 4608000000 bytes, more than the "
        "checker's limit of 4 GiB (4294967296 bytes)")
    t = certificate_text(4096, 3, 8, 1, 8388608, 5, [], 0, 1).replace("drops 0\n", "")
    bad("generated_at_memory_limit_parses", t,
        "count=8388608 at m=4096 (exactly 4 GiB) passes the limit; the missing drops line is reported",
        line_of(t, "sum "), "statement 'sum' out of order: expected 'drops'")
    drops16 = m16.args[6]
    assert len(drops16) >= 2
    bad("generated_drops_too_many", v.replace("drops %d" % len(drops16), "drops 200"),
        "drops 200 with count 200", line_of(v, "drops "), "the number of drops 200 exceeds the limit 199")
    bad("generated_drops_not_a_number", v.replace("drops %d" % len(drops16), "drops x"),
        "drops x", line_of(v, "drops "), "expected the number of drops as a decimal integer")
    t = v.replace("drops %d" % len(drops16), "drops %d" % (len(drops16) + 1))
    bad("generated_drops_count_too_large", t, "one drop line fewer than declared", line_of(t, "sum "),
        "expected 'drop' line %d of the %d declared on line %d, found 'sum'"
        % (len(drops16) + 1, len(drops16) + 1, line_of(t, "drops ")))
    t = v.replace("drops %d" % len(drops16), "drops %d" % (len(drops16) - 1))
    bad("generated_drops_count_too_small", t, "one drop line more than declared",
        line_of(t, "drop ", len(drops16)),
        "more 'drop' lines than the %d declared on line %d" % (len(drops16) - 1, line_of(t, "drops ")))
    first, second = drops16[0], drops16[1]
    t = v.replace("drop %d\n" % second, "drop %d\n" % first, 1)
    bad("generated_drop_repeated", t, "a drop index twice", line_of(t, "drop ", 2),
        "drop %d: drop indices must be strictly increasing (the previous drop is %d)" % (first, first))
    t = v.replace("drop %d\ndrop %d\n" % (first, second), "drop %d\ndrop %d\n" % (second, first), 1)
    bad("generated_drop_decreasing", t, "two drop indices in decreasing order", line_of(t, "drop ", 2),
        "drop %d: drop indices must be strictly increasing (the previous drop is %d)" % (first, second))
    t = v.replace("drop %d\n" % first, "drop 0\n", 1)
    bad("generated_drop_zero", t, "drop 0", line_of(t, "drop "),
        "drop 0: generated rows count from 1")
    t = v.replace("drop %d\n" % drops16[-1], "drop 201\n", 1)
    bad("generated_drop_past_count", t, "drop 201 of 200", line_of(t, "drop 201"),
        "the drop index 201 exceeds the limit 200")
    t = v.replace("drop %d\n" % first, "drop %d 1\n" % first, 1)
    bad("generated_drop_extra_field", t, "a drop line with two indices", line_of(t, "drop "),
        "unexpected extra field '1': expected 'drop <generated row index>'")
    t = v.replace(gen + "\n", "")
    bad("generated_missing", t, "rule trace-uniform without a generated line", line_of(t, "drops "),
        "statement 'drops' out of order: expected 'generated'")
    t = "\n".join(l for l in v.split("\n") if not l.startswith("drop")) 
    bad("generated_drops_missing", t, "no drops statement", line_of(t, "sum "),
        "statement 'sum' out of order: expected 'drops'")
    for word, block in (("rows", "rows 1\nrow 11110000 00001111\n"), ("steps", "steps 0\n"),
                        ("pairs", "pairs 0\n"), ("core", "core 0\n"), ("queries", "queries 0\n"),
                        ("covers", "covers 0\n")):
        t = v.replace(gen + "\n", block + gen + "\n")
        bad("generated_with_%s_before" % word, t, "'%s' before the generated line" % word,
            line_of(t, word + " "), "statement '%s' out of order: expected 'generated'" % word)
        t = v.replace("sum ", block + "sum ")
        bad("generated_with_%s_before_sum" % word, t, "'%s' after the drops" % word,
            line_of(t, word + " "), "statement '%s' out of order: expected 'sum'" % word)
    for name, value, message in (("fraction", "1/2", "the trace-uniform rule's sum must be a decimal integer, found '1/2'"),
                                 ("leading_zero", "0%d" % m16.ev.sum, "the trace-uniform rule's sum must be a decimal integer"),
                                 ("negative", "-1", "the trace-uniform rule's sum must be a decimal integer, found '-1'")):
        t = m16.text(total=value)
        bad("generated_sum_" + name, t, "sum " + value, line_of(t, "sum "), message)
    t = m16.text().replace("end\n", "")
    bad("generated_without_end", t, "no end line", line_of(t, "claim"),
        "unexpected end of file: expected 'end'")
    # `generated` under the other rules.
    explicit = ("kernelrank-certificate 2\ntask cube m=8 n=3 mode=first class=NK positions=independent\n"
                "rule trace precision=64\n%s\nrows 2\nrow 11110000 00001111\nrow 00001111 11110000\n"
                "sum 33204139332677192908\nclaim r >= 2\nend\n")
    line = "generated splitmix64 seed=1 count=2 weight=4 queries=complement"
    t = explicit % line
    bad("generated_under_rule_trace", t, "a generated line under rule trace", line_of(t, "generated "),
        "statement 'generated' out of order: expected 'rows' (the generated line belongs to rule trace-uniform)")
    t = (explicit % line).replace("rule trace precision=64", "rule dominance")
    bad("generated_under_rule_dominance", t, "a generated line under rule dominance",
        line_of(t, "generated "), "statement 'generated' out of order: expected 'rows'")
    t = ("kernelrank-certificate 2\ntask cube m=4 n=3 mode=first class=NK positions=independent\n"
         "rule order rank=1\n%s\nsteps 0\ncore 0\nclaim r >= 2\nend\n" % line.replace("weight=4", "weight=2"))
    bad("generated_under_rule_order", t, "a generated line under rule order", line_of(t, "generated "),
        "statement 'generated' out of order: expected 'steps'")
    t = (explicit % "drops 0").replace("drops 0\n", "")
    t = t.replace("rows 2", "drops 0\nrows 2")
    bad("generated_drops_under_rule_trace", t, "a drops line under rule trace", line_of(t, "drops "),
        "statement 'drops' out of order: expected 'rows'")


def main():
    args = sys.argv[1:]
    if args and args[0] == "bench":
        m, count, seed, out = int(args[1]), int(args[2]), int(args[3]), args[4]
        with open(out, "w") as f:
            f.write(certificate_text(m, 3, 64, seed, count, m // 2, [], 0, 1,
                                     construction="benchmark: the sum is not computed here"))
        return
    print("SplitMix64 seed=0, first three outputs:",
          ", ".join("0x%016X" % x for x in (lambda r: [r.next(), r.next(), r.next()])(SplitMix64(0))))
    print("seed=1, M=8, W=4, the first five words:")
    for i, w in enumerate(generate(1, 5, 8, 4), start=1):
        print("  c_%d = %s" % (i, text_of(w, 8)))
    ev = Evaluation(8, 3, 64, 1, 50, 4, greedy_drops(1, 50, 8, 4))
    print("seed=1 count=50 M=8 W=4: drops", ev.drops, "kept", len(ev.kept), "sum", ev.sum,
          "bound", ev.bound)


if __name__ == "__main__":
    main()
