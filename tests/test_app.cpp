// The application layer's pipelines (app/head_source.hpp, app/evaluation.hpp, the witness,
// certify and construct jobs) against the
// engines they call, taken directly: the plan must choose and run what the engines compute,
// and refuse what its rules refuse, by parameter name.
#include "kernelrank/app/certify_job.hpp"
#include "kernelrank/app/construct_job.hpp"
#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/app/head_source.hpp"
#include "kernelrank/app/reproduce_job.hpp"
#include "kernelrank/app/result_json.hpp"
#include "kernelrank/app/transition.hpp"
#include "kernelrank/app/upper_job.hpp"
#include "kernelrank/app/witness_job.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "source_dir.hpp"

#include "check/sha256.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

using namespace kernelrank;

namespace {

HeadRequest builtin_request(const std::string& name) {
  HeadRequest request;
  request.builtin = name;
  return request;
}

std::string parameter_pattern(const std::function<void()>& call) {
  try {
    call();
  } catch (const DomainError& e) {
    return e.pattern();
  }
  return "";
}

}  // namespace

TEST_CASE("app: the cube plan runs brute force, profiles or both, as the engines do") {
  const auto softmax = make_builtin_model("softmax", 4, {{"base", "3"}});
  const EvalReport brute = evaluate_cube(*softmax, 4, 3, EvalOptions{});
  for (const EvalMethod method :
       {EvalMethod::Auto, EvalMethod::BruteForce, EvalMethod::Profiles, EvalMethod::CrossCheck}) {
    HeadSource head = open_head(builtin_request("softmax"));
    EvalPlan plan;
    plan.m = 4;
    plan.method = method;
    plan.max_profile_work = 1e10;
    const Evaluation result = evaluate_plan(head, plan);
    REQUIRE(result.exact);
    const EvalReport report = summary_to_report(result.exact->summary);
    CHECK(report.instances == brute.instances);
    CHECK(report.failing == brute.failing);
    CHECK(report.max_error == brute.max_error);
    CHECK(result.exact->cross_checked == (method == EvalMethod::CrossCheck));
    const bool profiles = method == EvalMethod::Profiles || method == EvalMethod::CrossCheck;
    CHECK(result.exact->id.source == (profiles ? "profiles" : "cube"));
    CHECK(result.exact->id.total_instances == "4096");  // 2^(4*3), mode first
  }
}

TEST_CASE("app: a family's digest is the SHA-256 of the file's bytes") {
  const std::string path = std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family";
  HeadSource head = open_head(builtin_request("rank1-mean"));
  EvalPlan plan;
  plan.family = path;
  const Evaluation result = evaluate_plan(head, plan);
  REQUIRE(result.exact);
  CHECK(result.exact->id.source_sha256 == krcheck::to_hex(krcheck::sha256(read_file_bytes(path))));
  CHECK(result.exact->id.mode == "family");
  CHECK(result.exact->id.model_source == "builtin rank1-mean m=24 n=3");
}

TEST_CASE("app: the head request's rules, each by parameter name") {
  HeadRequest both = builtin_request("softmax");
  both.path = "x.model";
  CHECK(parameter_pattern([&] { open_head(both); }) ==
        "give either {model} or {builtin}, not both");
  HeadRequest base = builtin_request("rank1-mean");
  base.base = "2";
  CHECK(parameter_pattern([&] { open_head(base); }) ==
        "{base} applies only to {builtin} softmax or product");
  CHECK(parameter_pattern([&] { open_head(HeadRequest{}); }) ==
        "choose a model with {model} FILE or {builtin} NAME");
  HeadSource no_width = open_head(builtin_request("softmax"));
  CHECK(parameter_pattern([&] { (void)no_width.take_exact(0, 3); }) ==
        "a built-in model needs the width {m}");
  HeadRequest layout;
  layout.path = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/models/tabular_m2.model";
  layout.layout = HeadLayout::Torch;
  CHECK(parameter_pattern([&] { open_head(layout); }).find("{layout} and {feature-map}") == 0);
}

