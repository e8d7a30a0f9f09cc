// Counterexamples: proof-guided for models below the bound, exhaustive otherwise;
// every reported instance is confirmed here by the naive oracles (tests/oracle/), which
// evaluate it from the definition without the library's evaluator.
#include "kernelrank/bounds/counterexample.hpp"
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/bounds/witness.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_forms.hpp"

#include "oracle/naive_model.hpp"
#include "oracle/naive_parametric.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace kernelrank;

namespace {

std::vector<Token> cube(int m) {
  std::vector<Token> t;
  for (std::uint64_t i = 0; i < (1ULL << m); ++i) t.push_back(Token::from_index(m, i));
  return t;
}

// A random rank-r tabular model on the whole cube: kernel U V^T, with U, V >= 0
// (PF) or with signed U and V shifted until the kernel is >= 0 (NK, signed
// features); random readout.
TabularModel random_tabular(int m, int r, bool positive_features, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<Token> tokens = cube(m);
  const std::size_t T = tokens.size();
  RationalMatrix U(T, RationalVector(static_cast<std::size_t>(r))), V = U;
  for (auto* M : {&U, &V})
    for (auto& row : *M)
      for (auto& x : row)
        x = positive_features ? Rational(static_cast<long>(rng() % 5))
                              : Rational(static_cast<long>(rng() % 7) - 3);
  RationalMatrix kernel(T, RationalVector(T)), readout(T, RationalVector(T));
  Rational lowest = 0;
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j) {
      for (int k = 0; k < r; ++k)
        kernel[i][j] += U[i][static_cast<std::size_t>(k)] * V[j][static_cast<std::size_t>(k)];
      lowest = std::min(lowest, kernel[i][j]);
      readout[i][j] = Rational(static_cast<long>(rng() % (2 * static_cast<unsigned>(m) + 1)), 2);
    }
  // Signed features: add a constant feature pair (1, -lowest) so alpha >= 0; rank <= r + 1.
  for (auto& row : kernel)
    for (auto& x : row) x -= lowest;
  return TabularModel(m, tokens, kernel, readout);
}

// The reported instance fails under the naive oracle's own evaluation, with the same output.
void confirm_outcome(const oracle::NaiveOutcome& again, const Counterexample& c) {
  CHECK(again.fails);
  CHECK(again.output == c.failing->output);
  CHECK(again.target == c.failing->target);
}
// Tables: straight from the kernel and readout tables.
void confirm(const TabularModel& model, const Counterexample& c) {
  REQUIRE(c.failing);
  confirm_outcome(oracle::naive_table_outcome(model, c.failing->instance), c);
}
// Parametric heads: from their maps, by the parametric oracle (not ParametricModel).
void confirm(const std::vector<ParametricMaps>& maps, FeatureMap act, const Counterexample& c) {
  REQUIRE(c.failing);
  confirm_outcome(oracle::naive_evaluate(maps, act, c.failing->instance), c);
}
// Built-ins: their kernel() and readout() are their definition.
void confirm(const Model& model, const Counterexample& c) {
  REQUIRE(c.failing);
  confirm_outcome(oracle::naive_model_outcome(model, c.failing->instance), c);
}

}  // namespace

TEST_CASE("counterexample: random low-rank NK and PF tables on small cubes") {
  int proof_guided = 0;
  for (int m : {4, 5, 6}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      for (bool pf : {true, false}) {
        const TabularModel model =
            random_tabular(m, 1, pf, seed * 31 + static_cast<std::uint64_t>(m));
        const Counterexample c = find_counterexample(model, CounterexampleOptions{3});
        CAPTURE(m);
        CAPTURE(seed);
        CAPTURE(pf);
        confirm(model, c);
        if (c.path == CounterexamplePath::ProofGuided) ++proof_guided;
      }
    }
  }
  CHECK(proof_guided > 0);
}

