// The one JSON form of search, min-rank and transcript (app/search_job.hpp,
// app/transcript.hpp), which the CLI prints and the Python module converts.
#include "kernelrank/app/search_job.hpp"
#include "kernelrank/app/transcript.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace kernelrank;

TEST_CASE("app json: min-rank cells carry the checker's status beside refuted-certified") {
  MinRankRequest request;
  request.m_max = 2;
  request.model_class = "NK";
  request.threads = 1;
  request.budget.timeout = 30;
  const MinRankJob job = run_min_rank_job(request);
  const nlohmann::json json = min_rank_json(job);
  CHECK(json["n"] == 3);
  CHECK(json["z3_version"] == job.table.z3_version);
  REQUIRE(json["rows"].size() == job.table.rows.size());
  int certified = 0;
  for (std::size_t i = 0; i < job.table.rows.size(); ++i) {
    const MinRankRow& row = job.table.rows[i];
    const nlohmann::json& jr = json["rows"][i];
    CAPTURE(row.m);
    CHECK(jr["m"] == row.m);
    CHECK(jr["class"] == "NK");
    CHECK(jr["lower"] == row.lower);
    CHECK(jr["settled"] == row.settled());
    if (row.upper)
      CHECK(jr["upper"] == *row.upper);
    else
      CHECK(jr["upper"].is_null());
    REQUIRE(jr["cells"].size() == row.cells.size());
    for (std::size_t c = 0; c < row.cells.size(); ++c) {
      const nlohmann::json& jc = jr["cells"][c];
      CHECK(jc["r"] == row.cells[c].r);
      CHECK(jc["status"] == to_string(row.cells[c].status));
      if (row.cells[c].status == CellStatus::RefutedCertified) {
        ++certified;
        CHECK(jc["checker_status"] == "s VERIFIED");
      } else {
        CHECK(!jc.contains("checker_status"));
      }
      CHECK(jc.contains("inherited_from") == row.cells[c].inherited_from.has_value());
    }
  }
  // r = 0 at m = 1: no features give a kernel of 0 everywhere, a certified refutation.
  CHECK(certified >= 1);
  // T(1,3) and T(2,3) have rank-1 models (docs/min-rank.md).
  CHECK(json["rows"][0]["upper"] == 1);
  CHECK(json["rows"][1]["upper"] == 1);
}

TEST_CASE("app json: a refuted search has its label and certificate, and no model") {
  SearchRequest request;
  request.m = 4;
  request.r = 1;
  request.isolate = false;
  request.budget.cross_check = false;
  request.budget.timeout = 30;
  const SearchJob job = run_search_job(request);
  const nlohmann::json json = search_json(request, job);
  CHECK(json["label"] == job.result.label);
  CHECK(json["label"] == "refuted (certified)");
  CHECK(json["verdict"] == "refuted");
  CHECK(json["r"] == 1);
  CHECK(json["m"] == 4);
  CHECK(json["class"] == "NK");
  CHECK(json["checker_status"] == "s VERIFIED");
  CHECK(json["order_argument"]["refuted"] == true);
  CHECK(!json.contains("model"));
  CHECK(!json.contains("certificate_file"));  // no path asked for
  CHECK(!json.contains("solver"));            // z3 alone
  CHECK(json["z3"].is_array());
}

TEST_CASE("app json: a found search carries the model's exact check") {
  SearchRequest request;
  request.m = 3;
  request.r = 2;
  request.isolate = false;
  request.budget.timeout = 30;
  const SearchJob job = run_search_job(request);
  REQUIRE(job.result.model);
  const nlohmann::json json = search_json(request, job);
  CHECK(json["verdict"] == "found");
  CHECK(json["label"] == job.result.label);
  REQUIRE(json.contains("model"));
  CHECK(json["model"]["kernel_rank"] == job.result.check->kernel_rank);
  CHECK(json["model"]["kernel_rank"] <= 2);
  CHECK(json["model"]["evaluation"]["solves"] == true);
  CHECK(json["model"]["evaluation"]["failing"] == "0");
  CHECK(!json["model"].contains("file"));  // nothing written
  CHECK(!json.contains("checker_status"));
}

TEST_CASE("app json: the transcript bound of the cube and of a family") {
  TranscriptRequest cube;
  cube.m = 5;
  const nlohmann::json five = transcript_json(run_transcript(cube));
  // D(m,3) = (4^m - 2*3^m + 3*2^m)/2 = 317 at m = 5; 2^8 < 317 <= 2^9.
  CHECK(five["task"] == "cube");
  CHECK(five["answer_vectors"] == "317");
  CHECK(five["log2"]["floor"] == 8);
  CHECK(five["log2"]["ceil"] == 9);
  CHECK(five["min_bits"] == 9);
  CHECK(five["independent"].contains("query_tokens"));
  cube.m = 100;
  const nlohmann::json wide = transcript_json(run_transcript(cube));
  CHECK(!wide["independent"].contains("query_tokens"));
  CHECK(wide["independent"].contains("block_weight"));

  TranscriptRequest family;
  family.family = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/families/small.family";
  const TranscriptResult result = run_transcript(family);
  const nlohmann::json json = transcript_json(result);
  CHECK(json["task"] == "family");
  CHECK(json["family"] == family.family);
  CHECK(json["m"] == 2);
  CHECK(json["instances"] == 3);
  CHECK(json["clique"].size() == result.family->clique.size());
  CHECK(json["clique_source"].is_string() != result.family->grid);
  CHECK(json["independent"].contains("witness_contexts"));
}
