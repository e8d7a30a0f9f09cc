// The rank search (issue 5): row instances, the order argument, exact
// completion and re-verification, both Z3 encodings and their cross-check,
// the child-process limits and the minimal-rank table on small cubes.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/child_process.hpp"
#include "kernelrank/search/min_rank.hpp"
#include "kernelrank/search/rank_search.hpp"
#include "search/cvc5/cvc5_process.hpp"

#include "oracle/naive_model.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <thread>

using namespace kernelrank;

namespace {

SearchOptions quick_options(int r, SearchClass search_class) {
  SearchOptions options;
  options.r = r;
  options.search_class = search_class;
  options.isolate = false;  // in process: faster, and the exceptions surface directly
  options.timeout_seconds = 120;
  options.heuristic_options.restarts = 2;
  options.heuristic_options.iterations = 5000;
  return options;
}

// Independent re-verification of a found model inside the test, through the naive oracle
// (tests/oracle/naive_model.hpp) and not through the search's own path (to_tabular_model,
// evaluate_cube, exact_rank): the U, V, F matrices evaluated from the definition on every
// ordered instance of T(m,3) (query at position 1, enumerated by the oracle's own odometer),
// the kernel table summed here by hand, its rank by plain elimination, and the class
// condition entry by entry.
void check_model_independently(const RankTask& task, const RankModel& model, int r,
                               SearchClass search_class) {
  const oracle::NaiveSweep sweep =
      oracle::naive_cube_sweep(task.m, 3, [&](const Instance& instance) {
        return oracle::naive_rank_outcome(task.tokens, model, instance);
      });
  CHECK(sweep.solves());
  CHECK(sweep.instances == std::uint64_t{1} << (3 * task.m));
  CHECK(sweep.undefined == 0);
  REQUIRE(sweep.max_error);
  CHECK(*sweep.max_error < Rational(1, 2));
  const std::size_t size = task.tokens.size();
  RationalMatrix alpha(size, RationalVector(size, Rational(0)));
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t j = 0; j < size; ++j)
      for (int k = 0; k < r; ++k)
        alpha[i][j] += model.query_features[i][static_cast<std::size_t>(k)] *
                       model.key_features[j][static_cast<std::size_t>(k)];
  CHECK(oracle::naive_rank(alpha) <= static_cast<std::size_t>(r));
  for (std::size_t i = 0; i < size; ++i)
    for (std::size_t j = 0; j < size; ++j) CHECK(alpha[i][j] >= 0);
  if (search_class == SearchClass::PF)
    for (std::size_t i = 0; i < task.tokens.size(); ++i)
      for (int k = 0; k < r; ++k) {
        CHECK(model.query_features[i][static_cast<std::size_t>(k)] >= 0);
        CHECK(model.key_features[i][static_cast<std::size_t>(k)] >= 0);
      }
}

Token tok(const char* text) { return parse_token(text); }

// Six instances at m = 4 that no rank-1 model solves: for query 0011 the key
// 1100 must outweigh 0011 (gap 2) and for query 1100 the reverse.
Family rank_one_contradiction() {
  Family family;
  family.m = 4;
  family.n = 3;
  for (const char* q : {"0011", "1100"}) {
    const Token query = tok(q), own = tok(q), other = query.complement();
    family.instances.push_back({{query, own, own}, 0});
    family.instances.push_back({{query, other, other}, 0});
    family.instances.push_back({{query, own, other}, 0});
  }
  return family;
}

}  // namespace

