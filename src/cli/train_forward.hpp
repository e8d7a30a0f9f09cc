// `kernelrank train ...` is carried out by the kernelrank-train executable beside kernelrank
// (see main.cpp for why): these functions recognise the subcommand and hand the whole command
// line over with execv, so options, exit codes and output are exactly the trainer's.
#pragma once

#include <CLI/CLI.hpp>

namespace kernelrank::cli {

// True when the first argument that is not a global option is "train".
bool invokes_train(int argc, char** argv);
// Replaces this process by kernelrank-train; returns an exit code only when that fails.
int forward_to_trainer(int argc, char** argv);
// Lists `train` in `kernelrank --help` (the subcommand itself is never parsed here).
void add_train_placeholder(CLI::App& app);

}  // namespace kernelrank::cli