TEST_CASE("app: a file's head is handed over once, checked against the task's width") {
  HeadRequest request;
  request.path = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/models/tabular_m2.model";
  HeadSource head = open_head(request);
  CHECK(head.kind() == HeadKind::Exact);
  CHECK_THROWS_AS((void)head.take_exact(3, 3), UsageError);  // width 2, not 3
  HeadSource again = open_head(request);
  CHECK(again.take_exact(2, 3)->width() == 2);
  CHECK_THROWS_AS((void)again.take_exact(2, 3), InternalError);
}

TEST_CASE("app: options the plan cannot honour are refused") {
  HeadSource head = open_head(builtin_request("softmax"));
  EvalPlan plan;
  plan.m = 3;
  plan.precision = 128;  // ball arithmetic only
  CHECK(parameter_pattern([&] {
          evaluate_plan(head, plan);
        }).find("{precision} and {max-precision} apply to heads") == 0);
  EvalPlan both;
  both.family = "a.family";
  both.tokens = "b.code";
  CHECK(parameter_pattern([&] { evaluate_plan(head, both); }) == "{family} excludes {tokens}");
  HeadRequest tabular;
  tabular.path = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/models/tabular_m2.model";
  HeadSource file = open_head(tabular);
  EvalPlan profiles;
  profiles.method = EvalMethod::Profiles;
  CHECK(parameter_pattern([&] { evaluate_plan(file, profiles); }) ==
        "{profiles} needs a model that depends only on overlaps (a built-in)");
}

TEST_CASE("app: a witness without file names is checked once, its bound the checker's") {
  WitnessRequest request;
  request.m = 8;
  const std::uint64_t runs = checker_runs();
  const WitnessOutcome w = run_witness(request);
  CHECK(checker_runs() == runs + 1);
  CHECK(w.certificate_message.empty());
  CHECK(w.bound.bound.bound == w.certificate.bound());
  CHECK(w.family_text == family_to_text(w.witness.family));
  const CheckerVerdict verdict =
      run_checker(w.certificate.text(), FamilyInput{"witness.family", w.family_text});
  CHECK(verdict.verified);
  CHECK(verdict.bound == w.certificate.bound().str());
  request.mode = QueryMode::All;
  CHECK(parameter_pattern([&] { run_witness(request); }) ==
        "witness families use {mode} first or last");
  request.mode = QueryMode::First;
  request.golay = "dozens";
  CHECK(parameter_pattern([&] { run_witness(request); }) == "{golay} must be octads or dodecads");
}

TEST_CASE("app: certify runs the gate once for every bound it finds, and never without one") {
  CertifyRequest request;
  request.family = std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family";
  const std::uint64_t runs = checker_runs();
  const CertifyOutcome checked = run_certify(request);
  CHECK(checker_runs() == runs + 1);
  REQUIRE_FALSE(checked.certificate.empty());
  CHECK(checked.certificate.bound() == 18);
  CHECK(checked.bound.bound.bound == 18);
  CHECK(checked.certificate.checker_status() == "s VERIFIED");
  CHECK(checked.certificate_message.empty());  // no path: nothing written
  const nlohmann::json json = certify_json(request, checked, 10);
  CHECK(json.at("checked") == true);
  CHECK(json.at("checker_status") == "s VERIFIED");
  CHECK_FALSE(json.contains("certificate"));
  request.family = std::string(KERNELRANK_SOURCE_DIR) + "/tests/data/families/small.family";
  const CertifyOutcome none = run_certify(request);
  CHECK(checker_runs() == runs + 1);
  CHECK_FALSE(none.bound.found);
  CHECK(none.certificate.empty());
  CHECK_FALSE(certify_json(request, none, 10).contains("checked"));
}

