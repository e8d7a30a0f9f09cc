// `kernelrank bound --words N`: the generated-rows path (app/bound_words_job.hpp) on all
// threads, as one shard of a job array (--shard k/K --partial OUT, then --merge), or over MPI
// (--mpi under mpirun, cli/mpi_runtime.hpp); this file renders its report.
#pragma once

#include "commands.hpp"

#include "kernelrank/app/bound_words_job.hpp"

namespace kernelrank::cli {

// `mpi`: one shard per rank of an MpiSession. Returns the exit code.
int run_bound_words_command(BoundWordsRequest request, bool mpi, const GlobalOptions& global);

}  // namespace kernelrank::cli
