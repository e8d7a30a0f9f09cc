// Tests written to kill mutants of the producer's exact core that survived the rest of
// the suite (scripts/mutate-checker.sh; docs/robustness.md, "Mutation testing"): R_n and
// gap domination, the trace and dominance sums, the comparison with 1/2 and the order
// argument. Each case names the mutant keys it kills (`scripts/mutation/mutants.py show
// KEY` prints the mutation). Expectations are worked by hand.
#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/domination_check.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/order_argument.hpp"
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/token.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

// Requires `call` to throw UsageError whose message contains `fragment`.
template <typename Call>
void expect_usage_error(Call call, const std::string& fragment) {
  bool thrown = false;
  try {
    call();
  } catch (const UsageError& e) {
    thrown = true;
    CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos,
                  "message: " << e.what() << ", expected: " << fragment);
  }
  CHECK_MESSAGE(thrown, "expected a UsageError containing: " << fragment);
}

std::vector<Token> cube(int m) {
  std::vector<Token> tokens;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    tokens.push_back(Token::from_index(m, i));
  return tokens;
}

// The L2 inequality, written out: k (W + (n-1) A) > (n-1-k)(g-1) (W + (n-1) B).
bool naive_l2_holds(const Rational& w, const Rational& a, const Rational& b, int n, int gap,
                    int k) {
  const Rational left = Rational(k) * (w + Rational(n - 1) * a);
  const Rational right = Rational((n - 1 - k) * (gap - 1)) * (w + Rational(n - 1) * b);
  return left > right;
}

// A kernel table on the cube with entries in {0, 1, 2, 3} times `scale` (many exact ties
// and near-ties), readout 0. scale = 1 + 2^-70 makes every row too wide for 64-bit
// integers, so the exact fallback runs.
TabularModel small_integer_model(int m, std::mt19937_64& rng, const Rational& scale) {
  const std::vector<Token> tokens = cube(m);
  const std::size_t size = tokens.size();
  RationalMatrix kernel(size, RationalVector(size)), readout(size, RationalVector(size));
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t j = 0; j < size; ++j)
      kernel[i][j] = Rational(static_cast<long>(rng() % 4)) * scale;
  return TabularModel(m, tokens, kernel, readout);
}

// R_n(G) as the best product over an explicit enumeration of the compositions of G into
// parts >= 2 (0 for G = 1).
Integer brute_force_r(int n, int gap) {
  Integer best = 0;
  std::function<void(int, const Integer&)> extend = [&](int left, const Integer& product) {
    if (left == 0) {
      if (product > best) best = product;
      return;
    }
    for (int part = 2; part <= left; ++part)
      extend(left - part, product * Integer((n - 2) * (part - 1)));
  };
  extend(gap, Integer(1));
  return best;
}

// The trace and dominance rules of rank_bound.hpp, pair by pair in exact rationals.
struct NaiveBound {
  bool usable = true;  // every gap >= 2
  std::string first_bad;
  std::map<int, std::uint64_t> histogram;  // gaps >= 2
  Integer trace_sum;
  Integer trace_bound;
  Rational max_row_sum;
};

NaiveBound naive_bound(const std::vector<BoundRow>& rows, int n, int precision) {
  NaiveBound result;
  const std::size_t N = rows.size();
  std::vector<std::vector<int>> gap(N, std::vector<int>(N, 0));
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) {
      if (i == j) continue;
      gap[i][j] = inner(rows[i].query, rows[j].own) - inner(rows[i].query, rows[i].own);
      if (gap[i][j] >= 2) {
        ++result.histogram[gap[i][j]];
      } else if (result.usable) {
        result.usable = false;
        result.first_bad = "rows " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                           " have gap " + std::to_string(gap[i][j]) + " < 2";
      }
    }
  if (!result.usable) return result;
  Integer scale = 1;
  scale <<= precision;
  for (std::size_t j = 0; j < N; ++j) {
    Rational one_plus_c = 1;
    for (std::size_t i = 0; i < N; ++i)
      if (i != j) {
        const Integer r = brute_force_r(n, gap[i][j]);
        one_plus_c += make_rational(Integer(1), r * r);
      }
    result.trace_sum += floor_of(Rational(scale) / one_plus_c);
  }
  result.trace_bound = N >= 2 ? Integer(result.trace_sum / scale + 1) : Integer(1);
  for (std::size_t i = 0; i < N; ++i) {
    Rational row = 0;
    for (std::size_t j = 0; j < N; ++j)
      if (i != j) row += make_rational(Integer(1), brute_force_r(n, gap[i][j]));
    if (row > result.max_row_sum) result.max_row_sum = row;
  }
  return result;
}

}  // namespace

