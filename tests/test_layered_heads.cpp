// Layered heads (models/layered_head.hpp), the exact LP under them (core/exact_lp.hpp,
// bounds/layered_lp.hpp) and the layer-set search (bounds/layered_search.hpp).
//
// Independent paths are compared: the incremental simplex against a fresh solve and against
// the constraints themselves; the profile evaluator against brute force over the cube on the
// head and on its explicit feature expansion; the branch and bound against the exhaustive
// list of all layer sets; the reader against hand-made bad files.
#include "kernelrank/bounds/layered_lp.hpp"
#include "kernelrank/bounds/layered_search.hpp"
#include "kernelrank/core/binomial.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_lp.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/layered_head.hpp"
#include "kernelrank/models/model_io.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

// SplitMix64, so that the random LPs are the same everywhere.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

int small_int(std::uint64_t& state, int lo, int hi) {
  return lo + static_cast<int>(next_random(state) % static_cast<std::uint64_t>(hi - lo + 1));
}

Rational row_value(const std::vector<Rational>& row, const std::vector<Rational>& x) {
  Rational total = 0;
  for (std::size_t j = 0; j < row.size(); ++j) total += row[j] * x[j];
  return total;
}

LayeredHead searched_head(int m, ModelClass model_class) {
  LayeredSearchOptions options;
  options.m = m;
  options.model_class = model_class;
  const LayeredSearchResult result = search_layer_sets(options);
  REQUIRE(result.best.has_value());
  REQUIRE(result.best->head.has_value());
  return *result.best->head;
}

std::string expect_input_error(const std::string& text) {
  try {
    parse_model("bad.model", text);
  } catch (const InputError& e) {
    return std::to_string(e.line()) + ": " + e.message();
  }
  FAIL("the reader accepted a bad layered head");
  return "";
}

// A valid PF head at m = 2 in text, with `edit` applied to its lines.
const char* const kHeadM2 =
    "kernelrank-model 1 kind=layered m=2 r=3 class=PF\n"
    "layer 0 1\n"
    "layer 1 1\n"
    "correction 0 0\n"
    "correction 1 0 0\n"
    "correction 2 0 0 0\n";

}  // namespace

TEST_CASE("exact LP: a hand-solved optimum and its dual") {
  // max x + y s.t. x + 2y <= 4, 3x + y <= 6: the vertex (8/5, 6/5), value 14/5, duals (2/5, 1/5).
  ExactLp lp;
  lp.variables = 2;
  lp.rows = {{1, 2}, {3, 1}};
  lp.rhs = {4, 6};
  lp.objective = {1, 1};
  const ExactLpResult result = solve_exact_lp(lp);
  REQUIRE_FALSE(result.unbounded);
  CHECK(result.value == Rational(14, 5));
  CHECK(result.x == std::vector<Rational>{Rational(8, 5), Rational(6, 5)});
  CHECK(result.dual == std::vector<Rational>{Rational(2, 5), Rational(1, 5)});
  CHECK(dual_bounds_objective(lp, result.dual, Rational(14, 5)));
  CHECK_FALSE(dual_bounds_objective(lp, result.dual, Rational(13, 5)));
  CHECK_FALSE(dual_bounds_objective(lp, {Rational(1, 5), Rational(1, 5)}, Rational(14, 5)));
  // Unbounded: max x with only x - y <= 1.
  ExactLp open;
  open.variables = 2;
  open.rows = {{1, -1}};
  open.rhs = {1};
  open.objective = {1, 0};
  CHECK(solve_exact_lp(open).unbounded);
}

