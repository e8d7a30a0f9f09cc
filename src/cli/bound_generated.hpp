// `kernelrank bound --words N`: certified bounds from generated rows (generated_bound.hpp),
// on all threads, one shard of a job array (--shard k/K --partial OUT, then --merge), or
// over MPI (--mpi under mpirun). Every way gives the same report and certificate bytes.
#pragma once

#include "commands.hpp"

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/generated_bound.hpp"

#include <string>
#include <vector>

namespace kernelrank::cli {

struct GeneratedArgs {
  CertificateTask task;
  GeneratedRows rows;
  int threads = 0;
  std::string shard;               // "k/K" with --partial
  std::string partial;             // where a shard's counts go
  std::vector<std::string> merge;  // partial files to merge
  bool mpi = false;
  std::string cert;
  long long r = -1;  // with --r: say whether r features are ruled out
};

int run_generated(const GeneratedArgs& args, const GlobalOptions& global);
int run_generated_merge(const GeneratedArgs& args, const GlobalOptions& global);

}  // namespace kernelrank::cli