TEST_CASE("search: the cube task deduplicates to query x key-multiset row instances") {
  for (int m = 1; m <= 4; ++m) {
    const RankTask task = cube_rank_task(m, 3);
    const std::size_t size = std::size_t{1} << m;
    // 2^m queries times multisets {a, b} of two keys: C(2^m + 1, 2).
    CHECK(task.instances.size() == size * (size * (size + 1) / 2));
    CHECK(task.tokens.size() == size);
  }
  const RankTask t4 = cube_rank_task(4, 3);
  // The instance (q = 1110; 0110, 1000): keys sorted by index 6, 8, 14; target min(2, 1) = 1.
  RankInstance probe;
  probe.query = 14;
  probe.keys = {6, 8, 14};
  probe.target = 1;
  CHECK(std::find(t4.instances.begin(), t4.instances.end(), probe) != t4.instances.end());
  // A family with the same sequence written twice and in two orders merges.
  Family family;
  family.m = 2;
  family.n = 3;
  family.instances.push_back({{tok("11"), tok("01"), tok("10")}, 0});
  family.instances.push_back({{tok("11"), tok("10"), tok("01")}, 0});
  family.instances.push_back({{tok("01"), tok("11"), tok("10")}, 1});  // query 11 at position 2
  const RankTask ft = family_rank_task(family, "f");
  CHECK(ft.instances.size() == 1);
  CHECK(ft.instances[0].target == 1);
  CHECK(ft.tokens.size() == 3);
  CHECK_THROWS_AS(cube_rank_task(0, 3), UsageError);
  CHECK_THROWS_AS(parse_search_class("XX"), UsageError);
  SearchOptions bad = quick_options(-1, SearchClass::NK);
  CHECK_THROWS_AS(search_rank(t4, bad), UsageError);
}

TEST_CASE("search: r = 1 models of T(m,3) for m <= 3 pass independent exact re-verification") {
  for (int m = 1; m <= 3; ++m)
    for (SearchClass c : {SearchClass::NK, SearchClass::PF}) {
      CAPTURE(m);
      const RankTask task = cube_rank_task(m, 3);
      const SearchResult result = search_rank(task, quick_options(1, c));
      REQUIRE(result.verdict == SearchVerdict::Found);
      REQUIRE(result.model);
      CHECK(result.check->passes());
      check_model_independently(task, *result.model, 1, c);
    }
}

TEST_CASE("search: the Z3 path alone finds a rank-2 PF model of T(4,3) that verifies exactly" *
          doctest::test_suite("slow")) {
  const RankTask task = cube_rank_task(4, 3);
  SearchOptions options = quick_options(2, SearchClass::PF);
  options.heuristic = false;
  const SearchResult result = search_rank(task, options);
  REQUIRE(result.verdict == SearchVerdict::Found);
  REQUIRE(result.z3.size() == 1);
  CHECK(result.z3[0].encoding == "E1");
  CHECK(result.z3[0].answer == "sat");
  // The counterexample-guided subset stays far below the 2176 row instances.
  CHECK(result.z3[0].working_instances < 1000);
  check_model_independently(task, *result.model, 2, SearchClass::PF);
  // Written and read back, the tabular file is the same model: its tables give, instance by
  // instance, the naive oracle's outputs of U, V, F. So does the feature form, which declares
  // r = 2 features and is PF.
  const TabularModel tabular = to_tabular_model(task, *result.model);
  const auto reread = parse_model("m.json", tabular_model_to_json(tabular));
  const auto* reread_table = dynamic_cast<const TabularModel*>(reread.get());
  REQUIRE(reread_table);
  const auto features = parse_model("m.features", features_model_text(task, *result.model, "test"));
  CHECK(features->feature_count() == 2);
  CHECK(features->classify().model_class == ModelClass::PositiveFeatures);
  std::uint64_t differing = 0;
  const oracle::NaiveSweep sweep = oracle::naive_cube_sweep(4, 3, [&](const Instance& instance) {
    const oracle::NaiveOutcome direct =
        oracle::naive_rank_outcome(task.tokens, *result.model, instance);
    const oracle::NaiveOutcome from_file = oracle::naive_table_outcome(*reread_table, instance);
    const oracle::NaiveOutcome from_features = oracle::naive_model_outcome(*features, instance);
    if (from_file.output != direct.output || from_features.output != direct.output) ++differing;
    return from_file;
  });
  CHECK(differing == 0);
  CHECK(sweep.solves());
  CHECK(sweep.instances == 4096);
}

TEST_CASE(
    "search: r = 1 at m = 4 is refuted by the certificate, the order argument and both encodings") {
  const RankTask task = cube_rank_task(4, 3);
  const SearchResult result = search_rank(task, quick_options(1, SearchClass::NK));
  CHECK(result.verdict == SearchVerdict::Refuted);
  CHECK(result.label == "refuted (certified)");
  REQUIRE(result.certificate);
  CHECK(result.certificate->bound == 2);
  REQUIRE(result.order);
  CHECK(result.order->refuted);
  REQUIRE(result.z3.size() == 2);
  CHECK(result.z3[0].answer == "unsat");
  CHECK(result.z3[1].encoding == "E2");
  CHECK(result.z3[1].answer == "unsat");
  CHECK(!result.heuristic_ran);
}

