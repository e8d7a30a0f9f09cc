// MpiSession over OpenMPI; the only file that includes <mpi.h>.
#include "mpi_runtime.hpp"

#include "kernelrank/core/errors.hpp"

#include <mpi.h>

namespace kernelrank::cli {
namespace {

void ok(int code, const char* what) {
  if (code != MPI_SUCCESS) throw InternalError(std::string("MPI: ") + what + " failed");
}

}  // namespace

bool mpi_built() { return true; }

MpiSession::MpiSession() {
  int initialised = 0;
  ok(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised == 0) ok(MPI_Init(nullptr, nullptr), "MPI_Init");
  ok(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  ok(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
}

MpiSession::~MpiSession() { MPI_Finalize(); }

std::vector<std::uint64_t> MpiSession::sum_at_root(const std::vector<std::uint64_t>& values) const {
  std::vector<std::uint64_t> total(values.size(), 0);
  ok(MPI_Reduce(values.data(), total.data(), static_cast<int>(values.size()), MPI_UINT64_T, MPI_SUM,
                0, MPI_COMM_WORLD),
     "MPI_Reduce");
  return total;
}

std::string MpiSession::broadcast(const std::string& text) const {
  unsigned long long length = text.size();
  ok(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = root() ? text : std::string(length, '\0');
  ok(MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

std::vector<std::string> MpiSession::gather_at_root(const std::string& text) const {
  int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  ok(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += lengths[static_cast<std::size_t>(r)];
  }
  std::string all(root() ? static_cast<std::size_t>(total) : 0, '\0');
  ok(MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                 MPI_CHAR, 0, MPI_COMM_WORLD),
     "MPI_Gatherv");
  std::vector<std::string> parts;
  if (!root()) return parts;
  for (int r = 0; r < size_; ++r)
    parts.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                               static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  return parts;
}

}  // namespace kernelrank::cli