// ---- amplification.cpp --------------------------------------------------------------

// Pamplification-f18930, Pamplification-0f19b4, Pamplification-94372b: the guards of
// gap_domination_factor, each with its own message, checked in the order n, k, gap.
TEST_CASE("core mutation kills: gap_domination_factor refuses n < 3, k outside 1..n-2, gap < 2") {
  expect_usage_error([] { (void)gap_domination_factor(2, 2, 1); }, "gap domination needs n >= 3");
  expect_usage_error([] { (void)gap_domination_factor(3, 2, 0); }, "S3_k needs 1 <= k <= n-2");
  expect_usage_error([] { (void)gap_domination_factor(3, 2, 2); }, "S3_k needs 1 <= k <= n-2");
  expect_usage_error([] { (void)gap_domination_factor(3, 1, 1); },
                     "gap domination needs a gap >= 2");
  // In range: (n-1-k)(g-1)/k.
  CHECK(gap_domination_factor(3, 2, 1) == Rational(1));
  CHECK(gap_domination_factor(5, 4, 3) == Rational(1 * 3, 3));
  CHECK(gap_domination_factor(5, 3, 1) == Rational(3 * 2, 1));
}

// Pamplification-094749, Pamplification-328ab2, Pamplification-172b28,
// Pamplification-20f0d3, Pamplification-5caada: the table needs n >= 3 and max_gap >= 0;
// max_gap = 0 is a table with R(0) = 1 only.
TEST_CASE("core mutation kills: AmplificationTable guards and the one-entry table") {
  expect_usage_error(
      [] {
        const AmplificationTable table(2, 4);
        (void)table;
      },
      "amplification needs n >= 3");
  expect_usage_error(
      [] {
        const AmplificationTable table(3, -1);
        (void)table;
      },
      "max gap must be >= 0");
  const AmplificationTable table(3, 0);
  CHECK(table.max_gap() == 0);
  REQUIRE(table.at(0));
  CHECK(table.at(0)->factor == 1);
  CHECK(table.at(0)->parts.empty());
  CHECK_FALSE(table.at(1));
  CHECK_FALSE(table.at(-1));
}

// Pamplification-907182, Pamplification-1f37f5: the table has exactly max_gap + 1
// entries, and ties keep the split with the largest last part. At n = 5 (n - 2 = 3),
// R(4) = 3 * 3 = 9 both as (4) and as (2, 2); the recorded split is (4). R(6): (6) gives
// 15, (2, 4) and (4, 2) 3 * 9 = 27, (2, 2, 2) 27, (3, 3) 6 * 6 = 36: 36 as (3, 3).
TEST_CASE("core mutation kills: table size and tie-breaking of the recorded split") {
  const AmplificationTable table(5, 6);
  CHECK(table.max_gap() == 6);
  CHECK_FALSE(table.at(7));
  REQUIRE(table.at(4));
  CHECK(table.at(4)->factor == 9);
  CHECK(table.at(4)->parts == std::vector<int>{4});
  REQUIRE(table.at(6));
  CHECK(table.at(6)->factor == 36);
  CHECK(table.at(6)->parts == std::vector<int>{3, 3});
}

