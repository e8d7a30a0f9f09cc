// The three `kernelrank plot` kinds: their input files and the gnuplot scripts that draw them.
//
// * error-vs-r: a training report's exact error rate and exact max error against the number
//   of features r, next to the certified lower bound on r.
// * accuracy-vs-r: test accuracy against r for several scales (one report per scale).
// * bound-vs-m: the certified lower bounds of docs/bound-table.md against m, the 2^m upper
//   end, and the exact minimal ranks found by search.
//
// Reports carry exact rationals ("23/294"); they become doubles here for drawing only, never
// for a verdict. The scripts contain their data inline (gnuplot datablocks), so rendering
// needs nothing but gnuplot itself (gnuplot.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kernelrank::plot {

// ---- training reports (`kernelrank train`, format kernelrank-train-report version 1) ----

struct SplitResult {
  long long instances = 0;
  double float_error_rate = 0;
  std::string verdict;                     // "solves (verified exactly)", "fails", "float-only"
  std::optional<double> exact_error_rate;  // absent when float-only
  std::optional<double> exact_max_error;   // absent when float-only or no output is defined
};

struct ModelRecord {
  std::string name;
  std::string feature;         // "relu", "square", "softmax", ...
  std::optional<long long> r;  // may be absent for float-only (softmax) records
  long long seed = 0;
  SplitResult train;
  std::optional<SplitResult> test;

  // Softmax, or any record without an exact evaluation: drawn as a float-only baseline.
  bool float_only() const;
};

struct TrainReport {
  std::string path;
  std::vector<ModelRecord> models;
};

// Throws InputError(path, 0, ...) naming the model and field for any malformed content.
TrainReport read_train_report(const std::string& path);

// ---- bound table and exact minimal ranks -------------------------------------------------

struct BoundRow {
  int m = 0;
  long long lower = 0;  // certified r >= lower
};

// The rows of the markdown table whose header starts `| m | r >= |` (as in
// docs/bound-table.md); thousands separators are allowed in the numbers.
std::vector<BoundRow> read_bound_table(const std::string& path);

struct MinRankEntry {
  int m = 0;
  long long lower = 0;  // lower <= minimal r <= upper; equal when settled
  long long upper = 0;
};

// Lines "m lower upper"; '#' starts a comment (docs/data/min-rank.txt).
std::vector<MinRankEntry> read_min_rank(const std::string& path);

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

std::string bound_vs_m_script(const std::vector<BoundRow>& rows,
                              const std::vector<MinRankEntry>& min_ranks, const std::string& title);

}  // namespace kernelrank::plot
