// kernelrank-train: the executable behind `kernelrank train`, the only one that links
// libtorch (main.cpp says why). Same global options, messages and exit codes as kernelrank.
#include "run_cli.hpp"

int main(int argc, char** argv) {
  using namespace kernelrank::cli;
  return run_cli(argc, argv, [](CLI::App& app, GlobalOptions& global, Action& action) {
    add_train_command(app, global, action);
  });
}
