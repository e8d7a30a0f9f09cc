// Runs the command line: registers the subcommands, parses, runs the chosen one and maps its
// exceptions to the exit codes of errors.hpp.
#pragma once

#include "commands.hpp"

#include <functional>

namespace kernelrank::cli {

using CommandRegistrar = std::function<void(CLI::App&, GlobalOptions&, Action&)>;

int run_cli(int argc, char** argv, const CommandRegistrar& add_commands);

}  // namespace kernelrank::cli
