// The bound pipeline of the application layer (app/bound_job.hpp, app/bound_words_job.hpp):
// the number it reports is the independent checker's, read back from the file it wrote; the
// answer about r follows that number; only the winner is marked checked; the request's limits
// are refused by parameter name; the generated-rows path gives the same certificate bytes on
// threads, in shards merged from their partial files, and over a collective.
#include "kernelrank/app/bound_job.hpp"
#include "kernelrank/app/bound_words_job.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include "check/check.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

using namespace kernelrank;
namespace fs = std::filesystem;

namespace {

// A fresh path in this process's own scratch folder (parallel test runs do not share one).
fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("kernelrank-bound-job-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  fs::remove_all(path);
  return path;
}

// The checker's own verdict on a certificate file, as kernelrank-check gives it.
krcheck::CheckResult checker_on(const fs::path& path) {
  std::ostringstream out, err;
  return krcheck::check_certificate(path.string(), std::nullopt, out, err);
}

std::string pattern_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const DomainError& e) {
    return e.pattern();
  }
  return "";
}

// One rank that is the whole world: a collective run must equal the run on threads.
class SingleRank : public ShardCollective {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::uint64_t> sum_at_root(const std::vector<std::uint64_t>& v) const override {
    return v;
  }
  std::string broadcast(const std::string& text) const override { return text; }
  std::vector<std::string> gather_at_root(const std::string& text) const override { return {text}; }
};

}  // namespace

TEST_CASE("bound job: the m = 12 NK bound is the checker's number, and only it is checked") {
  const fs::path cert = scratch("m12.cert");
  BoundRequest request;
  request.m = 12;
  request.cert = cert.string();
  const BoundReport report = run_bound(request);
  const krcheck::CheckResult checked = checker_on(cert);
  REQUIRE(checked.status == krcheck::Status::verified);
  CHECK(checked.bound == report.bound().str());
  CHECK(checked.claim == report.bound().str());
  // theory.md: the dependence argument alone gives r >= floor(m/2) = 6 for m = 4..17.
  CHECK(report.bound() >= Integer(6));
  CHECK(read_file_checked(cert.string()) == report.sourced.best.certificate.text());

  const nlohmann::json json = bound_json(report);
  CHECK(json.at("bound") == checked.bound);
  CHECK(json.at("certificate") == cert.string());
  int marked = 0;
  REQUIRE(json.at("sources").size() >= 2);  // code, order, dependence, one row at m = 12
  for (std::size_t i = 0; i < report.sourced.candidates.size(); ++i) {
    const SourcedCandidate& c = report.sourced.candidates[i];
    const bool is_winner = c.source == report.sourced.best.source;
    CHECK(json["sources"][i].at("checked") == is_winner);
    CHECK(candidate_checked(c) == is_winner);
    if (is_winner) ++marked;
  }
  CHECK(marked == 1);
}

TEST_CASE("bound job: r below the bound is ruled out, r at it is not") {
  BoundRequest request;
  request.m = 8;
  const Integer bound = run_bound(request).bound();
  const long long b = std::stoll(bound.str());

  request.r = b - 1;
  const BoundReport below = run_bound(request);
  REQUIRE(below.r);
  CHECK(below.r->answer == BoundAnswer::RuledOut);
  CHECK(bound_json(below).at("r_ruled_out") == true);
  CHECK(bound_json(below).at("answer") == "ruled_out");

  request.r = b;
  const BoundReport at = run_bound(request);
  REQUIRE(at.r);
  CHECK(at.r->answer != BoundAnswer::RuledOut);
  CHECK(bound_json(at).at("r_ruled_out") == false);
  // Suffices exactly when the best verified head has at most r features.
  CHECK((at.r->answer == BoundAnswer::Suffices) ==
        (at.r->known.has_value() && at.r->known->checked.r <= bound));

  // Far above any head: suffices, with the head's features reported.
  request.r = 1'000'000;
  const BoundReport above = run_bound(request);
  REQUIRE(above.r);
  REQUIRE(above.r->known);
  CHECK(above.r->answer == BoundAnswer::Suffices);
  CHECK(bound_json(above).at("head_r") == above.r->known->checked.r.str());
}