TEST_CASE("exact LP: rows added after a solve give the fresh solve's optimum at a feasible point") {
  std::uint64_t state = 46;
  int compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const auto n = static_cast<std::size_t>(small_int(state, 2, 5));
    std::vector<Rational> objective;
    for (std::size_t j = 0; j < n; ++j) objective.emplace_back(small_int(state, -2, 4));
    IncrementalExactLp lp(n, objective);
    lp.add_row(std::vector<Rational>(n, Rational(1)), Rational(10));  // keeps it bounded
    bool solved = false;
    for (int r = 0; r < 8; ++r) {
      std::vector<Rational> row;
      for (std::size_t j = 0; j < n; ++j) row.emplace_back(small_int(state, -4, 4));
      // After a solve a right-hand side may be negative (the dual simplex repairs it), but
      // x = 0 stays feasible only with rhs >= 0; keep x = 0 feasible so no add is infeasible.
      lp.add_row(row, Rational(small_int(state, 0, 4)));
      if (next_random(state) % 3 != 0) continue;
      const ExactLpResult result = lp.solve();
      solved = true;
      REQUIRE_FALSE(result.unbounded);
      const ExactLp& problem = lp.problem();
      for (std::size_t i = 0; i < problem.rows.size(); ++i)
        REQUIRE(row_value(problem.rows[i], result.x) <= problem.rhs[i]);
      for (const Rational& x : result.x) REQUIRE(x >= 0);
      CHECK(row_value(problem.objective, result.x) == result.value);
      CHECK(dual_bounds_objective(problem, result.dual, result.value));
      CHECK(solve_exact_lp(problem).value == result.value);
      ++compared;
    }
    (void)solved;
  }
  CHECK(compared > 300);
}

TEST_CASE("layered LP: refutations carry a checked dual, and heads solve every profile") {
  // {0, 1} fails at m = 6 and works at m = 5 (docs/upper-bounds.md's LP table: the cheapest
  // feasible set is {0, 1} at m = 4, 5 and {0, 1, 6} at m = 6, 7).
  const LayerSetAnswer m6 = solve_layer_set(6, {0, 1}, ModelClass::PositiveFeatures);
  CHECK(m6.refuted);
  CHECK_FALSE(m6.head.has_value());
  CHECK(m6.margin == 0);
  for (const int m : {4, 5}) {
    const LayerSetAnswer ok = solve_layer_set(m, {0, 1}, ModelClass::PositiveFeatures);
    REQUIRE(ok.head.has_value());
    CHECK(ok.margin > 0);
    const auto model = make_layered_model(*ok.head);
    CHECK(evaluate_profiles(*model->overlap_form(), m, 3, EvalOptions{}).solves());
  }
  CHECK_THROWS_AS(solve_layer_set(6, {1, 2}, ModelClass::PositiveFeatures), std::invalid_argument);
  CHECK_THROWS_AS(solve_layer_set(6, {0, 7}, ModelClass::PositiveFeatures), std::invalid_argument);
  CHECK_THROWS_AS(solve_layer_set(6, {0}, ModelClass::Signed), std::invalid_argument);
}

TEST_CASE("layered search: the branch and bound's optimum is the cheapest of all layer sets") {
  for (const ModelClass model_class :
       {ModelClass::PositiveFeatures, ModelClass::NonnegativeKernel}) {
    for (int m = 3; m <= 7; ++m) {
      CAPTURE(m);
      // Every set containing 0, one LP each.
      std::optional<Integer> cheapest;
      for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << m); ++mask) {
        std::vector<int> layers{0};
        Integer cost = 1;
        for (int j = 1; j <= m; ++j)
          if ((mask >> (j - 1)) & 1U) {
            layers.push_back(j);
            cost += binomial_saturating(m, j);
          }
        if (cheapest && cost >= *cheapest) continue;
        if (solve_layer_set(m, layers, model_class).head) cheapest = cost;
      }
      LayeredSearchOptions options;
      options.m = m;
      options.model_class = model_class;
      const LayeredSearchResult found = search_layer_sets(options);
      REQUIRE(found.best.has_value());
      REQUIRE(cheapest.has_value());
      CHECK(found.best->head->feature_count() == *cheapest);
      CHECK(found.optimal);
      CHECK(found.lps < (std::size_t{1} << m));  // the bounds cut something
    }
  }
  // The documented PF optima of the earlier floating-point exploration (docs/upper-bounds.md).
  CHECK(searched_head(7, ModelClass::PositiveFeatures).feature_count() == 15);
  CHECK(searched_head(8, ModelClass::PositiveFeatures).feature_count() == 29);
  CHECK(searched_head(10, ModelClass::PositiveFeatures).feature_count() == 47);
}

