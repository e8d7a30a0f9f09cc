// Tests of the libtorch trainer against the exact side: the float forward pass equals the
// exact evaluator, autograd's gradient equals the exact derivative of the same model (from the
// independent dual-number oracle in tests/oracle/), training is deterministic, and a model
// trained with fewer features than a certified bound is reported failing with an instance
// that the oracle confirms.
#include "oracle/naive_parametric.hpp"
#include "train/torch_head.hpp"

#include "../source_dir.hpp"
#include "kernelrank/app/trained_head.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/trained_ball_verification.hpp"
#include "kernelrank/eval/trained_verification.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/train/train.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <variant>

using namespace kernelrank;

namespace {

std::vector<double> random_doubles(std::mt19937_64& rng, std::size_t count, double scale) {
  std::uniform_real_distribution<double> draw(-scale, scale);  // values only; exactness is ours
  std::vector<double> out(count);
  for (double& x : out) x = draw(rng);
  return out;
}

HeadWeights random_head(std::mt19937_64& rng, FeatureMap activation, int m, int r, int d,
                        int positions) {
  HeadWeights w;
  w.activation = activation;
  w.m = m;
  w.r = r;
  w.d = d;
  w.positions = positions;
  const auto M = static_cast<std::size_t>(m), R = static_cast<std::size_t>(r),
             D = static_cast<std::size_t>(d);
  for (int p = 0; p < std::max(positions, 1); ++p) {
    HeadPositionWeights s;
    s.query_weight = random_doubles(rng, R * M, 1.0);
    s.query_bias = random_doubles(rng, R, 1.0);
    s.key_weight = random_doubles(rng, R * M, 1.0);
    s.key_bias = random_doubles(rng, R, 1.0);
    s.value_weight = random_doubles(rng, D * M, 1.0);
    s.value_bias = random_doubles(rng, D, 1.0);
    s.readout_c_weight = random_doubles(rng, D * M, 1.0);
    s.readout_c_bias = random_doubles(rng, D, 1.0);
    s.readout_e_weight = random_doubles(rng, M, 1.0);
    s.readout_e_bias = random_doubles(rng, 1, 1.0);
    w.by_position.push_back(std::move(s));
  }
  return w;
}

Family random_family(std::mt19937_64& rng, int m, int n, std::size_t count) {
  Family family{m, n, {}};
  for (std::size_t i = 0; i < count; ++i) {
    Instance instance;
    for (int j = 0; j < n; ++j)
      instance.tokens.push_back(Token::from_index(m, rng() % (1ULL << m)));
    instance.query = static_cast<int>(rng() % static_cast<std::uint64_t>(n));
    family.instances.push_back(std::move(instance));
  }
  return family;
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1 + std::fabs(b)); }

Family read_shipped_witness_family() {
  return read_family(std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family");
}

}  // namespace

