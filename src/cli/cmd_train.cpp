// `kernelrank train`: train single-head linear-attention models with libtorch, then decide
// exactly what each one does (floating point proposes, the exact evaluator decides).
//
// For every (feature map, r, seed) of the grid: train, then have app/trained_head.hpp decide
// the head (exactly for rational feature maps, by ball arithmetic for softmax) next to the
// float outputs, and write DIR/<name>.safetensors and, for rational feature maps,
// DIR/<name>.model (kind=parametric, every double converted exactly). DIR/report.json has one
// record per model. Models train in parallel on --threads workers, each single-threaded, so
// the weights and the report (timings aside) do not depend on the thread count.
#include "commands.hpp"
#include "report_output.hpp"
#include "train_report.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/app/trained_head.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/train/train.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

namespace kernelrank::cli {
namespace {

struct TrainArgs {
  std::string family, train, test, out;
  std::vector<int> r = {8};
  std::vector<std::string> features = {"relu"};  // as given; check_args parses them
  std::vector<FeatureMap> feature_maps;
  std::vector<std::uint64_t> seeds = {1};
  TrainConfig recipe;  // everything but feature, r and seed (and positions, set from n)
  // --recipe and the options whose defaults it sets (unset: the recipe's value).
  std::string recipe_name = "witness";
  std::optional<int> epochs;
  std::optional<std::size_t> batch;
  std::optional<double> init_noise, constant_query_bias;
  bool freeze = false, no_freeze = false;  // neither: the recipe's choice
  std::optional<std::string> bumps;
  std::string init = "default";
  bool position_dependent = false;
  bool last_step = false;
  unsigned threads = 0;
  std::size_t listed_disagreements = 5;
};

struct Job {
  TrainConfig config;
  std::string name;
};

struct JobResult {
  TrainedHead head;
  TrainedSplitVerdict train;  // exact (relu, square) or ball arithmetic (softmax)
  std::optional<TrainedSplitVerdict> test;
  double verify_seconds = 0;
};

std::vector<Job> grid_of(const TrainArgs& args, int n) {
  std::vector<Job> jobs;
  for (const FeatureMap feature : args.feature_maps) {
    // softmax scores are m-dimensional: r does not apply, one model per seed.
    const bool softmax = feature == FeatureMap::Softmax;
    const std::vector<int> ranks = softmax ? std::vector<int>{0} : args.r;
    for (const int r : ranks) {
      for (const std::uint64_t seed : args.seeds) {
        Job job;
        job.config = args.recipe;
        job.config.feature = feature;
        job.config.r = softmax ? 1 : r;
        job.config.positions = args.position_dependent ? n : 0;
        job.config.seed = seed;
        job.name = to_string(feature) + (softmax ? "" : "-r" + std::to_string(r)) + "-s" +
                   std::to_string(seed);
        jobs.push_back(job);
      }
    }
  }
  return jobs;
}

// Checks the options and parses --feature into args.feature_maps.
void check_args(TrainArgs& args) {
  if (args.out.empty()) throw UsageError("--out DIR is required");
  if (args.family.empty() == args.train.empty())
    throw UsageError("give either --family FILE or --train FILE [--test FILE]");
  if (!args.test.empty() && args.train.empty()) throw UsageError("--test needs --train");
  args.feature_maps.clear();
  for (const std::string& f : args.features) {
    const std::optional<FeatureMap> map = feature_map_named(f);
    if (!map || !is_trainable(*map))
      throw UsageError("--feature must be relu, square or softmax, not '" + f + "'");
    args.feature_maps.push_back(*map);
  }
  for (const int r : args.r)
    if (r < 1 || r > 4096) throw UsageError("--r must be in 1..4096, not " + std::to_string(r));
  const TrainConfig& c = args.recipe;
  if (c.epochs < 0 || c.epochs > 10'000'000) throw UsageError("--epochs must be in 0..10000000");
  if (c.batch > 10'000'000) throw UsageError("--batch must be in 0..10000000 (0: full batch)");
  if (!(c.constant_query_bias > 0) || !std::isfinite(c.constant_query_bias))
    throw UsageError("--constant-query-bias must be a positive number");
  if (!(c.learning_rate > 0) || !std::isfinite(c.learning_rate))
    throw UsageError("--lr must be a positive number");
  if (c.d < 0 || c.d > 4096) throw UsageError("--d must be in 0..4096 (0 means d = m)");
  if (!(c.denominator_epsilon >= 0) || !std::isfinite(c.denominator_epsilon))
    throw UsageError("--epsilon must be a nonnegative number");
  if (!(c.temperature >= 0) || !std::isfinite(c.temperature))
    throw UsageError("--temperature must be a nonnegative number (0: learned)");
  if (c.loss != "band" && c.loss != "mse")
    throw UsageError("--loss must be band or mse, not '" + c.loss + "'");
  if (!(c.band >= 0 && c.band < 0.5)) throw UsageError("--band must be in [0, 0.5)");
  if (c.constant_features < 0 || c.constant_features > 4096)
    throw UsageError("--constant-features must be in 0..4096");
  if (c.polish_steps < 0 || c.polish_steps > 1'000'000)
    throw UsageError("--polish must be in 0..1000000");
  if (!(c.init_noise >= 0) || !std::isfinite(c.init_noise))
    throw UsageError("--init-noise must be a nonnegative number");
  static const char* const kInits[] = {"default", "random", "query-tokens", "instance-tokens",
                                       "l5"};
  if (std::find(std::begin(kInits), std::end(kInits), args.init) == std::end(kInits) &&
      args.init.rfind("model:", 0) != 0)
    throw UsageError(
        "--init must be default, random, query-tokens, instance-tokens, l5 or "
        "model:PATH, not '" +
        args.init + "'");
  if (args.seeds.empty() || args.r.empty() || args.features.empty())
    throw UsageError("--r, --seed and --feature need at least one value");
}

// One progress line on stderr (terminal only), shared by the worker threads.
class TrainProgress {
 public:
  TrainProgress(bool enabled, std::size_t models)
      : enabled_(enabled && isatty(2) == 1), models_(models) {}
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

JobResult run_job(const Job& job, const Family& train, const Family& test,
                  const std::string& out_dir, std::size_t listed, TrainProgress& progress) {
  JobResult result;
  result.head = train_head(train, test, job.config, [&](const EpochStatus& s) {
    progress.epoch(job.name, job.config.epochs, s);
  });
  const auto start = std::chrono::steady_clock::now();
  TrainedHeadVerdict verdict =
      verify_trained_head(result.head.weights, train, result.head.train_outputs, test,
                          result.head.test_outputs, listed, job.name + ".safetensors");
  result.verify_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_file_atomically(out_dir + "/" + job.name + ".safetensors", verdict.safetensors);
  if (verdict.model_text)
    write_file_atomically(out_dir + "/" + job.name + ".model", *verdict.model_text);
  result.train = std::move(verdict.train);  // the bytes are written: only the verdicts stay
  result.test = std::move(verdict.test);
  progress.model_done();
  return result;
}

std::vector<JobResult> run_jobs(const std::vector<Job>& jobs, const Family& train,
                                const Family& test, const TrainArgs& args,
                                const GlobalOptions& global) {
  std::vector<JobResult> results(jobs.size());
  std::vector<std::exception_ptr> errors(jobs.size());
  std::atomic<std::size_t> next{0};
  TrainProgress progress(!global.quiet, jobs.size());
  const unsigned hardware = std::max(1U, std::thread::hardware_concurrency());
  const unsigned workers = static_cast<unsigned>(
      std::min<std::size_t>(args.threads > 0 ? args.threads : hardware, jobs.size()));
  const auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        results[i] = run_job(jobs[i], train, test, args.out, args.listed_disagreements, progress);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)  // the first failing job in grid order
    if (e) std::rethrow_exception(e);
  return results;
}

// The benchmark line: training throughput per worker (instances processed, i.e. instances x
// epochs, per second of a model's own training time; a step processes the whole family or
// one minibatch) and the mean exact re-verification time per model.
std::string throughput_line(const std::vector<Job>& jobs, const std::vector<JobResult>& results,
                            const Family& train) {
  double instance_epochs = 0, train_seconds = 0, verify_seconds = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const std::size_t batch = jobs[i].config.batch;
    const std::size_t per_step =
        batch > 0 ? std::min(batch, train.instances.size()) : train.instances.size();
    instance_epochs += static_cast<double>(per_step) * results[i].head.steps;
    train_seconds += results[i].head.train_seconds;
    verify_seconds += results[i].verify_seconds;
  }
  char line[200];
  std::snprintf(line, sizeof line,
                "throughput: %.0f instance-epochs/s per worker; exact re-verification %.3f s "
                "per model (mean of %zu)\n",
                train_seconds > 0 ? instance_epochs / train_seconds : 0.0,
                verify_seconds / static_cast<double>(jobs.size()), jobs.size());
  return line;
}

// --init model:PATH: any relu or square parametric model file (text or safetensors), its
// weights rounded to doubles as the starting point.
HeadWeights init_model(const std::string& path) {
  const std::unique_ptr<Model> model = read_model(path);
  const auto* parametric = dynamic_cast<const ParametricModel*>(model.get());
  if (parametric == nullptr || parametric->activation() == FeatureMap::Identity)
    throw UsageError("--init model:" + path +
                     ": the model must be a relu or square kind=parametric head");
  return rounded_head_weights(*parametric);
}

// The recipe's preset, then every option given on the command line over it.
TrainConfig resolved_recipe(const TrainArgs& args) {
  const std::optional<Recipe> recipe = recipe_named(args.recipe_name);
  if (!recipe) throw UsageError("--recipe must be witness or ood, not '" + args.recipe_name + "'");
  const TrainConfig preset = recipe_config(*recipe);
  TrainConfig c = args.recipe;
  c.epochs = args.epochs.value_or(preset.epochs);
  c.batch = args.batch.value_or(preset.batch);
  c.init_noise = args.init_noise.value_or(preset.init_noise);
  c.constant_query_bias = args.constant_query_bias.value_or(preset.constant_query_bias);
  c.freeze_constant_features = args.freeze || (!args.no_freeze && preset.freeze_constant_features);
  c.bumps = preset.bumps;
  if (args.bumps) {
    const std::optional<BumpShape> shape = bump_shape_named(*args.bumps);
    if (!shape) throw UsageError("--bumps must be witness or scaled, not '" + *args.bumps + "'");
    c.bumps = *shape;
  }
  return c;
}

int run_train(const TrainArgs& given, const GlobalOptions& global) {
  TrainArgs args = given;
  args.recipe = resolved_recipe(given);
  check_args(args);
  if (!training_available()) train_head(Family{}, Family{}, TrainConfig{});  // throws: no torch
  const Family train = read_family(args.family.empty() ? args.train : args.family);
  const Family test = args.test.empty() ? Family{train.m, train.n, {}} : read_family(args.test);
  TrainArgs resolved = args;
  resolved.recipe.keep_best = !args.last_step;
  resolved.recipe.init = args.init.rfind("model:", 0) == 0 ? "model" : args.init;
  if (args.init.rfind("model:", 0) == 0)
    resolved.recipe.init_weights = init_model(args.init.substr(6));
  const std::vector<Job> jobs = grid_of(resolved, train.n);
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec || !std::filesystem::is_directory(args.out))
    throw OutputError("cannot create the output directory " + args.out);
  const std::vector<JobResult> results = run_jobs(jobs, train, test, resolved, global);

