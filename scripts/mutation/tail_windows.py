#!/usr/bin/env python3
"""The argument behind the equivalent mutants of geometric_tail (src/check/product_rule.cpp).

The checker looks for the first window (top ascending, then period p = 1..6, start
top - p - 5 >= 2) where six values R(top-5..top) are q times R(top-p-5..top-p), and then
sums the gaps beyond it as a geometric tail. Some mutants change how a window is accepted.
Their tail is harmless when every window they accept is a true one (R(g + p) = q R(g) for
all g >= start), or when they accept none (the sum is then taken gap by gap, the same
number). This script checks that, for every length n, by finite enumeration:
  * n = 3, 4, 5: R is geometric from a start s with a period P (s = 12, 6, 2; P = 5, 3, 3;
    ratio 4, 4, 6), so from top = s + 11 on every value a window reads lies beyond s, and
    shifting top by P scales both sides of every comparison, and q, by the same factor;
    a remainder is scaled too, so a nonzero one stays nonzero and one of 1 occurs at most
    once. Checking top up to s + 2 P + 12 covers all.
  * n >= 6: R(G) = a^(G/2) for even G, 2 a^((G-1)/2) for odd G >= 3 (a = n - 2 >= 4;
    asserted below for n <= 64), so R(j) / R(j - p) depends only on p and the parity of j,
    and comparisons repeat with period 2 from top = 13; a = 4 (n = 6) is the one length where
    both parities give the same ratio for odd p. Checking n = 6..64 to top = 20 covers each
    case of that form.
Prints one line per rule and exits 1 if any rule accepts a false window.
"""
import os
import sys

# R_n(G) from the corpus's independent reference (R(1) = 0: no chain).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tests", "check"))
from product_reference import amplification  # noqa: E402


def table(n, size):
    return [amplification(n, g) for g in range(size)]


def is_true(r, start, period, q):
    # Beyond the enumerated range the tail repeats (see above), so this range decides it.
    return start >= 2 and all(r[g + period] == q * r[g] for g in range(start, len(r) - period))


def search(r, top_limit, accept):
    """Every window the rule accepts, in the checker's order: (start, period, q)."""
    found = []
    for top in range(7, top_limit + 1):
        for period in range(1, 7):
            if top - period - 5 < 2:
                break
            hit = accept(r, top, period)
            if hit is not None:
                found.append(hit)
    return found


def window(r, top, period, q, low, high):
    return all(r[top - i] == q * r[top - period - i] for i in range(low, high + 1))


def divisible_rule(mode):
    def accept(r, top, period):
        before = r[top - period]
        remainder = r[top] % before
        skip = {"divisible": remainder != 0, "not divisible": remainder == 0,
                "remainder 1": remainder != 1, "no test": False}[mode]
        q = r[top] // before
        if skip or not window(r, top, period, q, 1, 5):
            return None
        return (top - period - 5, period, q)
    return accept


def unequal_rule(r, top, period):
    before = r[top - period]
    if r[top] % before != 0:
        return None
    q = r[top] // before
    for i in range(1, 6):  # the mutant's loop: goes on while the values differ
        if r[top - i] == q * r[top - period - i]:
            return None
    return (top - period - 5, period, q)


RULES = {
    "the checker (divisible, six values)": divisible_rule("divisible"),
    "Cproduct_rule-3931dd (no divisibility test, q rounded down)": divisible_rule("no test"),
    "Cproduct_rule-70367b (only non-divisible ratios)": divisible_rule("not divisible"),
    "Cproduct_rule-34dca4 (only remainder 1)": divisible_rule("remainder 1"),
    "Cproduct_rule-67ec95 (five values that all differ)": unequal_rule,
}


def main():
    cases = [(3, 12, 5), (4, 6, 3), (5, 2, 3)] + [(n, 2, 2) for n in range(6, 65)]
    failed = False
    for name, rule in RULES.items():
        accepted = false = 0
        for n, start, period in cases:
            top_limit = start + 2 * period + 12 if n < 6 else 20
            r = table(n, top_limit + 40)
            if n >= 6:
                a = n - 2
                assert all(r[g] == (a ** (g // 2) if g % 2 == 0 else 2 * a ** ((g - 1) // 2))
                           for g in range(2, len(r)))
            for hit in search(r, top_limit, rule):
                accepted += 1
                false += not is_true(r, *hit)
        verdict = "accepts only true windows" if false == 0 else "ACCEPTS %d FALSE" % false
        print("%-62s %4d accepted, %s" % (name, accepted, verdict))
        failed |= false > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
