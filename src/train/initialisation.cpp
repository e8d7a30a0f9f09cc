// Initial heads for training (torch_head.hpp, initialise): random, data-informed bumps around
// the family's tokens, the L5 softmax head, or a given model; then the constant features.
//
// The bump init (relu): one feature per centre token x, query pre-activation
// <2x - 1, q> - |x| + 4 (4 at q = x, one less per differing bit) and key pre-activation
// <1 - 2x, z> - |x| + 2.5 (largest on the complement of x), with the readout F_q(z) = <q, z>.
// This is the complement-detector shape of the exact heads that exist for witness families;
// gradient descent only has to sharpen it. Seeded noise (the random init, scaled) breaks ties
// between repeated centres and makes seeds differ. Scaled bumps (BumpShape::Scaled) widen
// the relu widths 4 and 2.5 by m/8; for square heads they are the square bump, whose affine
// part (m - d(q, x)) / m, resp. d(z, x) / m, is >= 0 on the whole cube: the square of the relu
// bump is not a bump (a large negative pre-activation squares to a large feature).
#include "torch_head.hpp"

#include "kernelrank/core/errors.hpp"

#include <cmath>
#include <unordered_set>

namespace kernelrank::train {
namespace {

const auto kDouble = torch::TensorOptions().dtype(torch::kFloat64);

std::vector<Token> distinct_query_tokens(const Family& family) {
  std::vector<Token> out;
  std::unordered_set<Token, TokenHash> seen;
  for (const Instance& instance : family.instances) {
    const Token& q = instance.tokens[static_cast<std::size_t>(instance.query)];
    if (seen.insert(q).second) out.push_back(q);
  }
  return out;
}

// `count` tokens drawn (seeded) from the distinct tokens of the family, any position.
std::vector<Token> drawn_instance_tokens(const Family& family, int count, std::uint64_t seed) {
  std::vector<Token> distinct;
  std::unordered_set<Token, TokenHash> seen;
  for (const Instance& instance : family.instances)
    for (const Token& x : instance.tokens)
      if (seen.insert(x).second) distinct.push_back(x);
  SeededUniform draw(seed * 0xD1B54A32D192ED03ULL + 17);
  std::vector<Token> out;
  for (int i = 0; i < count; ++i) out.push_back(distinct[draw.below(distinct.size())]);
  return out;
}

// One bump's affine maps: query pre-activation scale (<2x - 1, q> - |x| + query_width) and
// key pre-activation scale (<1 - 2x, z> + key_offset) (the key offset includes -|x|).
struct BumpForm {
  double query_width, key_offset, scale;
};

BumpForm bump_form(BumpShape shape, FeatureMap feature, int m, double weight) {
  const double md = m;
  if (shape == BumpShape::Witness) return {4, 2.5 - weight, 1};
  if (feature == FeatureMap::Relu) return {4 * md / 8, 2.5 * md / 8 - weight, 1};
  // Square: m - d(q, x) = <2x - 1, q> - |x| + m and d(z, x) = <1 - 2x, z> + |x|, over m.
  return {md, weight, 1 / md};
}

// Rows [0, rows) of query/key from bumps around centres (cycled), plus noise times the random
// weights already there.
void set_bump_rows(TorchHead& head, const std::vector<Token>& centres, int rows, double noise,
                   BumpShape shape) {
  torch::NoGradGuard no_grad;
  const int m = head.m;
  torch::Tensor qw = torch::zeros({rows, m}, kDouble), kw = torch::zeros({rows, m}, kDouble);
  torch::Tensor qb = torch::zeros({rows}, kDouble), kb = torch::zeros({rows}, kDouble);
  for (int i = 0; i < rows; ++i) {
    const Token& x = centres[static_cast<std::size_t>(i) % centres.size()];
    const double weight = static_cast<double>(x.weight());
    const BumpForm form = bump_form(shape, head.feature, m, weight);
    for (int b = 0; b < m; ++b) {
      const double bit = x.get(b) ? 1.0 : 0.0;
      qw[i][b] = (2 * bit - 1) * form.scale;
      kw[i][b] = (1 - 2 * bit) * form.scale;
    }
    qb[i] = (form.query_width - weight) * form.scale;
    kb[i] = form.key_offset * form.scale;
  }
  const auto blend = [&](torch::Tensor& target, const torch::Tensor& bump) {
    auto slice = target.narrow(1, 0, rows);
    slice.copy_(bump.unsqueeze(0) + noise * slice);
  };
  blend(head.query_weight, qw);
  blend(head.key_weight, kw);
  blend(head.query_bias, qb);
  blend(head.key_bias, kb);
}

// Value and readout_c near the identity (F_q(z) = <q, z> when d = m), readout_e near 0.
void set_inner_product_readout(TorchHead& head, double noise) {
  torch::NoGradGuard no_grad;
  const torch::Tensor eye = torch::eye(head.d, head.m, kDouble).unsqueeze(0);
  head.value_weight.copy_(eye + noise * head.value_weight);
  head.readout_c_weight.copy_(eye + noise * head.readout_c_weight);
  head.value_bias.mul_(noise);
  head.readout_c_bias.mul_(noise);
}

// L5: scores -ln(3) <q, z> (W_Q = I, W_K = -I, temperature ln 3), values z, readout q.
void set_l5(TorchHead& head, double noise, bool learn_temperature) {
  torch::NoGradGuard no_grad;
  const torch::Tensor eye = torch::eye(head.m, kDouble).unsqueeze(0);
  head.query_weight.copy_(eye + noise * head.query_weight);
  head.key_weight.copy_(-eye + noise * head.key_weight);
  head.query_bias.mul_(noise);
  head.key_bias.mul_(noise);
  set_inner_product_readout(head, noise);
  if (learn_temperature) head.log_temperature.fill_(std::log(std::log(3.0)));
}

void set_constant_rows(TorchHead& head, int rows, double query_bias) {
  if (rows == 0) return;
  torch::NoGradGuard no_grad;
  const std::int64_t first = head.r - rows;
  head.query_weight.narrow(1, first, rows).zero_();
  head.key_weight.narrow(1, first, rows).zero_();
  head.query_bias.narrow(1, first, rows).fill_(query_bias);
  head.key_bias.narrow(1, first, rows).fill_(1.0);
}

TorchHead head_from_model(const TrainConfig& config, const Family& family, FeatureMap feature) {
  const HeadWeights& w = *config.init_weights;
  const int d = config.d > 0 ? config.d : family.m;
  if (w.activation != feature || w.m != family.m || w.d != d || w.positions != config.positions ||
      (feature != FeatureMap::Softmax && w.r != config.r))
    throw DomainError("{init} model: the model is a " + to_string(w.activation) +
                      " head with m=" + std::to_string(w.m) + ", r=" + std::to_string(w.r) +
                      ", d=" + std::to_string(w.d) + ", positions=" + std::to_string(w.positions) +
                      ", which does not match the training configuration (" + to_string(feature) +
                      ", m=" + std::to_string(family.m) + ", r=" + std::to_string(config.r) +
                      ", d=" + std::to_string(d) + ")");
  TorchHead head = from_head_weights(w);
  head.learn_temperature = feature == FeatureMap::Softmax && config.temperature <= 0;
  if (config.temperature > 0)
    head.log_temperature = torch::full({}, std::log(config.temperature), kDouble);
  for (const torch::Tensor& p : head.parameters()) p.set_requires_grad(true);
  return head;
}

std::string resolved_init(const TrainConfig& config, FeatureMap feature) {
  if (config.init_weights) return "model";
  if (config.init == "default") return feature == FeatureMap::Softmax ? "l5" : "query-tokens";
  const bool softmax = feature == FeatureMap::Softmax;
  if (config.init == "random") return config.init;
  if (softmax && config.init == "l5") return config.init;
  if (!softmax && (config.init == "query-tokens" || config.init == "instance-tokens"))
    return config.init;
  throw DomainError("{init} " + ParameterMessage::literal(config.init) + " does not apply to " +
                    to_string(feature) +
                    " heads (relu/square: random, query-tokens, instance-tokens, model:PATH; "
                    "softmax: random, l5, model:PATH)");
}

}  // namespace

InitialHead initialise(const TrainConfig& config, const Family& family) {
  const FeatureMap feature = trained_feature_map(config.feature);
  const int d = config.d > 0 ? config.d : family.m;
  InitialHead out;
  out.name = resolved_init(config, feature);
  if (out.name == "model") {
    out.head = head_from_model(config, family, feature);
    return out;
  }
  out.head = initial_head(feature, family.m, config.r, d, config.positions, config.seed,
                          config.temperature);
  if (feature == FeatureMap::Softmax) {
    if (out.name == "l5") set_l5(out.head, config.init_noise, out.head.learn_temperature);
    return out;
  }
  out.constant_rows = std::min(config.constant_features, std::max(0, config.r - 1));
  const int data_rows = config.r - out.constant_rows;
  if (out.name != "random") {
    const std::vector<Token> centres = out.name == "query-tokens"
                                           ? distinct_query_tokens(family)
                                           : drawn_instance_tokens(family, data_rows, config.seed);
    set_bump_rows(out.head, centres, data_rows, config.init_noise, config.bumps);
    set_inner_product_readout(out.head, config.init_noise);
  }
  set_constant_rows(out.head, out.constant_rows, config.constant_query_bias);
  return out;
}

}  // namespace kernelrank::train