TEST_CASE("train: the float forward pass equals the exact evaluator on random heads") {
  std::mt19937_64 rng(20261201);
  int compared = 0, undefined = 0;
  for (const FeatureMap activation : {FeatureMap::Relu, FeatureMap::Square}) {
    for (const int positions : {0, 3}) {
      for (int trial = 0; trial < 5; ++trial) {
        const HeadWeights weights = random_head(rng, activation, 4, 3, 2, positions);
        const Family family = random_family(rng, 4, 3, 40);
        const std::vector<double> floats = float_outputs(weights, family, 0.0);
        const auto exact = parametric_model_from_weights(weights);
        REQUIRE(floats.size() == family.instances.size());
        for (std::size_t i = 0; i < family.instances.size(); ++i) {
          const Instance& instance = family.instances[i];
          const oracle::NaiveOutcome naive =
              oracle::naive_evaluate(exact->maps_by_position(), activation, instance);
          const InstanceOutcome evaluated = evaluate_instance(*exact, instance);
          CAPTURE(to_string(instance));
          REQUIRE(naive.output.has_value() == evaluated.output.has_value());
          if (!naive.output) {
            CHECK(!std::isfinite(floats[i]));
            ++undefined;
            continue;
          }
          CHECK(*naive.output == *evaluated.output);
          CHECK(close(floats[i], naive.output->convert_to<double>()));
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 700);  // relu heads leave some outputs undefined; most are compared
  MESSAGE("compared " << compared << " outputs, " << undefined << " undefined");
}

TEST_CASE("train: autograd's gradient equals the exact derivative of the same model") {
  std::mt19937_64 rng(7);
  for (const FeatureMap activation : {FeatureMap::Relu, FeatureMap::Square}) {
    for (const int positions : {0, 3}) {
      const HeadWeights weights = random_head(rng, activation, 3, 2, 2, positions);
      const Family family = random_family(rng, 3, 3, 6);
      const auto exact = parametric_model_from_weights(weights);
      // Keep instances whose exact output is defined (the derivative exists there).
      Family defined{3, 3, {}};
      for (const Instance& instance : family.instances)
        if (oracle::naive_evaluate(exact->maps_by_position(), activation, instance).output)
          defined.instances.push_back(instance);
      REQUIRE(!defined.instances.empty());

      train::TorchHead head = train::from_head_weights(weights);
      std::vector<torch::Tensor> params = head.parameters();
      for (torch::Tensor& p : params) p.set_requires_grad(true);
      const train::FamilyTensors data = train::to_tensors(defined);
      torch::mse_loss(train::forward(head, data, 0.0), data.targets).backward();

      // Autograd's gradients in the oracle's order: per slot, per map, weight then bias.
      std::vector<double> autograd;
      const auto append = [&](const torch::Tensor& grad) {
        const torch::Tensor flat = grad.contiguous().reshape({-1});
        for (std::int64_t i = 0; i < flat.numel(); ++i) autograd.push_back(flat[i].item<double>());
      };
      for (std::int64_t p = 0; p < head.query_weight.size(0); ++p) {
        append(head.query_weight.grad()[p]);
        append(head.query_bias.grad()[p]);
        append(head.key_weight.grad()[p]);
        append(head.key_bias.grad()[p]);
        append(head.value_weight.grad()[p]);
        append(head.value_bias.grad()[p]);
        append(head.readout_c_weight.grad()[p]);
        append(head.readout_c_bias.grad()[p]);
        append(head.readout_e_weight.grad()[p]);
        append(head.readout_e_bias.grad()[p].unsqueeze(0));
      }
      const std::vector<Rational> derivative =
          oracle::naive_loss_gradient(exact->maps_by_position(), activation, defined.instances);
      REQUIRE(autograd.size() == derivative.size());
      int nonzero = 0;
      for (std::size_t k = 0; k < derivative.size(); ++k) {
        CAPTURE(k);
        CHECK(close(autograd[k], derivative[k].convert_to<double>()));
        if (derivative[k] != 0) ++nonzero;
      }
      CHECK(nonzero > static_cast<int>(derivative.size()) / 3);  // not a vacuous comparison
    }
  }
}

TEST_CASE("train: the same configuration gives bit-identical weights, another seed does not") {
  std::mt19937_64 rng(3);
  const Family family = random_family(rng, 5, 3, 60);
  TrainConfig config;
  config.feature = FeatureMap::Relu;
  config.r = 3;
  config.epochs = 40;
  const TrainedHead a = train_head(family, Family{5, 3, {}}, config);
  const TrainedHead b = train_head(family, Family{5, 3, {}}, config);
  CHECK(head_to_safetensors(a.weights) == head_to_safetensors(b.weights));
  CHECK(a.train_outputs == b.train_outputs);
  config.seed = 2;
  const TrainedHead c = train_head(family, Family{5, 3, {}}, config);
  CHECK(head_to_safetensors(a.weights) != head_to_safetensors(c.weights));
}

TEST_CASE("train: training lowers the loss (the optimiser is wired to the parameters)") {
  std::mt19937_64 rng(11);
  const Family family = random_family(rng, 4, 3, 80);
  TrainConfig config;
  config.feature = FeatureMap::Square;
  config.r = 4;
  config.loss = "mse";
  config.init = "random";
  config.epochs = 0;
  const double untrained = train_head(family, Family{4, 3, {}}, config).final_loss;
  config.epochs = 300;
  const double trained = train_head(family, Family{4, 3, {}}, config).final_loss;
  CHECK(trained < 0.5 * untrained);
}

TEST_CASE("train: a head with fewer features than the certified bound fails, on an instance") {
  const Family family = read_shipped_witness_family();
  const FamilyBound bound = certify_family(family, false);
  REQUIRE(bound.found);
  const Integer certified = bound.bound.bound;
  REQUIRE(certified > 2);
  TrainConfig config;
  config.feature = FeatureMap::Square;
  config.r = 2;
  config.epochs = 60;
  const TrainedHead trained = train_head(family, Family{24, 3, {}}, config);
  const auto exact = parametric_model_from_weights(trained.weights);
  const SplitVerification split = verify_split(*exact, family, trained.train_outputs, 3);
  // The bound says no NK head with r = 2 < certified solves the family: the exact verdict
  // must be "fails", and its failing instance must fail on the independent oracle too.
  REQUIRE(!split.exact.solves());
  REQUIRE(!split.exact.failures.empty());
  const oracle::NaiveOutcome confirmed = oracle::naive_evaluate(
      exact->maps_by_position(), FeatureMap::Square, split.exact.failures.front().instance);
  CHECK(confirmed.fails);
  CHECK(confirmed.output == split.exact.failures.front().output);
}

namespace {

// The instances of the shipped witness family whose query is one of its first `queries`
// distinct query tokens: a reduced witness family (49 instances per query).
Family reduced_witness_family(std::size_t queries) {
  const Family full = read_shipped_witness_family();
  Family out{full.m, full.n, {}};
  std::vector<Token> kept;
  for (const Instance& instance : full.instances) {
    const Token& q = instance.tokens[static_cast<std::size_t>(instance.query)];
    const bool known = std::find(kept.begin(), kept.end(), q) != kept.end();
    if (!known && kept.size() == queries) continue;
    if (!known) kept.push_back(q);
    out.instances.push_back(instance);
  }
  return out;
}

}  // namespace

TEST_CASE("train: the default relu recipe solves a reduced witness family, the oracle agrees") {
  const Family family = reduced_witness_family(4);
  REQUIRE(family.instances.size() == 4 * 49);
  TrainConfig config;  // defaults: query-token init, 2 constant features, band loss
  config.feature = FeatureMap::Relu;
  config.r = 10;
  config.epochs = 3000;
  const TrainedHead trained = train_head(family, Family{24, 3, {}}, config);
  CHECK(trained.init == "query-tokens");
  const auto exact = parametric_model_from_weights(trained.weights);
  const SplitVerification split = verify_split(*exact, family, trained.train_outputs, 3);
  CHECK(split.exact.solves());
  // Every instance through the independent oracle: defined, within the band, same output.
  for (const Instance& instance : family.instances) {
    const oracle::NaiveOutcome naive =
        oracle::naive_evaluate(exact->maps_by_position(), FeatureMap::Relu, instance);
    REQUIRE(naive.output.has_value());
    CHECK(!naive.fails);
    CHECK(naive.output == evaluate_instance(*exact, instance).output);
  }
}

TEST_CASE("train: frozen constant features stay exactly constant; the last rows hold them") {
  const Family family = reduced_witness_family(2);
  TrainConfig config;
  config.feature = FeatureMap::Relu;
  config.r = 4;
  config.epochs = 50;
  config.freeze_constant_features = true;
  const TrainedHead trained = train_head(family, Family{24, 3, {}}, config);
  const HeadPositionWeights& w = trained.weights.by_position.at(0);
  for (int row = 2; row < 4; ++row) {
    CHECK(w.query_bias[static_cast<std::size_t>(row)] == 1.0);
    CHECK(w.key_bias[static_cast<std::size_t>(row)] == 1.0);
    for (int i = 0; i < 24; ++i) {
      CHECK(w.query_weight[static_cast<std::size_t>(row * 24 + i)] == 0.0);
      CHECK(w.key_weight[static_cast<std::size_t>(row * 24 + i)] == 0.0);
    }
  }
  // Data rows start at the bump around the first query token and move.
  CHECK(w.query_bias[0] != 1.0);
}

TEST_CASE("train: --init model starts from the given weights (0 steps return them)") {
  std::mt19937_64 rng(5);
  const Family family = random_family(rng, 5, 3, 40);
  const HeadWeights given = random_head(rng, FeatureMap::Relu, 5, 3, 5, 0);
  TrainConfig config;
  config.feature = FeatureMap::Relu;
  config.r = 3;
  config.epochs = 0;
  config.init_weights = rounded_head_weights(*parametric_model_from_weights(given));
  const TrainedHead trained = train_head(family, Family{5, 3, {}}, config);
  CHECK(trained.init == "model");
  CHECK(head_to_safetensors(trained.weights) == head_to_safetensors(given));
  config.r = 4;  // a mismatch is a usage error, not a silent reshape
  CHECK_THROWS_AS(train_head(family, Family{5, 3, {}}, config), UsageError);
}

TEST_CASE("train: the L5 softmax head is decided rigorously: it solves, a flat one fails") {
  // L5 (theory.md): scores -ln(3) <q, z>, values z, readout q solve every length-3 instance.
  // Started there without noise and not trained, the head must solve the witness family by
  // the ball-arithmetic verdict (ln 3 rounded to a double keeps the margin).
  const Family family = reduced_witness_family(6);
  TrainConfig config;
  config.feature = FeatureMap::Softmax;
  config.epochs = 0;
  config.init_noise = 0;
  const TrainedHead l5 = train_head(family, Family{24, 3, {}}, config);
  CHECK(l5.init == "l5");
  const auto decide = [&](const TrainedHead& trained) {
    const TrainedHeadVerdict verdict = verify_trained_head(
        trained.weights, family, trained.train_outputs, Family{24, 3, {}}, {}, 3, "l5.safetensors");
    REQUIRE(!verdict.model_text);  // no exact model of a softmax head
    return std::get<BallSplitVerification>(verdict.train);
  };
  const BallSplitVerification solved = decide(l5);
  CHECK(solved.rigorous.solves());
  CHECK(solved.float_failing == 0);
  CHECK(solved.disagreement_count == 0);
  // Temperature 1e-6: attention is nearly uniform, y is about the mean overlap, which misses
  // the minimum on instances whose overlaps differ: decided failures, and float agrees.
  config.temperature = 1e-6;
  const BallSplitVerification flat = decide(train_head(family, Family{24, 3, {}}, config));
  CHECK(flat.rigorous.failing > 0);
  CHECK(flat.rigorous.undecided == 0);
  CHECK(flat.float_failing == flat.rigorous.failing);
}

TEST_CASE("train: the LBFGS polish starts from the best snapshot and never returns worse") {
  std::mt19937_64 rng(8);
  const Family family = random_family(rng, 6, 3, 80);
  TrainConfig config;
  config.feature = FeatureMap::Square;
  config.r = 4;
  config.epochs = 100;
  const TrainedHead plain = train_head(family, Family{6, 3, {}}, config);
  config.polish_steps = 20;
  const TrainedHead polished = train_head(family, Family{6, 3, {}}, config);
  const auto failing = [&](const TrainedHead& head) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < family.instances.size(); ++i)
      count += !(std::fabs(head.train_outputs[i] - min_ip_target(family.instances[i])) < 0.5);
    return count;
  };
  // Same Adam run, so the polish competes with the plain run's snapshot: fewer float failures,
  // or as many with a loss no higher.
  CHECK(plain.steps == polished.steps);
  CHECK((failing(polished) < failing(plain) ||
         (failing(polished) == failing(plain) && polished.final_loss <= plain.final_loss)));
}

namespace {

// Distinct instances over weight-w tokens of width m with a random query position (the pools
// of the OOD experiment), drawn by the test's own generator.
Family weighted_family(std::mt19937_64& rng, int m, int w, std::size_t count) {
  Family family{m, 3, {}};
  std::set<std::pair<int, std::vector<Token>>> seen;
  while (family.instances.size() < count) {
    Instance instance;
    for (int j = 0; j < 3; ++j) {
      std::vector<int> bits(static_cast<std::size_t>(m), 0);
      std::fill(bits.begin(), bits.begin() + w, 1);
      std::shuffle(bits.begin(), bits.end(), rng);
      Token t(m);
      for (int i = 0; i < m; ++i) t.set(i, bits[static_cast<std::size_t>(i)] != 0);
      instance.tokens.push_back(t);
    }
    instance.query = static_cast<int>(rng() % 3);
    if (seen.insert({instance.query, instance.tokens}).second)
      family.instances.push_back(std::move(instance));
  }
  return family;
}

// Pre-activation of feature row `row` of a map at token x, from the written weights.
double pre_activation(const std::vector<double>& weight, const std::vector<double>& bias, int m,
                      int row, const Token& x) {
  double sum = bias[static_cast<std::size_t>(row)];
  for (int i = 0; i < m; ++i)
    if (x.get(i)) sum += weight[static_cast<std::size_t>(row * m + i)];
  return sum;
}

Token complement_of(const Token& x) {
  Token out(x.width());
  for (int i = 0; i < x.width(); ++i) out.set(i, !x.get(i));
  return out;
}

}  // namespace

TEST_CASE("train: a minibatch's forward pass equals the same rows of the whole family's") {
  std::mt19937_64 rng(21);
  const Family family = weighted_family(rng, 8, 4, 300);
  const HeadWeights weights = random_head(rng, FeatureMap::Relu, 8, 5, 8, 0);
  const train::TorchHead head = train::from_head_weights(weights);
  const train::FamilyTensors data = train::to_tensors(family);
  REQUIRE(data.shared_maps);  // a whole family maps its distinct tokens once
  torch::NoGradGuard no_grad;
  const torch::Tensor all = train::forward(head, data, 0.0);
  std::int64_t defined_row = 0;
  while (std::isnan(all[defined_row].item<double>())) ++defined_row;
  // Rows with distinct tokens (mapped slot by slot) and one row repeated (mapped once each).
  for (const std::vector<std::int64_t>& picked :
       {std::vector<std::int64_t>{299, 3, 150, 7, 107, 42},
        std::vector<std::int64_t>(6, defined_row)}) {
    const torch::Tensor rows = torch::tensor(picked, torch::kInt64);
    const train::FamilyTensors batch = train::subset(data, rows);
    const bool repeated = picked[0] == picked[1];
    CHECK(batch.shared_maps == repeated);
    // The batch's distinct tokens are the ones its 6 instances use, not the family's.
    CHECK(batch.distinct_tokens.size(0) <= (repeated ? 3 : 18));
    const torch::Tensor whole = all.index_select(0, rows);
    const torch::Tensor part = train::forward(head, batch, 0.0);
    REQUIRE(part.size(0) == 6);
    int defined = 0;
    for (std::int64_t i = 0; i < 6; ++i) {
      const double a = part[i].item<double>(), b = whole[i].item<double>();
      CAPTURE(i);
      CAPTURE(a);
      CAPTURE(b);
      // A zero denominator (epsilon 0) is NaN on both sides.
      CHECK((std::isnan(a) ? std::isnan(b) : close(a, b)));
      defined += std::isnan(a) ? 0 : 1;
      CHECK(batch.targets[i].item<double>() ==
            data.targets[rows[i].item<std::int64_t>()].item<double>());
    }
    CHECK(defined >= 3);  // not a comparison of NaNs only
  }
}

TEST_CASE("train: minibatches are seeded; a batch as large as the family is full batch") {
  std::mt19937_64 rng(22);
  const Family family = weighted_family(rng, 6, 3, 120);
  TrainConfig config = recipe_config(Recipe::Ood);
  config.feature = FeatureMap::Relu;
  config.r = 6;
  config.epochs = 30;
  config.batch = 50;  // 3 batches an epoch, the last of 20
  const TrainedHead a = train_head(family, Family{6, 3, {}}, config);
  const TrainedHead b = train_head(family, Family{6, 3, {}}, config);
  CHECK(head_to_safetensors(a.weights) == head_to_safetensors(b.weights));
  config.seed = 2;  // another order (and another init noise)
  CHECK(head_to_safetensors(train_head(family, Family{6, 3, {}}, config).weights) !=
        head_to_safetensors(a.weights));
  config.seed = 1;
  config.batch = 0;
  const TrainedHead full = train_head(family, Family{6, 3, {}}, config);
  CHECK(head_to_safetensors(full.weights) != head_to_safetensors(a.weights));
  config.batch = 120;  // the whole family in one batch: the full-batch path, bit for bit
  CHECK(head_to_safetensors(train_head(family, Family{6, 3, {}}, config).weights) ==
        head_to_safetensors(full.weights));
}

TEST_CASE("train: the witness recipe is TrainConfig's defaults; ood changes what it says") {
  const TrainConfig defaults, witness = recipe_config(Recipe::Witness),
                              ood = recipe_config(Recipe::Ood);
  CHECK(witness.epochs == defaults.epochs);
  CHECK(witness.batch == 0);
  CHECK(witness.init_noise == defaults.init_noise);
  CHECK(witness.constant_query_bias == 1.0);
  CHECK(!witness.freeze_constant_features);
  CHECK(witness.bumps == BumpShape::Witness);
  CHECK(ood.epochs == 2000);
  CHECK(ood.batch == 1000);
  CHECK(ood.init_noise == 0.01);
  CHECK(ood.constant_query_bias == 0.1);
  CHECK(ood.freeze_constant_features);
  CHECK(ood.bumps == BumpShape::Scaled);
  CHECK(recipe_named("ood") == Recipe::Ood);
  CHECK(!recipe_named("OOD"));
  CHECK(bump_shape_named("scaled") == BumpShape::Scaled);
  CHECK(!bump_shape_named(""));
}

TEST_CASE(
    "train: scaled relu bumps fire at the centre with width m/2; at m = 8 they are the "
    "witness bumps") {
  std::mt19937_64 rng(23);
  for (const int m : {8, 12, 16}) {
    CAPTURE(m);
    const Family family = weighted_family(rng, m, m / 2, 40);
    TrainConfig config;
    config.feature = FeatureMap::Relu;
    config.r = 6;
    config.epochs = 0;
    config.init_noise = 0;
    config.keep_best = false;
    config.bumps = BumpShape::Scaled;
    const HeadPositionWeights w =
        train_head(family, Family{m, 3, {}}, config).weights.by_position[0];
    const Instance& first = family.instances.front();
    const Token& x = first.tokens[static_cast<std::size_t>(first.query)];  // the first centre
    // At q = x: <2x - 1, x> - |x| + 4m/8 = m/2; one less per differing bit.
    CHECK(pre_activation(w.query_weight, w.query_bias, m, 0, x) == m / 2.0);
    Token near = x;
    near.set(0, !near.get(0));
    CHECK(pre_activation(w.query_weight, w.query_bias, m, 0, near) == m / 2.0 - 1);
    // On the complement of x: <1 - 2x, ~x> - |x| + 2.5m/8 = m - 2|x| + 2.5m/8 = 2.5m/8.
    CHECK(pre_activation(w.key_weight, w.key_bias, m, 0, complement_of(x)) == 2.5 * m / 8);
    if (m == 8) {
      config.bumps = BumpShape::Witness;
      const HeadPositionWeights fixed =
          train_head(family, Family{m, 3, {}}, config).weights.by_position[0];
      CHECK(fixed.query_weight == w.query_weight);
      CHECK(fixed.query_bias == w.query_bias);
      CHECK(fixed.key_weight == w.key_weight);
      CHECK(fixed.key_bias == w.key_bias);
    }
  }
}

TEST_CASE("train: the square bump is largest at its centre and falls with the distance") {
  std::mt19937_64 rng(24);
  const int m = 10;
  const Family family = weighted_family(rng, m, 5, 40);
  TrainConfig config = recipe_config(Recipe::Ood);
  config.feature = FeatureMap::Square;
  config.r = 4;
  config.epochs = 0;
  config.init_noise = 0;
  config.keep_best = false;
  const HeadPositionWeights w = train_head(family, Family{m, 3, {}}, config).weights.by_position[0];
  const Instance& first = family.instances.front();
  const Token x = first.tokens[static_cast<std::size_t>(first.query)];
  // Walk from x to its complement one bit at a time: the query pre-activation goes
  // 1, (m-1)/m, ..., 0 (never negative, so its square falls all the way), the key
  // pre-activation 0, 1/m, ..., 1.
  Token walk = x;
  double last_query = 2, last_key = -1;
  for (int k = 0; k <= m; ++k) {
    CAPTURE(k);
    const double q = pre_activation(w.query_weight, w.query_bias, m, 0, walk);
    const double z = pre_activation(w.key_weight, w.key_bias, m, 0, walk);
    CHECK(std::fabs(q - static_cast<double>(m - k) / m) < 1e-12);
    CHECK(std::fabs(z - static_cast<double>(k) / m) < 1e-12);
    CHECK(q * q < last_query);
    CHECK(z * z > last_key);
    last_query = q * q;
    last_key = z * z;
    if (k < m) walk.set(k, !walk.get(k));
  }
  // The constant rows: query bias 0.1, key bias 1, weights 0.
  CHECK(w.query_bias[3] == 0.1);
  CHECK(w.key_bias[3] == 1.0);
}

TEST_CASE("train: the ood recipe keeps its constant features frozen at query bias 0.1") {
  std::mt19937_64 rng(25);
  const Family family = weighted_family(rng, 8, 4, 200);
  TrainConfig config = recipe_config(Recipe::Ood);
  config.feature = FeatureMap::Relu;
  config.r = 5;
  config.epochs = 40;
  config.batch = 64;
  const TrainedHead trained = train_head(family, Family{8, 3, {}}, config);
  const HeadPositionWeights& w = trained.weights.by_position.at(0);
  for (int row = 3; row < 5; ++row) {
    CHECK(w.query_bias[static_cast<std::size_t>(row)] == 0.1);
    CHECK(w.key_bias[static_cast<std::size_t>(row)] == 1.0);
    for (int i = 0; i < 8; ++i) {
      CHECK(w.query_weight[static_cast<std::size_t>(row * 8 + i)] == 0.0);
      CHECK(w.key_weight[static_cast<std::size_t>(row * 8 + i)] == 0.0);
    }
  }
  CHECK(trained.steps == 40);
}
