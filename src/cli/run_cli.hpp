// Runs the command line: registers the subcommands, parses, runs the chosen one and maps its
// exceptions to the exit codes of errors.hpp.
#pragma once

#include "commands.hpp"

#include <exception>
#include <functional>
#include <string>

namespace kernelrank::cli {

using CommandRegistrar = std::function<void(CLI::App&, GlobalOptions&, Action&)>;

// An exception's message as the CLI prints it: a library parameter {name} (ParameterMessage)
// becomes its flag --name; any other message is what() unchanged.
std::string cli_message(const std::exception& e);

int run_cli(int argc, char** argv, const CommandRegistrar& add_commands);

}  // namespace kernelrank::cli
