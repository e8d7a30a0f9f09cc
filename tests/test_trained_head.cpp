// The verdict on a trained head (app/trained_head.hpp), on heads written by hand: a relu head
// is decided exactly, as its parametric model decides it, and its safetensors bytes hold the
// weights given; a softmax head goes to ball arithmetic, on a head whose output is known.
#include "kernelrank/app/trained_head.hpp"

#include "kernelrank/core/double_rational.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <variant>

using namespace kernelrank;

namespace {

// Multiples of 1/4 in [-2, 2]: exact as doubles, and outputs with small denominators.
std::vector<double> quarters(std::mt19937_64& rng, std::size_t count) {
  std::vector<double> out(count);
  for (double& x : out) x = static_cast<double>(static_cast<int>(rng() % 17) - 8) / 4;
  return out;
}

HeadWeights hand_head(std::mt19937_64& rng, FeatureMap map, int m, int r, int d) {
  HeadWeights w;
  w.activation = map;
  w.m = m;
  w.r = r;
  w.d = d;
  const auto M = static_cast<std::size_t>(m), R = static_cast<std::size_t>(r),
             D = static_cast<std::size_t>(d);
  w.by_position.push_back({quarters(rng, R * M), quarters(rng, R), quarters(rng, R * M),
                           quarters(rng, R), quarters(rng, D * M), quarters(rng, D),
                           quarters(rng, D * M), quarters(rng, D), quarters(rng, M),
                           quarters(rng, 1)});
  return w;
}

Family all_instances(int m) {  // every instance of T(m, 3), query first
  Family family{m, 3, {}};
  const std::uint64_t tokens = 1ULL << m;
  for (std::uint64_t a = 0; a < tokens; ++a)
    for (std::uint64_t b = 0; b < tokens; ++b)
      for (std::uint64_t c = 0; c < tokens; ++c)
        family.instances.push_back(
            {{Token::from_index(m, a), Token::from_index(m, b), Token::from_index(m, c)}, 0});
  return family;
}

// Float outputs that are all "correct": the targets themselves.
std::vector<double> targets_of(const Family& family) {
  std::vector<double> out;
  for (const Instance& instance : family.instances) out.push_back(min_ip_target(instance));
  return out;
}

}  // namespace

TEST_CASE("trained head: a relu head is decided exactly, as its parametric model decides it") {
  std::mt19937_64 rng(20261207);
  const Family train = all_instances(2);
  Family test{2, 3, {}};
  for (std::size_t i = 0; i < train.instances.size(); i += 5)
    test.instances.push_back(train.instances[i]);
  // A head that fails somewhere, with some outputs undefined (relu features can all vanish).
  HeadWeights weights;
  std::size_t failing = 0, undefined = 0;
  for (int attempt = 0; attempt < 100 && (failing == 0 || undefined == 0); ++attempt) {
    weights = hand_head(rng, FeatureMap::Relu, 2, 2, 2);
    const auto model = parametric_model_from_weights(weights);
    failing = undefined = 0;
    for (const Instance& instance : train.instances) {
      const InstanceOutcome outcome = evaluate_instance(*model, instance);
      failing += outcome.fails();
      undefined += !outcome.output.has_value();
    }
  }
  REQUIRE(failing > 1);
  REQUIRE(undefined > 0);

  const std::size_t listed = 2;
  const TrainedHeadVerdict verdict = verify_trained_head(
      weights, train, targets_of(train), test, targets_of(test), listed, "relu.safetensors");
  REQUIRE(verdict.exact());
  REQUIRE(std::holds_alternative<SplitVerification>(verdict.train));
  const SplitVerification& split = std::get<SplitVerification>(verdict.train);

  // The same verdict as evaluating the model the returned text describes, instance by instance.
  const auto from_text = parse_model("relu.model", *verdict.model_text);
  std::vector<std::size_t> exact_failing;
  for (std::size_t i = 0; i < train.instances.size(); ++i)
    if (evaluate_instance(*from_text, train.instances[i]).fails()) exact_failing.push_back(i);
  CHECK(exact_failing.size() == failing);
  CHECK(split.instances == train.instances.size());
  CHECK(split.exact.failing == static_cast<long>(failing));
  CHECK(split.exact.undefined == static_cast<long>(undefined));
  const EvalReport direct = evaluate_family(*from_text, train, EvalOptions{});
  CHECK(split.exact.max_error == direct.max_error);
  REQUIRE(!split.exact.failures.empty());
  CHECK(split.exact.failures[0].instance == train.instances[exact_failing[0]]);
  // Float says every instance is correct: each exact failure is a disagreement, and the first
  // `listed` of them in family order are listed.
  CHECK(split.float_failing == 0);
  CHECK(split.disagreement_count == failing);
  REQUIRE(split.disagreements.size() == listed);
  for (std::size_t k = 0; k < listed; ++k) {
    CHECK(split.disagreements[k].instance == train.instances[exact_failing[k]]);
    CHECK(split.disagreements[k].exact_fails);
    CHECK(!split.disagreements[k].float_fails);
  }
  REQUIRE(verdict.test.has_value());
  CHECK(std::get<SplitVerification>(*verdict.test).instances == test.instances.size());

  // The bytes hold the weights given, each double exactly, and say relu.
  const SafetensorsFile file = parse_safetensors("relu.safetensors", verdict.safetensors);
  CHECK(file.metadata.at("activation") == "relu");
  const HeadPositionWeights& given = weights.by_position[0];
  const std::pair<const char*, const std::vector<double>*> parts[] = {
      {"query.weight", &given.query_weight}, {"query.bias", &given.query_bias},
      {"key.weight", &given.key_weight},     {"key.bias", &given.key_bias},
      {"value.weight", &given.value_weight}, {"readout_e.bias", &given.readout_e_bias}};
  for (const auto& [name, values] : parts) {
    CAPTURE(name);
    const SafetensorsTensor* tensor = file.find(name);
    REQUIRE(tensor != nullptr);
    REQUIRE(tensor->values.size() == values->size());
    for (std::size_t i = 0; i < values->size(); ++i)
      CHECK(tensor->values[i] == rational_from_double((*values)[i]));
  }
  // ... and the file is the model the text describes.
  const auto from_bytes = parse_model("relu.safetensors", verdict.safetensors);
  for (const Instance& instance : train.instances)
    CHECK(evaluate_instance(*from_bytes, instance).output ==
          evaluate_instance(*from_text, instance).output);
}

