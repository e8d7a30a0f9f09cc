// kernelrank-train: the executable behind `kernelrank train`, the only one that links
// libtorch (main.cpp says why). Same global options, messages and exit codes as kernelrank.
// With the one argument kTrainerRequestMode it is the child of app/trainer_process.hpp: a
// JSON request on stdin, a JSON response on stdout.
#include "run_cli.hpp"

#include "kernelrank/app/trainer_process.hpp"
#include "kernelrank/train/train.hpp"

#include <cstring>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace {

// Every training step frees and re-allocates the same large tensors. With glibc's defaults
// they are mmap'ed and unmapped (or trimmed off the heap) each time, and every page faults
// back in: on a 4,000-instance pool of 16-bit tokens, r = 64, that made a full-batch step
// 3.8 times slower (docs/experiments.md, throughput). Keeping freed memory in the process
// changes no result, only the time.
void keep_freed_memory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 256 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kernelrank::cli;
  keep_freed_memory();
  if (argc == 2 && std::strcmp(argv[1], kernelrank::kTrainerRequestMode) == 0)
    return kernelrank::serve_train_request(kernelrank::head_trainer());
  return run_cli(argc, argv, [](CLI::App& app, GlobalOptions& global, Action& action) {
    add_train_command(app, global, action);
  });
}
