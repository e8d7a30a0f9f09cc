// MpiSession when kernelrank is built without MPI.
#include "mpi_runtime.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::cli {

bool mpi_built() { return false; }

MpiSession::MpiSession() {
  throw UsageError(
      "--mpi: this kernelrank was built without MPI (install libopenmpi-dev and "
      "reconfigure with -DKERNELRANK_WITH_MPI=ON), use --shard k/K and --merge instead");
}
MpiSession::~MpiSession() = default;
std::vector<std::uint64_t> MpiSession::sum_at_root(const std::vector<std::uint64_t>& values) const {
  return values;
}
std::string MpiSession::broadcast(const std::string& text) const { return text; }
std::vector<std::string> MpiSession::gather_at_root(const std::string& text) const {
  return {text};
}

}  // namespace kernelrank::cli