  nlohmann::json models = nlohmann::json::array();
  std::string human =
      "name | split | float failing | decided failing | max error | verdict | "
      "float/decided disagreements\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    const JobResult& res = results[i];
    const TrainConfig& c = job.config;
    const bool exact = std::holds_alternative<SplitVerification>(res.train);
    nlohmann::json record = {
        {"name", job.name},
        {"feature", to_string(c.feature)},
        {"r", exact ? c.r : res.head.weights.r},
        {"seed", c.seed},
        {"d", res.head.weights.d},
        {"positions", c.positions},
        {"epochs", c.epochs},
        {"lr", c.learning_rate},
        {"recipe",
         {{"name", args.recipe_name},
          {"init", res.head.init},
          {"bumps", to_string(c.bumps)},
          {"batch", c.batch},
          {"constant_query_bias", exact ? nlohmann::json(c.constant_query_bias) : nlohmann::json()},
          {"loss", c.loss},
          {"band", c.band},
          {"constant_features", exact ? c.constant_features : 0},
          {"frozen_constant_features", c.freeze_constant_features},
          {"polish_steps", c.polish_steps},
          {"kept", c.keep_best ? "best snapshot" : "last step"},
          {"steps", res.head.steps},
          {"returned_step", res.head.best_step}}},
        {"final_loss", res.head.final_loss},
        {"files", {{"safetensors", job.name + ".safetensors"}}},
        {"train", split_to_json(res.train)},
        {"timing",
         {{"train_seconds", res.head.train_seconds}, {"verify_seconds", res.verify_seconds}}}};
    if (exact) record["files"]["model"] = job.name + ".model";
    human += job.name + " | train | " + split_cell(res.train) + "\n";
    if (res.test) {
      record["test"] = split_to_json(*res.test);
      human += job.name + " | test | " + split_cell(*res.test) + "\n";
    }
    models.push_back(record);
  }
  const nlohmann::json report = {
      {"format", "kernelrank-train-report"},
      {"version", 1},
      {"train_family", args.family.empty() ? args.train : args.family},
      {"test_family", args.test.empty() ? nlohmann::json(nullptr) : nlohmann::json(args.test)},
      {"models", models}};
  write_file_atomically(args.out + "/report.json", report.dump(2) + "\n");
  emit(global, report,
       human + throughput_line(jobs, results, train) + "report: " + args.out + "/report.json\n");
  return kExitOk;
}

}  // namespace

