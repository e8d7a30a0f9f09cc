// The train job (train_job.hpp): the request checked once, the grid on a pool of threads, the
// files, and the report's one JSON form. Float figures are JSON numbers, for comparison only;
// the decided ones are "p/q" strings.
#include "kernelrank/app/train_job.hpp"

#include "kernelrank/app/trained_head.hpp"
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_forms.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

namespace kernelrank {
namespace train_job_detail {

using nlohmann::json;

// ---- the request -------------------------------------------------------------------------

[[noreturn]] void refuse(const std::string& pattern) { throw DomainError(pattern); }

std::string quoted(const std::string& value) {
  return "'" + ParameterMessage::literal(value) + "'";
}

void check_ranges(const TrainRequest& q, const TrainConfig& c) {
  if (q.out.empty()) refuse("{out} is required: the directory for the models and report.json");
  if (q.family.empty() == q.train.empty())
    refuse("give either {family} FILE or {train} FILE [{test} FILE]");
  if (!q.test.empty() && q.train.empty()) refuse("{test} needs {train}");
  for (const std::string& f : q.feature) {
    const std::optional<FeatureMap> map = feature_map_named(f);
    if (!map || !is_trainable(*map))
      refuse("{feature} must be relu, square or softmax, not " + quoted(f));
  }
  for (const int r : q.r)
    if (r < 1 || r > 4096) refuse("{r} must be in 1..4096, not " + std::to_string(r));
  if (c.epochs < 0 || c.epochs > 10'000'000) refuse("{epochs} must be in 0..10000000");
  if (c.batch > 10'000'000) refuse("{batch} must be in 0..10000000 (0: full batch)");
  if (!(c.constant_query_bias > 0) || !std::isfinite(c.constant_query_bias))
    refuse("{constant-query-bias} must be a positive number");
  if (!(c.learning_rate > 0) || !std::isfinite(c.learning_rate))
    refuse("{lr} must be a positive number");
  if (c.d < 0 || c.d > 4096) refuse("{d} must be in 0..4096 (0 means d = m)");
  if (!(c.denominator_epsilon >= 0) || !std::isfinite(c.denominator_epsilon))
    refuse("{epsilon} must be a nonnegative number");
  if (!(c.temperature >= 0) || !std::isfinite(c.temperature))
    refuse("{temperature} must be a nonnegative number (0: learned)");
  if (c.loss != "band" && c.loss != "mse")
    refuse("{loss} must be band or mse, not " + quoted(c.loss));
  if (!(c.band >= 0 && c.band < 0.5)) refuse("{band} must be in [0, 0.5)");
  if (c.constant_features < 0 || c.constant_features > 4096)
    refuse("{constant-features} must be in 0..4096");
  if (c.polish_steps < 0 || c.polish_steps > 1'000'000) refuse("{polish} must be in 0..1000000");
  if (!(c.init_noise >= 0) || !std::isfinite(c.init_noise))
    refuse("{init-noise} must be a nonnegative number");
  static const char* const kInits[] = {"default", "random", "query-tokens", "instance-tokens",
                                       "l5"};
  if (std::find(std::begin(kInits), std::end(kInits), q.init) == std::end(kInits) &&
      q.init.rfind("model:", 0) != 0)
    refuse(
        "{init} must be default, random, query-tokens, instance-tokens, l5 or model:PATH, "
        "not " +
        quoted(q.init));
  if (q.seed.empty() || q.r.empty() || q.feature.empty())
    refuse("{r}, {seed} and {feature} need at least one value");
}

// The request's JSON reader: each value of the type its field has, else DomainError naming it.
template <typename T>
T request_value(const json& value, const std::string& name) {
  if constexpr (std::is_same_v<T, bool>) {
    if (value.is_boolean()) return value.get<bool>();
    refuse("{" + name + "} must be a bool");
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (value.is_string()) return value.get<std::string>();
    refuse("{" + name + "} must be a string");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (value.is_number()) return value.get<double>();
    refuse("{" + name + "} must be a number");
  } else {
    const bool fits = value.is_number_unsigned()
                          ? value.get<std::uint64_t>() <=
                                static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                      : value.is_number_integer()
                          ? value.get<std::int64_t>() >=
                                    static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                                (value.get<std::int64_t>() < 0 ||
                                 static_cast<std::uint64_t>(value.get<std::int64_t>()) <=
                                     static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
                          : false;
    if (!fits)
      refuse("{" + name + "} must be an integer in " +
             std::to_string(std::numeric_limits<T>::min()) + ".." +
             std::to_string(std::numeric_limits<T>::max()));
    return value.is_number_unsigned() ? static_cast<T>(value.get<std::uint64_t>())
                                      : static_cast<T>(value.get<std::int64_t>());
  }
}

template <typename T>
void read_field(const json& j, const std::string& name, T& into) {
  into = request_value<T>(j, name);
}

template <typename T>
void read_field(const json& j, const std::string& name, std::optional<T>& into) {
  if (j.is_null())
    into.reset();
  else
    into = request_value<T>(j, name);
}

template <typename T>
void read_field(const json& j, const std::string& name, std::vector<T>& into) {
  if (!j.is_array()) refuse("{" + name + "} must be a list");
  into.clear();
  for (const json& item : j) into.push_back(request_value<T>(item, name));
}

// Each field of the request with its parameter name, for the writer and the reader alike.
template <typename Request, typename Visit>
void each_request_field(Request& q, const Visit& visit) {
  visit("family", q.family);
  visit("train", q.train);
  visit("test", q.test);
  visit("out", q.out);
  visit("r", q.r);
  visit("feature", q.feature);
  visit("seed", q.seed);
  visit("recipe", q.recipe);
  visit("epochs", q.epochs);
  visit("batch", q.batch);
  visit("bumps", q.bumps);
  visit("lr", q.lr);
  visit("d", q.d);
  visit("position-dependent", q.position_dependent);
  visit("loss", q.loss);
  visit("band", q.band);
  visit("init", q.init);
  visit("init-noise", q.init_noise);
  visit("constant-features", q.constant_features);
  visit("freeze-constant-features", q.freeze_constant_features);
  visit("constant-query-bias", q.constant_query_bias);
  visit("polish", q.polish);
  visit("last-step", q.last_step);
  visit("temperature", q.temperature);
  visit("epsilon", q.epsilon);
  visit("threads", q.threads);
  visit("disagreements", q.disagreements);
  visit("progress", q.progress);
}

template <typename T>
json field_json(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}
template <typename T>
json field_json(const T& value) {
  return json(value);
}

// ---- the report --------------------------------------------------------------------------

json float_value(double y) { return std::isfinite(y) ? json(y) : json("not finite"); }

double float_of(const json& value) {
  return value.is_string() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
}

json rational_or_null(const std::optional<Rational>& value) {
  return value ? json(to_string(*value)) : json(nullptr);
}

std::optional<Rational> rational_of(const json& value) {
  if (value.is_null()) return std::nullopt;
  return parse_rational(value.get<std::string>());
}

TrainedSplitReport split_report(const SplitVerification& split) {
  TrainedSplitReport s;
  const EvalReport& r = split.exact;
  s.exact = true;
  s.instances = split.instances;
  s.float_failing = split.float_failing;
  s.method = "exact rational arithmetic";
  s.verdict = r.solves() ? "solves (verified exactly)" : "fails";
  s.failing = r.failing;
  s.undefined = r.undefined;
  s.error_rate = r.error_rate();
  s.max_error = r.max_error;
  if (!r.failures.empty())
    s.first_failure = TrainedSplitReport::Failure{to_string(r.failures[0].instance),
                                                  r.failures[0].target, r.failures[0].output, ""};
  s.disagreement_count = split.disagreement_count;
  for (const FloatExactDisagreement& dis : split.disagreements)
    s.disagreements.push_back({to_string(dis.instance), dis.target, dis.float_output,
                               dis.exact_output, "", dis.float_fails, dis.exact_fails});
  return s;
}

TrainedSplitReport split_report(const BallSplitVerification& split) {
  TrainedSplitReport s;
  const BallReport& r = split.rigorous;
  s.exact = false;
  s.instances = split.instances;
  s.float_failing = split.float_failing;
  s.method = "ball arithmetic (Arb), up to " + std::to_string(r.final_precision) + " bits";
  s.verdict = r.solves()      ? "solves (decided rigorously)"
              : r.failing > 0 ? "fails"
                              : "undecided at " + std::to_string(r.final_precision) + " bits";
  s.failing = Integer(r.failing);
  s.undecided = Integer(r.undecided);
  s.error_rate = Rational(static_cast<long>(r.failing)) /
                 Rational(static_cast<long>(std::max<std::uint64_t>(1, r.instances)));
  s.max_error = r.max_error_hi;
  s.max_error_lo = r.max_error_lo;
  if (!r.failures.empty())
    s.first_failure =
        TrainedSplitReport::Failure{to_string(r.failures[0].instance), r.failures[0].target,
                                    std::nullopt, r.failures[0].output};
  s.disagreement_count = split.disagreement_count;
  for (const BallDisagreement& dis : split.disagreements)
    s.disagreements.push_back({to_string(dis.instance), dis.target, dis.float_output, std::nullopt,
                               dis.ball_output, dis.float_fails, !dis.float_fails});
  return s;
}

TrainedSplitReport split_report(const TrainedSplitVerdict& verdict) {
  return std::visit([](const auto& s) { return split_report(s); }, verdict);
}

TrainedSplitReport split_from_json(const json& j) {
  TrainedSplitReport s;
  const json& exact = j.at("exact");
  s.exact = !exact.contains("max_error_lo");
  s.instances = j.at("instances").get<std::size_t>();
  s.float_failing = j.at("float_failing").get<std::size_t>();
  s.method = exact.at("method").get<std::string>();
  s.verdict = exact.at("verdict").get<std::string>();
  s.failing = Integer(exact.at("failing").get<std::string>());
  s.undefined = Integer(exact.at("undefined").get<std::string>());
  s.undecided = Integer(exact.at("undecided").get<std::string>());
  s.error_rate = parse_rational(exact.at("error_rate").get<std::string>());
  s.max_error = rational_of(exact.at("max_error"));
  if (!s.exact) s.max_error_lo = rational_of(exact.at("max_error_lo"));
  const json& first = exact.at("first_failure");
  if (!first.is_null()) {
    TrainedSplitReport::Failure f;
    f.instance = first.at("instance").get<std::string>();
    f.target = first.at("target").get<int>();
    if (s.exact)
      f.output = rational_of(first.at("output"));
    else
      f.ball_output = first.at("output").get<std::string>();
    s.first_failure = f;
  }
  s.disagreement_count = j.at("disagreements").get<std::size_t>();
  for (const json& item : j.at("disagreement_list")) {
    TrainedSplitReport::Disagreement d;
    d.instance = item.at("instance").get<std::string>();
    d.target = item.at("target").get<int>();
    d.float_output = float_of(item.at("float_output"));
    d.float_fails = item.at("float_says").get<std::string>() == "fails";
    if (s.exact) {
      d.exact_output = rational_of(item.at("exact_output"));
      d.decided_fails = item.at("exact_says").get<std::string>() == "fails";
    } else {
      d.ball_output = item.at("ball_output").get<std::string>();
      d.decided_fails = item.at("decided").get<std::string>() == "fails";
    }
    s.disagreements.push_back(d);
  }
  return s;
}

TrainedModelReport model_from_json(const json& j) {
  TrainedModelReport m;
  m.name = j.at("name").get<std::string>();
  m.feature = j.at("feature").get<std::string>();
  m.r = j.at("r").get<int>();
  m.seed = j.at("seed").get<std::uint64_t>();
  m.d = j.at("d").get<int>();
  m.positions = j.at("positions").get<int>();
  m.epochs = j.at("epochs").get<int>();
  m.lr = j.at("lr").get<double>();
  const json& c = j.at("recipe");
  m.recipe.name = c.at("name").get<std::string>();
  m.recipe.init = c.at("init").get<std::string>();
  m.recipe.bumps = c.at("bumps").get<std::string>();
  m.recipe.batch = c.at("batch").get<std::uint64_t>();
  if (!c.at("constant_query_bias").is_null())
    m.recipe.constant_query_bias = c.at("constant_query_bias").get<double>();
  m.recipe.loss = c.at("loss").get<std::string>();
  m.recipe.band = c.at("band").get<double>();
  m.recipe.constant_features = c.at("constant_features").get<int>();
  m.recipe.frozen_constant_features = c.at("frozen_constant_features").get<bool>();
  m.recipe.polish_steps = c.at("polish_steps").get<int>();
  m.recipe.kept = c.at("kept").get<std::string>();
  m.recipe.steps = c.at("steps").get<int>();
  m.recipe.returned_step = c.at("returned_step").get<int>();
  m.final_loss = j.at("final_loss").get<double>();
  m.safetensors = j.at("files").at("safetensors").get<std::string>();
  if (j.at("files").contains("model")) m.model = j.at("files").at("model").get<std::string>();
  m.train = split_from_json(j.at("train"));
  if (j.contains("test")) m.test = split_from_json(j.at("test"));
  m.train_seconds = j.at("timing").at("train_seconds").get<double>();
  m.verify_seconds = j.at("timing").at("verify_seconds").get<double>();
  return m;
}

// ---- the grid ----------------------------------------------------------------------------

struct GridModel {
  TrainConfig config;
  std::string name;
};

struct ModelRun {
  TrainedHead head;
  TrainedSplitVerdict train;  // exact (relu, square) or ball arithmetic (softmax)
  std::optional<TrainedSplitVerdict> test;
  double verify_seconds = 0;
};

std::vector<GridModel> grid_of(const TrainRequest& q, const TrainConfig& base, int n) {
  std::vector<GridModel> grid;
  for (const std::string& name : q.feature) {
    const FeatureMap feature = *feature_map_named(name);
    // softmax scores are m-dimensional: r does not apply, one model per seed.
    const bool softmax = feature == FeatureMap::Softmax;
    const std::vector<int> ranks = softmax ? std::vector<int>{0} : q.r;
    for (const int r : ranks) {
      for (const std::uint64_t seed : q.seed) {
        GridModel model;
        model.config = base;
        model.config.feature = feature;
        model.config.r = softmax ? 1 : r;
        model.config.positions = q.position_dependent ? n : 0;
        model.config.seed = seed;
        model.name = to_string(feature) + (softmax ? "" : "-r" + std::to_string(r)) + "-s" +
                     std::to_string(seed);
        grid.push_back(model);
      }
    }
  }
  return grid;
}

// One progress line on stderr (terminal only), shared by the worker threads.
class TrainProgress {
 public:
  TrainProgress(bool enabled, std::size_t models)
      : enabled_(enabled && isatty(2) == 1), models_(models) {}
  TrainProgress(const TrainProgress&) = delete;
  TrainProgress& operator=(const TrainProgress&) = delete;
  void epoch(const std::string& name, int epochs, const EpochStatus& status) {
    if (!enabled_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250) && status.epoch != epochs) return;
    last_ = now;
    std::cerr << "\r[" << done_ << "/" << models_ << " models] " << name << " epoch "
              << status.epoch << "/" << epochs << " loss " << status.loss << " float acc "
              << status.float_accuracy << "   " << std::flush;
  }
  void model_done() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
  }
  ~TrainProgress() {
    if (enabled_) std::cerr << "\n";
  }

