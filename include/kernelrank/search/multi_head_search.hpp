// Search for models of the classes the paper leaves open (theory.md §6,
// docs/open-questions.md): a single head whose kernel may take either sign, and
// H >= 2 normalized heads whose outputs are added.
//
// A candidate is H tabular heads over the task's tokens, head h with r_h features
// (alpha_h = U_h V_h^T) and its own readout table F_h; y = sum_h y_h. Positive heads
// keep U_h, V_h >= 0 (PF, hence NK); signed heads do not. Floating point only proposes:
// a proposal is rounded to rationals and re-verified on every ordered instance by the
// exact evaluators (the single-head engine for H = 1, the multi-head one otherwise),
// with the exact rank of every kernel table and, for NK heads, the sign of every kernel
// entry checked.
#pragma once

#include "kernelrank/bounds/rank_task.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/search/rank_model.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct HeadShape {
  int r = 1;
  bool signed_features = false;  // false: U, V >= 0 (PF, so NK)
};
// "3" / "2+1" (positive) or "signed 2".
std::string shape_text(const std::vector<HeadShape>& shapes);

struct MultiHeadProposalOptions {
  std::uint64_t seed = 1;  // restart i uses seed + i
  int restarts = 4;
  int iterations = 20'000;  // per restart
  double margin = 0.02;     // the loss asks for |error| <= 1/2 - margin
  double learning_rate = 0.02;
  std::int64_t max_denominator = 1'000'000;  // of the rounded tables
  std::function<bool()> should_stop;         // polled every 64 iterations
};

// One candidate head: U, V (|T| x r) and F (|T| x |T|) over the task's tokens.
using CandidateHeads = std::vector<RankModel>;

struct MultiHeadCheck {
  bool solves = false;
  EvalReport report;                     // exact, on every ordered instance of the task
  std::vector<std::size_t> kernel_rank;  // exact rank of each head's kernel table
  bool rank_ok = false;                  // kernel_rank[h] <= r_h for every head
  bool class_ok = false;                 // NK heads: every kernel entry >= 0
  bool passes() const { return solves && rank_ok && class_ok; }
};

// Exact re-verification of candidate heads on the task (cube: brute force over all
// 2^(nm) ordered instances; family: the original family).
MultiHeadCheck verify_multi_head(const RankTask& task, const CandidateHeads& heads,
                                 const std::vector<HeadShape>& shapes);

struct MultiHeadSearchResult {
  std::optional<CandidateHeads> model;  // verified
  std::optional<MultiHeadCheck> check;
  int restarts_run = 0;
  std::optional<double> best_float_error;  // the proposal search's best max error (double)
  int proposals_rejected = 0;              // below 1/2 in double, not exactly
  double seconds = 0;
};

// Restarts of the proposal search until a rounded proposal passes verify_multi_head
// or the budget (restarts, should_stop) ends.
MultiHeadSearchResult search_multi_head(const RankTask& task, const std::vector<HeadShape>& shapes,
                                        const MultiHeadProposalOptions& options);

}  // namespace kernelrank