void add_train_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* cmd = app.add_subcommand(
      "train", "Train linear-attention heads (libtorch) and verify every trained model exactly");
  auto* family = cmd->add_option("--family", args->family, "Train and evaluate on this family");
  auto* train = cmd->add_option("--train", args->train, "Training family (as `generate` writes)");
  cmd->add_option("--test", args->test, "Test family, evaluated but not trained on");
  family->excludes(train);
  cmd->add_option("--out", args->out, "Output directory for models and report.json")->required();
  cmd->add_option("--r", args->r, "Feature counts (comma-separated list)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--feature", args->features, "Feature maps: relu, square, softmax (list)")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("--seed", args->seeds, "Seeds (list)")->delimiter(',')->capture_default_str();
  TrainConfig& c = args->recipe;
  cmd->add_option("--recipe", args->recipe_name,
                  "witness (full batch, fixed bump widths) or ood (random-token pools: scaled "
                  "bumps, minibatches, frozen constants); sets the defaults marked [recipe]")
      ->capture_default_str();
  cmd->add_option("--epochs", args->epochs,
                  "[recipe] Adam steps at most (witness 6000, ood 2000; stops at band loss 0)");
  cmd->add_option("--batch", args->batch,
                  "[recipe] Minibatch size, seeded order per epoch (witness 0 = full, ood 1000)");
  cmd->add_option("--bumps", args->bumps,
                  "[recipe] Bump init shape: witness (fixed widths) or scaled (widths scale with "
                  "m; square bumps for square heads)");
  cmd->add_option("--lr", c.learning_rate, "Initial learning rate (cosine decay to lr/100)")
      ->capture_default_str();
  cmd->add_option("--d", c.d, "Value width d (0: d = m)")->capture_default_str();
  cmd->add_flag("--position-dependent", args->position_dependent, "Separate maps per position");
  cmd->add_option("--loss", c.loss, "band: mean(relu(|y - t| - band)); mse: mean((y - t)^2)")
      ->capture_default_str();
  cmd->add_option("--band", c.band, "Half-width of the zero-loss band of --loss band")
      ->capture_default_str();
  cmd->add_option("--init", args->init,
                  "default, random, query-tokens, instance-tokens, l5 (softmax), model:PATH")
      ->capture_default_str();
  cmd->add_option("--init-noise", args->init_noise,
                  "[recipe] Seeded noise of the data-informed inits, times the random init "
                  "(witness 0.1, ood 0.01)");
  cmd->add_option("--constant-features", c.constant_features,
                  "Features that start constant (relu/square; part of r)")
      ->capture_default_str();
  auto* freeze =
      cmd->add_flag("--freeze-constant-features", args->freeze,
                    "[recipe] Keep the constant features constant (witness no, ood yes)");
  cmd->add_flag("--no-freeze-constant-features", args->no_freeze,
                "Let the constant features train (the ood recipe freezes them)")
      ->excludes(freeze);
  cmd->add_option("--constant-query-bias", args->constant_query_bias,
                  "[recipe] Query bias of the constant features; key bias 1 (witness 1, ood 0.1)");
  cmd->add_option("--polish", c.polish_steps, "LBFGS steps after Adam (0: none)")
      ->capture_default_str();
  cmd->add_flag("--last-step", args->last_step,
                "Return the last step's weights, not the best snapshot");
  cmd->add_option("--temperature", c.temperature, "softmax: fixed temperature (0: learned)")
      ->capture_default_str();
  cmd->add_option("--epsilon", c.denominator_epsilon,
                  "Training-only epsilon added to the denominator")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Models trained at once (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--disagreements", args->listed_disagreements,
                  "Float/exact disagreements listed per split")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_train);
}

}  // namespace kernelrank::cli