// Pamplification-fea7a9, Pamplification-cf16bf, Pamplification-843851,
// Pamplification-c08e85, Pamplification-6c8fb1: domination_step's guards.
TEST_CASE("core mutation kills: domination_step refuses n < 3 and k outside 1..n-2") {
  const Token q = parse_token("1111"), a = parse_token("0000"), b = parse_token("1100");
  expect_usage_error([&] { (void)domination_step(q, a, b, 2, 1); }, "domination steps need n >= 3");
  expect_usage_error([&] { (void)domination_step(q, a, b, 3, 0); }, "S3_k needs 1 <= k <= n-2");
  expect_usage_error([&] { (void)domination_step(q, a, b, 3, 2); }, "S3_k needs 1 <= k <= n-2");
  const DominationStep step = domination_step(q, a, b, 4, 2);
  CHECK(step.s3.tokens == std::vector<Token>{q, a, a, b});
}

// ---- domination_check.cpp ------------------------------------------------------------

// The domination checks count exactly the violated L2 inequalities, on kernels with many
// ties, through the 128-bit path and the exact fallback; every reported violation carries
// the gap, the factor and both sides of the inequality.
TEST_CASE("core mutation kills: the domination checks count exactly the violated inequalities") {
  std::mt19937_64 rng(2026);
  Integer two70 = 1;
  two70 <<= 70;
  const Rational wide = 1 + make_rational(Integer(1), two70);
  for (const int n : {3, 4, 5}) {
    for (int trial = 0; trial < 6; ++trial) {
      const int m = 3;
      const TabularModel model = small_integer_model(m, rng, trial % 2 == 0 ? Rational(1) : wide);
      const std::vector<Token> tokens = cube(m);
      std::uint64_t checked = 0, violated = 0;
      for (const Token& q : tokens)
        for (const Token& a : tokens)
          for (const Token& b : tokens) {
            const int gap = inner(q, b) - inner(q, a);
            if (gap < 2) continue;
            for (int k = 1; k <= n - 2; ++k) {
              ++checked;
              violated += naive_l2_holds(model.kernel(q, q, 0, 0), model.kernel(q, a, 0, 1),
                                         model.kernel(q, b, 0, 1), n, gap, k)
                              ? 0
                              : 1;
            }
          }
      CAPTURE(n);
      CAPTURE(trial);
      const DominationReport report = check_domination_cube(model, m, n, 1000);
      CHECK(report.checked == checked);
      CHECK(report.violated == violated);
      REQUIRE(report.violations.size() == violated);
      for (const DominationViolation& v : report.violations) {
        const Rational w = model.kernel(v.q, v.q, 0, 0);
        CHECK(v.gap == inner(v.q, v.b) - inner(v.q, v.a));
        CHECK(v.factor == Rational((n - 1 - v.k) * (v.gap - 1), v.k));
        CHECK(v.lhs == w + Rational(n - 1) * model.kernel(v.q, v.a, 0, 1));
        CHECK(v.rhs == v.factor * (w + Rational(n - 1) * model.kernel(v.q, v.b, 0, 1)));
        CHECK_FALSE(v.lhs > v.rhs);
        CHECK((v.s1.fails() || v.s2.fails() || v.s3.fails()));
      }
      // The same triples as a family of S1, S2, S3_k instances.
      Family family{m, n, {}};
      for (const Token& q : tokens)
        for (const Token& a : tokens)
          for (const Token& b : tokens) {
            if (inner(q, b) - inner(q, a) < 2) continue;
            for (int k = 1; k <= n - 2; ++k) {
              const DominationStep step = domination_step(q, a, b, n, k);
              family.instances.push_back(step.s3);
              if (k == 1) {
                family.instances.push_back(step.s1);
                family.instances.push_back(step.s2);
              }
            }
          }
      const FamilyAnalysis analysis = analyse_family(family, false);
      std::uint64_t family_violated = 0;
      for (const FamilyStep& step : analysis.steps)
        family_violated +=
            naive_l2_holds(model.kernel(step.q, step.q, 0, 0), model.kernel(step.q, step.a, 0, 1),
                           model.kernel(step.q, step.b, 0, 1), n, step.gap, step.k)
                ? 0
                : 1;
      const DominationReport from_family = check_domination_family(model, family, 1000);
      CHECK(from_family.checked == analysis.steps.size());
      CHECK(from_family.violated == family_violated);
      CHECK(from_family.violations.size() == family_violated);
      // At most max_reported violations are described, all of them counted.
      for (const std::size_t most : {std::size_t{0}, std::size_t{2}}) {
        const DominationReport few = check_domination_cube(model, m, n, most);
        CHECK(few.violated == violated);
        CHECK(few.violations.size() == std::min<std::uint64_t>(violated, most));
        const DominationReport few_family = check_domination_family(model, family, most);
        CHECK(few_family.violated == family_violated);
        CHECK(few_family.violations.size() == std::min<std::uint64_t>(family_violated, most));
      }
      CHECK(violated > 2);
      CHECK(family_violated > 2);
    }
  }
}

