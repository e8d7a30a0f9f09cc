#!/usr/bin/env python3
"""Independent reference for product certificates (rule trace-product, format 3).

Written from the specification (docs/certificate-format.md, "Format 3"), in plain Python,
sharing nothing with the C++ checker: a checksum class GS(L, W, a) is enumerated word by
word (small L only), a block's pair polynomial is counted pair by pair, the product is
multiplied out, R_N(G) is a memoised recursion, and T = N^2 / (N + Sigma) and floor(2^P T)
are fractions.Fraction. tests/certs/generate.py calls write_corpus() to add the cases.
"""
import itertools
from fractions import Fraction
from functools import lru_cache


@lru_cache(maxsize=None)
def amplification(n, gap):
    if gap == 0:
        return 1
    best = 0
    for part in range(2, gap + 1):
        rest = amplification(n, gap - part) if gap - part != 1 else 0
        best = max(best, rest * (n - 2) * (part - 1))
    return best


def checksum_words(length, weight, residue):
    out = []
    for ones in itertools.combinations(range(length), weight):
        if sum(ones) % length == residue:
            out.append("".join("1" if k in ones else "0" for k in range(length)))
    return out


def pair_polynomial(words):
    w = words[0].count("1")
    poly = [0] * (w + 1)
    for c in words:
        for d in words:
            poly[w - sum(1 for x, y in zip(c, d) if x == y == "1")] += 1
    return poly


def multiply(a, b):
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def hadamard_rank(floor_t, power):
    """The smallest r >= 1 with C(r + power - 1, power) > floor_t (theory.md L4')."""
    from math import comb
    r = 1
    while comb(r + power - 1, power) <= floor_t:
        r += 1
    return r


