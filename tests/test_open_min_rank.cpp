// The min-rank sweep for signed and multi-head models (issue 15): splits, the exact
// re-verification's negative controls, the padded upper bound, and a small search.
#include "kernelrank/eval/multi_head_eval.hpp"
#include "kernelrank/models/head_opener.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/multi_head.hpp"
#include "kernelrank/models/multi_head_io.hpp"
#include "kernelrank/search/open_min_rank.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

using namespace kernelrank;

namespace {

const std::string kMinRankDir = std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/min-rank";

std::shared_ptr<const Model> shipped_nk(int m, int r) {
  return std::shared_ptr<const Model>(read_model(kMinRankDir + "/min-rank-m" + std::to_string(m) +
                                                 "-NK-r" + std::to_string(r) + ".json"));
}

// Every H-tuple of positive parts summing to `total`, sorted descending and deduplicated:
// an independent enumeration of the splits.
std::set<std::vector<int>> splits_by_brute_force(int total, int heads) {
  std::set<std::vector<int>> out;
  if (total < heads) return out;  // every part is at least 1
  std::vector<int> parts(static_cast<std::size_t>(heads), 1);
  while (true) {
    int sum = 0;
    for (int p : parts) sum += p;
    if (sum == total) {
      std::vector<int> sorted = parts;
      std::sort(sorted.rbegin(), sorted.rend());
      out.insert(sorted);
    }
    std::size_t i = 0;
    while (i < parts.size() && parts[i] == total) parts[i++] = 1;
    if (i == parts.size()) break;
    ++parts[i];
  }
  return out;
}

RankModel constant_head(std::size_t size, const RationalMatrix& u, const RationalMatrix& v, int r) {
  RankModel head;
  head.r = r;
  head.query_features = u;
  head.key_features = v;
  head.readout.assign(size, RationalVector(size, Rational(0)));
  return head;
}

}  // namespace

TEST_CASE("feature splits are the partitions of the total into H positive parts") {
  for (int heads = 1; heads <= 4; ++heads)
    for (int total = 0; total <= 8; ++total) {
      const auto splits = feature_splits(total, heads);
      const std::set<std::vector<int>> listed(splits.begin(), splits.end());
      CHECK(listed.size() == splits.size());  // no split twice
      CHECK(listed == splits_by_brute_force(total, heads));
    }
  CHECK(feature_splits(4, 2) == std::vector<std::vector<int>>{{3, 1}, {2, 2}});
}

TEST_CASE("verify_multi_head rejects a kernel above its rank and a negative NK kernel") {
  const RankTask task = cube_rank_task(1, 3);  // tokens 0, 1
  // alpha = identity (rank 2) declared as one feature: the rank check must fail.
  RationalMatrix u{{Rational(1), Rational(0)}, {Rational(0), Rational(1)}};
  CandidateHeads two{constant_head(2, u, u, 2)};
  MultiHeadCheck check = verify_multi_head(task, two, {{1, false}});
  CHECK(check.kernel_rank == std::vector<std::size_t>{2});
  CHECK_FALSE(check.rank_ok);
  CHECK_FALSE(check.passes());
  // alpha(q, z) = -1 everywhere: fine for a signed head, not for an NK one.
  RationalMatrix ones{{Rational(1)}, {Rational(1)}}, minus{{Rational(-1)}, {Rational(-1)}};
  CandidateHeads negative{constant_head(2, ones, minus, 1)};
  CHECK_FALSE(verify_multi_head(task, negative, {{1, false}}).class_ok);
  CHECK(verify_multi_head(task, negative, {{1, true}}).class_ok);
  // Readout 0 everywhere: outputs 0, and token 1 queried against itself has target 1.
  CHECK_FALSE(verify_multi_head(task, negative, {{1, true}}).solves);
}

TEST_CASE("the padded upper bound is a verified multi-head model of the cube") {
  OpenMinRankOptions options;
  options.widths = {2};
  options.open_class = {2, false};
  options.seconds_per_total = 0;  // no search: the row rests on the padded model alone
  options.nk_models[2] = shipped_nk(2, 1);
  const std::vector<OpenRow> rows = compute_open_min_rank(options);
  REQUIRE(rows.size() == 1);
  const OpenRow& row = rows[0];
  CHECK(row.lower == 2);
  REQUIRE(row.upper);
  CHECK(*row.upper == 2);
  REQUIRE(row.model);
  // Totals 0 and 1 are refuted structurally; total 2 is the padded model.
  REQUIRE(row.cells.size() == 3);
  CHECK(row.cells[0].status == OpenCellStatus::RefutedStructural);
  CHECK(row.cells[1].status == OpenCellStatus::RefutedStructural);
  CHECK(row.cells[2].status == OpenCellStatus::Found);

  // Written out, read back through the file reader, evaluated on T(2,3): an independent path.
  const auto path = std::filesystem::temp_directory_path() / "kr-open-padded.multihead";
  {
    std::ofstream out(path);
    out << open_model_text(row, "test");
  }
  const MultiHeadModel model = *open_model(path.string()).multi_head;
  CHECK(model.head_count() == 2);
  const EvalReport report = evaluate_multi_head_cube(model, 2, 3, EvalOptions{});
  CHECK(report.instances == 64);
  CHECK(report.solves());
  std::filesystem::remove(path);
}

