// Floating-point proposal search for rank-r positive-feature models.
//
// Gradient descent (Adam) on a hinge loss over the row instances, with the
// feature tables updated multiplicatively (so they stay > 0: a PF model, which
// is also NK) and the readout table additively. Only a proposal: the key
// features V it returns are rounded to rationals and handed to the exact
// completion (one linear problem per query row, solved exactly), and every
// model is re-verified by the exact evaluator. Nothing here decides a verdict.
#pragma once

#include "kernelrank/bounds/rank_task.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace kernelrank {

struct HeuristicOptions {
  int r = 1;
  std::uint64_t seed = 1;  // restart i uses seed + i
  int restarts = 4;
  int iterations = 20'000;  // per restart
  double margin = 0.02;     // the loss asks for |error| <= 1/2 - margin
  double learning_rate = 0.02;
  // Polled every 64 iterations; returning true stops the search.
  std::function<bool()> should_stop;
};

struct HeuristicProposal {
  std::uint64_t seed = 0;
  int iterations = 0;
  double max_error = 0;  // in double precision, over all row instances
  bool below_half = false;
  std::vector<std::vector<double>> query_features;  // U, |T| x r (rows normalised)
  std::vector<std::vector<double>> key_features;    // V, |T| x r
  std::vector<std::vector<double>> readout;         // F, |T| x |T|
};

struct HeuristicSummary {
  int restarts_run = 0;
  std::optional<double> best_max_error;  // none: no restart ran or none gave a finite error
  bool accepted = false;
};

// Runs restarts until `accept` returns true for a proposal (it is called for
// every restart that reaches max error < 1/2 - margin/2) or the budget ends.
HeuristicSummary heuristic_rank_search(const RankTask& task, const HeuristicOptions& options,
                                       const std::function<bool(const HeuristicProposal&)>& accept);

// Rational approximation of a double with denominator <= max_den (continued
// fractions); for turning proposals into exact candidates.
Rational rational_near(double value, std::int64_t max_den);

}  // namespace kernelrank