TEST_CASE("app: transition's lower side is the bound sources' checked bound") {
  for (const int m : {3, 5}) {
    CAPTURE(m);
    const TransitionResult t = run_transition(TransitionRequest{m, ""});
    CertificateTask task;
    task.m = m;
    // bound's own defaults, spelled out: seed 1, effort 1, subset search on.
    BoundSearchOptions options;
    options.m = m;
    options.n = 3;
    options.seed = 1;
    options.effort = 1;
    options.subset_search = true;
    const SourcedBound direct = best_certified_bound(task, options);
    CHECK(t.lower.best.certificate.bound() == direct.best.certificate.bound());
    CHECK(t.lower.best.source == direct.best.source);
    CHECK(t.lower.best.certificate.checker_status() == "s VERIFIED");
    CHECK(t.certificate_message.empty());
  }
}

TEST_CASE("app: construct's exact parameters are refused by name") {
  ConstructRequest request;
  request.family = std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family";
  request.slope = "x/y";
  CHECK(parameter_pattern([&] {
          run_construct(request);
        }).starts_with("{slope}: expected an exact number such as 3/8, found 'x/y'"));
  request.slope.reset();
  const ConstructOutcome c = run_construct(request);
  CHECK(c.solves());
  CHECK_FALSE(c.written);
  CHECK(c.head.queries.size() == 24);
}

TEST_CASE("app: transition's JSON carries the checked lower bound and its status line") {
  const TransitionResult t = run_transition(TransitionRequest{5, ""});
  const nlohmann::json json = transition_json(t);
  CHECK(json["m"] == 5);
  CHECK(json["consistent"] == t.consistent);
  REQUIRE(json["rows"].size() == 3);
  CHECK(json["rows"][0]["n"] == 1);
  CHECK(json["rows"][1]["min_rank"] == 1);
  const nlohmann::json& row = json["rows"][2];
  CHECK(row["n"] == 3);
  CHECK(row["lower_bound"] == t.lower.best.certificate.bound().str());
  CHECK(row["lower_checker_status"] == "s VERIFIED");
  // r <= 2^5: the upper side is a number no larger than the product realisation's.
  CHECK(Integer(row["upper_bound"].get<std::string>()) <= Integer(32));
  CHECK(row["upper_bound"] == t.upper.str());
}

TEST_CASE("app: upper's JSON gives the head's feature count as r, null without a head") {
  UpperRequest request;
  request.m = 4;
  const UpperResult found = run_upper(request);
  REQUIRE(found.head);
  const nlohmann::json json = upper_json(found);
  CHECK(json["r"] == found.head->feature_count().str());
  CHECK(json["layers"].size() == found.head->layers.size());
  CHECK(json["verified"] == true);
  CHECK(json["file"].is_null());
  UpperResult none;
  none.m = 4;
  const nlohmann::json empty = upper_json(none);
  CHECK(empty["r"].is_null());
  CHECK(empty["file"].is_null());
  CHECK_FALSE(empty.contains("layers"));
}

TEST_CASE("app: reproduce's JSON shows a checker status only where a certificate was checked") {
  ReproduceRequest request;
  request.certificate = "out.cert";
  ReproduceResult result;
  result.claims = {{"plain", true, "evidence a", ""}, {"bound", false, "evidence b", "s VERIFIED"}};
  const nlohmann::json json = reproduce_json(request, result);
  REQUIRE(json["claims"].size() == 2);
  CHECK_FALSE(json["claims"][0].contains("checker_status"));
  CHECK(json["claims"][1]["checker_status"] == "s VERIFIED");
  CHECK(json["claims"][1]["holds"] == false);
  CHECK(json["all_verified"] == false);
  CHECK_FALSE(json.contains("certificate"));  // nothing written
  result.certificate_message = "wrote out.cert\n";
  CHECK(reproduce_json(request, result)["certificate"] == "out.cert");
}
