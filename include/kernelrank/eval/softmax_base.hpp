// The smallest integer base B for which dense softmax (alpha = B^-<q,z>,
// F_q(z) = <q,z>; theory.md L5) solves the cube task T(m,n), with a certificate:
// a concrete failing instance for every smaller base and the exact maximum error
// (< 1/2) over all overlap profiles for B itself.
#pragma once

#include "kernelrank/eval/evaluate.hpp"

#include <optional>
#include <vector>

namespace kernelrank {

struct RefutedBase {
  int base = 0;
  InstanceOutcome failing;  // the instance with the largest error at this base
};

struct SoftmaxBaseResult {
  int m = 0;
  int n = 0;
  std::optional<int> base;           // nullopt: no base up to max_base works
  EvalReport report;                 // profile evaluation at `base` (or at max_base)
  std::vector<RefutedBase> refuted;  // bases 1..base-1
  bool brute_force_checked = false;  // brute force agreed with profiles at every base tried
};

// Tries B = 1, 2, ..., max_base. When T(m,n) has at most `brute_force_limit`
// instances, every base is also evaluated by brute force and the two methods
// must agree exactly (an InternalError otherwise).
SoftmaxBaseResult smallest_softmax_base(int m, int n, int max_base = 1000,
                                        std::uint64_t brute_force_limit = 1ULL << 20);

}  // namespace kernelrank
