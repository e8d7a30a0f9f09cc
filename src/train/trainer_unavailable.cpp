// The trainer in a build without libtorch: every entry point says how to get one.
#include "kernelrank/core/errors.hpp"
#include "kernelrank/train/train.hpp"

namespace kernelrank {
namespace {
[[noreturn]] void no_torch() {
  throw UsageError(
      "this build of kernelrank has no trainer: install libtorch-dev (scripts/install-deps.sh) "
      "and configure with -DKERNELRANK_TORCH=ON");
}
}  // namespace

bool training_available() { return false; }

TrainedHead train_head(const Family&, const Family&, const TrainConfig&,
                       const std::function<void(const EpochStatus&)>&) {
  no_torch();
}

std::vector<double> float_outputs(const HeadWeights&, const Family&, double) { no_torch(); }

}  // namespace kernelrank
