// Registration of the kernelrank subcommands (one file per subcommand).
//
// Each add_*_command adds a subcommand to the app; when CLI11 selects it, its
// callback stores the work to do in `action`, which main() runs inside the
// single place that maps exceptions to exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace kernelrank::cli {

struct GlobalOptions {
  bool json = false;   // machine-readable result on stdout
  bool quiet = false;  // no progress output
};

using Action = std::function<int()>;

// The one registration tail of a subcommand: when CLI11 selects `cmd`, the work to do
// becomes run(*args, global), which main() runs after parsing.
template <class Args, class Run>
void run_when_selected(CLI::App* cmd, const GlobalOptions& global, Action& action,
                       std::shared_ptr<Args> args, Run run) {
  cmd->callback([args = std::move(args), &global, &action, run] {
    action = [args, &global, run] { return run(*args, global); };
  });
}

// `bench bound` and `bench check`, under the `bench` command added before it.
void add_bench_scale_commands(CLI::App& app, const GlobalOptions& global, Action& action);
void add_code_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_instances_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_eval_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_softmax_base_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_reproduce_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_bound_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_upper_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_transition_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_domination_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_witness_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_certify_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_construct_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_counterexample_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_generate_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_bench_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_search_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_readout_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_min_rank_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_open_min_rank_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_plot_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_transcript_command(CLI::App& app, const GlobalOptions& global, Action& action);
void add_train_command(CLI::App& app, const GlobalOptions& global, Action& action);

// What to do instead of an overlap-profile scan over too long sequences
// (require_profile_work's length hint).
inline constexpr const char* kProfileLengthHint =
    "; use a smaller n, or a family file (eval --family) for longer sequences";

// Prints `json` (when --json) or `human` to stdout.
void emit(const GlobalOptions& global, const nlohmann::json& json, const std::string& human);

}  // namespace kernelrank::cli
