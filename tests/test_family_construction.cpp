// Constructed upper bounds for families (bounds/family_construction.hpp) and the shipped
// models of the witness family, each re-verified by the exact evaluator and by the
// independent oracle of tests/oracle.
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/family_construction.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/parametric_writer.hpp"

#include "oracle/naive_model.hpp"
#include "oracle/naive_parametric.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <functional>
#include <set>

using namespace kernelrank;

namespace {

std::string source_path(const std::string& relative) {
  return (std::filesystem::path(KERNELRANK_SOURCE_DIR) / relative).string();
}

const Family& witness_family() {
  static const Family family = read_family(source_path("instances/witness-m24.family"));
  return family;
}

struct OracleSweep {
  std::size_t failing = 0;
  Rational max_error = 0;
};

OracleSweep sweep(const Family& family,
                  const std::function<oracle::NaiveOutcome(const Instance&)>& evaluate) {
  OracleSweep result;
  for (const Instance& instance : family.instances) {
    const oracle::NaiveOutcome outcome = evaluate(instance);
    if (outcome.fails) ++result.failing;
    if (outcome.output)
      result.max_error = std::max(result.max_error, abs_of(*outcome.output - outcome.target));
  }
  return result;
}

// Exact evaluator and oracle agree that `model` solves the witness family, with the same
// max error; returns it.
Rational check_solves_both_ways(const Model& model,
                                const std::function<oracle::NaiveOutcome(const Instance&)>& naive) {
  const EvalReport report = evaluate_family(model, witness_family(), EvalOptions{});
  CHECK(report.instances == 1176);
  CHECK(report.failing == 0);
  REQUIRE(report.max_error);
  const OracleSweep oracle_sweep = sweep(witness_family(), naive);
  CHECK(oracle_sweep.failing == 0);
  CHECK(oracle_sweep.max_error == *report.max_error);
  CHECK(*report.max_error < Rational(1, 2));
  return *report.max_error;
}

std::vector<Token> family_tokens(const Family& family) {
  std::set<Token> tokens;
  for (const Instance& instance : family.instances)
    tokens.insert(instance.tokens.begin(), instance.tokens.end());
  return {tokens.begin(), tokens.end()};
}

}  // namespace

TEST_CASE("exact_solve: A X = B exactly, nullopt for a singular A") {
  const RationalMatrix a = {{2, 1, 0}, {1, 3, 1}, {0, 1, 4}};
  const RationalMatrix b = {{1, 0}, {0, Rational(1, 2)}, {-1, 7}};
  const auto x = exact_solve(a, b);
  REQUIRE(x);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t c = 0; c < 2; ++c) {
      Rational sum = 0;
      for (std::size_t k = 0; k < 3; ++k) sum += a[i][k] * (*x)[k][c];
      CHECK(sum == b[i][c]);
    }
  // Row 3 = row 1 + row 2: singular, whatever B.
  CHECK_FALSE(exact_solve({{1, 2, 3}, {0, 1, 1}, {1, 3, 4}}, b));
  CHECK_THROWS_AS(exact_solve({{1, 2}}, {{1}}), std::invalid_argument);
}

TEST_CASE("construct: the graded complement-detector head solves the witness family, r = 24") {
  const ComplementHead head = construct_complement_head(witness_family(), {});
  REQUIRE(head.report.solves());
  CHECK(head.queries.size() == 24);
  CHECK(head.model->feature_count() == 24);
  // What the construction promises: alpha(q_i, c_i) = B, alpha(q_i, c_j) = 1 (j != i).
  for (std::size_t i = 0; i < head.queries.size(); ++i)
    for (std::size_t j = 0; j < head.queries.size(); ++j)
      CHECK(head.model->kernel(head.queries[i], head.queries[j].complement(), 0, 1) ==
            (i == j ? head.diagonal : Rational(1)));
  const ParametricModel& model = *head.model;
  const Rational max_error = check_solves_both_ways(model, [&](const Instance& instance) {
    return oracle::naive_evaluate(model.maps_by_position(), FeatureMap::Relu, instance);
  });
  CHECK(max_error < Rational(1, 4));  // the margin the grid asks for
  // The text written for it reads back as the same head.
  const auto reread = parse_model("constructed", parametric_model_to_text(model));
  CHECK(evaluate_family(*reread, witness_family(), EvalOptions{}).max_error == max_error);
}

