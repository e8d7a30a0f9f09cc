// Floating-point proposal search (see heuristic_rank_search.hpp). Double
// precision is allowed here only because every proposal is completed and
// re-verified exactly before anything is reported.
#include "kernelrank/search/heuristic_rank_search.hpp"

#include "search/proposal_descent.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace kernelrank {
namespace {

// One restart: a positive factored head (log-space Adam on U, V) and the readout F.
class Restart {
 public:
  Restart(const RankTask& task, std::size_t r, const proposal::Pairs& pairs,
          const std::vector<double>& targets, std::uint64_t seed)
      : task_(task), size_(task.tokens.size()), pairs_(pairs), targets_(targets), head_(size_, r) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (double& x : head_.U) x = std::exp(2 * uniform(rng) - 1);
    for (double& x : head_.V) x = std::exp(4 * uniform(rng) - 2);
    for (std::size_t q = 0; q < size_; ++q)
      for (std::size_t z = 0; z < size_; ++z)
        head_.F[q * size_ + z] = inner(task.tokens[q], task.tokens[z]);
  }

  // Forward pass and the hinge loss's gradients in F and A; returns the max error.
  double forward(double margin) {
    head_.compute_kernel(pairs_);
    const std::vector<double>& A = head_.A;
    const std::vector<double>& F = head_.F;
    double max_error = 0;
    for (std::size_t i = 0; i < task_.instances.size(); ++i) {
      const RankInstance& inst = task_.instances[i];
      const std::size_t row = inst.query * size_;
      double den = 0, num = 0;
      for (std::uint32_t z : inst.keys) {
        den += A[row + z];
        num += A[row + z] * F[row + z];
      }
      const double y = num / den, e = y - targets_[i];
      max_error = std::max(max_error, std::fabs(e));
      const double excess = std::fabs(e) - (0.5 - margin);
      if (excess <= 0) continue;
      const double dy = 2 * excess * (e > 0 ? 1.0 : -1.0);
      for (std::uint32_t z : inst.keys) {
        head_.gF[row + z] += dy * A[row + z] / den;
        head_.gA[row + z] += dy * (F[row + z] - y) / den;
      }
    }
    return max_error;
  }

  // Back-propagates A's gradient to U and V, takes one Adam step, rescales the rows.
  void descend(const std::vector<std::uint32_t>& rows, double rate, int step) {
    head_.step(pairs_, rate, step, true);
    head_.normalise_rows(rows, false, 0.0);
  }

  void fill(HeuristicProposal& proposal) const {
    const std::size_t r = head_.r;
    proposal.query_features.assign(size_, std::vector<double>(r));
    proposal.key_features.assign(size_, std::vector<double>(r));
    proposal.readout.assign(size_, std::vector<double>(size_));
    for (std::size_t i = 0; i < size_; ++i) {
      for (std::size_t k = 0; k < r; ++k) {
        proposal.query_features[i][k] = head_.U[i * r + k];
        proposal.key_features[i][k] = head_.V[i * r + k];
      }
      for (std::size_t j = 0; j < size_; ++j) proposal.readout[i][j] = head_.F[i * size_ + j];
    }
  }

 private:
  const RankTask& task_;
  std::size_t size_;
  const proposal::Pairs& pairs_;
  const std::vector<double>& targets_;
  proposal::FactoredHead head_;
};

}  // namespace

HeuristicSummary heuristic_rank_search(
    const RankTask& task, const HeuristicOptions& options,
    const std::function<bool(const HeuristicProposal&)>& accept) {
  HeuristicSummary summary;
  const auto r = static_cast<std::size_t>(options.r);
  const std::vector<std::uint32_t> rows = task.rows();
  // Each row's kernel entries are only needed on its used keys.
  const proposal::Pairs pairs = proposal::used_pairs(task, rows);
  std::vector<double> targets(task.instances.size());
  for (std::size_t i = 0; i < task.instances.size(); ++i) targets[i] = task.instances[i].target;

  for (int restart = 0; restart < options.restarts; ++restart) {
    if (options.should_stop && options.should_stop()) break;
    const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(restart);
    Restart run(task, r, pairs, targets, seed);
    const proposal::DescentOutcome outcome = proposal::descend_until_solved(run, rows, options);
    const double best = outcome.best;
    ++summary.restarts_run;
    if (std::isfinite(best) && (!summary.best_max_error || best < *summary.best_max_error))
      summary.best_max_error = best;
    if (!outcome.success) continue;
    HeuristicProposal proposal;
    proposal.seed = seed;
    proposal.iterations = outcome.iterations;
    proposal.max_error = best;
    proposal.below_half = true;
    run.fill(proposal);
    if (accept(proposal)) {
      summary.accepted = true;
      break;
    }
  }
  return summary;
}

}  // namespace kernelrank

namespace kernelrank {

Rational rational_near(double value, std::int64_t max_den) {
  if (!std::isfinite(value)) return Rational(0);
  const bool negative = value < 0;
  double x = std::fabs(value);
  // Convergents h/k of the continued fraction of x.
  Integer h_prev = 1, h = static_cast<long long>(std::floor(x));
  Integer k_prev = 0, k = 1;
  double frac = x - std::floor(x);
  for (int step = 0; step < 40 && frac > 1e-15; ++step) {
    const double inv = 1.0 / frac;
    const auto a = static_cast<long long>(std::floor(inv));
    frac = inv - std::floor(inv);
    const Integer h_next = a * h + h_prev, k_next = a * k + k_prev;
    if (k_next > max_den) break;
    h_prev = h;
    h = h_next;
    k_prev = k;
    k = k_next;
  }
  Rational result = make_rational(h, k);
  return negative ? Rational(-result) : result;
}

}  // namespace kernelrank