TEST_CASE("the proposal search finds a signed one-feature head for T(2,3), verified exactly") {
  const RankTask task = cube_rank_task(2, 3);
  MultiHeadProposalOptions options;
  options.restarts = 8;
  const MultiHeadSearchResult result = search_multi_head(task, {{1, true}}, options);
  REQUIRE(result.model);
  REQUIRE(result.check);
  CHECK(result.check->passes());
  CHECK(result.check->report.instances == 64);
  // Re-verified once more from the returned tables.
  CHECK(verify_multi_head(task, *result.model, {{1, true}}).passes());
}

TEST_CASE("every shipped open-question model solves its cube exactly with its feature count" *
          doctest::test_suite("slow")) {
  const std::string dir = std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/open";
  int seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find("-m") == std::string::npos) continue;
    CAPTURE(name);
    const int m = std::stoi(name.substr(name.find("-m") + 2));
    ++seen;
    if (entry.path().extension() == ".multihead") {
      const MultiHeadModel model = *open_model(entry.path().string()).multi_head;
      const EvalReport report = evaluate_multi_head_cube(model, m, 3, EvalOptions{});
      CHECK(report.instances == Integer(1) << (3 * m));
      CHECK(report.solves());
      // nkH-mM-r1+r2+...: H heads with those feature counts, each kernel >= 0.
      const std::string split = name.substr(name.find('-', name.find("-m") + 1) + 1);
      int heads = 1;
      for (char c : split) heads += c == '+';
      CHECK(static_cast<int>(model.head_count()) == heads);
      for (std::size_t h = 0; h < model.head_count(); ++h)
        CHECK(model.head(h).classify().model_class != ModelClass::Signed);
    } else {
      const auto model = read_model(entry.path().string());
      const EvalReport report = evaluate_cube(*model, m, 3, EvalOptions{});
      CHECK(report.instances == Integer(1) << (3 * m));
      CHECK(report.solves());
      const int r = std::stoi(name.substr(name.find("-r") + 2));
      REQUIRE(model->feature_count());
      CHECK(*model->feature_count() == r);
    }
  }
  CHECK(seen > 0);
}

TEST_CASE("a signed rank-1 head is refuted at m = 4 by Z3, and the refutation is inherited" *
          doctest::test_suite("slow")) {
  OpenMinRankOptions options;
  options.widths = {4, 5};
  options.open_class = {1, true};
  options.seconds_per_total = 1;
  options.z3_seconds = 120;  // m = 4, r = 1 takes about 20 s of Z3
  options.max_total = 1;     // m = 5, r = 2 is not searched
  options.proposal.restarts = 1;
  options.nk_models[4] = shipped_nk(4, 2);
  options.nk_models[5] = shipped_nk(5, 3);
  const std::vector<OpenRow> rows = compute_open_min_rank(options);
  REQUIRE(rows.size() == 2);
  // m = 4: r = 1 refuted by both encodings, r = 2 the NK model: settled at 2.
  REQUIRE(rows[0].cells.size() == 3);
  CHECK(rows[0].cells[1].status == OpenCellStatus::RefutedZ3);
  CHECK(rows[0].cells[1].label == "refuted (corroborated: E1 and E2 unsat)");
  CHECK(rows[0].lower == 2);
  REQUIRE(rows[0].upper);
  CHECK(*rows[0].upper == 2);
  // m = 5: r = 1 inherited (T(4,3) is T(5,3) with a coordinate fixed), not searched again.
  REQUIRE(rows[1].cells.size() == 3);
  CHECK(rows[1].cells[1].status == OpenCellStatus::RefutedInherited);
  CHECK(rows[1].cells[1].label == "inherited from m = 4: refuted (corroborated: E1 and E2 unsat)");
  CHECK(rows[1].lower == 2);
  REQUIRE(rows[1].upper);
  CHECK(*rows[1].upper == 3);  // the padded NK model; total 2 was not searched
  CHECK(rows[1].cells[2].total == 3);
}
