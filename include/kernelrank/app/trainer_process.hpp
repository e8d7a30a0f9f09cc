// `kernelrank train` run from another front end (kernelrank.train): the trainer is the
// executable kernelrank-train, the only one that links libtorch, so a front end that must not
// link torch runs it as a child process with the options a request names, and reads the
// DIR/report.json it writes. The trainer's errors come back as the library's exceptions with
// its message, each option it names written {name} (core/errors.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// The options of `kernelrank train` (src/cli/cmd_train.cpp); unset ones are the trainer's
// defaults (or its recipe's).
struct TrainerRequest {
  std::string trainer;  // the kernelrank-train executable
  std::string family, train, test, out;
  std::vector<int> r;
  std::vector<std::string> feature;
  std::vector<std::uint64_t> seed;
  std::optional<std::string> recipe, bumps, loss, init;
  std::optional<int> epochs, d, constant_features, polish;
  std::optional<std::uint64_t> batch, disagreements;
  std::optional<unsigned> threads;
  std::optional<double> lr, band, init_noise, constant_query_bias, temperature, epsilon;
  std::optional<bool> freeze_constant_features;  // unset: the recipe's choice
  bool position_dependent = false;
  bool last_step = false;
  // On: the trainer's stderr is copied to this process's stderr as it comes; off: it runs
  // with its quiet option.
  bool progress = true;
};

// The trainer's command line after the program name.
std::vector<std::string> trainer_arguments(const TrainerRequest& request);

struct TrainerRun {
  std::string report_path;  // OUT/report.json
  std::string report;       // its text
};

// Runs the trainer and waits for it. Its exit codes become exceptions with its message:
// 2 UsageError (DomainError) or InputError, 3 ResourceError, 4 InternalError; a trainer that
// cannot be started is a UsageError saying how to build it (trainer_missing_message).
TrainerRun run_trainer(const TrainerRequest& request);

// What to do when the trainer `program` cannot be run (`reason`, e.g. strerror's text): how
// to build it, and that training needs libtorch.
std::string trainer_missing_message(const std::string& program, const std::string& reason);

}  // namespace kernelrank
