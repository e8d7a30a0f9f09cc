"""Rule shifted-trace (format 3): the corpus cases, computed here in plain Python.

The witness family of instances/witness-m24.family and the chains of the shipped
certificate instances/witness-m24.cert (steps, rows, pairs: whatever rule that file states)
are read as text; every step factor f = (n-1-k)(g-1)/k, every rho_ij (the product along a
pair's chain), e_ij = max(t, 1/rho_ij - t), C_j, the floored terms
floor(2^P (1-t)^2 / ((1-t)^2 + C_j)), their sum S and the bound ceil(S / 2^P) - 1 are
recomputed with fractions.Fraction. The lemma (docs/bounds.md, "A sharper rank inequality")
gives T_W = 243/13 at t = 1/10 for this family: r >= 18, where the trace rule gives 14.
"""
import os
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
PRECISION = 64


def ov(x, z):
    return sum(1 for a, b in zip(x, z) if a == "1" and b == "1")


def read_chains(path):
    """(task line, steps [(pos, q, a, b, k)], rows [(own, query)], pairs [(i, j, [ids])])."""
    task, steps, rows, pairs = None, [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "task":
                task = line.strip()
            elif words[0] == "step":
                fields = dict(w.split("=", 1) for w in words[2:])
                steps.append((int(fields["pos"]), fields["q"], fields["a"], fields["b"],
                              int(fields["k"])))
            elif words[0] == "row":
                rows.append((words[1], words[2]))
            elif words[0] == "pair":
                pairs.append((int(words[1]), int(words[2]), [int(s) for s in words[4:]]))
    return task, steps, rows, pairs


def rho_of(steps, chain, n):
    r = Fraction(1)
    for sid in chain:
        _, q, a, b, k = steps[sid - 1]
        r *= Fraction((n - 1 - k) * (ov(q, b) - ov(q, a) - 1), k)
    return r


def shifted_sum(rows, pairs, rhos, t, precision=PRECISION):
    columns = [Fraction(0)] * len(rows)
    for (i, j, _), rho in zip(pairs, rhos):
        e = max(t, 1 / rho - t)
        columns[j - 1] += e * e
    d = (1 - t) ** 2
    return sum((2 ** precision * d.numerator * (d + c).denominator) //
               (d.denominator * (d + c).numerator) for c in columns)


def shifted_value(rows, pairs, rhos, t):
    """T_W exactly (no rounding)."""
    columns = [Fraction(0)] * len(rows)
    for (i, j, _), rho in zip(pairs, rhos):
        e = max(t, 1 / rho - t)
        columns[j - 1] += e * e
    d = (1 - t) ** 2
    return sum(d / (d + c) for c in columns)


def shifted_bound(S, precision=PRECISION):
    scale = 2 ** precision
    return -(-S // scale) - 1


def text(task, steps, rows, pairs, rule, S, K, header="kernelrank-certificate 3"):
    lines = [header, task, "construction the witness family's chains (tests/check/shifted_reference.py)",
             rule, "steps %d" % len(steps)]
    for sid, (pos, q, a, b, k) in enumerate(steps, start=1):
        lines.append("step %d pos=%d q=%s a=%s b=%s k=%d" % (sid, pos, q, a, b, k))
    lines.append("rows %d" % len(rows))
    lines += ["row %s %s" % r for r in rows]
    lines.append("pairs %d" % len(pairs))
    for i, j, chain in pairs:
        lines.append("pair %d %d : %s" % (i, j, " ".join(map(str, chain))))
    lines += ["sum %d" % S, "claim r >= %d" % K, "end"]
    return "\n".join(lines) + "\n"


def write_corpus(write, expect, line_of):
    task, steps, rows, pairs = read_chains(os.path.join(ROOT, "instances", "witness-m24.cert"))
    with open(os.path.join(ROOT, "instances", "witness-m24.family"), encoding="utf-8") as f:
        family = f.read()
    n = int(task.split("n=")[1].split()[0])
    rhos = [rho_of(steps, chain, n) for _, _, chain in pairs]
    assert sorted(set(rhos)) == [5, 9] and rhos.count(5) == 488 and rhos.count(9) == 64
    tenth = Fraction(1, 10)
    assert shifted_value(rows, pairs, rhos, tenth) == Fraction(243, 13)
    S = shifted_sum(rows, pairs, rhos, tenth)
    K = shifted_bound(S)
    assert K == 18
    rule = "rule shifted-trace precision=64 shift=1/10"

    def case(folder, name, cert):
        write(folder, name + ".cert", cert)
        write(folder, name + ".family", family)

    good = text(task, steps, rows, pairs, rule, S, K)
    case("valid", "shifted_witness_m24", good)
    # t = 1/20: 1/5 - t = 3/20 > t, so e_ij = 1/rho_ij - t on the rho = 5 pairs.
    twentieth = Fraction(1, 20)
    S20 = shifted_sum(rows, pairs, rhos, twentieth)
    assert max(twentieth, Fraction(1, 5) - twentieth) == Fraction(3, 20)
    case("valid", "shifted_witness_m24_t20",
         text(task, steps, rows, pairs, "rule shifted-trace precision=64 shift=1/20", S20,
              shifted_bound(S20)))
    # Precision 0: each term floor((1-t)^2 / ((1-t)^2 + C_j)) is 0, so S = 0 and the rule
    # gives only r >= ceil(0) - 1 = -1: even the claim r >= 0 is too strong.
    assert shifted_sum(rows, pairs, rhos, tenth, 0) == 0
    zero = text(task, steps, rows, pairs, "rule shifted-trace precision=0 shift=1/10", 0, 0)
    case("invalid", "shifted_precision_0", zero)
    expect("invalid", "shifted_precision_0", "shifted trace at precision 0: S = 0, r >= -1",
           line_of(zero, "claim"), "is stronger than the bound r >= -1")
    strong = text(task, steps, rows, pairs, rule, S, K + 1)
    case("invalid", "shifted_claim_plus_one", strong)
    expect("invalid", "shifted_claim_plus_one", "shifted trace: claim one above ceil(T_W) - 1 = 18",
           line_of(strong, "claim"), "is stronger than the bound r >= 18")
    wrong = text(task, steps, rows, pairs, rule, S + 1, K)
    case("invalid", "shifted_sum_plus_one", wrong)
    expect("invalid", "shifted_sum_plus_one", "shifted trace: the stated sum one too large",
           line_of(wrong, "sum"), "differs from the recomputed sum %d" % S)
    # The trace rule's sum stated for the shifted rule (the checker must use e_ij, not 1/rho).
    trace_columns = [Fraction(0)] * len(rows)
    for (i, j, _), rho in zip(pairs, rhos):
        trace_columns[j - 1] += 1 / rho ** 2
    trace_S = sum((2 ** PRECISION * (1 + c).denominator) // (1 + c).numerator for c in trace_columns)
    as_trace = text(task, steps, rows, pairs, rule, trace_S, 13)
    case("invalid", "shifted_trace_sum", as_trace)
    expect("invalid", "shifted_trace_sum", "shifted trace: the plain trace rule's sum",
           line_of(as_trace, "sum"), "differs from the recomputed sum %d" % S)
    def malformed(name, cert, tests, prefix, message, occurrence=1):
        write("malformed", name + ".cert", cert)  # refused before the family is read
        expect("malformed", name, tests, line_of(cert, prefix, occurrence), message)

    malformed("shifted_header_1", good.replace("kernelrank-certificate 3", "kernelrank-certificate 1"),
              "rule shifted-trace under header 1", "rule ",
              "rule shifted-trace needs certificate format 3, but the header on line 1 says 1")
    malformed("shifted_header_2", good.replace("kernelrank-certificate 3", "kernelrank-certificate 2"),
              "rule shifted-trace under header 2", "rule ",
              "rule shifted-trace needs certificate format 3, but the header on line 1 says 2")
    dependent = good.replace("positions=independent", "positions=dependent")
    malformed("shifted_dependent_positions", dependent, "shifted trace with positions=dependent",
              "rule ", "is proved for position-independent maps only")
    for name, shift, message in [
            ("shifted_shift_zero", "0/1", "shift=0/1 is not strictly between 0 and 1"),
            ("shifted_shift_one", "1/1", "shift=1/1 is not strictly between 0 and 1"),
            ("shifted_shift_above_one", "3/2", "shift=3/2 is not strictly between 0 and 1"),
            ("shifted_shift_not_lowest", "2/20", "shift=2/20 is not in lowest terms"),
            ("shifted_shift_decimal", "0.1", "shift=0.1: expected a fraction p/q with 0 < p < q"),
            ("shifted_shift_integer", "1", "shift=1: expected a fraction p/q with 0 < p < q"),
            ("shifted_shift_no_denominator", "1/", "shift=1/: expected a fraction p/q"),
            ("shifted_shift_signed", "-1/10", "shift=-1/10: expected a fraction p/q")]:
        malformed(name, good.replace("shift=1/10", "shift=" + shift), "shift=" + shift, "rule ",
                  message)
    wide = good.replace("task family m=24 ", "task family m=4097 ", 1)
    malformed("shifted_width_4097", wide, "m=4097 under the shifted rule (tokens are listed)",
              "rule ", "rule shifted-trace lists tokens, so m must be at most 4096")
    # m = 4096 passes the width check of the rule line; the first step's tokens then fail.
    edge = good.replace("task family m=24 ", "task family m=4096 ", 1)
    malformed("shifted_width_4096", edge, "m=4096 is allowed: the first step's width fails",
              "step 1 ", "token '%s' has width 24, expected m=4096" % steps[0][1])
    malformed("shifted_missing_shift", good.replace(" shift=1/10", ""), "no shift= field",
              "rule ", "rule shifted-trace precision=<P> shift=<p/q>")
    malformed("shifted_fraction_sum", good.replace("sum %d" % S, "sum 1/2"),
              "a fraction as the shifted rule's sum", "sum ",
              "the shifted-trace rule's sum must be a decimal integer")
    cube = ("kernelrank-certificate 3\ntask cube m=4 n=3 mode=first class=NK positions=independent\n"
            "rule shifted-trace precision=64 shift=1/10\nrows 2\nrow 1100 0011\nrow 0011 1100\n"
            "sum 0\nclaim r >= 0\nend\n")
    write("malformed", "shifted_cube_task.cert", cube)
    expect("malformed", "shifted_cube_task", "rule shifted-trace on a cube task", 3,
           "rule shifted-trace is for family tasks only")
