// Full-batch Adam on the band (or MSE) loss, single-threaded per model so that a fixed
// configuration gives bit-identical weights whatever else runs (train.hpp).
//
// Schedule: cosine decay of the learning rate from lr to lr/100 over the epochs, gradient
// norm clipped at 10 (an epsilon-sized denominator otherwise throws weights far away in one
// step). The returned weights are the best snapshot: the fewest training instances that fail
// in float (a denominator of 0 counts as failing, whatever the epsilon did), then the lowest
// loss. An optional LBFGS polish starts from that snapshot and is kept only if it is better.
#include "kernelrank/train/train.hpp"

#include "torch_head.hpp"

#include "kernelrank/core/errors.hpp"

#include <chrono>
#include <cmath>
#include <limits>

namespace kernelrank {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kGradientClip = 10.0;

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
  if (config.r < 1) throw DomainError("{r} must be at least 1");
  if (config.epochs < 0) throw DomainError("{epochs} must be at least 0");
  if (!(config.learning_rate > 0) || !std::isfinite(config.learning_rate))
    throw DomainError("{lr} must be a positive number");
  if (config.positions != 0 && config.positions != train.n)
    throw UsageError("position-dependent maps need positions = n = " + std::to_string(train.n));
  if (config.loss != "band" && config.loss != "mse")
    throw DomainError("{loss} must be band or mse, not '" + ParameterMessage::literal(config.loss) +
                      "'");
  if (!(config.band >= 0 && config.band < 0.5)) throw DomainError("{band} must be in [0, 0.5)");
  if (config.constant_features < 0) throw DomainError("{constant-features} must be at least 0");
  if (config.polish_steps < 0) throw DomainError("{polish} must be at least 0");
  if (!(config.init_noise >= 0) || !std::isfinite(config.init_noise))
    throw DomainError("{init-noise} must be a nonnegative number");
}

// The training loss and the snapshot metric of one forward pass.
struct Evaluation {
  torch::Tensor loss;
  std::int64_t failing = 0;  // float failures, a zero denominator included
  double float_accuracy(const Family& family) const {
    return 1.0 - static_cast<double>(failing) / static_cast<double>(family.instances.size());
  }
};

struct Objective {
  const TrainConfig& config;
  const train::FamilyTensors& data;

  Evaluation evaluate(const train::TorchHead& head) const {
    torch::Tensor denominator;
    const bool kernel = head.feature != FeatureMap::Softmax;
    const torch::Tensor y =
        train::forward(head, data, config.denominator_epsilon, kernel ? &denominator : nullptr);
    const torch::Tensor error = (y - data.targets).abs();
    Evaluation out;
    out.loss = config.loss == "mse" ? torch::mse_loss(y, data.targets)
                                    : torch::relu(error - config.band).mean();
    torch::Tensor fails = (error < 0.5).logical_not();  // NaN fails
    if (kernel) fails = fails.logical_or(denominator <= 0);
    out.failing = fails.sum().item<std::int64_t>();
    return out;
  }
};

// The best weights seen: fewest failing, then lowest loss.
struct Snapshot {
  std::vector<torch::Tensor> values;
  std::int64_t failing = std::numeric_limits<std::int64_t>::max();
  double loss = std::numeric_limits<double>::infinity();
  int step = -1;

  explicit Snapshot(const train::TorchHead& head) {
    for (const torch::Tensor& p : head.parameters()) values.push_back(p.detach().clone());
  }
  bool offer(const train::TorchHead& head, const Evaluation& e, int at) {
    const double l = e.loss.item<double>();
    if (!(e.failing < failing || (e.failing == failing && l < loss))) return false;
    take(head, e, at);
    return true;
  }
  void take(const train::TorchHead& head, const Evaluation& e, int at) {
    const std::vector<torch::Tensor> params = head.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) values[i].copy_(params[i].detach());
    failing = e.failing;
    loss = e.loss.item<double>();
    step = at;
  }
  void restore(train::TorchHead& head) const {
    torch::NoGradGuard no_grad;
    const std::vector<torch::Tensor> params = head.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) params[i].copy_(values[i]);
  }
};

// Frozen constant features: no gradient reaches their query and key rows.
void freeze_rows(train::TorchHead& head, int rows) {
  if (rows == 0) return;
  const std::int64_t first = head.r - rows;
  for (torch::Tensor* p : {&head.query_weight, &head.key_weight, &head.query_bias, &head.key_bias})
    if (p->grad().defined()) p->mutable_grad().narrow(1, first, rows).zero_();
}

// LBFGS (strong Wolfe line search) from the best snapshot; its result joins the competition.
void polish(train::TorchHead& head, Snapshot& best, const Objective& objective,
            const TrainConfig& config, int constant_rows, int step) {
  best.restore(head);
  torch::optim::LBFGS lbfgs(
      head.parameters(),
      torch::optim::LBFGSOptions(1.0).max_iter(config.polish_steps).line_search_fn("strong_wolfe"));
  lbfgs.step([&] {
    lbfgs.zero_grad();
    torch::Tensor loss = objective.evaluate(head).loss;
    loss.backward();
    if (config.freeze_constant_features) freeze_rows(head, constant_rows);
    return loss;
  });
  best.offer(head, objective.evaluate(head), step);
}
}  // namespace

bool training_available() { return true; }

TrainedHead train_head(const Family& train, const Family& test, const TrainConfig& config,
                       const std::function<void(const EpochStatus&)>& on_epoch) {
  check_config(train, test, config);
  const auto start = std::chrono::steady_clock::now();
  at::set_num_threads(1);
  train::InitialHead initial = train::initialise(config, train);
  train::TorchHead& head = initial.head;
  const train::FamilyTensors data = train::to_tensors(train);
  const Objective objective{config, data};
  Snapshot best(head);
  torch::optim::Adam optimiser(head.parameters(), torch::optim::AdamOptions(config.learning_rate));
  TrainedHead out;
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    const double progress = static_cast<double>(epoch - 1) / std::max(1, config.epochs - 1);
    const double rate = config.learning_rate * (0.01 + 0.99 * 0.5 * (1 + std::cos(kPi * progress)));
    for (auto& group : optimiser.param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
    optimiser.zero_grad();
    const Evaluation now = objective.evaluate(head);
    best.offer(head, now, epoch - 1);
    if (on_epoch) on_epoch({epoch, now.loss.item<double>(), now.float_accuracy(train)});
    if (now.loss.item<double>() == 0) break;  // nothing left to learn: gradients are 0
    now.loss.backward();
    if (config.freeze_constant_features) freeze_rows(head, initial.constant_rows);
    torch::nn::utils::clip_grad_norm_(head.parameters(), kGradientClip);
    optimiser.step();
    out.steps = epoch;
  }
  best.offer(head, objective.evaluate(head), out.steps);
  if (!config.keep_best) best.take(head, objective.evaluate(head), out.steps);
  if (config.polish_steps > 0)
    polish(head, best, objective, config, initial.constant_rows, out.steps + 1);
  best.restore(head);
  out.best_step = best.step;
  out.final_loss = best.loss;
  out.init = initial.name;
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
