// The inputs of `kernelrank plot`: training reports, the certified bound table and the exact
// minimal ranks, read into plain structs that the script writers (plots.hpp) draw from.
//
// * A training report is the JSON that `kernelrank train` writes (format
//   kernelrank-train-report, version 1); every model entry is checked field by field.
// * The bound table is the first markdown table of docs/bound-table.md whose header starts
//   `| m | r >= |`.
// * The minimal ranks are lines "m lower upper" as in docs/data/min-rank.txt.
//
// Reports carry exact rationals ("23/294"); they become doubles here for drawing only, never
// for a verdict. Malformed content is refused with an InputError naming the file, the line
// (0 for JSON) and, for reports, the model and field.
#pragma once

#include "kernelrank/models/feature_map.hpp"

#include <optional>
#include <string>
#include <vector>

namespace kernelrank::plot {

// ---- training reports (`kernelrank train`, format kernelrank-train-report version 1) ----

struct SplitResult {
  long long instances = 0;
  double float_error_rate = 0;
  // "solves (verified exactly)", "fails", "float-only"; for softmax heads the ball-arithmetic
  // verdicts "solves (decided rigorously)" and "undecided at P bits" too.
  std::string verdict;
  std::optional<double> exact_error_rate;  // absent when float-only
  std::optional<double> exact_max_error;   // absent when float-only or no output is defined
};

struct ModelRecord {
  std::string name;
  FeatureMap feature = FeatureMap::Relu;
  std::optional<long long> r;  // may be absent for baseline (softmax) records
  long long seed = 0;
  SplitResult train;
  std::optional<SplitResult> test;

  // Softmax, or any record without an exact evaluation: drawn as a horizontal baseline (at its
  // decided error rate when it has one, else at its float error rate, labelled float only).
  bool baseline() const;
};

struct TrainReport {
  std::string path;
  std::vector<ModelRecord> models;
};

// Throws InputError(path, 0, ...) naming the model and field for any malformed content.
TrainReport read_train_report(const std::string& path);

// The report with only the models of the feature map named `feature` (as given on the command
// line), and the baselines (softmax); throws InputError when no model has that feature map.
TrainReport only_feature(const TrainReport& report, const std::string& feature);

// ---- bound table and exact minimal ranks -------------------------------------------------

struct BoundRow {
  int m = 0;
  long long lower = 0;  // certified r >= lower
};

// The rows of the markdown table whose header starts `| m | r >= |` (as in
// docs/bound-table.md); thousands separators are allowed in the numbers.
std::vector<BoundRow> read_bound_table(const std::string& path);

// The PF heads of the table "Both sides" in the same file (header `| m | r >= (checked) |
// PF head: r <= |`, docs/bound-table.md), as rows m, r (in `lower`); empty when there is none.
std::vector<BoundRow> read_upper_heads(const std::string& path);

struct MinRankEntry {
  int m = 0;
  long long lower = 0;  // lower <= minimal r <= upper; equal when settled
  long long upper = 0;
};

// Lines "m lower upper"; '#' starts a comment (docs/data/min-rank.txt).
std::vector<MinRankEntry> read_min_rank(const std::string& path);

// ---- transition ranks (scripts/experiments/ood-scaling.sh) --------------------------------

struct TransitionEntry {
  int m = 0;
  FeatureMap feature = FeatureMap::Relu;
  std::optional<long long> r_star;  // nullopt: not reached up to largest_r
  long long largest_r = 0;          // the largest r of the grid
  long long bound = 0;              // certified lower bound for the pools of this m
};

// Lines "m feature r_star largest_r bound", r_star an integer or '-' (not reached); '#'
// starts a comment. At most one line per (m, feature), and one bound per m.
std::vector<TransitionEntry> read_transitions(const std::string& path);

}  // namespace kernelrank::plot