// Pdomination_check-923e7d, Pdomination_check-f5154f, Pdomination_check-1f6086: the
// family check needs n >= 3 and a position-independent model.
TEST_CASE(
    "core mutation kills: check_domination_family refuses n < 3 and position-dependent models") {
  const auto softmax = make_softmax(2, Rational(3));
  const Family short_family{2, 2, {Instance{{parse_token("11"), parse_token("00")}, 0}}};
  expect_usage_error([&] { (void)check_domination_family(*softmax, short_family); },
                     "gap domination needs n >= 3");
  const std::vector<Token> tokens = cube(2);
  const RationalMatrix ones(4, RationalVector(4, Rational(1)));
  const TabularModel dependent(
      2, tokens, 3,
      std::vector<std::vector<RationalMatrix>>(3, std::vector<RationalMatrix>(3, ones)),
      std::vector<std::vector<RationalMatrix>>(3, std::vector<RationalMatrix>(3, ones)));
  REQUIRE(dependent.position_dependent());
  const Family family{2, 3, {}};
  expect_usage_error([&] { (void)check_domination_family(dependent, family); },
                     "position-independent models only");
}

// Pdomination_check-127481: describe_violation on an inequality that holds (softmax base
// 3 solves T(3,3)) describes it and does not call it a contradiction of L2. q = 111,
// a = 000, b = 111: gap 3, factor (3-1-1)(3-1)/1 = 2; W = B = 3^-3, A = 1:
// lhs = 1/27 + 2 > rhs = 2 (1/27 + 2/27) = 2/9.
TEST_CASE("core mutation kills: describe_violation of an inequality that holds") {
  const auto softmax = make_softmax(3, Rational(3));
  const Token q = parse_token("111"), a = parse_token("000");
  const DominationViolation v =
      describe_violation(*softmax, ModelClass::PositiveFeatures, q, a, q, 3, 1);
  CHECK(v.gap == 3);
  CHECK(v.factor == 2);
  CHECK(v.lhs == Rational(1, 27) + 2);
  CHECK(v.rhs == Rational(2, 9));
  CHECK_FALSE(v.s1.fails());
  CHECK_FALSE(v.s2.fails());
  CHECK_FALSE(v.s3.fails());
}

// ---- rank_bound.cpp ------------------------------------------------------------------

