// `kernelrank counterexample`: a concrete failing instance for a model below
// the certified bound, found by following the proof (or exhaustively).
#include "commands.hpp"
#include "eval_multi_head.hpp"
#include "model_options.hpp"
#include "option_checks.hpp"
#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/counterexample.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"

#include <memory>
#include <optional>

namespace kernelrank::cli {
namespace {

struct CounterexampleArgs {
  ModelSource model;
  int m = 0;
  int n = 3;
  std::string family;
  std::string out;
};

int run_counterexample(const CounterexampleArgs& args, const GlobalOptions& global) {
  // Several heads: no proof-guided path (L2 needs a single NK head), an exhaustive search.
  HeadRequest request = head_request(args.model);
  request.multi_head = true;
  HeadSource head = open_head(std::move(request));
  if (head.kind() == HeadKind::MultiHead) {
    MultiHeadEvalRequest multi;
    multi.model_file = args.model.file;
    multi.family = args.family;
    multi.m = args.m;
    multi.n = args.n;
    return run_multi_head_counterexample(multi, *head.file(), args.out, global);
  }
  const auto load = [&](int m, int n) { return head.take_exact(m, n); };
  std::unique_ptr<Model> model;
  Counterexample result;
  std::string task;
  if (!args.family.empty()) {
    const Family family = read_family(args.family);
    model = load(family.m, family.n);
    result = find_counterexample(*model, family, CounterexampleOptions{family.n});
    task = "family " + args.family;
  } else {
    model = load(args.m, args.n);
    result = find_counterexample(*model, CounterexampleOptions{args.n});
    task = "T(" + std::to_string(model->width()) + "," + std::to_string(args.n) + ")";
  }
  std::string human = "model: " + model->description() + "\ntask: " + task + "\n";
  if (!result.fallback_reason.empty())
    human += "proof-guided path: " + result.fallback_reason + "\n";
  nlohmann::json json = {{"path", to_string(result.path)},
                         {"task", task},
                         {"explanation", result.explanation},
                         {"fallback_reason", result.fallback_reason},
                         {"kernel_entries", result.kernel_entries}};
  if (result.failing) {
    human += "found by the " + to_string(result.path) + " path";
    if (result.path == CounterexamplePath::ProofGuided)
      human += " over " + result.construction + ", " + std::to_string(result.kernel_entries) +
               " kernel values";
    human += "\n  " + result.explanation + "\nfailing instance:\n  " +
             outcome_to_text(*result.failing) + "\n";
    json["failing"] = outcome_to_json(*result.failing);
    json["construction"] = result.construction;
    if (!args.out.empty()) {
      Family one{result.failing->instance.width(),
                 result.failing->instance.length(),
                 {result.failing->instance}};
      write_file_atomically(args.out, family_to_text(one));
      human += "written to " + args.out + "\n";
    }
  } else if (result.exhaustive_solves) {
    human += "no failing instance exists: " + result.explanation +
             " found none (the model solves the task)\n";
    json["solves"] = true;
  } else {
    human += "no failing instance found\n";
  }
  emit(global, json, human);
  return result.failing ? kExitOk : kExitNegative;
}

}  // namespace

void add_counterexample_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<CounterexampleArgs>();
  CLI::App* cmd = app.add_subcommand("counterexample",
                                     "Find a failing instance for a model, guided by the proof");
  add_model_options(cmd, args->model);
  cmd->add_option("--m", args->m, "Token width of the cube task (default: the model's)")
      ->check(in_range(1, kMaxModelWidth));
  cmd->add_option("--n", args->n, "Sequence length")->capture_default_str();
  cmd->add_option("--family", args->family, "Search this family instead of the cube");
  cmd->add_option("--out", args->out, "Write the failing instance as a one-line family file");
  run_when_selected(cmd, global, action, args, run_counterexample);
}

}  // namespace kernelrank::cli