TEST_CASE("search: a small unsatisfiable family is refuted by two encodings (Z3 alone)") {
  const RankTask task = family_rank_task(rank_one_contradiction(), "contradiction");
  SearchOptions options = quick_options(1, SearchClass::NK);
  options.exact_arguments = false;  // make Z3 do the work
  options.heuristic = false;
  const SearchResult result = search_rank(task, options);
  CHECK(result.verdict == SearchVerdict::Refuted);
  CHECK(result.label == "refuted (corroborated: E1 and E2 unsat)");
  REQUIRE(result.z3.size() == 2);
  CHECK(result.z3[0].answer == "unsat");
  CHECK(result.z3[1].answer == "unsat");
  // The order argument refutes it too, and rank 2 solves it.
  CHECK(order_argument(task, 1, SearchClass::NK).refuted);
  const std::vector<DominationFact> facts = domination_facts(task);
  REQUIRE(facts.size() == 2);
  CHECK(task.tokens[facts[0].larger] == task.tokens[facts[0].query].complement());
  // Without S2 = (0011, 0011, 0011) the fact for query 0011 is not available.
  Family partial = rank_one_contradiction();
  partial.instances.erase(partial.instances.begin());
  const RankTask partial_task = family_rank_task(partial, "partial");
  CHECK(domination_facts(partial_task).size() == 1);
  CHECK(!order_argument(partial_task, 1, SearchClass::NK).refuted);
  const SearchResult two = search_rank(task, quick_options(2, SearchClass::NK));
  REQUIRE(two.verdict == SearchVerdict::Found);
  // Checked by the naive oracle on the six instances, from U, V, F directly.
  for (const Instance& instance : rank_one_contradiction().instances)
    CHECK_FALSE(oracle::naive_rank_outcome(task.tokens, *two.model, instance).fails);
}

TEST_CASE("search: a planted disagreement between the encodings is an internal error") {
  // The family is satisfiable at r = 2; E1 gets a contradictory constraint, so
  // it answers unsat, E2 finds a model of the same subset that verifies exactly.
  const RankTask task = family_rank_task(rank_one_contradiction(), "contradiction");
  SearchOptions options = quick_options(2, SearchClass::NK);
  options.exact_arguments = false;
  options.heuristic = false;
  options.plant_disagreement = true;
  CHECK_THROWS_AS(search_rank(task, options), InternalError);
  try {
    search_rank(task, options);
  } catch (const InternalError& e) {
    CHECK(std::string(e.what()).find("encodings disagree") != std::string::npos);
  }
  // Without the hook the same search succeeds.
  options.plant_disagreement = false;
  CHECK(search_rank(task, options).verdict == SearchVerdict::Found);
}

TEST_CASE("search: the order argument refutes r = 2 at m = 5 with an odd cycle, and not at m = 4") {
  const RankTask t5 = cube_rank_task(5, 3);
  const OrderArgument order = order_argument(t5, 2, SearchClass::NK);
  REQUIRE(order.applicable);
  REQUIRE(order.refuted);
  // Each listed preference is a real L2 consequence: gap <q,b> - <q,a> >= 2.
  for (const PairSeparation& p : order.core) {
    for (std::uint32_t q : p.prefer_a)
      CHECK(inner(t5.tokens[q], t5.tokens[p.b]) - inner(t5.tokens[q], t5.tokens[p.a]) >= 2);
    for (std::uint32_t q : p.prefer_b)
      CHECK(inner(t5.tokens[q], t5.tokens[p.a]) - inner(t5.tokens[q], t5.tokens[p.b]) >= 2);
  }
  std::uint64_t nodes = 0;
  CHECK(!separations_consistent(order.core, t5.tokens.size(), nodes, 1'000'000));
  // Minimal: dropping any pair leaves a consistent order.
  for (std::size_t i = 0; i < order.core.size(); ++i) {
    std::vector<PairSeparation> fewer = order.core;
    fewer.erase(fewer.begin() + static_cast<std::ptrdiff_t>(i));
    CHECK(separations_consistent(fewer, t5.tokens.size(), nodes, 1'000'000));
  }
  // The hand proof: five pairs whose lone queries form a 5-cycle of "must not
  // lie between its two neighbours" constraints, impossible on an odd cycle.
  CHECK(order.core.size() == 5);
  // At m = 4 a rank-2 model exists, so the argument must not refute it.
  const OrderArgument order4 = order_argument(cube_rank_task(4, 3), 2, SearchClass::NK);
  CHECK(order4.applicable);
  CHECK(!order4.refuted);
  // The separation check on a toy: "x is not between y and z", "y is not between
  // x and z" and "z is not between x and y" cannot all hold (some element is in
  // the middle); any two of them can.
  std::vector<PairSeparation> toy(3);
  toy[0] = {0, 1, {0}, {1, 2}};
  toy[1] = {0, 1, {1}, {0, 2}};
  toy[2] = {0, 1, {2}, {0, 1}};
  CHECK(!separations_consistent(toy, 3, nodes, 1000));
  toy.pop_back();  // x < z < y
  CHECK(separations_consistent(toy, 3, nodes, 1000));
}

