// The application layer's generate, counterexample, multi-head eval and eval shard jobs
// (app/generate_job.hpp, app/counterexample_job.hpp, app/multi_head_eval.hpp,
// app/eval_partials.hpp) against independent computations: targets recomputed from the
// tokens' 0/1 strings, failing instances re-evaluated, merged shards against one run.
#include "kernelrank/app/counterexample_job.hpp"
#include "kernelrank/app/eval_partials.hpp"
#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/app/generate_job.hpp"
#include "kernelrank/app/head_source.hpp"
#include "kernelrank/app/multi_head_eval.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

using namespace kernelrank;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("kernelrank-app-tasks-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The pattern of the DomainError (or DomainResourceError) the call throws, "" if none.
std::string refusal(const std::function<void()>& call) {
  try {
    call();
  } catch (const ParameterMessage& e) {
    return e.pattern();
  }
  return "";
}

// min_j <x_q, x_j> from the tokens' 0/1 strings, by counting common ones.
int brute_min_ip(const Instance& instance) {
  const std::string q = instance.tokens[instance.query].to_string();
  int best = -1;
  for (const Token& x : instance.tokens) {
    const std::string z = x.to_string();
    int common = 0;
    for (std::size_t i = 0; i < q.size(); ++i) common += q[i] == '1' && z[i] == '1';
    if (best < 0 || common < best) best = common;
  }
  return best;
}

int ones(const Token& x) {
  int count = 0;
  for (const char c : x.to_string()) count += c == '1';
  return count;
}

HeadSource builtin_head(const std::string& name, const std::string& base = "") {
  HeadRequest request;
  request.builtin = name;
  if (!base.empty()) request.base = base;
  return open_head(request);
}

HeadSource file_head(const std::string& path) {
  HeadRequest request;
  request.path = path;
  request.multi_head = true;
  return open_head(request);
}

const std::string kTwoHeads =
    std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/multihead/two-heads-m2.model";

}  // namespace

TEST_CASE("generate job: weight-W tokens, Min-IP targets, the files and the JSON") {
  const fs::path dir = scratch("generate");
  GenerateRequest request;
  request.m = 9;
  request.n = 4;
  request.mode = QueryMode::All;
  request.weight = 3;
  request.seed = 5;
  request.train = 60;
  request.test = 40;
  request.prefix = (dir / "g").string();
  request.format = "all";
  const GenerateOutcome out = run_generate(request);
  REQUIRE(out.sets.train.instances.size() == 60);
  REQUIRE(out.sets.test.instances.size() == 40);
  for (const Family* family : {&out.sets.train, &out.sets.test})
    for (const Instance& instance : family->instances) {
      for (const Token& x : instance.tokens) {
        CHECK(x.width() == 9);
        CHECK(ones(x) == 3);
      }
    }
  // Train's three files, then test's; the family files read back as the pools.
  const std::vector<std::string> expected = {
      request.prefix + "-train.family", request.prefix + "-train.csv",
      request.prefix + "-train.jsonl",  request.prefix + "-test.family",
      request.prefix + "-test.csv",     request.prefix + "-test.jsonl"};
  CHECK(out.files == expected);
  CHECK(read_family(request.prefix + "-test.family").instances == out.sets.test.instances);
  CHECK(read_text(request.prefix + "-train.csv") == family_to_csv(out.sets.train));
  // The targets written (JSON lines) are the Min-IP targets of the tokens, counted here.
  std::istringstream lines(read_text(request.prefix + "-train.jsonl"));
  std::size_t row = 0;
  for (std::string line; std::getline(lines, line); ++row) {
    REQUIRE(row < out.sets.train.instances.size());
    const Instance& instance = out.sets.train.instances[row];
    const nlohmann::json record = nlohmann::json::parse(line);
    CHECK(record.at("query") == instance.query + 1);
    CHECK(record.at("target") == brute_min_ip(instance));
  }
  CHECK(row == 60);
  const nlohmann::json json = generate_json(out);
  CHECK(json.at("train") == 60);
  CHECK(json.at("test") == 40);
  CHECK(json.at("files").get<std::vector<std::string>>() == expected);
  CHECK(json.at("source") == "uniformly random tokens of weight 3 and width 9");

  // The same request without a prefix draws the same pools and writes nothing.
  GenerateRequest quiet = request;
  quiet.prefix.clear();
  const GenerateOutcome again = run_generate(quiet);
  CHECK(again.sets.train.instances == out.sets.train.instances);
  CHECK(again.files.empty());
}

