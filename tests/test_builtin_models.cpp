// Built-in models: L1 (rank1-mean), L5 (softmax) and L6 (product) by brute force.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <doctest/doctest.h>

using namespace kernelrank;

TEST_CASE("builtin: L1 rank1-mean has zero error at n = 1 and 2 for every m <= 8") {
  for (int m = 1; m <= 8; ++m) {
    for (int n = 1; n <= 2; ++n) {
      const auto model = make_rank1_mean(m, n);
      const EvalReport report = evaluate_cube(*model, m, n, EvalOptions{});
      CAPTURE(m);
      CAPTURE(n);
      CHECK(report.instances == Integer(1) << (m * n));
      CHECK(report.solves());
      REQUIRE(report.max_error);
      CHECK(*report.max_error == 0);
    }
  }
}

TEST_CASE("builtin: rank1-mean fails at n = 3 with a concrete instance") {
  // Worked by hand: q = 11, keys 11, 00, 11. Kernel 1, readout (3s - |q|)/2:
  // (3*2-2)/2 = 2, (0-2)/2 = -1, 2; mean 1, target min(2,0,2) = 0, error 1.
  const auto model = make_rank1_mean(2, 3);
  Instance instance{{parse_token("11"), parse_token("00"), parse_token("11")}, 0};
  const InstanceOutcome outcome = evaluate_instance(*model, instance);
  CHECK(outcome.target == 0);
  REQUIRE(outcome.output);
  CHECK(*outcome.output == 1);
  CHECK(outcome.fails());
  for (int m = 2; m <= 6; ++m) {
    const EvalReport report = evaluate_cube(*make_rank1_mean(m, 3), m, 3, EvalOptions{});
    CHECK_FALSE(report.solves());
    REQUIRE_FALSE(report.failures.empty());
    // Every reported failure is a real failure when re-evaluated.
    CHECK(evaluate_instance(*make_rank1_mean(m, 3), report.failures.front().instance).fails());
  }
}

TEST_CASE("builtin: L5 softmax base 3 solves T(m,3) for every m <= 8 by brute force") {
  for (int m = 1; m <= 8; ++m) {
    const EvalReport report = evaluate_cube(*make_softmax(m, Rational(3)), m, 3, EvalOptions{});
    CAPTURE(m);
    CHECK(report.solves());
    // Worst case from theory.md: offsets 1 and 1 give (2/3)/(1 + 2/3) = 2/5 once m >= 1.
    CHECK(*report.max_error == Rational(2, 5));
  }
}

TEST_CASE("builtin: L5 softmax base 2 fails on a named instance") {
  // q = 01, keys 01 (self, overlap 1), 00 (overlap 0), 01 (overlap 1):
  // y = (1/2 + 0 + 1/2) / (1/2 + 1 + 1/2) = 1/2, target 0, error exactly 1/2.
  const auto model = make_softmax(2, Rational(2));
  Instance instance{{parse_token("01"), parse_token("00"), parse_token("01")}, 0};
  const InstanceOutcome outcome = evaluate_instance(*model, instance);
  CHECK(*outcome.output == Rational(1, 2));
  CHECK(*outcome.error == Rational(1, 2));
  CHECK(outcome.fails());
  for (int m = 2; m <= 8; ++m)
    CHECK_FALSE(evaluate_cube(*make_softmax(m, Rational(2)), m, 3, EvalOptions{}).solves());
}

