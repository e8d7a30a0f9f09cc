// Minimal total feature counts for the classes the paper leaves open (issue 15,
// docs/open-questions.md): a signed single head, and H normalized NK heads whose outputs
// are added, on the cube task T(m,3).
//
// Each row (class, m) is a sandwich lower <= r <= upper:
//   * lower: the structural bound. A head without features has a zero kernel, so every
//     denominator is 0: r >= H (r >= 1 for one head). No other lower bound argument of
//     kernelrank applies to these classes (L2 needs a nonnegative kernel, and the rank
//     bounds bound one kernel, not a sum of heads), so no cell above it is refuted;
//   * upper: the smallest total for which a model was found and verified exactly, trying
//     totals from the lower bound up, each split r_1 >= ... >= r_H >= 1 in turn, with the
//     proposal search of multi_head_search.hpp; or, failing that, the given NK single-head
//     model padded with H - 1 one-feature heads whose readout is 0 (a signed single head
//     needs no padding: NK models are signed models).
// For a signed single head, a total the proposal search did not reach goes to Z3 (the
// `search` pipeline with the signed encodings of docs/search.md): a sat model is completed
// and re-verified exactly; unsat is "refuted (corroborated)" only when E1 and E2 agree, and
// otherwise "refuted (Z3 only)". Multi-head totals have no Z3 encoding.
// A total refuted at m - 1 (in the same run) is refuted at m: restricting a model of T(m,3)
// to the tokens whose last coordinate is 0 gives a model of T(m-1,3) with the same features.
// A total whose search ended without a model or refutation is unknown after its time.
#pragma once

#include "kernelrank/models/model.hpp"
#include "kernelrank/search/multi_head_search.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct OpenClass {
  int heads = 1;
  bool signed_kernel = false;
};
std::string to_string(const OpenClass& open_class);  // "signed, 1 head" / "NK, 2 heads"

enum class OpenCellStatus { Found, RefutedStructural, RefutedZ3, RefutedInherited, Unknown };
std::string to_string(OpenCellStatus status);

struct OpenCell {
  int total = 0;
  OpenCellStatus status = OpenCellStatus::Unknown;
  std::string how;    // split found, or what was tried
  std::string label;  // RefutedZ3: the search's label, "refuted (corroborated: ...)" etc.;
                      // RefutedInherited: "inherited from m = 4: <that label>"
  double seconds = 0;
};

struct OpenRow {
  OpenClass open_class;
  int m = 0;
  int lower = 0;
  std::optional<int> upper;
  std::string upper_how;                // "search: 2+1" or "padded NK r = 3 + 1"
  std::optional<CandidateHeads> model;  // the verified model behind `upper`
  std::vector<HeadShape> model_shapes;
  std::vector<OpenCell> cells;
  double seconds = 0;
};

struct OpenMinRankOptions {
  std::vector<int> widths{1, 2, 3, 4};
  OpenClass open_class;
  double seconds_per_total = 60;  // the proposal search's budget for one total
  double z3_seconds = 0;          // signed single head: Z3's budget for one total (0: none)
  std::size_t z3_memory_mb = 8192;
  int max_total = 0;  // largest total searched (0: every total below the upper bound)
  MultiHeadProposalOptions proposal;
  // NK single-head models that solve T(m,3) (defined on the whole cube), by m, for the
  // padded upper bound; may be empty. A model that fails verification is not used.
  std::map<int, std::shared_ptr<const Model>> nk_models;
  std::function<void(const std::string&)> log;
};

std::vector<OpenRow> compute_open_min_rank(const OpenMinRankOptions& options);

// The verified model of a row as a model file: kind=features for one head, otherwise the
// multi-head text form with one kind=features section per head (docs/model-format.md).
std::string open_model_text(const OpenRow& row, const std::string& comment);
// Its file name: "signed-m4-r2.features", "nk2-m5-2+1.multihead".
std::string open_model_file_name(const OpenRow& row);

// The splits of `total` features over `heads` heads, r_1 >= ... >= r_H >= 1, largest first.
std::vector<std::vector<int>> feature_splits(int total, int heads);

}  // namespace kernelrank