TEST_CASE("generate job: each refusal names its parameter and writes nothing") {
  const fs::path dir = scratch("generate-refused");
  GenerateRequest request;
  request.m = 6;
  request.train = 3;
  request.test = 3;
  request.prefix = (dir / "x").string();
  auto with = [&](const std::function<void(GenerateRequest&)>& change) {
    GenerateRequest changed = request;
    change(changed);
    return refusal([&] { run_generate(changed); });
  };
  CHECK(with([](GenerateRequest& r) { r.weight = 7; }) == "{weight} must be in 0..m = 0..6, not 7");
  CHECK(with([](GenerateRequest& r) { r.weight = -1; }).rfind("{weight} must be in", 0) == 0);
  CHECK(with([](GenerateRequest& r) {
          r.golay = "octads";
          r.weight = 8;
        }) == "{weight} applies to random tokens, not to {code} or {golay}");
  CHECK(with([](GenerateRequest& r) { r.format = "xml"; }) ==
        "{format} must be family, csv, jsonl or all");
  CHECK(with([](GenerateRequest& r) { r.golay = "hexads"; }) ==
        "{golay} must be octads or dodecads");
  CHECK(with([](GenerateRequest& r) { r.train = kMaxGenerated + 1; }) ==
        "{train} and {test} take at most 10000000 instances each, not 10000001");
  GenerateRequest huge = request;
  huge.test = kMaxGenerated;  // within the count, beyond the memory for instances of 3 tokens
  CHECK_THROWS_AS(run_generate(huge), ResourceError);
  CHECK(fs::is_empty(dir));
  // At the limits: weight 0 and weight m are single words.
  GenerateRequest edge = request;
  edge.prefix.clear();
  edge.weight = 6;
  edge.train = 1;
  edge.test = 0;
  CHECK(ones(run_generate(edge).sets.train.instances.at(0).tokens.at(0)) == 6);
}

TEST_CASE("counterexample job: rank1-mean fails, the instance written fails under exact eval") {
  const fs::path dir = scratch("counterexample");
  HeadSource head = builtin_head("rank1-mean");
  CounterexampleRequest request;
  request.m = 6;
  request.n = 3;
  request.out = (dir / "cx.family").string();
  const CounterexampleOutcome out = run_counterexample(head, request);
  REQUIRE(out.found());
  CHECK_FALSE(out.solves());
  CHECK(out.task == "T(6,3)");
  CHECK(out.out == request.out);
  const InstanceOutcome& failing = *out.result.failing;
  CHECK(failing.target == brute_min_ip(failing.instance));
  // Independently: read the file back and evaluate the model on it.
  const Family written = read_family(request.out);
  REQUIRE(written.instances.size() == 1);
  CHECK(written.instances[0] == failing.instance);
  HeadSource again = builtin_head("rank1-mean");
  const EvalReport report = evaluate_family(*again.take_exact(6, 3), written, EvalOptions{});
  CHECK(report.failing == 1);
  const nlohmann::json json = counterexample_json(out);
  CHECK(json.at("solves") == false);
  CHECK(json.at("failing").at("fails") == true);
  CHECK(json.at("out") == request.out);
}