TEST_CASE("layered heads: profiles, brute force on the head and on its features agree") {
  for (const int m : {4, 5, 6, 7, 8}) {
    for (const ModelClass model_class :
         {ModelClass::PositiveFeatures, ModelClass::NonnegativeKernel}) {
      if (m > 6 && model_class == ModelClass::NonnegativeKernel) continue;  // 2^(3m) instances
      CAPTURE(m);
      LayeredHead head = searched_head(m, model_class);
      for (const bool broken : {false, true}) {
        // Profile (m, {0, 0}) has error |g_m(0)| < 1/2; adding 1 makes it >= 1/2.
        if (broken) head.correction[static_cast<std::size_t>(m)][0] += 1;
        const auto model = make_layered_model(head);
        const auto features = expand_layered_features(head);
        CHECK(features->feature_count() == static_cast<int>(head.feature_count()));
        EvalOptions options;
        const EvalReport profiles = evaluate_profiles(*model->overlap_form(), m, 3, options);
        const EvalReport cube = evaluate_cube(*model, m, 3, options);
        const EvalReport expanded = evaluate_cube(*features, m, 3, options);
        CHECK(profiles.solves() == !broken);
        CHECK(cube.max_error == profiles.max_error);
        CHECK(cube.failing == profiles.failing);
        CHECK(expanded.max_error == profiles.max_error);
        CHECK(expanded.failing == profiles.failing);
      }
    }
  }
  // The NK head's kernel must really use a negative coefficient somewhere in this range, or the
  // NK rows above test nothing beyond PF.
  bool signed_coefficient = false;
  for (int m = 4; m <= 12; ++m)
    for (const Rational& c : searched_head(m, ModelClass::NonnegativeKernel).coefficients)
      signed_coefficient = signed_coefficient || c < 0;
  CHECK(signed_coefficient);
}

TEST_CASE("layered heads: the text form reads back to the same head") {
  const LayeredHead head = searched_head(9, ModelClass::NonnegativeKernel);
  const auto model = parse_model("h.model", layered_head_text(head, {"a comment"}));
  const LayeredHead* read = layered_head_of(*model);
  REQUIRE(read != nullptr);
  CHECK(read->layers == head.layers);
  CHECK(read->coefficients == head.coefficients);
  CHECK(read->correction == head.correction);
  CHECK(read->model_class == head.model_class);
  CHECK(model->feature_count() == static_cast<int>(head.feature_count()));
}

TEST_CASE("layered heads: bad files are refused with the line") {
  CHECK_NOTHROW(parse_model("ok.model", kHeadM2));
  auto edited = [](const std::string& from, const std::string& to) {
    std::string text = kHeadM2;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK(expect_input_error(edited("layer 1 1", "layer 1 -1")) ==
        "3: the header declares class=PF but c_1 = -1 < 0");
  CHECK(expect_input_error(edited("class=PF\nlayer 0 1\nlayer 1 1",
                                  "class=NK\nlayer 0 1\nlayer 1 -2")) == "2: K(1) = -1 < 0");
  CHECK(expect_input_error(edited("r=3 class=PF\nlayer 0 1\nlayer 1 1",
                                  "r=1 class=PF\nlayer 0 0")) == "2: K(0) = 0 is not > 0");
  CHECK(expect_input_error(edited("layer 1 1", "layer 3 1")).find("3: ") == 0);
  CHECK(expect_input_error(edited("correction 2 0 0 0\n", "")).find("expected 'correction 2'") !=
        std::string::npos);
  CHECK(expect_input_error(edited("correction 1 0 0", "correction 1 0")) ==
        "5: expected 2 values g_1(0) .. g_1(1), found 1");
  CHECK(expect_input_error(edited("r=3", "r=4")) ==
        "1: the header declares r=4 but the layers give sum C(m, j) = 3");
  CHECK(expect_input_error(edited("m=2", "m=4097")).find("1: expected m=<integer in 1..4096>") ==
        0);
  CHECK(expect_input_error(edited("class=PF", "class=signed")) ==
        "1: a layered head declares class=PF or class=NK in its header");
}
