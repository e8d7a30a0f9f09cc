// placeholder
#include "commands.hpp"
namespace kernelrank::cli {
void add_eval_command(CLI::App&, const GlobalOptions&, Action&) {}
}  // namespace kernelrank::cli
