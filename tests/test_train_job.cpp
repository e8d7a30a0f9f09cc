// The train job's request and report (app/train_job.hpp) and the trainer's JSON protocol
// (app/trainer_process.hpp), without a trainer: the JSON forms read back to what was written,
// a bad request field is refused naming its parameter, and an error crosses the protocol as
// the same exception with the same exit code.
#include "kernelrank/app/train_job.hpp"
#include "kernelrank/app/trainer_process.hpp"
#include "kernelrank/core/errors.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

using namespace kernelrank;

namespace {

TrainedSplitReport exact_split() {
  TrainedSplitReport s;
  s.exact = true;
  s.instances = 40;
  s.float_failing = 3;
  s.method = "exact rational arithmetic";
  s.verdict = "fails";
  s.failing = 4;
  s.undefined = 1;
  s.error_rate = Rational(1, 10);
  s.max_error = Rational(7, 3);
  s.first_failure = TrainedSplitReport::Failure{"q=1 x=[01, 10]", 1, std::nullopt, ""};
  s.disagreement_count = 2;
  s.disagreements.push_back({"q=1 x=[01, 10]", 1, std::numeric_limits<double>::quiet_NaN(),
                             std::nullopt, "", true, true});
  s.disagreements.push_back({"q=2 x=[11, 10]", 0, 0.1, Rational(-5, 8), "", false, true});
  return s;
}

TrainedSplitReport ball_split() {
  TrainedSplitReport s;
  s.exact = false;
  s.instances = 20;
  s.method = "ball arithmetic (Arb), up to 128 bits";
  s.verdict = "undecided at 128 bits";
  s.undecided = 2;
  s.error_rate = Rational(0);
  s.max_error = Rational(1, 1024);
  s.max_error_lo = Rational(1, 2048);
  s.disagreement_count = 1;
  s.disagreements.push_back(
      {"q=1 x=[00, 01]", 0, 0.75, std::nullopt, "[0.25 +/- 1e-20]", true, false});
  return s;
}

TrainReport sample_report() {
  TrainReport report;
  report.train_family = "pool-train.family";
  report.test_family = "pool-test.family";
  TrainedModelReport relu;
  relu.name = "relu-r2-s7";
  relu.feature = "relu";
  relu.r = 2;
  relu.seed = 7;
  relu.d = 6;
  relu.epochs = 30;
  relu.lr = 0.01;
  relu.final_loss = 0.123456789012345678;
  relu.recipe = {
      "witness", "query-tokens", "witness", "band", "best snapshot", 0, 1.0, 0.4, 2, 0, 30,
      17,        false};
  relu.safetensors = "relu-r2-s7.safetensors";
  relu.model = "relu-r2-s7.model";
  relu.train = exact_split();
  relu.test = exact_split();
  relu.test->verdict = "solves (verified exactly)";
  relu.train_seconds = 1.5;
  TrainedModelReport softmax = relu;
  softmax.name = "softmax-s7";
  softmax.feature = "softmax";
  softmax.model.reset();
  softmax.recipe.constant_query_bias.reset();
  softmax.train = ball_split();
  softmax.test.reset();
  report.models = {relu, softmax};
  return report;
}

std::string pattern_of_refusal(const nlohmann::json& request) {
  try {
    check_train_request(train_request_from_json(request));
  } catch (const DomainError& e) {
    return e.pattern();
  }
  return "";
}

}  // namespace

TEST_CASE("train job: a report reads back from its JSON text to the same report") {
  const nlohmann::json written = train_report_to_json(sample_report());
  const TrainReport read = train_report_from_json(nlohmann::json::parse(written.dump(2)));
  CHECK(train_report_to_json(read) == written);
  REQUIRE(read.models.size() == 2);
  const TrainedModelReport& relu = read.models[0];
  CHECK(relu.final_loss == 0.123456789012345678);  // doubles come back bit for bit
  CHECK(relu.train.max_error == Rational(7, 3));
  CHECK(relu.train.undefined == 1);
  CHECK_FALSE(relu.train.solves());
  CHECK(relu.test->solves());
  CHECK(std::isnan(relu.train.disagreements[0].float_output));
  CHECK(relu.train.disagreements[1].exact_output == Rational(-5, 8));
  CHECK(relu.model == std::optional<std::string>("relu-r2-s7.model"));
  const TrainedModelReport& softmax = read.models[1];
  CHECK_FALSE(softmax.train.exact);
  CHECK(softmax.train.max_error_lo == Rational(1, 2048));
  CHECK(softmax.train.disagreements[0].ball_output == "[0.25 +/- 1e-20]");
  CHECK_FALSE(softmax.train.disagreements[0].decided_fails);
  CHECK_FALSE(softmax.model.has_value());
  CHECK_FALSE(softmax.test.has_value());
  CHECK_FALSE(softmax.recipe.constant_query_bias.has_value());
  // The written form is report.json's: a float output that is not finite is said so.
  CHECK(written["models"][0]["train"]["disagreement_list"][0]["float_output"] == "not finite");
  CHECK(written["models"][1]["train"]["exact"]["undecided"] == "2");
  CHECK_THROWS_AS(train_report_from_json(nlohmann::json{{"format", "other"}}), InternalError);
}

