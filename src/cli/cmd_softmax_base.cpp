// placeholder
#include "commands.hpp"
namespace kernelrank::cli {
void add_softmax_base_command(CLI::App&, const GlobalOptions&, Action&) {}
}  // namespace kernelrank::cli