TEST_CASE("builtin: L6 product features are nonnegative, give B^-<q,z> and rank 2^m") {
  for (int m = 1; m <= 6; ++m) {
    const Rational base = 3;
    const std::size_t size = std::size_t{1} << m;
    std::vector<std::vector<Rational>> kernel(size, std::vector<Rational>(size));
    for (std::size_t i = 0; i < size; ++i) {
      const Token q = Token::from_index(m, i);
      const auto f = product_query_features(q);
      REQUIRE(f.size() == size);
      for (const Rational& x : f) CHECK(x >= 0);
      for (std::size_t j = 0; j < size; ++j) {
        const Token z = Token::from_index(m, j);
        const auto g = product_key_features(z, base);
        for (const Rational& x : g) CHECK(x >= 0);
        Rational dot = 0;
        for (std::size_t k = 0; k < size; ++k) dot += f[k] * g[k];
        // Closed form computed independently of the features.
        Rational expected = 1;
        for (int s = 0; s < inner(q, z); ++s) expected /= 3;
        CHECK(dot == expected);
        kernel[i][j] = dot;
      }
    }
    CHECK(exact_rank(kernel) == size);
    const auto model = make_product(m, base);
    CHECK(model->classify().model_class == ModelClass::PositiveFeatures);
    CHECK(*model->feature_count() == static_cast<int>(size));
    const EvalReport report = evaluate_cube(*model, m, 3, EvalOptions{});
    CHECK(report.solves());
  }
}

TEST_CASE("builtin: parameters are validated") {
  CHECK_THROWS_AS(make_builtin_model("softmax", 4, {}), UsageError);
  CHECK_THROWS_AS(make_builtin_model("softmax", 4, {{"base", "0"}}), UsageError);
  CHECK_THROWS_AS(make_builtin_model("softmax", 4, {{"base", "x"}}), UsageError);
  CHECK_THROWS_AS(make_builtin_model("softmax", 4, {{"base", "3"}, {"beta", "1"}}), UsageError);
  CHECK_THROWS_AS(make_builtin_model("rank1-mean", 4, {{"n", "3x"}}), UsageError);
  CHECK_THROWS_AS(make_builtin_model("rank2", 4, {}), UsageError);
  CHECK_THROWS_AS(make_product(kMaxProductWidth + 1, Rational(3)), ResourceError);
  CHECK(make_builtin_model("softmax", 4, {{"base", "5/2"}})
            ->kernel(parse_token("1100"), parse_token("1110"), 0, 0) == Rational(4, 25));
  CHECK_THROWS_AS(
      make_softmax(4, Rational(3))->kernel(parse_token("110"), parse_token("1100"), 0, 0),
      ModelDomainError);
}

// Found by fuzz_model_text (UBSan): the readout computed n * overlap in int.
TEST_CASE("builtin: rank1-mean readout is exact for a huge n") {
  const auto model = make_builtin_model("rank1-mean", 4, {{"n", "2000000000"}});
  // (n <q,z> - |q|) / (n - 1) with <q,z> = 4, |q| = 4: (8e9 - 4) / 1999999999 = 4.
  CHECK(model->readout(parse_token("1111"), parse_token("1111"), 0, 0) == 4);
  CHECK(model->readout(parse_token("1111"), parse_token("1000"), 0, 0) ==
        Rational(1999999996, 1999999999));
}

// Found by fuzz_model_text (a 31-second kernel value): a 9-character base whose powers
// up to m would be hundreds of megabytes is refused up front.
TEST_CASE("builtin: bases too long for exact powers up to m are refused") {
  CHECK_THROWS_AS(make_builtin_model("softmax", 4096, {{"base", "1e100000"}}), ResourceError);
  // 10^100000 has about 332,000 bits; 13 of them exceed the 2^22-bit limit, 12 do not.
  CHECK_THROWS_AS(make_builtin_model("product", 13, {{"base", "1e100000"}}), ResourceError);
  CHECK(make_builtin_model("product", 12, {{"base", "1e100000"}})->width() == 12);
  // An exponent beyond the parser's limit is refused before any power is formed.
  CHECK_THROWS_AS(make_builtin_model("product", 4, {{"base", "1e400000"}}), UsageError);
  CHECK(make_builtin_model("softmax", 4096, {{"base", "3"}})->width() == 4096);
  CHECK(make_builtin_model("softmax", 24, {{"base", "1e1000"}})->width() == 24);
}