 private:
  bool enabled_;
  std::size_t models_;
  std::size_t done_ = 0;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
};

ModelRun run_model(const GridModel& model, const Family& train, const Family& test,
                   const HeadTrainer& trainer, const TrainRequest& q, TrainProgress& progress) {
  ModelRun run;
  run.head = trainer.train(train, test, model.config, [&](const EpochStatus& s) {
    progress.epoch(model.name, model.config.epochs, s);
  });
  const auto start = std::chrono::steady_clock::now();
  TrainedHeadVerdict verdict =
      verify_trained_head(run.head.weights, train, run.head.train_outputs, test,
                          run.head.test_outputs, q.disagreements, model.name + ".safetensors");
  run.verify_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_file_atomically(q.out + "/" + model.name + ".safetensors", verdict.safetensors);
  if (verdict.model_text)
    write_file_atomically(q.out + "/" + model.name + ".model", *verdict.model_text);
  run.train = std::move(verdict.train);  // the bytes are written: only the verdicts stay
  run.test = std::move(verdict.test);
  progress.model_done();
  return run;
}

std::vector<ModelRun> run_grid(const std::vector<GridModel>& grid, const Family& train,
                               const Family& test, const HeadTrainer& trainer,
                               const TrainRequest& q) {
  std::vector<ModelRun> runs(grid.size());
  std::vector<std::exception_ptr> errors(grid.size());
  std::atomic<std::size_t> next{0};
  TrainProgress progress(q.progress, grid.size());
  const unsigned hardware = std::max(1U, std::thread::hardware_concurrency());
  const unsigned workers = static_cast<unsigned>(
      std::min<std::size_t>(q.threads > 0 ? q.threads : hardware, grid.size()));
  const auto work = [&] {
    for (std::size_t i = next++; i < grid.size(); i = next++) {
      try {
        runs[i] = run_model(grid[i], train, test, trainer, q, progress);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)  // the first failing model in grid order
    if (e) std::rethrow_exception(e);
  return runs;
}

// init model:PATH: any relu or square parametric model file (text or safetensors), its
// weights rounded to doubles as the starting point.
HeadWeights init_model(const std::string& path) {
  const std::unique_ptr<Model> model = read_model(path);
  const auto* parametric = dynamic_cast<const ParametricModel*>(model.get());
  if (parametric == nullptr || parametric->activation() == FeatureMap::Identity)
    refuse("{init} model:" + ParameterMessage::literal(path) +
           ": the model must be a relu or square kind=parametric head");
  return rounded_head_weights(*parametric);
}

TrainedModelReport model_report(const GridModel& model, ModelRun& run,
                                const std::string& recipe_name) {
  const TrainConfig& c = model.config;
  const bool exact = std::holds_alternative<SplitVerification>(run.train);
  TrainedModelReport m;
  m.name = model.name;
  m.feature = to_string(c.feature);
  m.r = exact ? c.r : run.head.weights.r;
  m.seed = c.seed;
  m.d = run.head.weights.d;
  m.positions = c.positions;
  m.epochs = c.epochs;
  m.lr = c.learning_rate;
  m.recipe.name = recipe_name;
  m.recipe.init = run.head.init;
  m.recipe.bumps = to_string(c.bumps);
  m.recipe.batch = c.batch;
  if (exact) m.recipe.constant_query_bias = c.constant_query_bias;
  m.recipe.loss = c.loss;
  m.recipe.band = c.band;
  m.recipe.constant_features = exact ? c.constant_features : 0;
  m.recipe.frozen_constant_features = c.freeze_constant_features;
  m.recipe.polish_steps = c.polish_steps;
  m.recipe.kept = c.keep_best ? "best snapshot" : "last step";
  m.recipe.steps = run.head.steps;
  m.recipe.returned_step = run.head.best_step;
  m.final_loss = run.head.final_loss;
  m.safetensors = model.name + ".safetensors";
  if (exact) m.model = model.name + ".model";
  m.train = split_report(run.train);
  if (run.test) m.test = split_report(*run.test);
  m.train_seconds = run.head.train_seconds;
  m.verify_seconds = run.verify_seconds;
  return m;
}

}  // namespace train_job_detail

TrainConfig resolved_train_config(const TrainRequest& q) {
  using namespace train_job_detail;
  const std::optional<Recipe> recipe = recipe_named(q.recipe);
  if (!recipe) refuse("{recipe} must be witness or ood, not " + quoted(q.recipe));
  const TrainConfig preset = recipe_config(*recipe);
  TrainConfig c = preset;
  c.learning_rate = q.lr;
  c.d = q.d;
  c.loss = q.loss;
  c.band = q.band;
  c.constant_features = q.constant_features;
  c.polish_steps = q.polish;
  c.temperature = q.temperature;
  c.denominator_epsilon = q.epsilon;
  c.epochs = q.epochs.value_or(preset.epochs);
  c.batch = q.batch.value_or(preset.batch);
  c.init_noise = q.init_noise.value_or(preset.init_noise);
  c.constant_query_bias = q.constant_query_bias.value_or(preset.constant_query_bias);
  c.freeze_constant_features = q.freeze_constant_features.value_or(preset.freeze_constant_features);
  if (q.bumps) {
    const std::optional<BumpShape> shape = bump_shape_named(*q.bumps);
    if (!shape) refuse("{bumps} must be witness or scaled, not " + quoted(*q.bumps));
    c.bumps = *shape;
  }
  c.keep_best = !q.last_step;
  c.init = q.init.rfind("model:", 0) == 0 ? "model" : q.init;
  return c;
}

void check_train_request(const TrainRequest& request) {
  using namespace train_job_detail;
  check_ranges(request, resolved_train_config(request));
}

nlohmann::json train_request_to_json(const TrainRequest& request) {
  using namespace train_job_detail;
  json j = json::object();
  each_request_field(request,
                     [&](const char* name, const auto& value) { j[name] = field_json(value); });
  return j;
}

TrainRequest train_request_from_json(const nlohmann::json& j) {
  using namespace train_job_detail;
  if (!j.is_object()) throw UsageError("the train request must be a JSON object");
  TrainRequest q;
  std::vector<std::string> known;
  each_request_field(q, [&](const char* name, auto& value) {
    known.emplace_back(name);
    if (j.contains(name)) read_field(j.at(name), name, value);
  });
  for (const auto& [key, value] : j.items())
    if (std::find(known.begin(), known.end(), key) == known.end())
      refuse("the train request has no parameter " + quoted(key));
  return q;
}

double TrainedSplitReport::float_error_rate() const {
  return instances == 0 ? 0.0 : static_cast<double>(float_failing) / static_cast<double>(instances);
}

nlohmann::json train_split_to_json(const TrainedSplitReport& s) {
  using namespace train_job_detail;
  const double rate = s.float_error_rate();
  json j = {{"instances", s.instances},
            {"float_failing", s.float_failing},
            {"float_error_rate", rate},
            {"float_accuracy", 1.0 - rate}};
  json exact = {{"method", s.method},
                {"verdict", s.verdict},
                {"failing", to_string(s.failing)},
                {"undefined", to_string(s.undefined)},
                {"undecided", to_string(s.undecided)},
                {"error_rate", to_string(s.error_rate)},
                {"max_error", rational_or_null(s.max_error)}};
  if (!s.exact) exact["max_error_lo"] = rational_or_null(s.max_error_lo);
  exact["first_failure"] = nullptr;
  if (s.first_failure) {
    const TrainedSplitReport::Failure& f = *s.first_failure;
    exact["first_failure"] = {
        {"instance", f.instance},
        {"target", f.target},
        {"output", s.exact ? rational_or_null(f.output) : json(f.ball_output)}};
  }
  j["exact"] = exact;
  j["disagreements"] = s.disagreement_count;
  json listed = json::array();
  for (const TrainedSplitReport::Disagreement& d : s.disagreements) {
    json item = {{"instance", d.instance},
                 {"target", d.target},
                 {"float_output", float_value(d.float_output)},
                 {"float_says", d.float_fails ? "fails" : "correct"}};
    if (s.exact) {
      item["exact_output"] = rational_or_null(d.exact_output);
      item["exact_says"] = d.decided_fails ? "fails" : "correct";
    } else {
      item["ball_output"] = d.ball_output;
      item["decided"] = d.decided_fails ? "fails" : "correct";
    }
    listed.push_back(item);
  }
  j["disagreement_list"] = listed;
  return j;
}

nlohmann::json trained_model_to_json(const TrainedModelReport& m) {
  using namespace train_job_detail;
  const TrainedModelReport::Recipe& c = m.recipe;
  json record = {
      {"name", m.name},
      {"feature", m.feature},
      {"r", m.r},
      {"seed", m.seed},
      {"d", m.d},
      {"positions", m.positions},
      {"epochs", m.epochs},
      {"lr", m.lr},
      {"recipe",
       {{"name", c.name},
        {"init", c.init},
        {"bumps", c.bumps},
        {"batch", c.batch},
        {"constant_query_bias", field_json(c.constant_query_bias)},
        {"loss", c.loss},
        {"band", c.band},
        {"constant_features", c.constant_features},
        {"frozen_constant_features", c.frozen_constant_features},
        {"polish_steps", c.polish_steps},
        {"kept", c.kept},
        {"steps", c.steps},
        {"returned_step", c.returned_step}}},
      {"final_loss", m.final_loss},
      {"files", {{"safetensors", m.safetensors}}},
      {"train", train_split_to_json(m.train)},
      {"timing", {{"train_seconds", m.train_seconds}, {"verify_seconds", m.verify_seconds}}}};
  if (m.model) record["files"]["model"] = *m.model;
  if (m.test) record["test"] = train_split_to_json(*m.test);
  return record;
}

nlohmann::json train_report_to_json(const TrainReport& report) {
  using namespace train_job_detail;
  json models = json::array();
  for (const TrainedModelReport& m : report.models) models.push_back(trained_model_to_json(m));
  return {{"format", "kernelrank-train-report"},
          {"version", 1},
          {"train_family", report.train_family},
          {"test_family", field_json(report.test_family)},
          {"models", models}};
}

TrainReport train_report_from_json(const nlohmann::json& j) {
  using namespace train_job_detail;
  try {
    if (j.at("format") != "kernelrank-train-report" || j.at("version") != 1)
      throw InternalError("not a kernelrank-train-report, version 1");
    TrainReport report;
    report.train_family = j.at("train_family").get<std::string>();
    if (!j.at("test_family").is_null()) report.test_family = j.at("test_family").get<std::string>();
    for (const json& m : j.at("models")) report.models.push_back(model_from_json(m));
    return report;
  } catch (const std::exception& e) {
    throw InternalError(std::string("a train report that cannot be read: ") + e.what());
  }
}

std::string train_report_path(const TrainRequest& request) { return request.out + "/report.json"; }

TrainThroughput train_throughput(const TrainReport& report) {
  using namespace train_job_detail;
  TrainThroughput t;
  double instance_epochs = 0, train_seconds = 0, verify_seconds = 0;
  for (const TrainedModelReport& m : report.models) {
    // A step processes the whole family or one minibatch.
    const std::size_t family = m.train.instances;
    const std::size_t per_step =
        m.recipe.batch > 0 ? std::min<std::size_t>(m.recipe.batch, family) : family;
    instance_epochs += static_cast<double>(per_step) * m.recipe.steps;
    train_seconds += m.train_seconds;
    verify_seconds += m.verify_seconds;
  }
  t.models = report.models.size();
  t.instance_epochs_per_second = train_seconds > 0 ? instance_epochs / train_seconds : 0.0;
  t.verify_seconds_per_model = t.models == 0 ? 0.0 : verify_seconds / static_cast<double>(t.models);
  return t;
}

TrainReport run_train_job(const TrainRequest& request, const HeadTrainer& trainer) {
  using namespace train_job_detail;
  TrainConfig base = resolved_train_config(request);
  check_ranges(request, base);
  if (!trainer.available()) trainer.train(Family{}, Family{}, TrainConfig{}, {});  // throws
  const Family train = read_family(request.family.empty() ? request.train : request.family);
  const Family test =
      request.test.empty() ? Family{train.m, train.n, {}} : read_family(request.test);
  if (request.init.rfind("model:", 0) == 0) base.init_weights = init_model(request.init.substr(6));
  const std::vector<GridModel> grid = grid_of(request, base, train.n);
  std::error_code ec;
  std::filesystem::create_directories(request.out, ec);
  if (ec || !std::filesystem::is_directory(request.out))
    throw OutputError("cannot create the output directory " + request.out);
  std::vector<ModelRun> runs = run_grid(grid, train, test, trainer, request);

  TrainReport report;
  report.train_family = request.family.empty() ? request.train : request.family;
  if (!request.test.empty()) report.test_family = request.test;
  for (std::size_t i = 0; i < grid.size(); ++i)
    report.models.push_back(model_report(grid[i], runs[i], request.recipe));
  write_file_atomically(train_report_path(request), train_report_to_json(report).dump(2) + "\n");
  return report;
}

}  // namespace kernelrank