// The trace and dominance sums on rows whose queries overlap their own tokens
// (<q_i, c_i> > 0, unlike complement rows), against the pair-by-pair definition: the gap
// histogram, the first pair with a gap below 2, S, the bound, the largest row sum, which
// rule best_rank_bound picks, and trace_bound_value on the same factors.
TEST_CASE("core mutation kills: trace and dominance sums on rows with <q_i, c_i> > 0") {
  std::mt19937_64 rng(7);
  int usable = 0, overlapping = 0, dominant = 0, unusable = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int m = 6 + static_cast<int>(rng() % 3);
    const std::size_t N = 1 + rng() % 5;
    const int n = 3 + static_cast<int>(rng() % 3);
    const int precision = std::vector<int>{0, 1, 5, 64}[rng() % 4];
    std::vector<BoundRow> rows;
    bool overlaps = false;
    for (std::size_t i = 0; i < N; ++i) {
      Token own(m);
      for (int t = 0; t < m; ++t) own.set(t, rng() % 2 == 0);
      Token query = own.complement();
      // One coordinate of c_i joins the query (so <q_i, c_i> = 1) in most rows.
      if (rng() % 4 != 0 && own.weight() > 0) {
        int t = static_cast<int>(rng() % static_cast<unsigned>(m));
        while (!own.get(t)) t = (t + 1) % m;
        query.set(t, true);
        overlaps = true;
      }
      rows.push_back({own, query});
    }
    CAPTURE(trial);
    const NaiveBound expected = naive_bound(rows, n, precision);
    const RankBoundResult trace = certify_rank_bound(rows, n, BoundRule::Trace, precision);
    const RankBoundResult dominance = certify_rank_bound(rows, n, BoundRule::Dominance, precision);
    CHECK(trace.gap_histogram == expected.histogram);
    CHECK(dominance.gap_histogram == expected.histogram);
    CHECK(trace.rows == N);
    CHECK(trace.n == n);
    if (!expected.usable) {
      ++unusable;
      CHECK_FALSE(trace.applicable);
      CHECK_FALSE(dominance.applicable);
      CHECK(trace.reason.find(expected.first_bad) == 0);
      CHECK(trace.bound == 0);
      continue;
    }
    ++usable;
    if (overlaps) ++overlapping;
    REQUIRE(trace.applicable);
    CHECK(trace.trace_sum == expected.trace_sum);
    CHECK(trace.bound == expected.trace_bound);
    CHECK(dominance.max_row_sum == expected.max_row_sum);
    const bool is_dominant = expected.max_row_sum <= 1;
    CHECK(dominance.applicable == is_dominant);
    CHECK(dominance.bound == (is_dominant ? Integer(N) : Integer(0)));
    if (is_dominant) ++dominant;
    const RankBoundResult best = best_rank_bound(rows, n, precision);
    const bool pick_dominance = is_dominant && Integer(N) > expected.trace_bound;
    CHECK(best.rule == (pick_dominance ? BoundRule::Dominance : BoundRule::Trace));
    CHECK(best.bound == (pick_dominance ? Integer(N) : expected.trace_bound));
    // trace_bound_value on the same factors, unrounded, is at least S / 2^P.
    std::vector<std::vector<Rational>> rho(N, std::vector<Rational>(N, Rational(0)));
    Rational exact = 0;
    for (std::size_t j = 0; j < N; ++j) {
      Rational column = 1;
      for (std::size_t i = 0; i < N; ++i) {
        if (i == j) continue;
        const int g = inner(rows[i].query, rows[j].own) - inner(rows[i].query, rows[i].own);
        rho[i][j] = Rational(brute_force_r(n, g));
        column += 1 / (rho[i][j] * rho[i][j]);
      }
      exact += 1 / column;
    }
    CHECK(trace_bound_value(rho) == exact);
    CHECK(trace.trace_value() <= exact);
  }
  CHECK(usable > 60);
  CHECK(overlapping > 30);
  CHECK(dominant > 10);
  CHECK(unusable > 60);
}

