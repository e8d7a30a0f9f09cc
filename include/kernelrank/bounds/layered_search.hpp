// The search for the cheapest layer set (docs/upper-bounds.md): minimise r = sum_{j in J}
// C(m, j) over sets J containing 0 for which the exact layer-set LP (layered_lp.hpp) finds a
// head.
//
// Feasibility is monotone: a subset of an infeasible set is infeasible (its heads are heads of
// the larger set with c_j = 0). The search is a branch and bound on the most expensive layer
// of J: with the layers sorted by cost, the sets whose most expensive layer is L are
// {0, L} and subsets of the cheaper layers, and one LP on the largest of them decides whether
// any of them can work. Branches whose cheapest member already costs as much as the best head
// found are cut. When it runs to the end, every cheaper set has been refuted (directly or
// through an infeasible superset) and the head is the optimum among layered heads; when the
// LP budget runs out first, it is the best found.
#pragma once

#include "kernelrank/bounds/layered_lp.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace kernelrank {

struct LayeredSearchOptions {
  int m = 0;
  ModelClass model_class = ModelClass::PositiveFeatures;
  // LPs the search may solve; deterministic (no clock), so the answer is too.
  std::size_t lp_budget = 2000;
  // Called after each LP with a one-line summary (for progress on a terminal).
  std::function<void(const std::string&)> progress;
};

struct LayeredSearchResult {
  std::optional<LayerSetAnswer> best;  // the cheapest feasible set found, with its head
  bool optimal = false;                // every cheaper layer set was refuted
  std::size_t lps = 0;                 // LPs solved
  std::size_t refuted = 0;             // of them, sets refuted
};

// The largest width the search accepts (the LP has about m^2 / 2 profile rows).
constexpr int kMaxLayeredSearchWidth = 128;

// Throws std::invalid_argument for m outside 1..kMaxLayeredSearchWidth or a class other than
// PF and NK.
LayeredSearchResult search_layer_sets(const LayeredSearchOptions& options);

}  // namespace kernelrank
