// The train job (`kernelrank train`, kernelrank.train): a request naming the grid of
// (feature map, r, seed), the families, the recipe and the output directory, checked once
// here; the grid trained on a pool of threads by the trainer the caller hands in (train/ sits
// above this layer, so the job never links torch itself), each head decided exactly by
// app/trained_head.hpp, DIR/<name>.safetensors, DIR/<name>.model and DIR/report.json
// written; and the report, whose one JSON form (the writer and its reader) is here. Messages
// name parameters as {name} (core/errors.hpp): the CLI prints --r, Python r.
#pragma once

#include "kernelrank/app/train_config.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// Everything `train` takes. Unset optionals are the recipe's values; the other defaults are
// TrainConfig's.
struct TrainRequest {
  std::string family, train, test, out;  // family, or train [and test]; out is required
  std::vector<int> r = {8};
  std::vector<std::string> feature = {"relu"};
  std::vector<std::uint64_t> seed = {1};
  std::string recipe = "witness";
  std::optional<int> epochs;
  std::optional<std::uint64_t> batch;
  std::optional<std::string> bumps;
  double lr = TrainConfig{}.learning_rate;
  int d = TrainConfig{}.d;
  bool position_dependent = false;
  std::string loss = TrainConfig{}.loss;
  double band = TrainConfig{}.band;
  std::string init = "default";  // default, random, query-tokens, instance-tokens, l5, model:PATH
  std::optional<double> init_noise;
  int constant_features = TrainConfig{}.constant_features;
  std::optional<bool> freeze_constant_features;
  std::optional<double> constant_query_bias;
  int polish = TrainConfig{}.polish_steps;
  bool last_step = false;
  double temperature = TrainConfig{}.temperature;
  double epsilon = TrainConfig{}.denominator_epsilon;
  unsigned threads = 0;             // 0: all cores
  std::uint64_t disagreements = 5;  // float/decided disagreements listed per split
  bool progress = true;             // the progress line on stderr (a terminal only)
};

// The recipe's preset with every option the request sets over it (feature, r, seed and
// positions are each model's). DomainError for an unknown recipe or bump shape.
TrainConfig resolved_train_config(const TrainRequest& request);

// Every check of the request, the train ranges stated once: DomainError naming the parameter.
void check_train_request(const TrainRequest& request);

// The request as JSON (keys: the parameter names) and back. The reader refuses a value of the
// wrong type or an unknown key (DomainError naming it); it does not check ranges.
nlohmann::json train_request_to_json(const TrainRequest& request);
TrainRequest train_request_from_json(const nlohmann::json& json);

// One split (train or test) of one trained model: the float figures and the decided verdict.
struct TrainedSplitReport {
  bool exact = true;  // exact rational arithmetic (relu, square); false: ball arithmetic
  std::size_t instances = 0, float_failing = 0;
  std::string method, verdict;
  Integer failing = 0, undefined = 0, undecided = 0;
  Rational error_rate;
  std::optional<Rational> max_error;     // ball arithmetic: an upper bound
  std::optional<Rational> max_error_lo;  // ball arithmetic: the lower end of its enclosure
  struct Failure {
    std::string instance;
    int target = 0;
    std::optional<Rational> output;  // exact (nullopt: zero denominator)
    std::string ball_output;         // ball arithmetic: Arb's enclosure
  };
  std::optional<Failure> first_failure;
  std::size_t disagreement_count = 0;
  struct Disagreement {
    std::string instance;
    int target = 0;
    double float_output = 0;               // not finite: NaN
    std::optional<Rational> exact_output;  // exact (nullopt: zero denominator)
    std::string ball_output;               // ball arithmetic
    bool float_fails = false;
    bool decided_fails = false;
  };
  std::vector<Disagreement> disagreements;  // the first `disagreements` of the request

  bool solves() const { return verdict.rfind("solves", 0) == 0; }
  double float_error_rate() const;
};

struct TrainedModelReport {
  std::string name, feature;  // e.g. relu-r8-s1, relu
  int r = 0, d = 0, positions = 0, epochs = 0;
  std::uint64_t seed = 0;
  double lr = 0, final_loss = 0;
  struct Recipe {
    std::string name, init, bumps, loss, kept;
    std::uint64_t batch = 0;
    std::optional<double> constant_query_bias;  // exact heads only
    double band = 0;
    int constant_features = 0, polish_steps = 0, steps = 0, returned_step = 0;
    bool frozen_constant_features = false;
  } recipe;
  std::string safetensors;           // file name in the output directory
  std::optional<std::string> model;  // rational maps: the .model file's name
  TrainedSplitReport train;
  std::optional<TrainedSplitReport> test;
  double train_seconds = 0, verify_seconds = 0;  // display only
};

struct TrainReport {
  std::string train_family;
  std::optional<std::string> test_family;
  std::vector<TrainedModelReport> models;
};

// The report's JSON form (DIR/report.json, `train --json`), and back: InternalError for a
// text that is not one.
nlohmann::json train_split_to_json(const TrainedSplitReport& split);
nlohmann::json trained_model_to_json(const TrainedModelReport& model);
nlohmann::json train_report_to_json(const TrainReport& report);
TrainReport train_report_from_json(const nlohmann::json& json);

// DIR/report.json of a request.
std::string train_report_path(const TrainRequest& request);

// Training throughput per worker (instances processed, i.e. instances x steps, per second of
// a model's own training time) and the mean exact re-verification time per model.
struct TrainThroughput {
  double instance_epochs_per_second = 0;
  double verify_seconds_per_model = 0;
  std::size_t models = 0;
};
TrainThroughput train_throughput(const TrainReport& report);

// The trainer the job runs each model with: train/train.hpp's head_trainer() in a build that
// links the trainer. When `available` says no, `train` throws UsageError saying how to get one.
struct HeadTrainer {
  std::function<bool()> available;
  std::function<TrainedHead(const Family& train, const Family& test, const TrainConfig& config,
                            const std::function<void(const EpochStatus&)>& on_epoch)>
      train;
};

// Checks the request, reads the families, trains and decides every model of the grid on
// `threads` workers (each single-threaded, so the weights and the report, timings aside, do
// not depend on the thread count), writes the files and report.json, and returns the report.
TrainReport run_train_job(const TrainRequest& request, const HeadTrainer& trainer);

}  // namespace kernelrank