TEST_CASE("construct: given a and B, and the failures they cause") {
  // a = 0: the intermediates get B like c_i itself, so (q, c_i, z) averages 0 and 4 at
  // equal weights: error 2, and the exact report says so.
  ComplementHeadOptions options;
  options.slope = Rational(0);
  options.diagonal = Rational(64);
  const ComplementHead flat = construct_complement_head(witness_family(), options);
  CHECK_FALSE(flat.report.solves());
  CHECK(flat.report.max_error == Rational(2));
  CHECK(flat.candidates == 1);
  const auto oracle_sweep = sweep(witness_family(), [&](const Instance& instance) {
    return oracle::naive_evaluate(flat.model->maps_by_position(), FeatureMap::Relu, instance);
  });
  CHECK(oracle_sweep.failing == flat.report.failing);
  options.slope = Rational(-1);
  CHECK_THROWS_AS(construct_complement_head(witness_family(), options), UsageError);
}

TEST_CASE("construct: refused when the queries are linearly dependent") {
  Family family;
  family.m = 3;
  family.n = 3;
  for (const char* q : {"100", "010", "110"})
    family.instances.push_back({{parse_token(q), parse_token("001"), parse_token("001")}, 0});
  try {
    construct_complement_head(family, {});
    FAIL("expected a UsageError");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()).find("query 110 (distinct query 3 of 3)") != std::string::npos);
  }
  family.m = 2;
  family.instances = {{{parse_token("10"), parse_token("10")}, 0},
                      {{parse_token("01"), parse_token("01")}, 0},
                      {{parse_token("11"), parse_token("11")}, 0}};
  CHECK_THROWS_AS(construct_complement_head(family, {}), UsageError);
  family.instances.clear();
  CHECK_THROWS_AS(construct_complement_head(family, {}), UsageError);
}

TEST_CASE("shipped witness models: exact evaluator and oracle agree they solve") {
  SUBCASE("relu r = 24 (kernelrank construct)") {
    const auto model = read_model(source_path("instances/models/witness-m24-relu-r24.model"));
    const auto* parametric = dynamic_cast<const ParametricModel*>(model.get());
    REQUIRE(parametric);
    CHECK(parametric->feature_count() == 24);
    CHECK(parametric->classify().model_class == ModelClass::PositiveFeatures);
    check_solves_both_ways(*model, [&](const Instance& instance) {
      return oracle::naive_evaluate(parametric->maps_by_position(), FeatureMap::Relu, instance);
    });
  }
  SUBCASE("NK r = 20 (scripts/research/witness_low_rank.py)") {
    const auto model = read_model(source_path("instances/models/witness-m24-nk-r20.features"));
    REQUIRE(model->feature_count() == 20);
    CHECK(model->classify().model_class == ModelClass::NonnegativeKernel);
    check_solves_both_ways(*model, [&](const Instance& instance) {
      return oracle::naive_model_outcome(*model, instance);
    });
    // The kernel over the family's tokens has rank <= 20 (by the oracle's own elimination)
    // and is >= 0 on every pair.
    const std::vector<Token> tokens = family_tokens(witness_family());
    RationalMatrix table;
    for (const Token& q : tokens) {
      table.emplace_back();
      for (const Token& z : tokens) {
        table.back().push_back(model->kernel(q, z, 0, 1));
        CHECK(table.back().back() >= 0);
      }
    }
    CHECK(oracle::naive_rank(table) <= 20);
  }
}

TEST_CASE("witness family: the shifted trace lemma (docs/bounds.md) gives r >= 18") {
  // The checker-verified chains of the family certificate give alpha(q_i, c_i) > rho_ij
  // alpha(q_i, c_j) with rho_ij = 5 (488 gap-6 pairs) or 9 (64 pairs through an
  // intermediate). With W = J/10: e_ij = max(1/10, 1/rho_ij - 1/10) = 1/10 for both, so
  // C_j = 23/100 and T_W = 24 (81/100) / (81/100 + 23/100) = 243/13 = 18.69..., hence
  // r >= ceil(T_W) - 1 = 18 (docs/min-rank.md#witness-family); the trace rule alone gives 14.
  const FamilyBound bound = certify_family(witness_family(), false);
  REQUIRE(bound.found);
  REQUIRE(bound.rows.size() == 24);
  REQUIRE(bound.chains.size() == 24 * 23);
  const Rational shift(1, 10);
  std::vector<Rational> column_sums(bound.rows.size());
  std::size_t gap6 = 0, through = 0;
  for (const FamilyChain& chain : bound.chains) {
    gap6 += chain.factor == 5 ? 1 : 0;
    through += chain.factor == 9 ? 1 : 0;
    const Rational e = std::max(shift, 1 / chain.factor - shift);
    column_sums[chain.j] += e * e;
  }
  CHECK(gap6 == 488);
  CHECK(through == 64);
  Rational value = 0;
  const Rational diagonal = (1 - shift) * (1 - shift);
  for (const Rational& c : column_sums) value += diagonal / (diagonal + c);
  CHECK(value == Rational(243, 13));
  CHECK(ceil_of(value) - 1 == 18);
}
