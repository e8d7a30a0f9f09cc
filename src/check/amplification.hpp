// The amplification factor R_N(G) of theory.md L3.
//
// A step of gap g >= 2 (query q, <q,b> - <q,a> = g) proves alpha(q,a) > (N-2)(g-1) alpha(q,b)
// (L2 with S3 = (q, a, b^(N-2))); a chain of steps multiplies the factors. R_N(G) is the
// best product over all ways to write a total gap G as a sum of parts >= 2:
//   R(0) = 1,  R(1): no chain,  R(G) = max over g = 2..G with G-g != 1 of (N-2)(g-1) R(G-g).
// The table is exact (GMP integers) and grows on demand, so a certificate pays only for
// the largest gap it uses.
#pragma once

#include <deque>

#include "check/bignum.hpp"

namespace krcheck {

class AmplificationTable {
 public:
  explicit AmplificationTable(int length);  // length N >= 3

  // R_N(gap); `gap` must be 0 or at least 2. The reference stays valid as the table grows.
  const BigInt& factor(int gap);
  // R_N(gap)^2, cached because the trace rule needs it per column.
  const BigInt& factor_squared(int gap);

 private:
  void extend_to(int gap);

  // Deques, not vectors: growing them keeps earlier references valid, so an expression
  // like factor(g + 1) > factor(g) is safe whatever order the calls run in.
  int length_;
  std::deque<BigInt> best_;  // best_[G] = R_N(G); 0 marks "no chain" (G = 1)
  std::deque<BigInt> squared_;
};

}  // namespace krcheck