// Prank_bound-e99735, Prank_bound-1b4a24, Prank_bound-37e943, Prank_bound-026337,
// Prank_bound-8b4240: the guards of certify_rank_bound, in their order: no rows, more
// than kMaxBoundRows rows (a resource limit, tested before n), n < 3, the precision.
// 200000 rows are allowed, so that call stops at n = 2.
TEST_CASE("core mutation kills: certify_rank_bound's guards and their order") {
  expect_usage_error([] { (void)certify_rank_bound({}, 3, BoundRule::Trace); },
                     "a rank bound needs at least one row");
  const BoundRow row{parse_token("10"), parse_token("01")};
  std::vector<BoundRow> many(kMaxBoundRows, row);
  expect_usage_error([&] { (void)certify_rank_bound(many, 2, BoundRule::Trace); },
                     "rank bounds need n >= 3");
  many.push_back(row);
  CHECK_THROWS_AS(certify_rank_bound(many, 2, BoundRule::Trace), ResourceError);
  expect_usage_error([&] { (void)certify_rank_bound({row}, 2, BoundRule::Dominance); },
                     "rank bounds need n >= 3");
  expect_usage_error([&] { (void)certify_rank_bound({row}, 3, BoundRule::Trace, -1); },
                     "precision must be in 0..256");
  expect_usage_error([&] { (void)certify_rank_bound({row}, 3, BoundRule::Trace, 257); },
                     "precision must be in 0..256");
  CHECK(certify_rank_bound({row}, 3, BoundRule::Trace, 256).applicable);
  CHECK(certify_rank_bound({row}, 3, BoundRule::Trace, 0).applicable);
  const BoundRow narrow{parse_token("1"), parse_token("0")};
  expect_usage_error(
      [&] {
        (void)certify_rank_bound({row, narrow}, 3, BoundRule::Trace);
      },
      "all row tokens must have the same width");
  const BoundRow narrow_query{parse_token("10"), parse_token("0")};
  expect_usage_error(
      [&] {
        (void)certify_rank_bound({row, narrow_query}, 3, BoundRule::Trace);
      },
      "all row tokens must have the same width");
}

// Prank_bound-b8aee4, Prank_bound-8753c9: a gap of m is counted in the histogram (slot
// m exists), gaps below 2 are not. c_1 = 0000, q_1 = 1111 and c_2 = 1111, q_2 = 0000:
// G_12 = 4 - 0 = 4, G_21 = 0 - 0 = 0, so the rows are unusable.
TEST_CASE("core mutation kills: the gap histogram holds a gap of m and no gap below 2") {
  const std::vector<BoundRow> rows{{parse_token("0000"), parse_token("1111")},
                                   {parse_token("1111"), parse_token("0000")}};
  const RankBoundResult result = certify_rank_bound(rows, 3, BoundRule::Trace);
  CHECK_FALSE(result.applicable);
  CHECK(result.gap_histogram == std::map<int, std::uint64_t>{{4, 1}});
  CHECK(result.reason == "rows 2 and 1 have gap 0 < 2 (no domination chain)");
}

// Prank_bound-165c80: best_rank_bound passes the trace rule's refusal on, with its reason,
// for the same unusable rows (G_21 = 0).
TEST_CASE("core mutation kills: best_rank_bound says why unusable rows give no bound") {
  const std::vector<BoundRow> rows{{parse_token("0000"), parse_token("1111")},
                                   {parse_token("1111"), parse_token("0000")}};
  const RankBoundResult best = best_rank_bound(rows, 3, 16);
  CHECK_FALSE(best.applicable);
  CHECK(best.reason == "rows 2 and 1 have gap 0 < 2 (no domination chain)");
  CHECK(best.rows == 2);
  CHECK(best.precision == 16);
  CHECK(best.bound == 0);
}

// ---- order_argument.cpp ---------------------------------------------------------------

