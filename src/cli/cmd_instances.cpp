// placeholder
#include "commands.hpp"
namespace kernelrank::cli {
void add_instances_command(CLI::App&, const GlobalOptions&, Action&) {}
}  // namespace kernelrank::cli