TEST_CASE("train job: a request reads back from its JSON form; a bad field names its parameter") {
  TrainRequest request;
  request.train = "a.family";
  request.test = "b.family";
  request.out = "dir";
  request.r = {2, 4096};
  request.feature = {"square", "softmax"};
  request.seed = {18446744073709551615ULL};
  request.epochs = 12;
  request.freeze_constant_features = false;
  request.lr = 0.1;
  request.progress = false;
  const nlohmann::json written = train_request_to_json(request);
  const TrainRequest read = train_request_from_json(nlohmann::json::parse(written.dump()));
  CHECK(train_request_to_json(read) == written);
  CHECK(read.seed == request.seed);
  CHECK(read.freeze_constant_features == std::optional<bool>(false));
  CHECK_FALSE(read.batch.has_value());
  CHECK(read.lr == 0.1);

  const nlohmann::json base = {{"family", "f.family"}, {"out", "dir"}};
  const auto with = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json j = base;
    j[key] = value;
    return j;
  };
  CHECK(pattern_of_refusal(with("r", {2, 0})) == "{r} must be in 1..4096, not 0");
  CHECK(pattern_of_refusal(with("r", "4")) == "{r} must be a list");
  CHECK(pattern_of_refusal(with("epochs", 1.5)) ==
        "{epochs} must be an integer in " + std::to_string(std::numeric_limits<int>::min()) + ".." +
            std::to_string(std::numeric_limits<int>::max()));
  CHECK(pattern_of_refusal(with("threads", -1)) == "{threads} must be an integer in 0..4294967295");
  CHECK(pattern_of_refusal(with("band", 0.5)) == "{band} must be in [0, 0.5)");
  CHECK(pattern_of_refusal(with("position-dependent", 1)) == "{position-dependent} must be a bool");
  CHECK(pattern_of_refusal(with("init", "zeros")).rfind("{init} must be default", 0) == 0);
  CHECK(pattern_of_refusal(with("colour", 1)) == "the train request has no parameter 'colour'");
  CHECK(pattern_of_refusal(with("recipe", "{x}")) == "{recipe} must be witness or ood, not '{{x}'");
  CHECK(pattern_of_refusal(base) == "");
}

TEST_CASE("train job: the request is checked before the trainer is asked") {
  TrainRequest request;
  request.family = "no-such.family";
  request.out = "dir";
  const HeadTrainer unavailable{[] { return false; },
                                [](const Family&, const Family&, const TrainConfig&,
                                   const std::function<void(const EpochStatus&)>&) -> TrainedHead {
                                  throw UsageError("no trainer here");
                                }};
  request.r = {0};
  CHECK_THROWS_WITH_AS(run_train_job(request, unavailable), "r must be in 1..4096, not 0",
                       DomainError);
  request.r = {1};
  CHECK_THROWS_WITH_AS(run_train_job(request, unavailable), "no trainer here", UsageError);
}

TEST_CASE("trainer protocol: an error crosses as the same exception and exit code") {
  const auto crossed = [](const auto& error) {
    return trainer_error_to_json(std::make_exception_ptr(error));
  };
  const nlohmann::json usage = crossed(DomainError("{constant-query-bias} must be positive"));
  CHECK(usage["kind"] == "usage");
  CHECK(usage["exit_code"] == kExitMalformed);
  try {
    throw_trainer_error(usage);
  } catch (const DomainError& e) {
    CHECK(e.pattern() == "{constant-query-bias} must be positive");
  }
  // A plain message keeps its braces as text, never as a parameter.
  const nlohmann::json plain = crossed(UsageError("no {trainer} here"));
  CHECK_THROWS_WITH_AS(throw_trainer_error(plain), "no {trainer} here", DomainError);
  for (const InputError& input :
       {InputError("a.family", 4, "bad width"), InputError("b.json", 2, 9, "bad key"),
        InputError::whole_file("c.safetensors", "bad header")}) {
    const nlohmann::json j = crossed(input);
    CHECK(j["exit_code"] == kExitMalformed);
    CHECK_THROWS_WITH_AS(throw_trainer_error(j), input.what(), InputError);
  }
  const nlohmann::json resource = crossed(ResourceError("too large"));
  CHECK(resource["exit_code"] == kExitResource);
  CHECK_THROWS_AS(throw_trainer_error(resource), ResourceError);
  const nlohmann::json output = crossed(OutputError("cannot write x"));
  CHECK(output["exit_code"] == kExitMalformed);
  CHECK_THROWS_WITH_AS(throw_trainer_error(output), "cannot write x", OutputError);
  const nlohmann::json internal = crossed(InternalError("a bug"));
  CHECK(internal["exit_code"] == kExitInternal);
  CHECK_THROWS_WITH_AS(throw_trainer_error(internal), "a bug", InternalError);
}
