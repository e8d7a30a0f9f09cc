// Refutations are "certified" only through a certificate that the checker's library
// verifies: the order argument (format 2), inheritance, the one-row bound, and the bound
// command's choice among its sources. Every certificate here goes to the real checker.
#include "kernelrank/bounds/bound_sources.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/refutation_certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/search/rank_search.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

using namespace kernelrank;

namespace {

SearchOptions exact_only(int r, SearchClass search_class) {
  SearchOptions options;
  options.r = r;
  options.search_class = search_class;
  options.isolate = false;
  options.heuristic = false;
  options.z3 = false;
  return options;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The certificate without its keypair line `drop` (0-based among the keypair lines).
std::string without_keypair(const std::string& text, std::size_t drop) {
  std::vector<std::string> out;
  std::size_t seen = 0, kept = 0;
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("keypair ", 0) == 0 && seen++ == drop) continue;
    if (line.rfind("keypair ", 0) == 0) ++kept;
    out.push_back(line);
  }
  for (std::string& line : out)
    if (line.rfind("core ", 0) == 0) line = "core " + std::to_string(kept);
  return join(out);
}

BoundSearchOptions bound_options(int m) {
  BoundSearchOptions options;
  options.m = m;
  options.n = 3;
  return options;
}

CertificateTask nk_task(int m) {
  CertificateTask task;
  task.m = m;
  task.n = 3;
  return task;
}

}  // namespace

TEST_CASE(
    "search: the order argument at m = 5, r = 2 comes with a certificate the checker verifies") {
  for (SearchClass search_class : {SearchClass::NK, SearchClass::PF}) {
    const SearchResult result = search_rank(cube_rank_task(5, 3), exact_only(2, search_class));
    CHECK(result.label == "refuted (certified)");
    REQUIRE(result.certificate_text);
    CHECK(result.certificate_rule == "order");
    const CheckerVerdict verdict = run_checker(result.certificate_text->text(), std::nullopt);
    CHECK(verdict.verified);
    CHECK(verdict.bound == "3");
    CHECK(result.certificate_text->text().find(
              search_class == SearchClass::PF ? "class=PF" : "class=NK") != std::string::npos);
  }
}

TEST_CASE(
    "the m = 5 core is minimal: without any one key pair the checker finds a consistent order") {
  // The producer minimised the core with its own search; the checker decides each
  // sub-core with its own code, so the two agree or this fails.
  const SearchResult result = search_rank(cube_rank_task(5, 3), exact_only(2, SearchClass::NK));
  REQUIRE(result.certificate_text);
  REQUIRE(result.order);
  const std::size_t pairs = result.order->core.size();
  REQUIRE(pairs >= 3);  // an odd cycle needs at least three pairs
  for (std::size_t drop = 0; drop < pairs; ++drop) {
    const CheckerVerdict verdict =
        run_checker(without_keypair(result.certificate_text->text(), drop), std::nullopt);
    CHECK_FALSE(verdict.verified);
    CHECK(verdict.diagnostics.find("not contradictory") != std::string::npos);
  }
}

TEST_CASE("search: r = 1 at m = 4 and r = 0 are certified through the checker") {
  const SearchResult r1 = search_rank(cube_rank_task(4, 3), exact_only(1, SearchClass::NK));
  CHECK(r1.label == "refuted (certified)");
  REQUIRE(r1.certificate_text);
  CHECK(run_checker(r1.certificate_text->text(), std::nullopt).bound == "2");
  const SearchResult r0 = search_rank(cube_rank_task(2, 3), exact_only(0, SearchClass::PF));
  CHECK(r0.label == "refuted (certified)");
  REQUIRE(r0.certificate_text);
  CHECK(r0.certificate_rule == "one row");
  CHECK(run_checker(r0.certificate_text->text(), std::nullopt).verified);
}

TEST_CASE("search on a family file: the order certificate names the file by its digest") {
  // All of T(4,3), query first, written as a family file.
  Family family;
  family.m = 4;
  family.n = 3;
  for (std::uint64_t i = 0; i < 4096; ++i)
    family.instances.push_back({{Token::from_index(4, i % 16), Token::from_index(4, (i / 16) % 16),
                                 Token::from_index(4, i / 256)},
                                0});
  const std::string bytes = family_to_text(family);
  RankTask task = family_rank_task(parse_family("t43.family", bytes), "t43.family");
  task.family_file = "t43.family";
  task.family_file_bytes = bytes;
  SearchOptions options = exact_only(1, SearchClass::NK);
  const SearchResult result = search_rank(task, options);
  CHECK(result.label == "refuted (certified)");
  REQUIRE(result.certificate_text);
  CHECK(result.certificate_text->text().find("task family") != std::string::npos);
  CHECK(run_checker(result.certificate_text->text(), FamilyInput{"t43.family", bytes}).verified);
  // A different family file (one instance more, so another digest) is refused.
  CHECK_FALSE(run_checker(result.certificate_text->text(),
                          FamilyInput{"t43.family", bytes + "1 0000 0000 0000\n"})
                  .verified);
  // Without the file, the same exact argument is not called certified.
  RankTask no_file = family_rank_task(parse_family("t43.family", bytes), "t43.family");
  const SearchResult bare = search_rank(no_file, options);
  CHECK(bare.label == "refuted (exact, not checker-verified)");
  CHECK_FALSE(bare.certificate_text);
}