TEST_CASE("counterexample job: softmax base 3 solves; m out of range names m") {
  HeadSource head = builtin_head("softmax", "3");
  CounterexampleRequest request;
  request.m = 4;
  const CounterexampleOutcome out = run_counterexample(head, request);
  CHECK_FALSE(out.found());
  CHECK(out.solves());
  CHECK(out.out.empty());
  const nlohmann::json json = counterexample_json(out);
  CHECK(json.at("solves") == true);
  CHECK_FALSE(json.contains("failing"));
  for (const int m : {0, 4097}) {
    HeadSource h = builtin_head("softmax", "3");
    CounterexampleRequest bad;
    bad.m = m;
    CHECK(refusal([&] { run_counterexample(h, bad); }) ==
          "{m}: must be in 1..4096, not " + std::to_string(m));
  }
}

TEST_CASE("counterexample job: a multi-head file is searched exhaustively") {
  const fs::path dir = scratch("counterexample-multi");
  HeadSource head = file_head(kTwoHeads);
  REQUIRE(head.kind() == HeadKind::MultiHead);
  CounterexampleRequest request;
  request.n = 3;
  request.out = (dir / "ce.family").string();
  const CounterexampleOutcome out = run_counterexample(head, request);
  REQUIRE(out.found());
  CHECK(out.result.path == CounterexamplePath::Exhaustive);
  CHECK(out.result.fallback_reason.find("needs a single NK head") != std::string::npos);
  // The written instance fails under the multi-head evaluator on its own.
  MultiHeadEvalRequest check;
  check.family = request.out;
  const MultiHeadEvaluation evaluation = evaluate_multi_head(*head.file(), check);
  CHECK(evaluation.report.instances == 1);
  CHECK(evaluation.report.failing == 1);
  CHECK(evaluation.head_count == 2);
  // At n = 2 the model solves: none exists.
  request.n = 2;
  request.out.clear();
  HeadSource again = file_head(kTwoHeads);
  CHECK(run_counterexample(again, request).solves());
}

TEST_CASE("multi-head eval: refusals by name; a one-head file agrees with the single head") {
  HeadSource head = file_head(kTwoHeads);
  MultiHeadEvalRequest request;
  request.single_head_options = {"profiles", "shard"};
  CHECK(refusal([&] {
          evaluate_multi_head(*head.file(), request);
        }).find("{profiles}, {shard} apply only to single heads") != std::string::npos);
  request.single_head_options.clear();
  request.m = 2;
  request.family = "x.family";
  CHECK(refusal([&] { evaluate_multi_head(*head.file(), request); }) ==
        "{m} applies to the cube task, not to {family}");
  request.family.clear();
  request.n = 0;
  CHECK(refusal([&] { evaluate_multi_head(*head.file(), request); }) == "{n} must be at least 1");
  // The cube T(2,3): the JSON's report is the evaluation's.
  request.n = 3;
  const MultiHeadEvaluation evaluation = evaluate_multi_head(*head.file(), request);
  const nlohmann::json json = multi_head_evaluation_json(evaluation);
  CHECK(json.at("report").at("instances") == evaluation.report.instances.str());
  CHECK(json.at("report").at("solves") == evaluation.report.solves());
  CHECK(json.at("model").at("heads").size() == 2);
  CHECK(evaluation.report.instances == 64);  // (2^2)^3 sequences, the query first
}

