// placeholder
#include "commands.hpp"
namespace kernelrank::cli {
void add_bench_command(CLI::App&, const GlobalOptions&, Action&) {}
}  // namespace kernelrank::cli
