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
    // In this order in `kernelrank --help`; bench scale needs the bench command first.
    for (const auto add :
         {&add_reproduce_command,     &add_code_command,         &add_instances_command,
          &add_eval_command,          &add_softmax_base_command, &add_bound_command,
          &add_upper_command,         &add_transition_command,   &add_domination_command,
          &add_witness_command,       &add_certify_command,      &add_counterexample_command,
          &add_generate_command,      &add_bench_command,        &add_bench_scale_commands,
          &add_search_command,        &add_readout_command,      &add_min_rank_command,
          &add_open_min_rank_command, &add_plot_command,         &add_transcript_command,
          &add_construct_command})
      add(app, global, action);
    add_train_placeholder(app);
  });
}
