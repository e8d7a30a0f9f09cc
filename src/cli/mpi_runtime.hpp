// The few collective operations the sharded loops need, behind one small interface so
// that only mpi_runtime.cpp includes <mpi.h>. Without MPI (KERNELRANK_WITH_MPI off) the
// stub's constructor refuses with a clear message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank::cli {

bool mpi_built();

class MpiSession {
 public:
  MpiSession();   // MPI_Init (UsageError when built without MPI)
  ~MpiSession();  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool root() const { return rank_ == 0; }

  // Element-wise sum of every rank's vector (same length on all ranks), at the root.
  std::vector<std::uint64_t> sum_at_root(const std::vector<std::uint64_t>& values) const;
  // The root's string on every rank.
  std::string broadcast(const std::string& text) const;
  // Every rank's string at the root, in rank order (empty elsewhere).
  std::vector<std::string> gather_at_root(const std::string& text) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace kernelrank::cli
