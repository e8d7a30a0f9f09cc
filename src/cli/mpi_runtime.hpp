// The few collective operations the sharded loops need (app/bound_words_job.hpp's
// ShardCollective, whose root() is rank 0), so that only mpi_runtime.cpp includes <mpi.h>.
// Without MPI (KERNELRANK_WITH_MPI off) the stub's constructor refuses with a clear message.
#pragma once

#include "kernelrank/app/bound_words_job.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank::cli {

bool mpi_built();

class MpiSession : public ShardCollective {
 public:
  MpiSession();            // MPI_Init (UsageError when built without MPI)
  ~MpiSession() override;  // MPI_Finalize
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  // Element-wise sum of every rank's vector (same length on all ranks), at the root.
  std::vector<std::uint64_t> sum_at_root(const std::vector<std::uint64_t>& values) const override;
  // The root's string on every rank.
  std::string broadcast(const std::string& text) const override;
  // Every rank's string at the root, in rank order (empty elsewhere).
  std::vector<std::string> gather_at_root(const std::string& text) const override;

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace kernelrank::cli
