// `kernelrank eval` and `kernelrank counterexample` on a multi-head model file
// (docs/model-format.md §13): exact evaluation by multi_head_eval.hpp, printed in eval's
// report format with the heads and their feature counts.
#pragma once

#include "commands.hpp"

#include "kernelrank/models/head_opener.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank::cli {

struct MultiHeadEvalRequest {
  std::string model_file;
  std::string family;  // --family, or
  std::string tokens;  // --tokens, or neither: the cube T(m, n)
  int m = 0;           // 0: the model's width
  int n = 3;
  std::string mode = "first";
  std::size_t failures = 10;
  std::uint64_t max_instances = 1ULL << 34;
  // Options given on the command line that apply only to single heads (refused by name).
  std::vector<std::string> single_head_options;
};

// `file` is the model file, read once by the caller; it is parsed after the request's options
// are checked. Prints the report (human or --json); exit 0 when the model solves the task,
// else 1.
int run_multi_head_eval(const MultiHeadEvalRequest& request, const ModelFile& file,
                        const GlobalOptions& global);

// The proof-guided search (L2) needs a single NK head: a multi-head model is searched
// exhaustively (the family, or the cube T(m, n)); the first failing instance is printed and,
// with `out`, written as a one-line family. Exit 0 when one is found, else 1.
int run_multi_head_counterexample(const MultiHeadEvalRequest& request, const ModelFile& file,
                                  const std::string& out, const GlobalOptions& global);

}  // namespace kernelrank::cli
