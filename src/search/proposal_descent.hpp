// The pieces the two floating-point proposal searches share (heuristic_rank_search.cpp for
// one PF head, multi_head_search.cpp for signed or several heads): Adam, the gradient of a
// factored kernel A = U V^T, the row rescaling, and the descent loop of one restart.
// Internal; double precision here only proposes, every proposal is re-verified exactly.
#pragma once

#include "kernelrank/bounds/rank_task.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace kernelrank::proposal {

using Pairs = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Adam state for one parameter block.
struct AdamState {
  std::vector<double> first, second;
  explicit AdamState(std::size_t size) : first(size, 0.0), second(size, 0.0) {}
  // One step at time t >= 1. In log space a parameter moves multiplicatively with the
  // gradient taken with respect to its logarithm, which keeps it > 0.
  void step(std::vector<double>& params, const std::vector<double>& grad, double rate, int t,
            bool log_space);
};

// A rank-r factored kernel over `size` tokens: A = U V^T on the used (query, key) pairs,
// with the readout table F and the gradients and Adam state of all three.
struct FactoredHead {
  std::size_t size = 0, r = 0;
  std::vector<double> U, V, F, A, gU, gV, gF, gA;
  AdamState sU, sV, sF;
  FactoredHead(std::size_t tokens, std::size_t features);

  // A(q, z) = <U_q, V_z> on the pairs; clears gA and gF for the next forward pass.
  void compute_kernel(const Pairs& pairs);
  // Back-propagates gA to U and V, then one Adam step on U, V (in log space when
  // `positive`) and F.
  void step(const Pairs& pairs, double rate, int t, bool positive);
  // Divides U_q by s = <U_q, V_q> (by |s| when `absolute`) where s > floor: rescaling a
  // query row changes no output, and alpha(q, q) near 1 keeps the descent conditioned.
  void normalise_rows(const std::vector<std::uint32_t>& rows, bool absolute, double floor);
};

// The (query, used key) pairs of the task's rows: the kernel entries the searches need.
Pairs used_pairs(const RankTask& task, const std::vector<std::uint32_t>& rows);

struct DescentOutcome {
  double best = 1e300;  // the smallest max error seen
  int iterations = 0;
  bool success = false;  // max error < 1/2 - margin/2 was reached
};

// One restart: forward passes and descent steps until the max error drops below
// 1/2 - margin/2, the iterations run out, or should_stop (polled every 64 steps) says so.
// The rate drops to 0.3x for the second half of the iterations.
template <class Run, class Options>
DescentOutcome descend_until_solved(Run& run, const std::vector<std::uint32_t>& rows,
                                    const Options& options) {
  DescentOutcome out;
  for (int step = 1; step <= options.iterations; ++step) {
    out.iterations = step;
    if ((step & 63) == 0 && options.should_stop && options.should_stop()) break;
    const double max_error = run.forward(options.margin);
    out.best = std::min(out.best, max_error);
    if (max_error < 0.5 - options.margin / 2) {
      out.success = true;
      break;
    }
    run.descend(rows, options.learning_rate * (step < options.iterations / 2 ? 1.0 : 0.3), step);
  }
  return out;
}

}  // namespace kernelrank::proposal
