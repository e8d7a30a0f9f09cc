// The naive model oracle (tests/oracle/naive_model.hpp) against values worked out by hand, so
// that the tests using it as their independent check rest on something checked itself.
#include "kernelrank/models/model_forms.hpp"

#include "oracle/naive_model.hpp"

#include <doctest/doctest.h>

using namespace kernelrank;

namespace {

// m = 1, tokens 0 and 1 (in that order); kernel [[1, 2], [3, 4]], readout [[0, 1], [1, 0]].
TabularModel tiny_table() {
  const std::vector<Token> tokens = {parse_token("0"), parse_token("1")};
  const RationalMatrix kernel = {{Rational(1), Rational(2)}, {Rational(3), Rational(4)}};
  const RationalMatrix readout = {{Rational(0), Rational(1)}, {Rational(1), Rational(0)}};
  return TabularModel(1, tokens, kernel, readout);
}

// The same model as U, V, F: U = I and V = kernel^T give sum_k U[a][k] V[b][k] = kernel[a][b].
RankModel tiny_rank_model() {
  RankModel model;
  model.r = 2;
  model.query_features = {{Rational(1), Rational(0)}, {Rational(0), Rational(1)}};
  model.key_features = {{Rational(1), Rational(3)}, {Rational(2), Rational(4)}};
  model.readout = {{Rational(0), Rational(1)}, {Rational(1), Rational(0)}};
  return model;
}

Instance instance_of(std::vector<const char*> tokens, int query) {
  Instance instance;
  for (const char* t : tokens) instance.tokens.push_back(parse_token(t));
  instance.query = query;
  return instance;
}

}  // namespace

TEST_CASE("naive model oracle: overlaps and targets by hand") {
  CHECK(oracle::naive_overlap(parse_token("0110"), parse_token("0011")) == 1);
  CHECK(oracle::naive_overlap(parse_token("1111"), parse_token("1011")) == 3);
  // Query 0111 at position 2: overlaps with 1100, 0111, 0011 are 1, 3, 2; the minimum is 1.
  CHECK(oracle::naive_target(instance_of({"1100", "0111", "0011"}, 1)) == 1);
}

TEST_CASE("naive model oracle: one instance through the three paths") {
  const TabularModel table = tiny_table();
  const RankModel rank = tiny_rank_model();
  const std::vector<Token> tokens = table.tokens();
  // q = 1, keys (1, 0): y = (alpha(1,1) F_1(1) + alpha(1,0) F_1(0)) / (4 + 3) = (0 + 3) / 7;
  // target min(<1,1>, <1,0>) = 0, error 3/7 < 1/2: it passes.
  const Instance passes = instance_of({"1", "0"}, 0);
  for (const oracle::NaiveOutcome& outcome :
       {oracle::naive_table_outcome(table, passes), oracle::naive_model_outcome(table, passes),
        oracle::naive_rank_outcome(tokens, rank, passes)}) {
    REQUIRE(outcome.output);
    CHECK(*outcome.output == Rational(3, 7));
    CHECK(outcome.target == 0);
    CHECK_FALSE(outcome.fails);
  }
  // q = 0, keys (0, 1): y = (1*0 + 2*1) / 3 = 2/3 against target 0: it fails.
  const oracle::NaiveOutcome fails =
      oracle::naive_rank_outcome(tokens, rank, instance_of({"0", "1"}, 0));
  REQUIRE(fails.output);
  CHECK(*fails.output == Rational(2, 3));
  CHECK(fails.fails);
  // A zero kernel row: the output is undefined, which fails.
  RankModel zero = rank;
  zero.query_features[1] = {Rational(0), Rational(0)};
  const oracle::NaiveOutcome undefined = oracle::naive_rank_outcome(tokens, zero, passes);
  CHECK_FALSE(undefined.output);
  CHECK(undefined.fails);
}

TEST_CASE("naive model oracle: the cube sweep of T(1,2) and plain ranks") {
  // The four instances with the query first: (0,0): y = F_0(0) = 0, t = 0; (0,1): y = 2/3,
  // t = 0, fails; (1,0): y = 3/7, t = 0; (1,1): y = F_1(1) = 0, t = 1, error 1, fails.
  const TabularModel table = tiny_table();
  const oracle::NaiveSweep sweep = oracle::naive_cube_sweep(
      1, 2, [&](const Instance& i) { return oracle::naive_table_outcome(table, i); });
  CHECK(sweep.instances == 4);
  CHECK(sweep.failing == 2);
  CHECK(sweep.undefined == 0);
  REQUIRE(sweep.max_error);
  CHECK(*sweep.max_error == 1);
  CHECK_FALSE(sweep.solves());
  // Both query positions: (0,1) queried at 2 is q = 1, keys (0, 1): y = (3*1 + 4*0)/7 = 3/7,
  // t = 0; (1,0) queried at 2 is q = 0: y = (2*1 + 1*0)/3 = 2/3, fails. 8 instances, 4 failing.
  const oracle::NaiveSweep both = oracle::naive_cube_sweep(
      1, 2, [&](const Instance& i) { return oracle::naive_table_outcome(table, i); }, {0, 1});
  CHECK(both.instances == 8);
  CHECK(both.failing == 4);
  CHECK(oracle::naive_rank({{Rational(1), Rational(2)}, {Rational(2), Rational(4)}}) == 1);
  CHECK(oracle::naive_rank({{Rational(1), Rational(2)}, {Rational(3), Rational(4)}}) == 2);
  CHECK(oracle::naive_rank({{Rational(0), Rational(0)}, {Rational(0), Rational(0)}}) == 0);
  CHECK(oracle::naive_rank({{Rational(0), Rational(1), Rational(1)},
                            {Rational(0), Rational(2), Rational(2)},
                            {Rational(1), Rational(0), Rational(1)}}) == 2);
}