TEST_CASE("counterexample: parametric relu models at m = 24 below the bound, proof-guided only") {
  // T(24,3) has 2^72 instances: only the proof-guided path can answer. With r
  // features below the witness bound (14), some ratio of the construction rows
  // must fail; the instance found is checked here by exact evaluation.
  const int m = 24;
  for (int r : {1, 3, 6}) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      std::mt19937_64 rng(seed * 100 + static_cast<std::uint64_t>(r));
      auto affine = [&](int rows) {
        AffineMap map;
        map.weight.assign(static_cast<std::size_t>(rows), RationalVector(m));
        map.bias.assign(static_cast<std::size_t>(rows), Rational(0));
        for (auto& row : map.weight)
          for (auto& x : row) x = Rational(static_cast<long>(rng() % 7) - 3, 2);
        for (auto& b : map.bias) b = Rational(static_cast<long>(rng() % 5));
        return map;
      };
      ParametricMaps maps{affine(r), affine(r), affine(1), affine(1), affine(1)};
      const ParametricModel model(m, FeatureMap::Relu, {maps}, false);
      const Counterexample c = find_counterexample(model, CounterexampleOptions{3});
      CAPTURE(r);
      CAPTURE(seed);
      CHECK(c.path == CounterexamplePath::ProofGuided);
      confirm({maps}, FeatureMap::Relu, c);
      CHECK(c.kernel_entries < 100'000);  // O(N^2) entries, not the cube
    }
  }
}

TEST_CASE("counterexample: softmax base 3 solves, so none exists") {
  const auto model = make_softmax(6, Rational(3));
  const Counterexample c = find_counterexample(*model, CounterexampleOptions{3});
  CHECK_FALSE(c.failing);
  CHECK(c.exhaustive_solves);
  // On a witness family too.
  WitnessOptions options;
  const Witness w = build_witness(lexicode(12, 6, 8).words, options);
  const auto softmax12 = make_softmax(12, Rational(3));
  const Counterexample on_family =
      find_counterexample(*softmax12, w.family, CounterexampleOptions{3});
  CHECK_FALSE(on_family.failing);
  CHECK(on_family.exhaustive_solves);
}

TEST_CASE("counterexample: family path finds the failing step instance") {
  WitnessOptions options;
  const Witness w = build_witness(lexicode(12, 6, 8).words, options);
  const auto model = make_rank1_mean(12, 3);
  const Counterexample c = find_counterexample(*model, w.family, CounterexampleOptions{3});
  CHECK(c.path == CounterexamplePath::ProofGuided);
  confirm(*model, c);
}

TEST_CASE("counterexample: a signed model falls back to exhaustive search and says so") {
  // A kernel with a negative entry on the cube {0,1}^2.
  const std::vector<Token> tokens = cube(2);
  RationalMatrix kernel(4, RationalVector(4, Rational(1))),
      readout(4, RationalVector(4, Rational(0)));
  kernel[3][0] = -1;
  const TabularModel model(2, tokens, kernel, readout);
  const Counterexample c = find_counterexample(model, CounterexampleOptions{3});
  CHECK(c.path == CounterexamplePath::Exhaustive);
  CHECK(c.fallback_reason.find("the model is signed") != std::string::npos);
  CHECK(c.fallback_reason.find("L2 needs a nonnegative kernel") != std::string::npos);
  confirm(model, c);
}

TEST_CASE("counterexample: zero denominators count as failures") {
  // Kernel 0 everywhere: every output is undefined.
  const std::vector<Token> tokens = cube(2);
  RationalMatrix zero(4, RationalVector(4, Rational(0)));
  const TabularModel model(2, tokens, zero, zero);
  const Counterexample c = find_counterexample(model, CounterexampleOptions{3});
  REQUIRE(c.failing);
  CHECK_FALSE(c.failing->output.has_value());
  CHECK(c.failing->fails());
  confirm(model, c);
  CHECK_FALSE(oracle::naive_table_outcome(model, c.failing->instance).output.has_value());
}
