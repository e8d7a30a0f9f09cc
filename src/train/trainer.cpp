// Full-batch Adam on the MSE of y - t, single-threaded per model so that a fixed
// configuration gives bit-identical weights whatever else runs (train.hpp).
//
// Schedule: cosine decay of the learning rate from lr to lr/100 over the epochs, gradient
// norm clipped at 10 (an epsilon-sized denominator otherwise throws weights far away in one
// step). The weights after the last step are the ones returned and verified.
#include "kernelrank/train/train.hpp"

#include "torch_head.hpp"

#include "kernelrank/core/errors.hpp"

#include <chrono>
#include <cmath>

namespace kernelrank {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kGradientClip = 10.0;

double float_accuracy(const torch::Tensor& outputs, const torch::Tensor& targets) {
  if (outputs.numel() == 0) return 1.0;
  // NaN compares false, so an undefined output counts as wrong.
  const torch::Tensor correct = (outputs - targets).abs() < 0.5;
  return correct.to(torch::kFloat64).mean().item<double>();
}

std::vector<double> outputs_of(const train::TorchHead& head, const Family& family, double epsilon) {
  if (family.instances.empty()) return {};
  torch::NoGradGuard no_grad;
  const train::FamilyTensors data = train::to_tensors(family);
  const torch::Tensor y = train::forward(head, data, epsilon).contiguous();
  return std::vector<double>(y.data_ptr<double>(), y.data_ptr<double>() + y.numel());
}

void check_config(const Family& train, const Family& test, const TrainConfig& config) {
  if (train.instances.empty()) throw UsageError("the training family has no instances");
  if (!test.instances.empty() && (test.m != train.m || test.n != train.n))
    throw UsageError("the test family has m=" + std::to_string(test.m) +
                     ", n=" + std::to_string(test.n) + " but the training family has m=" +
                     std::to_string(train.m) + ", n=" + std::to_string(train.n));
  if (config.r < 1) throw UsageError("--r must be at least 1");
  if (config.epochs < 0) throw UsageError("--epochs must be at least 0");
  if (!(config.learning_rate > 0) || !std::isfinite(config.learning_rate))
    throw UsageError("--lr must be a positive number");
  if (config.positions != 0 && config.positions != train.n)
    throw UsageError("position-dependent maps need positions = n = " + std::to_string(train.n));
}

}  // namespace

bool training_available() { return true; }

TrainedHead train_head(const Family& train, const Family& test, const TrainConfig& config,
                       const std::function<void(const EpochStatus&)>& on_epoch) {
  check_config(train, test, config);
  const auto start = std::chrono::steady_clock::now();
  at::set_num_threads(1);
  const train::FeatureMap feature = train::parse_feature_map(config.feature);
  const int d = config.d > 0 ? config.d : train.m;
  train::TorchHead head = train::initial_head(feature, train.m, config.r, d, config.positions,
                                              config.seed, config.temperature);
  const train::FamilyTensors data = train::to_tensors(train);
  torch::optim::Adam optimiser(head.parameters(), torch::optim::AdamOptions(config.learning_rate));
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    const double progress = static_cast<double>(epoch - 1) / std::max(1, config.epochs - 1);
    const double rate = config.learning_rate * (0.01 + 0.99 * 0.5 * (1 + std::cos(kPi * progress)));
    for (auto& group : optimiser.param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
    optimiser.zero_grad();
    const torch::Tensor y = train::forward(head, data, config.denominator_epsilon);
    const torch::Tensor loss = torch::mse_loss(y, data.targets);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(head.parameters(), kGradientClip);
    optimiser.step();
    if (on_epoch) on_epoch({epoch, loss.item<double>(), float_accuracy(y.detach(), data.targets)});
  }
  TrainedHead out;
  {
    torch::NoGradGuard no_grad;
    const torch::Tensor y = train::forward(head, data, config.denominator_epsilon);
    out.final_loss = torch::mse_loss(y, data.targets).item<double>();
  }
  out.weights = train::to_head_weights(head);
  out.train_outputs = outputs_of(head, train, config.denominator_epsilon);
  out.test_outputs = outputs_of(head, test, config.denominator_epsilon);
  out.train_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::vector<double> float_outputs(const HeadWeights& weights, const Family& family,
                                  double denominator_epsilon) {
  at::set_num_threads(1);
  return outputs_of(train::from_head_weights(weights), family, denominator_epsilon);
}

}  // namespace kernelrank
