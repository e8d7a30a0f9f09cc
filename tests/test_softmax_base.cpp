// The smallest softmax base (theory.md L5) and its certificate.
#include "kernelrank/eval/softmax_base.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include "oracle/naive_model.hpp"

#include <doctest/doctest.h>

using namespace kernelrank;

TEST_CASE("softmax-base: smallest base by n, with failing instances below it") {
  // Hand analysis: with all n-1 other overlaps one above the target,
  // y - t = ((n-1)/B) / (1 + (n-1)/B) = (n-1)/(B+n-1) >= 1/2 iff B <= n-1, so
  // B >= n is necessary once m >= 1. n = 1: B = 1 is exact (y = |q|).
  // n = 2: error a 2^-a / (1 + 2^-a) <= 2/5 for B = 2. n = 3: theory.md says 3.
  struct Expect {
    int m, n, base;
  };
  for (const Expect e : {Expect{3, 1, 1}, Expect{4, 2, 2}, Expect{2, 3, 3}, Expect{6, 3, 3},
                         Expect{24, 3, 3}, Expect{100, 3, 3}}) {
    const SoftmaxBaseResult r = smallest_softmax_base(e.m, e.n);
    CAPTURE(e.m);
    CAPTURE(e.n);
    REQUIRE(r.base);
    CHECK(*r.base == e.base);
    CHECK(r.refuted.size() == static_cast<std::size_t>(e.base - 1));
    CHECK(r.report.solves());
    CHECK(*r.report.max_error < Rational(1, 2));
    // Each refutation is a real failure, re-checked by the naive oracle from the softmax
    // kernel and readout (not by the library's evaluator), with the same output.
    for (const RefutedBase& refuted : r.refuted) {
      const auto model = make_softmax(e.m, Rational(refuted.base));
      const oracle::NaiveOutcome again =
          oracle::naive_model_outcome(*model, refuted.failing.instance);
      CHECK(again.fails);
      CHECK(again.output == refuted.failing.output);
    }
    // Where the cube is small, the naive oracle sweeps it: the chosen base solves with the
    // reported maximum error, and the base below it fails somewhere.
    if (e.m * e.n <= 12) {
      const auto chosen = make_softmax(e.m, Rational(e.base));
      const oracle::NaiveSweep sweep = oracle::naive_cube_sweep(
          e.m, e.n,
          [&](const Instance& instance) { return oracle::naive_model_outcome(*chosen, instance); });
      CHECK(sweep.solves());
      CHECK(sweep.max_error == r.report.max_error);
      if (e.base > 1) {
        const auto below = make_softmax(e.m, Rational(e.base - 1));
        CHECK_FALSE(oracle::naive_cube_sweep(e.m, e.n, [&](const Instance& instance) {
                      return oracle::naive_model_outcome(*below, instance);
                    }).solves());
      }
    }
  }
  // n = 4: the necessary condition gives B >= 4; the search must not go below.
  const SoftmaxBaseResult r4 = smallest_softmax_base(3, 4);
  REQUIRE(r4.base);
  CHECK(*r4.base >= 4);
  CHECK(r4.brute_force_checked);
}

TEST_CASE("softmax-base: no base found within the limit is reported") {
  const SoftmaxBaseResult r = smallest_softmax_base(4, 3, 2);
  CHECK_FALSE(r.base);
  CHECK(r.refuted.size() == 2);
}