TEST_CASE("bound job: the request's limits are refused by parameter name") {
  BoundRequest request;
  request.m = 8;
  request.effort = kMaxBoundEffort + 1;
  CHECK(pattern_of([&] { run_bound(request); }) == "{effort}: must be in 0..1000, not 1001");
  request.effort = -1;
  CHECK(pattern_of([&] { run_bound(request); }) == "{effort}: must be in 0..1000, not -1");
  request.effort = 1;
  request.r = -1;
  CHECK(pattern_of([&] { run_bound(request); }).rfind("{r}: must be in 0..", 0) == 0);
  request.r.reset();
  request.model_class = "XY";
  CHECK(pattern_of([&] { run_bound(request); }) == "{class} must be NK or PF, not XY");
  request.model_class = "NK";
  request.m_min = 9;
  request.m_max = 8;
  CHECK(pattern_of([&] { run_bound_table(request); }).rfind("{m-min}/{m-max} must satisfy", 0) ==
        0);
  request.m_min = 1;
  request.m_max = kMaxBoundTableWidth + 1;
  CHECK(pattern_of([&] { run_bound_table(request); }).rfind("{m-min}/{m-max} must satisfy", 0) ==
        0);
}

TEST_CASE("bound job: the table's rows and certificates are the single runs'") {
  BoundRequest request;
  request.m_min = 5;
  request.m_max = 6;
  const fs::path dir = scratch("table");
  fs::create_directories(dir);
  request.cert_dir = dir.string();
  const BoundTable table = run_bound_table(request);
  REQUIRE(table.rows.size() == 2);
  for (const BoundReport& row : table.rows) {
    BoundRequest single;
    single.m = row.m;
    CHECK(run_bound(single).bound() == row.bound());
    const krcheck::CheckResult checked = checker_on(row.certificate_path);
    REQUIRE(checked.status == krcheck::Status::verified);
    CHECK(checked.bound == row.bound().str());
  }
  CHECK(table.rows[0].certificate_path == (dir / "bound-m5-n3.cert").string());
}

TEST_CASE("bound words job: threads, merged shards and a collective give the same certificate") {
  BoundWordsRequest request;
  request.m = 16;
  request.words = 300;
  request.progress = false;
  const fs::path whole_cert = scratch("words-whole.cert");
  request.cert = whole_cert.string();
  const BoundWordsReport whole = run_bound_words(request);
  REQUIRE(whole.kind == BoundWordsReport::Kind::Bound);
  const krcheck::CheckResult checked = checker_on(whole_cert);
  REQUIRE(checked.status == krcheck::Status::verified);
  CHECK(checked.bound == whole.certificate.bound().str());
  CHECK(bound_words_json(whole).at("bound") == checked.bound);

  // Two shards into partial files, then the merge.
  std::vector<std::string> partials;
  std::uint64_t pairs = 0;
  for (const char* shard : {"1/2", "2/2"}) {
    BoundWordsRequest part = request;
    part.cert.clear();
    part.shard = shard;
    part.partial = scratch(std::string("words-") + shard[0] + ".partial").string();
    const BoundWordsReport counted = run_bound_words(part);
    REQUIRE(counted.kind == BoundWordsReport::Kind::Partial);
    pairs += counted.unordered_pairs;
    const nlohmann::json file = nlohmann::json::parse(read_file_checked(part.partial));
    CHECK(file.at("format") == "kernelrank-bound-partial");
    partials.push_back(part.partial);
  }
  CHECK(pairs == whole.bound.counts.pairs());
  BoundWordsRequest merge = request;
  merge.cert = scratch("words-merged.cert").string();
  merge.merge = partials;
  const BoundWordsReport merged = run_bound_words(merge);
  CHECK(merged.certificate.text() == whole.certificate.text());
  CHECK(read_file_checked(merge.cert) == read_file_checked(whole_cert.string()));

  merge.merge = {partials[0]};
  CHECK(pattern_of([&] { run_bound_words(merge); }) == "{merge}: shard 2/2 is missing");

  BoundWordsRequest collective = request;
  collective.cert.clear();
  collective.collective = [] { return std::make_unique<SingleRank>(); };
  CHECK(run_bound_words(collective).certificate.text() == whole.certificate.text());
  collective.shard = "1/2";
  CHECK(pattern_of([&] { run_bound_words(collective); }) ==
        "{mpi} shards by rank: drop {shard}/{partial}");
}
