// kernelrank: exact verification and proof checking for Min-IP kernel attention.
//
// `kernelrank train` runs in its own executable, kernelrank-train, beside this one: libtorch
// costs about 0.3 s of start-up for every process that links it, which every other
// subcommand (and the test suites, which start thousands) should not pay.
#include "commands.hpp"

#include "run_cli.hpp"
#include "train_forward.hpp"

int main(int argc, char** argv) {
  using namespace kernelrank::cli;
  if (invokes_train(argc, argv)) return forward_to_trainer(argc, argv);
  return run_cli(argc, argv, [](CLI::App& app, GlobalOptions& global, Action& action) {
    add_reproduce_command(app, global, action);
    add_code_command(app, global, action);
    add_instances_command(app, global, action);
    add_eval_command(app, global, action);
    add_softmax_base_command(app, global, action);
    add_bound_command(app, global, action);
    add_transition_command(app, global, action);
    add_domination_command(app, global, action);
    add_witness_command(app, global, action);
    add_certify_command(app, global, action);
    add_counterexample_command(app, global, action);
    add_generate_command(app, global, action);
    add_bench_command(app, global, action);
    add_bench_scale_commands(app, global, action);  // needs the bench command
    add_search_command(app, global, action);
    add_readout_command(app, global, action);
    add_min_rank_command(app, global, action);
    add_plot_command(app, global, action);
    add_transcript_command(app, global, action);
    add_train_placeholder(app);
  });
}
