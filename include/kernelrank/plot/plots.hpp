// The four `kernelrank plot` kinds: their input files and the gnuplot scripts that draw them.
// This is the interface src/cli/cmd_plot.cpp uses; the inputs are read by report_data.hpp
// (included here), each kind's script is written by its own file (error_vs_r.cpp,
// accuracy_vs_r.cpp, bound_vs_m.cpp) from the shared helpers in plot_script.hpp.
//
// * error-vs-r: a training report's exact error rate and exact max error against the number
//   of features r, next to the certified lower bound on r.
// * accuracy-vs-r: test accuracy against r for several scales (one report per scale).
// * bound-vs-m: the certified lower bounds of docs/bound-table.md against m, the 2^m upper
//   end, and the exact minimal ranks found by search.
// * transition-vs-m: the OOD experiment's transition rank r*(m) per feature map against m,
//   beside the certified lower bound for the same pools and 2^m.
//
// Reports carry exact rationals ("23/294"); they become doubles for drawing only, never for
// a verdict. The scripts contain their data inline (gnuplot datablocks), so rendering
// needs nothing but gnuplot itself (gnuplot.hpp).
#pragma once

#include "kernelrank/plot/report_data.hpp"  // the input structs and their readers

#include <optional>
#include <string>
#include <vector>

namespace kernelrank::plot {

// ---- scripts -------------------------------------------------------------------------------

struct ErrorVsROptions {
  std::string split = "train";  // "train" or "test"
  std::optional<long long> bound;
  std::string title;  // empty: a default naming the report and split
};

std::string error_vs_r_script(const TrainReport& report, const ErrorVsROptions& options);

struct Scale {
  TrainReport report;
  std::string label;
  std::optional<long long> bound;
};

std::string accuracy_vs_r_script(const std::vector<Scale>& scales, const std::string& title);

// `heads`: verified upper heads (m, r), drawn as a curve when not empty.
std::string bound_vs_m_script(const std::vector<BoundRow>& rows,
                              const std::vector<MinRankEntry>& min_ranks, const std::string& title,
                              const std::vector<BoundRow>& heads = {});

std::string transition_vs_m_script(const std::vector<TransitionEntry>& entries,
                                   const std::string& title);

}  // namespace kernelrank::plot