TEST_CASE("search: r = 3 at m = 5 is found and r = 2 refuted exactly" *
          doctest::test_suite("slow")) {
  const RankTask task = cube_rank_task(5, 3);
  SearchOptions options = quick_options(3, SearchClass::PF);
  options.heuristic_options.restarts = 4;
  options.heuristic_options.iterations = 20000;
  options.z3 = false;
  const SearchResult found = search_rank(task, options);
  REQUIRE(found.verdict == SearchVerdict::Found);
  check_model_independently(task, *found.model, 3, SearchClass::PF);
  SearchOptions two = quick_options(2, SearchClass::NK);
  two.cross_check = false;
  const SearchResult refuted = search_rank(task, two);
  CHECK(refuted.verdict == SearchVerdict::Refuted);
  CHECK(refuted.label == "refuted (certified)");
  CHECK(refuted.z3.empty());
}

TEST_CASE("search: the child process reports results, exceptions, timeouts and memory limits") {
  ChildLimits limits;
  limits.wall_seconds = 20;
  limits.address_space_mb = 1024;
  const ChildOutcome ok = run_in_child([] { return std::string("hello"); }, limits);
  CHECK(ok.status == ChildStatus::Completed);
  CHECK(ok.output == "hello");
  CHECK_THROWS_AS(run_in_child([]() -> std::string { throw InternalError("boom"); }, limits),
                  InternalError);
  CHECK_THROWS_AS(run_in_child([]() -> std::string { throw ResourceError("full"); }, limits),
                  ResourceError);
  // Allocating far beyond the address-space limit is a resource error.
  if (address_space_limit_supported())
    CHECK_THROWS_AS(run_in_child(
                        [] {
                          std::vector<std::vector<char>> hog;
                          for (int i = 0; i < 64; ++i) hog.emplace_back(std::size_t{64} << 20, 'x');
                          return std::to_string(hog.size());
                        },
                        limits),
                    ResourceError);
  ChildLimits short_limits;
  short_limits.wall_seconds = 0.5;
  const ChildOutcome slow = run_in_child(
      [] {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return std::string("late");
      },
      short_limits);
  CHECK(slow.status == ChildStatus::TimedOut);
  CHECK(slow.seconds < 10);
}

TEST_CASE("search: an isolated search gives the same verdict as an in-process one") {
  const RankTask task = cube_rank_task(3, 3);
  SearchOptions options = quick_options(1, SearchClass::NK);
  options.isolate = true;
  options.memory_mb = 4096;
  const SearchResult result = search_rank(task, options);
  CHECK(result.verdict == SearchVerdict::Found);
  CHECK(result.solver_status == "completed");
  CHECK(!result.z3_version.empty());
}

