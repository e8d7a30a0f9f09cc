// Adam on the band (or MSE) loss, full batch or in minibatches, single-threaded per model so
// that a fixed configuration gives bit-identical weights whatever else runs (train.hpp).
//
// Schedule: cosine decay of the learning rate from lr to lr/100 over the steps, gradient
// norm clipped at 10 (an epsilon-sized denominator otherwise throws weights far away in one
// step). The returned weights are the best snapshot: the fewest training instances that fail
// in float (a denominator of 0 counts as failing, whatever the epsilon did), then the lowest
// loss. Full batch, every step is a candidate; with minibatches, the weights at the start of
// each epoch and at the end are (each candidate costs a pass over the whole family, which the
// step itself does not make). Training stops once the whole family's loss is 0. An optional
// LBFGS polish starts from that snapshot and is kept only if it is better.
#include "kernelrank/train/train.hpp"

#include "torch_head.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/portable_random.hpp"

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
  if (!(config.constant_query_bias > 0) || !std::isfinite(config.constant_query_bias))
    throw DomainError("{constant-query-bias} must be a positive number");
}

// The training loss and the snapshot metric of one forward pass.
struct Evaluation {
  torch::Tensor loss;
  std::int64_t failing = 0;  // float failures, a zero denominator included
  std::int64_t instances = 0;
  double float_accuracy() const {
    return 1.0 - static_cast<double>(failing) / static_cast<double>(instances);
  }
};

struct Objective {
  const TrainConfig& config;
  const train::FamilyTensors& data;

  Evaluation evaluate(const train::TorchHead& head) const { return evaluate(head, data); }
  Evaluation evaluate(const train::TorchHead& head, const train::FamilyTensors& on) const {
    torch::Tensor denominator;
    const bool kernel = head.feature != FeatureMap::Softmax;
    const torch::Tensor y =
        train::forward(head, on, config.denominator_epsilon, kernel ? &denominator : nullptr);
    const torch::Tensor error = (y - on.targets).abs();
    Evaluation out;
    out.loss = config.loss == "mse" ? torch::mse_loss(y, on.targets)
                                    : torch::relu(error - config.band).mean();
    torch::Tensor fails = (error < 0.5).logical_not();  // NaN fails
    if (kernel) fails = fails.logical_or(denominator <= 0);
    out.failing = fails.sum().item<std::int64_t>();
    out.instances = on.targets.size(0);
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

// The minibatches: each epoch a seeded permutation of the family (Fisher-Yates from the
// portable generator), cut into batches of `batch` (the last one may be smaller).
class MinibatchSchedule {
 public:
  MinibatchSchedule(const train::FamilyTensors& data, std::size_t batch, std::uint64_t seed)
      : data_(data),
        size_(static_cast<std::size_t>(data.targets.size(0))),
        batch_(batch),
        order_(size_),
        draw_(seed * 0xBF58476D1CE4E5B9ULL + 0x94D049BB133111EBULL) {}

  std::size_t per_epoch() const { return (size_ + batch_ - 1) / batch_; }
  bool starts_epoch(int step) const { return static_cast<std::size_t>(step) % per_epoch() == 0; }

  // The batch of 0-based step `step`; steps come in order.
  train::FamilyTensors at(int step) {
    const std::size_t k = static_cast<std::size_t>(step) % per_epoch();
    if (k == 0) shuffle();
    const std::size_t first = k * batch_, count = std::min(batch_, size_ - first);
    const torch::Tensor rows =
        torch::from_blob(order_.data() + first, {static_cast<std::int64_t>(count)},
                         torch::TensorOptions().dtype(torch::kInt64))
            .clone();
    return train::subset(data_, rows);
  }

 private:
  void shuffle() {
    for (std::size_t i = 0; i < size_; ++i) order_[i] = static_cast<std::int64_t>(i);
    for (std::size_t i = size_ - 1; i > 0; --i)
      std::swap(order_[i], order_[draw_.below(static_cast<std::uint64_t>(i) + 1)]);
  }

  const train::FamilyTensors& data_;
  std::size_t size_, batch_;
  std::vector<std::int64_t> order_;
  PortableUniform draw_;
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
  const bool minibatches = config.batch > 0 && config.batch < train.instances.size();
  std::optional<MinibatchSchedule> schedule;
  if (minibatches) schedule.emplace(data, config.batch, config.seed);
  TrainedHead out;
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    const double progress = static_cast<double>(epoch - 1) / std::max(1, config.epochs - 1);
    const double rate = config.learning_rate * (0.01 + 0.99 * 0.5 * (1 + std::cos(kPi * progress)));
    for (auto& group : optimiser.param_groups())
      static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
    optimiser.zero_grad();
    if (minibatches && schedule->starts_epoch(epoch - 1)) {
      torch::NoGradGuard no_grad;
      const Evaluation whole = objective.evaluate(head);
      best.offer(head, whole, epoch - 1);
      if (whole.loss.item<double>() == 0) break;  // the whole family is inside the band
    }
    const Evaluation now =
        minibatches ? objective.evaluate(head, schedule->at(epoch - 1)) : objective.evaluate(head);
    if (!minibatches) best.offer(head, now, epoch - 1);
    if (on_epoch) on_epoch({epoch, now.loss.item<double>(), now.float_accuracy()});
    if (!minibatches && now.loss.item<double>() == 0) break;  // nothing left: gradients are 0
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