TEST_CASE(
    "one way out: a certificate the checker refuses is an internal error and is not written") {
  const SearchResult result = search_rank(cube_rank_task(5, 3), exact_only(2, SearchClass::NK));
  REQUIRE(result.certificate_text);
  const std::string forged = without_keypair(result.certificate_text->text(), 0);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "kernelrank-forged-order.cert";
  std::filesystem::remove(path);
  // Rank 2 refuted: the order certificate claims r >= 3.
  CHECK_THROWS_AS(
      write_verified_certificate(path.string(), verify_certificate({forged, std::nullopt, 3})),
      InternalError);
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK_NOTHROW(write_verified_certificate(
      path.string(), verify_certificate({result.certificate_text->text(), std::nullopt, 3})));
  CHECK(std::filesystem::exists(path));
  std::filesystem::remove(path);
}

TEST_CASE("bound: the best certified source per m, and never above a verified model") {
  // r(m) <= the features of the shipped models (re-verified in test_search.cpp for m <= 6 and
  // test_min_rank_upper.cpp for m = 7..10), so a certified bound above them would be a
  // contradiction.
  const int shipped_upper[] = {0, 1, 1, 1, 2, 3, 4, 15, 29, 37, 47};
  for (int m = 1; m <= 10; ++m) {
    CAPTURE(m);
    const SourcedBound sourced = best_certified_bound(nk_task(m), bound_options(m));
    CHECK(sourced.best.bound <= shipped_upper[m]);
    CHECK(run_checker(sourced.best.certificate.text(), std::nullopt).bound ==
          sourced.best.bound.str());
  }
  CHECK(best_certified_bound(nk_task(2), bound_options(2)).best.source == BoundSource::OneRow);
  CHECK(best_certified_bound(nk_task(5), bound_options(5)).best.source == BoundSource::Order);
  // m = 7: the inherited order argument (r >= 3) ties the dependence argument (floor(7/2) = 3).
  const SourcedBound m7 = best_certified_bound(nk_task(7), bound_options(7));
  CHECK(m7.best.bound == 3);
  CHECK(m7.best.source == BoundSource::InheritedOrder);
  CHECK(m7.best.certificate.text().find("rule inherit") != std::string::npos);
  // m = 8: four disjoint pairs refute rank 3; the code alone gives 2, inheritance 3.
  const SourcedBound m8 = best_certified_bound(nk_task(8), bound_options(8));
  CHECK(m8.best.bound == 4);
  CHECK(m8.best.source == BoundSource::Dependence);
  CHECK(m8.code->bound.bound == 2);
  // A tie keeps the code's certificate (format 1): m = 16, code 8 = floor(16/2).
  const SourcedBound m16 = best_certified_bound(nk_task(16), bound_options(16));
  CHECK(m16.best.bound == 8);
  CHECK(m16.best.source == BoundSource::Code);
  CHECK(m16.best.certificate.text().rfind("kernelrank-certificate 1", 0) == 0);
}

TEST_CASE("bound: the winner's certificate is checked once, and not again when written") {
  // m = 8 has four sources (code, inherited order, dependence, one row) and the product of
  // codes: five certificates, of which only the winner runs through the checker.
  const std::uint64_t before = checker_runs();
  const SourcedBound m8 = best_certified_bound(nk_task(8), bound_options(8));
  CHECK(m8.candidates.size() == 5);
  CHECK(checker_runs() - before == 1);
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "kernelrank-checked-once.cert";
  std::filesystem::remove(path);
  const std::uint64_t before_write = checker_runs();
  (void)write_verified_certificate(path.string(), m8.best.certificate);
  CHECK(checker_runs() == before_write);
  CHECK(std::filesystem::exists(path));
  std::filesystem::remove(path);
  // The path from a bare text still checks it (once).
  (void)write_verified_certificate(
      path.string(), verify_certificate({m8.best.certificate.text(), std::nullopt, m8.best.bound}));
  CHECK(checker_runs() == before_write + 1);
  std::filesystem::remove(path);
  // An empty VerifiedCertificate (no checker run made it) is never written.
  CHECK_THROWS_AS(write_verified_certificate(path.string(), VerifiedCertificate{}), InternalError);
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("dependence certificates: every mixed sign pattern is needed") {
  // Only full patterns are listed, and a full pattern is covered only by itself or its
  // negation: dropping any one cover line leaves it uncovered, so the checker must refuse.
  const std::string text = dependence_certificate(nk_task(8));
  CHECK(run_checker(text, std::nullopt).bound == "4");
  std::vector<std::string> lines = lines_of(text);
  std::vector<std::size_t> covers;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind("cover ", 0) == 0) covers.push_back(i);
  CHECK(covers.size() == 7);  // (2^4 - 2)/2 full mixed patterns up to negation
  for (std::size_t drop : covers) {
    std::vector<std::string> fewer;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (i != drop) fewer.push_back(lines[i].rfind("covers ", 0) == 0 ? "covers 6" : lines[i]);
    CHECK_FALSE(run_checker(join(fewer), std::nullopt).verified);
  }
}

TEST_CASE("inherit certificates: the embedded bound carries over, a stronger claim does not") {
  const SearchResult five = search_rank(cube_rank_task(5, 3), exact_only(2, SearchClass::PF));
  REQUIRE(five.certificate_text);
  CertificateTask outer = nk_task(7);
  outer.positive_features = true;
  CHECK(run_checker(inherit_certificate(outer, "padded", five.certificate_text->text(), "3"),
                    std::nullopt)
            .verified);
  CHECK_FALSE(run_checker(inherit_certificate(outer, "padded", five.certificate_text->text(), "4"),
                          std::nullopt)
                  .verified);
  // A PF bound says nothing about NK models.
  CHECK_FALSE(
      run_checker(inherit_certificate(nk_task(7), "padded", five.certificate_text->text(), "3"),
                  std::nullopt)
          .verified);
}
