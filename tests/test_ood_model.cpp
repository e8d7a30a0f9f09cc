// The shipped OOD head (instances/models/ood/relu-m8-w4-r64.model, a relu head with 64
// features trained by `train --recipe ood` on weight-4 pools of width 8, seed 1;
// docs/experiments.md, experiment 2): it solves every length-3 instance over the weight-4
// words of width 8, with the query at any position. Checked by the token-set evaluator on all
// 70^3 x 3 = 1,029,000 instances, and by the naive oracle of tests/oracle/, which shares no
// code with it, on every instance whose first token is one of three words.
#include "oracle/naive_parametric.hpp"

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <bit>

using namespace kernelrank;

namespace {

// The weight-4 words of width 8, by the test's own enumeration.
std::vector<Token> weight_four_words() {
  std::vector<Token> words;
  for (std::uint64_t bits = 0; bits < 256; ++bits)
    if (std::popcount(bits) == 4) words.push_back(Token::from_index(8, bits));
  return words;
}

}  // namespace

// Slow: a million exact evaluations of one head; under the sanitizers a minute for a code path
// the smaller parametric-model tests already take there.
TEST_CASE("ood model: a trained relu head with 64 features solves the weight-4 slice at m = 8" *
          doctest::test_suite("slow")) {
  const std::unique_ptr<Model> model =
      read_model(std::string(KERNELRANK_SOURCE_DIR) + "/instances/models/ood/relu-m8-w4-r64.model");
  const auto* parametric = dynamic_cast<const ParametricModel*>(model.get());
  REQUIRE(parametric != nullptr);
  REQUIRE(parametric->feature_count() == 64);
  const std::vector<Token> words = weight_four_words();
  REQUIRE(words.size() == 70);  // C(8, 4)

  EvalOptions options;
  options.mode = QueryMode::All;
  const EvalReport report = evaluate_token_set(*model, words, 3, options);
  CHECK(report.instances == 70 * 70 * 70 * 3);
  CHECK(report.failing == 0);
  REQUIRE(report.max_error.has_value());
  CHECK(*report.max_error < Rational(1, 2));

  // The oracle: every sequence starting with one of three words, each position queried.
  std::size_t checked = 0;
  for (const std::size_t first : {std::size_t{0}, std::size_t{35}, std::size_t{69}})
    for (const Token& b : words)
      for (const Token& c : words)
        for (int query = 0; query < 3; ++query) {
          const Instance instance{{words[first], b, c}, query};
          const oracle::NaiveOutcome naive =
              oracle::naive_evaluate(parametric->maps_by_position(), FeatureMap::Relu, instance);
          REQUIRE(naive.output.has_value());
          CHECK(!naive.fails);
          CHECK(abs_of(*naive.output - min_ip_target(instance)) <= *report.max_error);
          ++checked;
        }
  CHECK(checked == 3 * 70 * 70 * 3);
}