// Porder_argument-510b3d: the order search stops at the first node past its limit. Three pairs
// that every query orders the same way (0 before 1) are consistent, and the search visits
// one node per pair: 3 nodes. With a limit of 1 it must stop at node 2 and throw, without
// visiting node 3.
TEST_CASE("core mutation kills: the order search stops at its node limit") {
  std::vector<PairSeparation> pairs(3);
  for (std::uint32_t i = 0; i < 3; ++i) {
    pairs[i].a = 2 + 2 * i;
    pairs[i].b = 3 + 2 * i;
    pairs[i].prefer_a = {0};
    pairs[i].prefer_b = {1};
  }
  std::uint64_t nodes = 0;
  CHECK(separations_consistent(pairs, 2, nodes, 3));
  CHECK(nodes == 3);
  nodes = 0;
  CHECK_THROWS_AS(separations_consistent(pairs, 2, nodes, 1), ResourceError);
  CHECK(nodes == 2);
}

// Porder_argument-6a284b: the NK precondition of the order argument (alpha >= 0 on the whole
// block of involved queries x involved keys) is checked for NK and only for NK. Two copies
// of the rank-1 contradiction on disjoint coordinates: for q = 00110000 the instances
// (q, q, q), (q, o, o), (q, q, o) with o = 11000000 give alpha(q, o) > alpha(q, q) (gap 2),
// and the reverse for q = o; likewise on the last four coordinates. Each pair has queries on
// both sides, but query 00110000 never meets key 00001100, so the NK block has an unused
// entry: NK is not applicable, PF (no block condition) is refuted at rank 1.
TEST_CASE("core mutation kills: the order argument's block condition is NK's only") {
  Family family;
  family.m = 8;
  family.n = 3;
  for (const auto& [q_text, o_text] :
       {std::pair{"00110000", "11000000"}, std::pair{"11000000", "00110000"},
        std::pair{"00000011", "00001100"}, std::pair{"00001100", "00000011"}}) {
    const Token q = parse_token(q_text), o = parse_token(o_text);
    family.instances.push_back({{q, q, q}, 0});
    family.instances.push_back({{q, o, o}, 0});
    family.instances.push_back({{q, q, o}, 0});
  }
  const RankTask task = family_rank_task(family, "two blocks");
  const OrderArgument nk = order_argument(task, 1, SearchClass::NK);
  CHECK_FALSE(nk.applicable);
  CHECK_FALSE(nk.refuted);
  CHECK(nk.reason.find("is not used by the task") != std::string::npos);
  const OrderArgument pf = order_argument(task, 1, SearchClass::PF);
  CHECK(pf.applicable);
  CHECK(pf.refuted);
}

// ---- tabulated_eval.cpp ---------------------------------------------------------------

// Ptabulated_eval-58e6bd (and the 128-bit twin): an error of exactly 1/2 fails. With the
// readout F = 1/2 everywhere the output is 1/2 whatever the (positive) kernel, and the target
// min_j <q, z_j> is an integer in {0, 1, 2} at m = 2: every instance fails, with error exactly
// 1/2 unless all tokens are 11 (target 2, error 3/2). A kernel of ones takes the 64-bit path;
// ones and 1 + 2^-70 in alternate columns make each row too wide for 64-bit integers (even
// after removing common factors), so the exact fallback runs.
TEST_CASE("core mutation kills: an error of exactly 1/2 fails on both evaluation paths") {
  Integer two70 = 1;
  two70 <<= 70;
  const std::vector<Token> tokens = cube(2);
  for (const Rational& odd_column : {Rational(1), 1 + make_rational(Integer(1), two70)}) {
    CAPTURE(odd_column);
    RationalMatrix kernel(tokens.size(), RationalVector(tokens.size(), Rational(1)));
    for (RationalVector& row : kernel)
      for (std::size_t j = 1; j < row.size(); j += 2) row[j] = odd_column;
    const RationalMatrix readout(tokens.size(), RationalVector(tokens.size(), Rational(1, 2)));
    const TabularModel model(2, tokens, kernel, readout);
    const EvalReport report = evaluate_token_set(model, tokens, 3, EvalOptions{});
    CHECK(report.instances == 4 * 4 * 4);
    CHECK(report.failing == report.instances);
    CHECK(report.undefined == 0);
    REQUIRE(report.max_error);
    CHECK(*report.max_error == Rational(3, 2));
  }
}