def evaluate(n, blocks, precision, power=1):
    """blocks: [(words, copies)]. Returns (sum, bound)."""
    poly = [1]
    for words, copies in blocks:
        p = pair_polynomial(words)
        for _ in range(copies):
            poly = multiply(poly, p)
    rows = poly[0]
    assert poly[1] == 0 if len(poly) > 1 else True
    sigma = sum(Fraction(c, amplification(n, g) ** (2 * power))
                for g, c in enumerate(poly) if g >= 2 and c)
    t = Fraction(rows * rows) / (rows + sigma)
    s = (t * 2 ** precision).numerator // (t * 2 ** precision).denominator
    if rows < 2:
        return s, 1
    return s, hadamard_rank(t.numerator // t.denominator, power)


class Block:
    def __init__(self, words=None, copies=1, checksum=None):
        self.copies = copies
        self.checksum = checksum  # (L, W, a) or None
        self.words = words if checksum is None else checksum_words(*checksum)

    def text(self):
        if self.checksum:
            return ["block checksum length=%d weight=%d residue=%d copies=%d"
                    % (self.checksum + (self.copies,))]
        return (["block explicit length=%d copies=%d words=%d"
                 % (len(self.words[0]), self.copies, len(self.words))]
                + ["word " + w for w in self.words])


def certificate(n, blocks, precision=64, claim=None, m=None, header=3, rule=None, sum_text=None,
                power=1):
    s, bound = evaluate(n, [(b.words, b.copies) for b in blocks], precision, power)
    m = m if m is not None else sum(len(b.words[0]) * b.copies for b in blocks)
    lines = ["kernelrank-certificate %d" % header,
             "task cube m=%d n=%d mode=first class=NK positions=independent" % (m, n),
             rule or "rule trace-product precision=%d%s"
             % (precision, " power=%d" % power if power > 1 else ""),
             "blocks %d" % len(blocks)]
    for b in blocks:
        lines += b.text()
    lines += ["sum %s" % (sum_text if sum_text is not None else s),
              "claim r >= %d" % (bound if claim is None else claim), "end"]
    return "\n".join(lines) + "\n", bound


def write_corpus(write, expect, line_of, hamming, dodecads):
    """hamming: the 14 weight-4 words of length 8; dodecads: the 2576 Golay dodecads."""
    assert amplification(3, 4) == 3 and amplification(3, 12) == 27
    ham3 = [Block(hamming, 3)]
    text, bound = certificate(3, ham3)
    assert bound == 17  # three copies of the (8,4,4) words at m = 24
    write("valid", "product_hamming8_cubed.cert", text)
    text, bound = certificate(3, [Block(dodecads, 7)], precision=32)
    assert bound == 2315518209  # r >= 2.3e9 at m = 168
    write("valid", "product_golay_m168.cert", text)
    # theory.md L4' with k = 2 on the 2576 dodecads at m = 24: 21 -> 23
    text, bound = certificate(3, [Block(dodecads, 1)], precision=32, power=2)
    assert bound == 23
    write("valid", "product_golay_m24_power2.cert", text)
    strong, _ = certificate(3, [Block(dodecads, 1)], precision=32, power=2, claim=24)
    write("invalid", "product_power2_claim_plus_one.cert", strong)
    expect("invalid", "product_power2_claim_plus_one", "power 2: claim one above the bound 23",
           line_of(strong, "claim"), "is stronger than the bound r >= 23")
    mixed = [Block(hamming, 1), Block(checksum=(13, 6, 5), copies=2)]
    text, bound = certificate(4, mixed)
    write("valid", "product_checksum_mixed_n4.cert", text)
    weaker, _ = certificate(4, mixed, claim=bound - 1)
    write("valid", "product_weaker_claim.cert", weaker)
    single, bound = certificate(3, [Block(["1100"], 1), Block(checksum=(5, 2, 0), copies=1)])
    write("valid", "product_checksum_m9.cert", single)
    # W = L - 1 is allowed (gcd(L - 1, L) = 1): GS(5, 4, 0) is the single word 01111
    top, _ = certificate(3, [Block(["1100", "0011"], 1), Block(checksum=(5, 4, 0), copies=1)])
    assert checksum_words(5, 4, 0) == ["01111"]
    write("valid", "product_checksum_weight_l_minus_1.cert", top)
    # A block of length 1 (one word, "1"): the smallest block there is, width 1 + 5 = 6.
    single, _ = certificate(3, [Block(["1"], 1), Block(checksum=(5, 2, 0), copies=1)])
    write("valid", "product_length_one.cert", single)
    # A checksum class of weight 1: the one word with its 1 at position a (here 0).
    light, _ = certificate(3, [Block(["1100", "0011"], 1), Block(checksum=(5, 1, 0), copies=1)])
    assert checksum_words(5, 1, 0) == ["10000"]
    write("valid", "product_checksum_weight_one.cert", light)
    # The largest residue, a = L - 1: GS(5,2,4) = {positions 0+4, 1+3} = {10001, 01010}.
    top_residue, _ = certificate(3, [Block(["1100", "0011"], 1),
                                     Block(checksum=(5, 2, 4), copies=1)])
    assert sorted(checksum_words(5, 2, 4)) == ["01010", "10001"]
    write("valid", "product_checksum_residue_l_minus_1.cert", top_residue)
    # k = 2 with floor(T_4) = 1: two rows at gap 2, R_3(2) = 1, T_4 = 4 / (2 + 2) = 1, and the
    # smallest r with C(r + 1, 2) > 1 is 2 (C(2, 2) = 1 is not above 1).
    floor_one, bound = certificate(3, [Block(["1100", "0011"], 1)], power=2)
    assert bound == 2
    write("valid", "product_power2_floor_one.cert", floor_one)
    # n = 4 with gap 2 the only gap: R_4(2)^2 = 4 is the whole common denominator.
    only_gap2, _ = certificate(4, [Block(["1100", "0011"], 1)])
    write("valid", "product_only_gap2_n4.cert", only_gap2)
    # A block whose one word has weight 0 (the producer pads an odd width so): pair polynomial 1.
    zero, _ = certificate(3, [Block(["0"], 1), Block(checksum=(5, 2, 0), copies=1)])
    write("valid", "product_zero_word_block.cert", zero)
    # Where R_n becomes geometric. The checker sums the gaps beyond a window of six values
    # R(j) = q R(j - p); five matching values are not enough. R_3(11..22) = 20, 27, 36, 48,
    # 64, 81, 108, 144, 192, 256, 324, 432: the first window ends at 22 (start 12, p = 5,
    # q = 4). Ending at 21, p = 5, q = 4 matches 17..21 but not 16 (81 != 4 * 20), and
    # p = 4, q = 3 matches 16..19 and 21 but not 20 (256 != 3 * 81). Gaps 0, 4, 16, 20 with
    # largest possible gap 22 (16 + 4 + 2) make any of these slips change the sum.
    disjoint = lambda w: ["1" * w + "0" * w, "0" * w + "1" * w]  # noqa: E731
    tail3, _ = certificate(3, [Block(disjoint(16), 1), Block(disjoint(4), 1), Block(["11"], 1)])
    assert [amplification(3, g) for g in (16, 20, 21)] == [81, 256, 324]
    write("valid", "product_tail_window_n3.cert", tail3)
    # R_4(5..14) = 8, 16, 24, 36, 64, 96, 144, 256, 384, 576: the first window ends at 14
    # (start 6, p = 3, q = 4); ending at 13, 9..13 match but 8 does not (36 != 4 * 8).
    tail4, _ = certificate(4, [Block(disjoint(8), 1), Block(disjoint(5), 1), Block(["1"], 1)])
    assert [amplification(4, g) for g in (5, 8, 13)] == [8, 36, 384]
    write("valid", "product_tail_window_n4.cert", tail4)

    # ---- invalid: each a single edit of a valid certificate
    base, bound = certificate(3, ham3)
    gap1 = base.replace("word " + hamming[1], "word 11101000", 1)
    assert "word 11101000" in gap1
    write("invalid", "product_gap1_word.cert", gap1)
    # The checker names the first pair (i, j), i < j, with gap < 2, at word j's line.
    edited = [hamming[0], "11101000"] + hamming[2:]
    first = min((i, j) for i in range(14) for j in range(i + 1, 14)
                if sum(1 for x, y in zip(edited[i], edited[j]) if x == y == "1") >= 3)
    expect("invalid", "product_gap1_word", "a block word edited to have gap 1 with another one",
           line_of(gap1, "word " + edited[first[1]]),
           "words %d and %d of the block on line 5: gap W - |c AND d| = 1 < 2"
           % (first[0] + 1, first[1] + 1))
    more = base.replace("copies=3", "copies=4").replace("m=24", "m=32")
    write("invalid", "product_copies_plus_one.cert", more)
    expect("invalid", "product_copies_plus_one", "copies + 1 (and m + 8): the sum differs",
           line_of(more, "sum "), "differs from the recomputed sum")
    claim = base.replace("claim r >= %d" % bound, "claim r >= %d" % (bound + 1))
    write("invalid", "product_claim_plus_one.cert", claim)
    expect("invalid", "product_claim_plus_one", "claim one above floor(T) + 1",
           line_of(claim, "claim"), "is stronger than the bound r >= %d" % bound)
    mixed_text, _ = certificate(4, mixed)
    changed = mixed_text.replace("length=13 weight=6", "length=13 weight=5")
    write("invalid", "product_checksum_changed.cert", changed)
    expect("invalid", "product_checksum_changed", "GS(13,6) stated as GS(13,5): the sum differs",
           line_of(changed, "sum "), "differs from the recomputed sum")
    wrong_n = mixed_text.replace(" n=4 ", " n=3 ")
    write("invalid", "product_wrong_n.cert", wrong_n)
    expect("invalid", "product_wrong_n", "n = 3 instead of 4: other R_n, the sum differs",
           line_of(wrong_n, "sum "), "differs from the recomputed sum")
    # The second word (index 1) has another weight, and every gap is still >= 2.
    second, _ = certificate(3, [Block(["110000", "001100"], 1), Block(checksum=(5, 2, 0), copies=1)])
    second = second.replace("word 001100", "word 001110", 1)
    write("invalid", "product_second_word_weight.cert", second)
    expect("invalid", "product_second_word_weight", "the second word of a block has weight 3, not 2",
           line_of(second, "word 001110"), "the word has weight 3, the block's first word (line 6)")
    heavy = base.replace("word " + hamming[2], "word 11111000", 1)
    write("invalid", "product_weight_differs.cert", heavy)
    expect("invalid", "product_weight_differs", "a word of weight 5 in a weight-4 block",
           line_of(heavy, "word 11111000"), "a block needs constant weight")

    # ---- malformed
    small, _ = certificate(3, [Block(["1100"], 1), Block(checksum=(5, 2, 0), copies=1)])
    cases = [
        ("product_header2", small.replace("kernelrank-certificate 3", "kernelrank-certificate 2"),
         "rule trace", "rule trace-product needs certificate format 3"),
        ("product_format3_other_rule", small.replace("rule trace-product precision=64",
                                                     "rule trace precision=64"),
         "rule trace", "format 3 (header on line 1) has rules trace-product and shifted-trace only"),
        ("product_width_mismatch", small.replace("m=9", "m=10"), "blocks",
         "the blocks cover 9 coordinates"),
        ("product_gcd", small.replace("length=5 weight=2", "length=6 weight=2")
         .replace("m=9", "m=10"), "block checksum", "have a common factor"),
        ("product_residue", small.replace("residue=0", "residue=5"), "block checksum",
         "the residue"),
        ("product_copies_zero", small.replace("copies=1 words", "copies=0 words"),
         "block explicit", "copies=0"),
        ("product_word_width", small.replace("word 1100", "word 110"), "word ",
         "has width 3, expected the block length 4"),
        # The right width but a character other than 0 and 1.
        ("product_word_character", small.replace("word 1100", "word 11x0"), "word ",
         "token has 'x' at coordinate 3, expected only '0' and '1'"),
        ("product_block_kind", small.replace("block checksum", "block lexicode"),
         "block lexicode", "expected 'block explicit"),
        ("product_too_few_blocks", small.replace("blocks 2", "blocks 3"), "sum ",
         "expected 'block' line 3 of the 3"),
        ("product_power_zero", small.replace("precision=64", "precision=64 power=0"),
         "rule trace", "power=0 is out of range 1..16"),
        ("product_block_two_fields", small.replace("block checksum length=5 weight=2 residue=0 "
                                                    "copies=1", "block checksum"),
         "block checksum", "too few fields: expected 'block checksum length=<L>"),
        ("product_sum_fraction", small.replace("\nsum ", "\nsum 1/"), "sum ",
         "trace-product rule's sum must be a decimal integer"),
        # No block at all: refused at the count, before the 'block' lines that follow.
        ("product_blocks_zero", small.replace("blocks 2", "blocks 0"), "blocks",
         "blocks 0: a product needs at least one block"),
        ("product_length_zero", small.replace("explicit length=4", "explicit length=0"),
         "block explicit", "length=0: a block has at least one coordinate"),
        ("product_checksum_weight_zero", small.replace("length=5 weight=2", "length=5 weight=0"),
         "block checksum", "weight=0 is out of range 1..4"),
        ("product_checksum_weight_length", small.replace("length=5 weight=2", "length=5 weight=5"),
         "block checksum", "weight=5 is out of range 1..4"),
        ("product_words_zero", small.replace("copies=1 words=1", "copies=1 words=0"),
         "block explicit", "words=0: a block needs at least one word"),
        # Two words declared on line 5, one given: the error names the declaring line.
        ("product_words_too_few", small.replace("copies=1 words=1", "copies=1 words=2"),
         "block checksum", "expected 'word' line 2 of the 2 declared on line 5"),
        # Two blocks follow a count of one.
        ("product_too_many_blocks", small.replace("blocks 2", "blocks 1"), "block checksum",
         "more 'block' lines than the 1 declared on line 4"),
        # A bare 'block' line (line 7; 'blocks' and 'block explicit' also start with 'block').
        ("product_block_bare", small.replace("block checksum length=5 weight=2 residue=0 copies=1",
                                             "block"), ("block", 3),
         "expected 'block explicit length=<L> copies=<C> words=<K>' or 'block checksum"),
        # The file ends after the first of the two declared blocks.
        ("product_truncated_in_blocks", small[:small.index("block checksum")], "word 1100",
         "unexpected end of file: expected 'block' line 2 of the 2 declared on line 4"),
    ]
    for name, text, prefix, message in cases:
        assert text != small, name
        write("malformed", name + ".cert", text)
        where = line_of(text, *prefix) if isinstance(prefix, tuple) else line_of(text, prefix)
        expect("malformed", name, name.replace("_", " "), where, message)