TEST_CASE("trained head: an empty test family gives no test verdict") {
  std::mt19937_64 rng(3);
  const Family train = all_instances(1);
  const TrainedHeadVerdict verdict =
      verify_trained_head(hand_head(rng, FeatureMap::Square, 1, 2, 1), train, targets_of(train),
                          Family{1, 3, {}}, {}, 5, "square.safetensors");
  CHECK(verdict.exact());
  CHECK(!verdict.test);
}

TEST_CASE("trained head: a softmax head goes to ball arithmetic, decided on every instance") {
  // Zero scores attend uniformly; with no value and readout e = 1 the output is exactly 1 on
  // every instance: it passes where the target is 1 and fails elsewhere.
  HeadWeights weights;
  weights.activation = FeatureMap::Softmax;
  weights.m = weights.r = 3;
  weights.d = 1;
  weights.temperature = 1.0;
  weights.by_position.push_back({std::vector<double>(9, 0.0),
                                 std::vector<double>(3, 0.0),
                                 std::vector<double>(9, 0.0),
                                 std::vector<double>(3, 0.0),
                                 std::vector<double>(3, 0.0),
                                 {0.0},
                                 std::vector<double>(3, 0.0),
                                 {0.0},
                                 std::vector<double>(3, 0.0),
                                 {1.0}});
  const Family family = all_instances(3);
  std::vector<std::size_t> target_not_one;
  for (std::size_t i = 0; i < family.instances.size(); ++i)
    if (min_ip_target(family.instances[i]) != 1) target_not_one.push_back(i);
  REQUIRE(!target_not_one.empty());
  REQUIRE(target_not_one.size() < family.instances.size());

  // Float: 1 everywhere, except a NaN on two instances whose target is 1 (float fails there,
  // the decided verdict passes): two disagreements, one listed, the lower index.
  std::vector<double> floats(family.instances.size(), 1.0);
  std::vector<std::size_t> flipped;
  for (std::size_t i = family.instances.size(); i-- > 0 && flipped.size() < 2;)
    if (min_ip_target(family.instances[i]) == 1) flipped.push_back(i);
  for (const std::size_t i : flipped) floats[i] = std::numeric_limits<double>::quiet_NaN();

  const TrainedHeadVerdict verdict =
      verify_trained_head(weights, family, floats, family, floats, 1, "softmax.safetensors");
  CHECK(!verdict.exact());
  REQUIRE(std::holds_alternative<BallSplitVerification>(verdict.train));
  const BallSplitVerification& split = std::get<BallSplitVerification>(verdict.train);
  CHECK(split.rigorous.instances == family.instances.size());
  CHECK(split.rigorous.failing == target_not_one.size());
  CHECK(split.rigorous.undecided == 0);
  CHECK(split.float_failing == target_not_one.size() + 2);
  CHECK(split.disagreement_count == 2);
  REQUIRE(split.disagreements.size() == 1);
  CHECK(split.disagreements[0].instance == family.instances[flipped[1]]);  // the lower index
  CHECK(split.disagreements[0].float_fails);
  REQUIRE(verdict.test.has_value());
  CHECK(std::holds_alternative<BallSplitVerification>(*verdict.test));
  // The bytes say softmax and carry the temperature.
  const SafetensorsFile file = parse_safetensors("softmax.safetensors", verdict.safetensors);
  CHECK(file.metadata.at("activation") == "softmax");
  CHECK(file.find("temperature") != nullptr);
}
