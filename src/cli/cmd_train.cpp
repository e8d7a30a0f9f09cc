// `kernelrank train`: train single-head linear-attention models with libtorch, then decide
// exactly what each one does (floating point proposes, the exact evaluator decides).
//
// For every (feature map, r, seed) of the grid: train, write DIR/<name>.safetensors and, for
// rational feature maps, DIR/<name>.model (kind=parametric, every double converted exactly),
// evaluate that exact model on the training and test families, and compare with the float
// outputs. DIR/report.json has one record per model. Models train in parallel on --threads
// workers, each single-threaded, so the weights and the report (timings aside) do not depend
// on the thread count.
#include "commands.hpp"
#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/trained_verification.hpp"
#include "kernelrank/models/model_safetensors.hpp"
#include "kernelrank/models/parametric_writer.hpp"
#include "kernelrank/train/train.hpp"

#include <unistd.h>

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

namespace kernelrank::cli {
namespace {

struct TrainArgs {
  std::string family, train, test, out;
  std::vector<int> r = {8};
  std::vector<std::string> features = {"square"};
  std::vector<std::uint64_t> seeds = {1};
  int epochs = 2000;
  double lr = 0.01;
  int d = 0;
  bool position_dependent = false;
  double temperature = 0;
  double epsilon = 1e-9;
  unsigned threads = 0;
  std::size_t listed_disagreements = 5;
};

struct Job {
  TrainConfig config;
  std::string name;
};

struct JobResult {
  TrainedHead head;
  std::optional<SplitVerification> train, test;
  double verify_seconds = 0;
};

std::vector<Job> grid_of(const TrainArgs& args, int n) {
  std::vector<Job> jobs;
  for (const std::string& feature : args.features) {
    // softmax scores are m-dimensional: r does not apply, one model per seed.
    const std::vector<int> ranks = feature == "softmax" ? std::vector<int>{0} : args.r;
    for (const int r : ranks) {
      for (const std::uint64_t seed : args.seeds) {
        Job job;
        job.config.feature = feature;
        job.config.r = feature == "softmax" ? 1 : r;
        job.config.d = args.d;
        job.config.positions = args.position_dependent ? n : 0;
        job.config.seed = seed;
        job.config.epochs = args.epochs;
        job.config.learning_rate = args.lr;
        job.config.denominator_epsilon = args.epsilon;
        job.config.temperature = args.temperature;
        job.name = feature + (feature == "softmax" ? "" : "-r" + std::to_string(r)) + "-s" +
                   std::to_string(seed);
        jobs.push_back(job);
      }
    }
  }
  return jobs;
}

void check_args(const TrainArgs& args) {
  if (args.out.empty()) throw UsageError("--out DIR is required");
  if (args.family.empty() == args.train.empty())
    throw UsageError("give either --family FILE or --train FILE [--test FILE]");
  if (!args.test.empty() && args.train.empty()) throw UsageError("--test needs --train");
  for (const std::string& f : args.features)
    if (f != "relu" && f != "square" && f != "softmax")
      throw UsageError("--feature must be relu, square or softmax, not '" + f + "'");
  for (const int r : args.r)
    if (r < 1 || r > 4096) throw UsageError("--r must be in 1..4096, not " + std::to_string(r));
  if (args.epochs < 0 || args.epochs > 10'000'000)
    throw UsageError("--epochs must be in 0..10000000");
  if (!(args.lr > 0) || !std::isfinite(args.lr)) throw UsageError("--lr must be a positive number");
  if (args.d < 0 || args.d > 4096) throw UsageError("--d must be in 0..4096 (0 means d = m)");
  if (!(args.epsilon >= 0) || !std::isfinite(args.epsilon))
    throw UsageError("--epsilon must be a nonnegative number");
  if (!(args.temperature >= 0) || !std::isfinite(args.temperature))
    throw UsageError("--temperature must be a nonnegative number (0: learned)");
  if (args.seeds.empty() || args.r.empty() || args.features.empty())
    throw UsageError("--r, --seed and --feature need at least one value");
}

nlohmann::json split_to_json(const SplitVerification& split, bool exact_available) {
  // Float figures are for comparison only (JSON numbers); the exact ones are "p/q" strings.
  const double float_error_rate = split.instances == 0 ? 0.0
                                                       : static_cast<double>(split.float_failing) /
                                                             static_cast<double>(split.instances);
  nlohmann::json j = {{"instances", split.instances},
                      {"float_failing", split.float_failing},
                      {"float_error_rate", float_error_rate},
                      {"float_accuracy", 1.0 - float_error_rate}};
  if (!exact_available) {
    j["exact"] = {{"verdict", "float-only"},
                  {"reason", "exp features are not rational: no exact verdict"}};
    return j;
  }
  const EvalReport& r = split.exact;
  nlohmann::json exact = {{"verdict", r.solves() ? "solves (verified exactly)" : "fails"},
                          {"failing", r.failing.str()},
                          {"undefined", r.undefined.str()},
                          {"error_rate", to_string(r.error_rate())}};
  exact["max_error"] =
      r.max_error ? nlohmann::json(to_string(*r.max_error)) : nlohmann::json(nullptr);
  exact["first_failure"] =
      r.failures.empty()
          ? nlohmann::json(nullptr)
          : nlohmann::json(
                {{"instance", to_string(r.failures[0].instance)},
                 {"target", r.failures[0].target},
                 {"output", r.failures[0].output ? nlohmann::json(to_string(*r.failures[0].output))
                                                 : nlohmann::json(nullptr)}});
  j["exact"] = exact;
  j["disagreements"] = split.disagreement_count;
  nlohmann::json listed = nlohmann::json::array();
  for (const FloatExactDisagreement& dis : split.disagreements)
    listed.push_back(
        {{"instance", to_string(dis.instance)},
         {"target", dis.target},
         {"float_output", std::isfinite(dis.float_output) ? nlohmann::json(dis.float_output)
                                                          : nlohmann::json("not finite")},
         {"exact_output", dis.exact_output ? nlohmann::json(to_string(*dis.exact_output))
                                           : nlohmann::json(nullptr)},
         {"float_says", dis.float_fails ? "fails" : "correct"},
         {"exact_says", dis.exact_fails ? "fails" : "correct"}});
  j["disagreement_list"] = listed;
  return j;
}

// Float-only split (softmax): the float outputs alone.
SplitVerification float_only_split(const Family& family, const std::vector<double>& outputs) {
  SplitVerification split;
  split.instances = family.instances.size();
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (!(std::fabs(outputs[i] - min_ip_target(family.instances[i])) < 0.5)) ++split.float_failing;
  return split;
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
  write_file_atomically(out_dir + "/" + job.name + ".safetensors",
                        head_to_safetensors(result.head.weights));
  const auto start = std::chrono::steady_clock::now();
  if (job.config.feature == "softmax") {
    result.train = float_only_split(train, result.head.train_outputs);
    if (!test.instances.empty()) result.test = float_only_split(test, result.head.test_outputs);
  } else {
    const std::unique_ptr<ParametricModel> exact =
        parametric_model_from_weights(result.head.weights);
    write_file_atomically(out_dir + "/" + job.name + ".model", parametric_model_to_text(*exact));
    result.train = verify_split(*exact, train, result.head.train_outputs, listed);
    if (!test.instances.empty())
      result.test = verify_split(*exact, test, result.head.test_outputs, listed);
  }
  result.verify_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
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

std::string cell(const SplitVerification& s, bool exact) {
  std::string text = std::to_string(s.float_failing) + " | ";
  if (!exact) return text + "- | - | float-only | -";
  const EvalReport& r = s.exact;
  text += r.failing.str() + (r.undefined != 0 ? " (" + r.undefined.str() + " undef)" : "") + " | ";
  // Trained weights give long exact fractions: the table shows 6 places, report.json the exact
  // value.
  text += (r.max_error ? "~" + to_decimal(*r.max_error, 6) : std::string("none defined")) + " | ";
  text += std::string(r.solves() ? "solves (verified exactly)" : "FAILS") + " | ";
  return text + std::to_string(s.disagreement_count);
}

// The benchmark line: training throughput per worker (instances x epochs per second of a
// model's own training time) and the mean exact re-verification time per model.
std::string throughput_line(const std::vector<Job>& jobs, const std::vector<JobResult>& results,
                            const Family& train) {
  double instance_epochs = 0, train_seconds = 0, verify_seconds = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    instance_epochs += static_cast<double>(train.instances.size()) * jobs[i].config.epochs;
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

int run_train(const TrainArgs& args, const GlobalOptions& global) {
  check_args(args);
  if (!training_available()) train_head(Family{}, Family{}, TrainConfig{});  // throws: no torch
  const Family train = read_family(args.family.empty() ? args.train : args.family);
  const Family test = args.test.empty() ? Family{train.m, train.n, {}} : read_family(args.test);
  const std::vector<Job> jobs = grid_of(args, train.n);
  std::error_code ec;
  std::filesystem::create_directories(args.out, ec);
  if (ec || !std::filesystem::is_directory(args.out))
    throw OutputError("cannot create the output directory " + args.out);
  const std::vector<JobResult> results = run_jobs(jobs, train, test, args, global);

  nlohmann::json models = nlohmann::json::array();
  std::string human =
      "name | split | float failing | exact failing | exact max error | exact verdict | "
      "float/exact disagreements\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& job = jobs[i];
    const JobResult& res = results[i];
    const bool exact = job.config.feature != "softmax";
    nlohmann::json record = {
        {"name", job.name},
        {"feature", job.config.feature},
        {"r", exact ? job.config.r : res.head.weights.r},
        {"seed", job.config.seed},
        {"d", res.head.weights.d},
        {"positions", job.config.positions},
        {"epochs", job.config.epochs},
        {"lr", job.config.learning_rate},
        {"final_loss", res.head.final_loss},
        {"files", {{"safetensors", job.name + ".safetensors"}}},
        {"train", split_to_json(*res.train, exact)},
        {"timing",
         {{"train_seconds", res.head.train_seconds}, {"verify_seconds", res.verify_seconds}}}};
    if (exact) record["files"]["model"] = job.name + ".model";
    human += job.name + " | train | " + cell(*res.train, exact) + "\n";
    if (res.test) {
      record["test"] = split_to_json(*res.test, exact);
      human += job.name + " | test | " + cell(*res.test, exact) + "\n";
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
  cmd->add_option("--epochs", args->epochs, "Full-batch Adam steps")->capture_default_str();
  cmd->add_option("--lr", args->lr, "Initial learning rate (cosine decay to lr/100)")
      ->capture_default_str();
  cmd->add_option("--d", args->d, "Value width d (0: d = m)")->capture_default_str();
  cmd->add_flag("--position-dependent", args->position_dependent, "Separate maps per position");
  cmd->add_option("--temperature", args->temperature, "softmax: fixed temperature (0: learned)")
      ->capture_default_str();
  cmd->add_option("--epsilon", args->epsilon, "Training-only epsilon added to the denominator")
      ->capture_default_str();
  cmd->add_option("--threads", args->threads, "Models trained at once (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--disagreements", args->listed_disagreements,
                  "Float/exact disagreements listed per split")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_train);
}

}  // namespace kernelrank::cli
