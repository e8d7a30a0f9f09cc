// `kernelrank counterexample`: a concrete failing instance for a model below
// the certified bound, found by following the proof (or exhaustively).
#include "commands.hpp"
#include "model_options.hpp"
#include "report_output.hpp"

#include "kernelrank/app/counterexample_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

struct CounterexampleArgs {
  ModelSource model;
  std::optional<int> m;
  int n = 3;
  std::string family;
  std::string out;
};

std::string counterexample_text(const CounterexampleOutcome& out) {
  const Counterexample& result = out.result;
  std::string human = "model: " + out.model + "\ntask: " + out.task + "\n";
  if (!result.fallback_reason.empty())
    human += "proof-guided path: " + result.fallback_reason + "\n";
  if (result.failing) {
    human += "found by the " + to_string(result.path) + " path";
    if (result.path == CounterexamplePath::ProofGuided)
      human += " over " + result.construction + ", " + std::to_string(result.kernel_entries) +
               " kernel values";
    human += "\n  " + result.explanation + "\nfailing instance:\n  " +
             outcome_to_text(*result.failing) + "\n";
    if (!out.out.empty()) human += "written to " + out.out + "\n";
  } else if (out.solves()) {
    human += "no failing instance exists: " + result.explanation +
             " found none (the model solves the task)\n";
  } else {
    human += "no failing instance found\n";
  }
  return human;
}

int run_counterexample(const CounterexampleArgs& args, const GlobalOptions& global) {
  HeadRequest head_spec = head_request(args.model);
  head_spec.multi_head = true;  // several heads: searched exhaustively
  HeadSource head = open_head(std::move(head_spec));
  const CounterexampleOutcome out =
      kernelrank::run_counterexample(head, {args.m, args.n, args.family, args.out});
  emit(global, counterexample_json(out), counterexample_text(out));
  return out.found() ? kExitOk : kExitNegative;
}

}  // namespace

void add_counterexample_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<CounterexampleArgs>();
  CLI::App* cmd = app.add_subcommand("counterexample",
                                     "Find a failing instance for a model, guided by the proof");
  add_model_options(cmd, args->model);
  cmd->add_option("--m", args->m, "Token width of the cube task, 1..4096 (default: the model's)");
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--family", args->family, "Search this family instead of the cube");
  cmd->add_option("--out", args->out, "Write the failing instance as a one-line family file");
  run_when_selected(cmd, global, action, args, run_counterexample);
}

}  // namespace kernelrank::cli
