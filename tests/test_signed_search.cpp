// The rank search on signed kernels (issue 15): the Z3 encodings and the exact completion
// without alpha >= 0, checked against tasks whose answer is known independently.
#include "kernelrank/search/rank_search.hpp"

#include "oracle/naive_model.hpp"

#include <doctest/doctest.h>

using namespace kernelrank;

namespace {

SearchOptions z3_only(int r) {
  SearchOptions options;
  options.r = r;
  options.search_class = SearchClass::Signed;
  options.isolate = false;
  options.timeout_seconds = 120;
  options.heuristic = false;  // the encodings do the work
  options.lemmas = false;
  return options;
}

// L2's three instances for q = 110, a = 001, b = 111 (instances/models/signed/).
Family l2_family() {
  Family family;
  family.m = 3;
  family.n = 3;
  const Token q = parse_token("110"), a = parse_token("001"), b = parse_token("111");
  family.instances = {{{q, a, a}, 0}, {{q, b, b}, 0}, {{q, a, b}, 0}};
  return family;
}

}  // namespace

TEST_CASE("signed search: the shipped L2 counterexample is a verified signed rank-1 model") {
  const RankTask task = family_rank_task(l2_family(), "l2");
  // Kernel row of q = (W, A, B) = (-1, -1, 1) as u_q = 1 times v; readout (0, 2/3, 1).
  RankModel model;
  model.r = 1;
  const std::size_t size = task.tokens.size();
  model.query_features.assign(size, RationalVector{Rational(1)});
  model.key_features.assign(size, RationalVector{Rational(1)});
  model.readout.assign(size, RationalVector(size, Rational(0)));
  const auto index = [&](const char* text) {
    for (std::size_t i = 0; i < size; ++i)
      if (task.tokens[i] == parse_token(text)) return i;
    FAIL("token missing");
    return size;
  };
  const std::size_t q = index("110"), a = index("001"), b = index("111");
  model.key_features[q][0] = -1;
  model.key_features[a][0] = -1;
  model.readout[q] = RationalVector(size, Rational(0));
  model.readout[q][a] = Rational(2, 3);
  model.readout[q][b] = 1;
  const ModelCheck check = verify_rank_model(task, model, SearchClass::Signed);
  CHECK(check.passes());
  CHECK(check.report.negative_solved == 2);  // D1 = -3 and D3 = -1
  CHECK_FALSE(verify_rank_model(task, model, SearchClass::NK).class_ok);
  for (const Instance& instance : l2_family().instances)
    CHECK_FALSE(oracle::naive_rank_outcome(task.tokens, model, instance).fails);
  // Z3 alone finds a rank-1 signed model of the same three instances.
  const SearchResult found = search_rank(task, z3_only(1));
  REQUIRE(found.verdict == SearchVerdict::Found);
  for (const Instance& instance : l2_family().instances)
    CHECK_FALSE(oracle::naive_rank_outcome(task.tokens, *found.model, instance).fails);
}

TEST_CASE("signed search: Z3 alone finds rank-1 signed models of T(m,3) for m <= 2") {
  for (int m = 1; m <= 2; ++m) {
    CAPTURE(m);
    const RankTask task = cube_rank_task(m, 3);
    const SearchResult result = search_rank(task, z3_only(1));
    REQUIRE(result.verdict == SearchVerdict::Found);
    REQUIRE(result.model);
    const oracle::NaiveSweep sweep = oracle::naive_cube_sweep(m, 3, [&](const Instance& instance) {
      return oracle::naive_rank_outcome(task.tokens, *result.model, instance);
    });
    CHECK(sweep.solves());
    CHECK(sweep.instances == std::uint64_t{1} << (3 * m));
  }
}

TEST_CASE("signed search: no exact argument is claimed, and rank 1 on T(4,3) is refuted by Z3" *
          doctest::test_suite("slow")) {
  const RankTask task = cube_rank_task(4, 3);
  SearchOptions options = z3_only(1);
  options.exact_arguments = true;  // must be ignored: the order argument needs alpha >= 0
  const SearchResult result = search_rank(task, options);
  CHECK_FALSE(result.order);
  CHECK_FALSE(result.certificate_text);
  CHECK(result.verdict == SearchVerdict::Refuted);
  CHECK(result.label == "refuted (corroborated: E1 and E2 unsat)");
}

TEST_CASE("signed search: the m = 4 order family refutes rank 1 for signed kernels too") {
  // Every ordered instance over the two tokens q = 1100, a = 0011 of the m = 4 order
  // argument (query first). NK: the order argument. Signed, by hand: rank 1 gives query q
  // the key weights v_z up to a common factor; with rho = v_a / v_q, f = F_q(q) (|f - 2| <
  // 1/2 from (q,q,q)) and g = F_q(a), the targets 0 of (q,q,a) and (q,a,a) ask
  // |2f + rho g| < |2 + rho| / 2 and |f + 2 rho g| < |1 + 2 rho| / 2, whose combination
  // 3f = 2(2f + rho g) - (f + 2 rho g) forces |2 + rho| + |1 + 2 rho| / 2 > 9/2, i.e.
  // rho > 1 or rho < -7/2. Query a asks the same of 1 / rho: no rho does both.
  Family family;
  family.m = 4;
  family.n = 3;
  const std::vector<Token> tokens = {parse_token("1100"), parse_token("0011")};
  for (const Token& x : tokens)
    for (const Token& y : tokens)
      for (const Token& z : tokens) family.instances.push_back({{x, y, z}, 0});
  const RankTask task = family_rank_task(family, "order-m4");

  SearchOptions nk = z3_only(1);
  nk.search_class = SearchClass::NK;
  nk.exact_arguments = true;
  const SearchResult nk_result = search_rank(task, nk);
  CHECK(nk_result.verdict == SearchVerdict::Refuted);
  CHECK(nk_result.order);

  const SearchResult signed_result = search_rank(task, z3_only(1));
  CHECK(signed_result.verdict == SearchVerdict::Refuted);
  CHECK(signed_result.label == "refuted (corroborated: E1 and E2 unsat)");

  // Two features separate the two query rows, and the encoding finds a model.
  const SearchResult found = search_rank(task, z3_only(2));
  REQUIRE(found.verdict == SearchVerdict::Found);
  REQUIRE(found.model);
  for (const Instance& instance : family.instances)
    CHECK_FALSE(oracle::naive_rank_outcome(task.tokens, *found.model, instance).fails);
}