TEST_CASE("eval shards: merged partial files and ranks equal the unsharded run") {
  const fs::path dir = scratch("eval-partials");
  auto run = [](std::optional<Shard> shard) {
    HeadSource head = builtin_head("rank1-mean");
    EvalPlan plan;
    plan.m = 6;
    plan.n = 3;
    plan.method = EvalMethod::BruteForce;
    plan.max_profile_work = 1e10;
    plan.options.max_failures = 4;
    if (shard) plan.options.shard = *shard;
    return std::move(*evaluate_plan(head, plan).exact);
  };
  const ExactEvaluation whole = run(std::nullopt);
  const EvalReport expected = summary_to_report(whole.summary);
  REQUIRE(expected.failing > 0);  // rank 1 fails: the failures are compared too
  std::vector<std::string> paths;
  std::vector<std::string> texts;
  for (std::uint64_t k = 1; k <= 3; ++k) {
    const Shard shard{k, 3};
    const EvalPartial partial = shard_partial(run(shard), shard);
    paths.push_back((dir / ("part" + std::to_string(k) + ".json")).string());
    write_eval_partial(paths.back(), partial);
    texts.push_back(read_text(paths.back()));
    CHECK(eval_partial_json(partial, paths.back()).at("shard") == shard.str());
  }
  std::reverse(paths.begin(), paths.end());  // the order of the files does not matter
  for (const EvalPartial& merged :
       {merge_eval_partial_files(paths),
        *merge_over_ranks(parse_eval_partial("own", texts[0]),
                          [&](const std::string&) { return std::optional(texts); })}) {
    const EvalReport report = summary_to_report(merged.summary);
    CHECK(report.instances == expected.instances);
    CHECK(report.failing == expected.failing);
    CHECK(report.max_error == expected.max_error);
    REQUIRE(report.failures.size() == expected.failures.size());
    for (std::size_t i = 0; i < report.failures.size(); ++i) {
      CHECK(report.failures[i].instance == expected.failures[i].instance);
      CHECK(report.failures[i].output == expected.failures[i].output);
    }
    CHECK(exact_evaluation_json(merged.identity, report, false) ==
          exact_evaluation_json(whole.id, expected, false));
  }
  // A rank that is not the root gets nothing to print.
  CHECK_FALSE(merge_over_ranks(parse_eval_partial("own", texts[0]),
                               [](const std::string&) { return std::nullopt; }));
  // A missing shard is refused.
  paths.pop_back();
  CHECK_THROWS(merge_eval_partial_files(paths));
}

TEST_CASE("eval shards: the options' combinations are refused by name") {
  HeadSource head = builtin_head("softmax", "2");
  EvalPlan plan;
  EvalSharding sharding;
  sharding.shard = Shard{1, 2};
  CHECK(refusal([&] { check_eval_sharding(sharding, plan, head); }) ==
        "{shard} needs {partial} FILE (where the shard's result goes)");
  sharding.partial = "p.json";
  CHECK(refusal([&] { check_eval_sharding(sharding, plan, head); }).empty());
  plan.method = EvalMethod::CrossCheck;
  CHECK(refusal([&] { check_eval_sharding(sharding, plan, head); }).rfind("{cross-check}", 0) == 0);
  plan.method = EvalMethod::Auto;
  sharding.mpi = true;
  CHECK(refusal([&] { check_eval_sharding(sharding, plan, head); }) ==
        "{mpi} shards by rank: drop {shard}/{partial}");
}

TEST_CASE("app: a task's width is 1..4096 in eval, multi-head eval and counterexample") {
  for (const int m : {0, -1, 4097}) {
    const std::string expected = "{m}: must be in 1..4096, not " + std::to_string(m);
    HeadSource head = builtin_head("softmax", "3");
    EvalPlan plan;
    plan.m = m;
    CHECK(refusal([&] { evaluate_plan(head, plan); }) == expected);
    HeadSource multi = file_head(kTwoHeads);
    MultiHeadEvalRequest request;
    request.m = m;
    CHECK(refusal([&] { evaluate_multi_head(*multi.file(), request); }) == expected);
  }
  // 4096 is in range and meets the head's own width instead.
  HeadSource multi = file_head(kTwoHeads);
  MultiHeadEvalRequest request;
  request.m = 4096;
  // (the file is of width 2: two-heads-m2)
  CHECK_THROWS_WITH(evaluate_multi_head(*multi.file(), request),
                    "the model expects m=2, not m=4096");
}
