// The tabulated fast path (64/128-bit integers, GMP fallback) against a naive
// rational loop written here, on random models with awkward entries.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <doctest/doctest.h>

#include <map>
#include <random>

using namespace kernelrank;

namespace {

// A model defined by explicit maps, independent of the library's model forms.
class MapModel : public Model {
 public:
  MapModel(int m, std::vector<Token> universe, bool position_dependent, int n)
      : m_(m), universe_(std::move(universe)), position_dependent_(position_dependent), n_(n) {}
  std::string description() const override { return "test map model"; }
  int width() const override { return m_; }
  bool position_dependent() const override { return position_dependent_; }
  Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const override {
    return kernel_.at(key(q, z, qpos, kpos));
  }
  Rational readout(const Token& q, const Token& z, int qpos, int kpos) const override {
    return readout_.at(key(q, z, qpos, kpos));
  }
  const std::vector<Token>* token_universe() const override { return &universe_; }
  Classification classify() const override { return {}; }

  std::string key(const Token& q, const Token& z, int qpos, int kpos) const {
    std::string k = q.to_string() + "|" + z.to_string();
    if (position_dependent_) k += "|" + std::to_string(qpos) + "|" + std::to_string(kpos);
    return k;
  }
  std::map<std::string, Rational> kernel_, readout_;
  int m_;
  std::vector<Token> universe_;
  bool position_dependent_;
  int n_;
};

Rational random_entry(std::mt19937_64& rng, int style) {
  const long num = static_cast<long>(rng() % 21) - 5;  // some negatives and zeros
  const long den = static_cast<long>(1 + rng() % 12);
  Rational value(num, den);
  if (style == 1 && rng() % 3 == 0) {
    // Huge magnitudes force the GMP fallback for this row.
    Integer big = 1;
    big <<= 80;
    value *= big;
  }
  if (style == 2) value = Rational(static_cast<long>(rng() % 4), 1);  // many zero denominators
  return value;
}

std::unique_ptr<MapModel> random_model(std::mt19937_64& rng, int m,
                                       const std::vector<Token>& universe, bool position_dependent,
                                       int n, int style) {
  auto model = std::make_unique<MapModel>(m, universe, position_dependent, n);
  const int blocks = position_dependent ? n : 1;
  for (const Token& q : universe)
    for (const Token& z : universe)
      for (int a = 0; a < blocks; ++a)
        for (int b = 0; b < blocks; ++b) {
          model->kernel_[model->key(q, z, a, b)] = random_entry(rng, style);
          model->readout_[model->key(q, z, a, b)] = random_entry(rng, 0);
        }
  return model;
}

struct Naive {
  Integer instances = 0, failing = 0, undefined = 0;
  std::optional<Rational> max_error;
};

// Direct transcription of theory.md §2 over every sequence and query.
Naive naive_evaluate(const Model& model, const std::vector<Token>& universe, int n,
                     QueryMode mode) {
  Naive result;
  std::vector<std::size_t> idx(static_cast<std::size_t>(n), 0);
  while (true) {
    for (int qp : query_positions(mode, n)) {
      const Token& q = universe[idx[static_cast<std::size_t>(qp)]];
      Rational den = 0, num = 0;
      int target = 1 << 30;
      for (int j = 0; j < n; ++j) {
        const Token& z = universe[idx[static_cast<std::size_t>(j)]];
        const Rational a = model.kernel(q, z, qp, j);
        den += a;
        num += a * model.readout(q, z, qp, j);
        target = std::min(target, inner(q, z));
      }
      result.instances += 1;
      if (den == 0) {
        result.failing += 1;
        result.undefined += 1;
        continue;
      }
      Rational error = num / den - target;
      if (error < 0) error = -error;
      if (error >= Rational(1, 2)) result.failing += 1;
      if (!result.max_error || error > *result.max_error) result.max_error = error;
    }
    int p = n - 1;
    while (p >= 0 && idx[static_cast<std::size_t>(p)] + 1 == universe.size())
      idx[static_cast<std::size_t>(p--)] = 0;
    if (p < 0) break;
    ++idx[static_cast<std::size_t>(p)];
  }
  return result;
}

}  // namespace

TEST_CASE("evaluate: fast path equals a naive rational loop on random models") {
  std::mt19937_64 rng(2026);
  int trials = 0;
  for (int style = 0; style <= 2; ++style) {
    for (bool position_dependent : {false, true}) {
      for (int n = 1; n <= 3; ++n) {
        for (QueryMode mode : {QueryMode::First, QueryMode::Last, QueryMode::All}) {
          const int m = 2 + static_cast<int>(rng() % 2);
          std::vector<Token> universe;
          for (int i = 0; i < 3 + static_cast<int>(rng() % 2); ++i)
            universe.push_back(Token::from_index(m, rng() % (1U << m)));
          std::sort(universe.begin(), universe.end());
          universe.erase(std::unique(universe.begin(), universe.end()), universe.end());
          auto model = random_model(rng, m, universe, position_dependent, n, style);
          EvalOptions options;
          options.mode = mode;
          options.max_failures = 5;
          const EvalReport fast = evaluate_token_set(*model, universe, n, options);
          const Naive naive = naive_evaluate(*model, universe, n, mode);
          CAPTURE(style);
          CAPTURE(position_dependent);
          CAPTURE(n);
          CHECK(fast.instances == naive.instances);
          CHECK(fast.failing == naive.failing);
          CHECK(fast.undefined == naive.undefined);
          CHECK(fast.max_error == naive.max_error);
          for (const InstanceOutcome& f : fast.failures) CHECK(f.fails());
          if (fast.max_error) {
            REQUIRE(fast.worst);
            CHECK(*fast.worst->error == *fast.max_error);
          }
          ++trials;
        }
      }
    }
  }
  CHECK(trials == 54);
}

TEST_CASE("evaluate: family evaluation reports exact outputs worked by hand") {
  // alpha = 1 everywhere, F_q(z) = <q,z>: y is the mean overlap.
  std::vector<Token> universe{parse_token("00"), parse_token("01"), parse_token("10"),
                              parse_token("11")};
  MapModel model(2, universe, false, 3);
  for (const Token& q : universe)
    for (const Token& z : universe) {
      model.kernel_[model.key(q, z, 0, 0)] = 1;
      model.readout_[model.key(q, z, 0, 0)] = inner(q, z);
    }
  Family family{2, 3, {}};
  family.instances.push_back(
      {{parse_token("11"), parse_token("01"), parse_token("10")}, 0});  // (2+1+1)/3, t=1
  family.instances.push_back(
      {{parse_token("11"), parse_token("00"), parse_token("11")}, 0});  // (2+0+2)/3, t=0
  const EvalReport report = evaluate_family(model, family, EvalOptions{});
  CHECK(report.instances == 2);
  CHECK(report.failing == 1);
  CHECK(*report.max_error == Rational(4, 3));
  REQUIRE(report.failures.size() == 1);
  CHECK(*report.failures[0].output == Rational(4, 3));
  CHECK(report.failures[0].target == 0);
  CHECK(report.error_rate() == Rational(1, 2));
  Family wrong_width{3, 3, {}};
  CHECK_THROWS_AS(evaluate_family(model, wrong_width, EvalOptions{}), UsageError);
}

TEST_CASE("evaluate: the cube needs the model on every token") {
  std::vector<Token> universe{parse_token("00"), parse_token("01")};
  MapModel model(2, universe, false, 3);
  CHECK_THROWS_AS(evaluate_cube(model, 2, 3, EvalOptions{}), UsageError);
}
