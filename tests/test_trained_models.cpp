// The shipped trained heads (instances/models/trained/, from the witness-suite experiment):
// the exact model file and the safetensors file are the same model, and the verdict recorded
// in the training report is confirmed by two paths that share nothing with the trainer's
// verification: a tabulated model (kernel and readout tables over the family's tokens,
// evaluated by table lookup) and the naive oracle of tests/oracle/ on the failing instance.
#include "oracle/naive_parametric.hpp"

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using namespace kernelrank;

namespace {

const std::string kTrained = std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/trained/";

const ParametricModel& as_parametric(const Model& model) {
  const auto* parametric = dynamic_cast<const ParametricModel*>(&model);
  REQUIRE(parametric != nullptr);
  return *parametric;
}

std::vector<Token> distinct_tokens(const Family& family) {
  std::vector<Token> tokens;
  std::set<std::string> seen;
  for (const Instance& instance : family.instances)
    for (const Token& token : instance.tokens)
      if (seen.insert(token.to_string()).second) tokens.push_back(token);
  return tokens;
}

// The model's kernel and readout as tables over `tokens`.
TabularModel tabulate(const Model& model, const std::vector<Token>& tokens) {
  RationalMatrix kernel(tokens.size(), RationalVector(tokens.size()));
  RationalMatrix readout = kernel;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t j = 0; j < tokens.size(); ++j) {
      kernel[i][j] = model.kernel(tokens[i], tokens[j], 0, 0);
      readout[i][j] = model.readout(tokens[i], tokens[j], 0, 0);
    }
  return TabularModel(model.width(), tokens, std::move(kernel), std::move(readout));
}

Instance parse_instance_text(const std::string& text, int m) {
  // "q=<pos> <token> ..." as written by to_string(Instance).
  std::istringstream in(text);
  std::string word;
  in >> word;
  Instance instance;
  instance.query = std::stoi(word.substr(2)) - 1;
  while (in >> word) instance.tokens.push_back(parse_token(word));
  REQUIRE(instance.width() == m);
  return instance;
}

}  // namespace

TEST_CASE("trained models: shipped heads are confirmed by tabulated and naive evaluation") {
  const Family family =
      read_family(std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family");
  std::ifstream report_file(kTrained + "report.json");
  REQUIRE(report_file.good());
  const nlohmann::json report = nlohmann::json::parse(report_file);
  const std::vector<Token> tokens = distinct_tokens(family);
  int confirmed_failures = 0;
  for (const nlohmann::json& record : report.at("models")) {
    const std::string name = record.at("name");
    CAPTURE(name);
    const auto text_model = read_model(kTrained + name + ".model");
    const auto tensor_model = read_model(kTrained + name + ".safetensors");
    const ParametricModel& parametric = as_parametric(*text_model);
    // Same model from both files, on every token pair the family uses.
    for (const Token& q : tokens)
      for (const Token& z : tokens) {
        REQUIRE(text_model->kernel(q, z, 0, 0) == tensor_model->kernel(q, z, 0, 0));
        REQUIRE(text_model->readout(q, z, 0, 0) == tensor_model->readout(q, z, 0, 0));
      }
    // Tabulated evaluation reproduces the recorded exact verdict, counts and max error.
    const nlohmann::json& exact = record.at("train").at("exact");
    EvalOptions options;
    const EvalReport tabulated = evaluate_family(tabulate(*text_model, tokens), family, options);
    CHECK(tabulated.failing.str() == exact.at("failing").get<std::string>());
    CHECK(tabulated.undefined.str() == exact.at("undefined").get<std::string>());
    CHECK(tabulated.solves() == (exact.at("verdict") == "solves (verified exactly)"));
    if (!exact.at("max_error").is_null())
      CHECK(to_string(*tabulated.max_error) == exact.at("max_error").get<std::string>());
    // The recorded failing instance fails on the naive oracle, with the recorded output.
    if (!exact.at("first_failure").is_null()) {
      const nlohmann::json& failure = exact.at("first_failure");
      const Instance instance = parse_instance_text(failure.at("instance"), family.m);
      const oracle::NaiveOutcome naive =
          oracle::naive_evaluate(parametric.maps_by_position(), parametric.activation(), instance);
      CHECK(naive.fails);
      CHECK(naive.target == failure.at("target").get<int>());
      if (failure.at("output").is_null())
        CHECK(!naive.output.has_value());
      else
        CHECK(to_string(*naive.output) == failure.at("output").get<std::string>());
      ++confirmed_failures;
    }
  }
  CHECK(confirmed_failures >= 1);
}
