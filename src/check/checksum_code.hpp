// The pair polynomial of a Graham-Sloane checksum class, from its closed form.
//
// GS(L, W, a) is the set of weight-W words of length L whose positions (0-based) sum to
// a modulo L. Two distinct words of one class differ in at least 4 coordinates: words at
// distance 2 are c and c - e_i + e_j with i != j, whose position sums differ by j - i, which
// is not 0 modulo L since 0 < |j - i| < L. So every distinct pair has gap
// G = W - |c AND d| >= 2 (complement queries), with no pair to enumerate.
//
// The checker needs, for every gap k = 0..W, the number of ordered pairs (c, d) of the class
// with |c AND d| = W - k. With gcd(W, L) = 1 the shift i -> i + 1 (mod L) maps class a onto
// class a + W, so all L classes are images of each other and have the same counts; the
// count of one class is then 1/L of the count over all pairs with equal position sums.
// Writing c = A + B, d = A + C (A the common part, |B| = |C| = k, disjoint):
//   pairs(k) = C(L - 2k, W - k) * S(k) / L,
//   S(k) = #{disjoint k-sets B, C : sum(B) = sum(C) mod L}
//        = (1/L) sum_{d | L} phi(L/d) [y^k z^k] (prod_{zeta^e = 1} (1 + y zeta + z/zeta))^d,
// e = L/d, by a sum over the L-th roots of unity (the t-th power has order e = L/gcd(t, L)
// and takes every e-th root d times). The product over the e-th roots is
//   sigma y^e + sigma z^e + lambda_e(yz),  sigma = (-1)^(e+1),  lambda_e = (-1)^e p_e,
// with p_e = u^e + v^e for the roots u, v of X^2 + X + s (p_0 = 2, p_1 = -1,
// p_i = -p_(i-1) - s p_(i-2)), so the coefficient of y^k z^k in its d-th power is
//   sum_a C(d, 2a) C(2a, a) [s^(k - e a)] lambda_e(s)^(d - 2a).
// The derivation, in full, is docs/bounds.md "Graham-Sloane checksum classes". Every
// division above must be exact; the code checks that it is (a failure would be a bug).
#pragma once

#include <vector>

#include "check/bignum.hpp"

namespace krcheck {

// counts[k], k = 0..weight: ordered pairs of GS(length, weight, a) (any a) at gap k.
// Requires 1 <= weight <= length - 1 and gcd(weight, length) = 1.
std::vector<BigInt> checksum_pair_counts(int length, int weight);

}  // namespace krcheck