TEST_CASE("search: the minimal-rank table for m <= 4" * doctest::test_suite("slow")) {
  MinRankOptions options;
  options.m_max = 4;
  options.classes = {SearchClass::NK};
  options.search = quick_options(1, SearchClass::NK);
  const MinRankTable table = compute_min_rank(options);
  REQUIRE(table.rows.size() == 4);
  for (const MinRankRow& row : table.rows) {
    CAPTURE(row.m);
    CHECK(row.settled());
    CHECK(row.lower == (row.m <= 3 ? 1 : 2));
  }
  // m = 4: r = 0 inherited, r = 1 refuted here (certified), r = 2 found.
  const MinRankRow& m4 = table.rows[3];
  REQUIRE(m4.cells.size() == 3);
  CHECK(m4.cells[0].status == CellStatus::RefutedInherited);
  CHECK(m4.cells[1].r == 1);
  CHECK(m4.cells[1].status == CellStatus::RefutedCertified);
  CHECK(m4.cells[2].status == CellStatus::Found);
}

TEST_CASE("search: the shipped min-rank models solve their tasks exactly") {
  const std::filesystem::path dir =
      std::filesystem::path(KERNELRANK_SOURCE_DIR) / "instances/models/min-rank";
  REQUIRE(std::filesystem::exists(dir));
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();  // min-rank-m5-NK-r3.json
    const int m = std::stoi(name.substr(name.find("-m") + 2));
    const int r = std::stoi(name.substr(name.rfind("-r") + 2));
    CAPTURE(name);
    const auto model = read_model(entry.path().string());
    CHECK(model->width() == m);
    CHECK(evaluate_cube(*model, m, 3, EvalOptions{}).solves());
    const auto* tabular = dynamic_cast<const TabularModel*>(model.get());
    REQUIRE(tabular);
    CHECK(exact_rank(tabular->kernel_table()) == static_cast<std::size_t>(r));
    CHECK(model->classify().model_class != ModelClass::Signed);
    // The feature form next to it declares r features.
    std::filesystem::path features = entry.path();
    features.replace_extension(".features");
    const auto feature_model = read_model(features.string());
    CHECK(feature_model->feature_count() == r);
    if (name.find("-PF-") != std::string::npos)
      CHECK(feature_model->classify().model_class == ModelClass::PositiveFeatures);
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("search: cvc5's answers and model values are read exactly, or not at all") {
  using kernelrank::detail::parse_cvc5_output;
  const auto sat =
      parse_cvc5_output("sat\n((|v_(0,1)_1| (/ 1 3)) (v_2 (- 2.5)) (w 0.0) (x (- (/ 7 2))))\n", 4);
  CHECK(sat.answer == "sat");
  REQUIRE(sat.values.size() == 4);
  CHECK(sat.values[0] == kernelrank::parse_rational("1/3"));
  CHECK(sat.values[1] == kernelrank::parse_rational("-5/2"));
  CHECK(sat.values[2] == 0);
  CHECK(sat.values[3] == kernelrank::parse_rational("-7/2"));
  CHECK(parse_cvc5_output("unsat\n(error \"Cannot get value\")\n", 2).answer == "unsat");
  CHECK(parse_cvc5_output("unknown\n", 1).answer == "unknown");
  CHECK(parse_cvc5_output("", 1).answer == "unknown");
  // An irrational algebraic value is never approximated: the answer becomes unknown.
  const auto algebraic =
      parse_cvc5_output("sat\n((y (_ real_algebraic_number <1*x^2 + -2, (1, 2)>)))\n", 1);
  CHECK(algebraic.answer == "unknown");
  CHECK(algebraic.values.empty());
  CHECK(parse_cvc5_output("sat\n((a 1))\n", 2).answer == "unknown");
  CHECK(parse_cvc5_output("sat\n((a 1)\n", 1).answer == "unknown");
}

TEST_CASE("search: --solver values are parsed, and a bogus one is a usage error naming it") {
  CHECK(kernelrank::parse_smt_solver("both") == kernelrank::SmtSolver::Both);
  // The library names the parameter {solver}; the CLI renders it --solver (search_solver_cli).
  try {
    (void)kernelrank::parse_smt_solver("bogus");
    FAIL("a bogus solver was accepted");
  } catch (const kernelrank::DomainError& e) {
    CHECK(e.pattern() == "{solver} must be z3, cvc5 or both, not 'bogus'");
    CHECK(e.render([](const std::string& name) { return "--" + name; }) ==
          "--solver must be z3, cvc5 or both, not 'bogus'");
  }
}
