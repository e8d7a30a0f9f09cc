// Floating-point proposal search (see heuristic_rank_search.hpp). Double
// precision is allowed here only because every proposal is completed and
// re-verified exactly before anything is reported.
#include "kernelrank/search/heuristic_rank_search.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace kernelrank {
namespace {

// Adam state for one parameter block.
struct AdamBlock {
  std::vector<double> first, second;
  explicit AdamBlock(std::size_t size) : first(size, 0.0), second(size, 0.0) {}
};

constexpr double kBeta1 = 0.9;
constexpr double kBeta2 = 0.999;

// One Adam step. In log space the parameter is updated multiplicatively with the
// gradient taken with respect to its logarithm, which keeps it > 0.
void adam_step(std::vector<double>& params, const std::vector<double>& grad, AdamBlock& state,
               double rate, int step, bool log_space) {
  const double c1 = 1.0 - std::pow(kBeta1, step), c2 = 1.0 - std::pow(kBeta2, step);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const double g = log_space ? grad[i] * params[i] : grad[i];
    state.first[i] = kBeta1 * state.first[i] + (1 - kBeta1) * g;
    state.second[i] = kBeta2 * state.second[i] + (1 - kBeta2) * g * g;
    const double move = rate * (state.first[i] / c1) / (std::sqrt(state.second[i] / c2) + 1e-12);
    if (log_space)
      params[i] = std::max(params[i] * std::exp(-move), 1e-12);
    else
      params[i] -= move;
  }
}

// One restart: the tables U, V (positive, log-space Adam) and F, with their gradients.
class Restart {
 public:
  Restart(const RankTask& task, std::size_t r,
          const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs,
          const std::vector<double>& targets, std::uint64_t seed)
      : task_(task),
        size_(task.tokens.size()),
        r_(r),
        pairs_(pairs),
        targets_(targets),
        U(size_ * r),
        V(size_ * r),
        F(size_ * size_),
        A(size_ * size_, 0.0),
        gU(U.size()),
        gV(V.size()),
        gF(F.size()),
        gA(A.size()),
        sU(U.size()),
        sV(V.size()),
        sF(F.size()) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (double& x : U) x = std::exp(2 * uniform(rng) - 1);
    for (double& x : V) x = std::exp(4 * uniform(rng) - 2);
    for (std::size_t q = 0; q < size_; ++q)
      for (std::size_t z = 0; z < size_; ++z)
        F[q * size_ + z] = inner(task.tokens[q], task.tokens[z]);
  }

  // Forward pass and the hinge loss's gradients in F and A; returns the max error.
  double forward(double margin) {
    for (const auto& [q, z] : pairs_) {
      double s = 0;
      for (std::size_t k = 0; k < r_; ++k) s += U[q * r_ + k] * V[z * r_ + k];
      A[q * size_ + z] = s;
    }
    std::fill(gA.begin(), gA.end(), 0.0);
    std::fill(gF.begin(), gF.end(), 0.0);
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
        gF[row + z] += dy * A[row + z] / den;
        gA[row + z] += dy * (F[row + z] - y) / den;
      }
    }
    return max_error;
  }

  // Back-propagates A's gradient to U and V, takes one Adam step, rescales the rows.
  void descend(const std::vector<std::uint32_t>& rows, double rate, int step) {
    std::fill(gU.begin(), gU.end(), 0.0);
    std::fill(gV.begin(), gV.end(), 0.0);
    for (const auto& [q, z] : pairs_) {
      const double g = gA[q * size_ + z];
      if (g == 0) continue;
      for (std::size_t k = 0; k < r_; ++k) {
        gU[q * r_ + k] += g * V[z * r_ + k];
        gV[z * r_ + k] += g * U[q * r_ + k];
      }
    }
    adam_step(U, gU, sU, rate, step, true);
    adam_step(V, gV, sV, rate, step, true);
    adam_step(F, gF, sF, rate, step, false);
    // Row scaling leaves outputs unchanged; keep alpha(q,q) near 1 for conditioning.
    for (std::uint32_t q : rows) {
      double s = 0;
      for (std::size_t k = 0; k < r_; ++k) s += U[q * r_ + k] * V[q * r_ + k];
      if (s > 0)
        for (std::size_t k = 0; k < r_; ++k) U[q * r_ + k] /= s;
    }
  }

  void fill(HeuristicProposal& proposal) const {
    proposal.query_features.assign(size_, std::vector<double>(r_));
    proposal.key_features.assign(size_, std::vector<double>(r_));
    proposal.readout.assign(size_, std::vector<double>(size_));
    for (std::size_t i = 0; i < size_; ++i) {
      for (std::size_t k = 0; k < r_; ++k) {
        proposal.query_features[i][k] = U[i * r_ + k];
        proposal.key_features[i][k] = V[i * r_ + k];
      }
      for (std::size_t j = 0; j < size_; ++j) proposal.readout[i][j] = F[i * size_ + j];
    }
  }

 private:
  const RankTask& task_;
  std::size_t size_, r_;
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs_;
  const std::vector<double>& targets_;
  std::vector<double> U, V, F, A, gU, gV, gF, gA;
  AdamBlock sU, sV, sF;
};

}  // namespace

HeuristicSummary heuristic_rank_search(
    const RankTask& task, const HeuristicOptions& options,
    const std::function<bool(const HeuristicProposal&)>& accept) {
  HeuristicSummary summary;
  const auto r = static_cast<std::size_t>(options.r);
  const std::vector<std::uint32_t> rows = task.rows();
  const auto used = task.used_keys();
  // Each row's kernel entries are only needed on its used keys.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t q : rows)
    for (std::uint32_t z : used[q]) pairs.emplace_back(q, z);
  std::vector<double> targets(task.instances.size());
  for (std::size_t i = 0; i < task.instances.size(); ++i) targets[i] = task.instances[i].target;

  for (int restart = 0; restart < options.restarts; ++restart) {
    if (options.should_stop && options.should_stop()) break;
    const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(restart);
    Restart run(task, r, pairs, targets, seed);
    double best = 1e300;
    int used_iterations = 0;
    bool success = false;
    for (int step = 1; step <= options.iterations; ++step) {
      used_iterations = step;
      if ((step & 63) == 0 && options.should_stop && options.should_stop()) break;
      const double max_error = run.forward(options.margin);
      best = std::min(best, max_error);
      if (max_error < 0.5 - options.margin / 2) {
        success = true;
        break;
      }
      const double rate = options.learning_rate * (step < options.iterations / 2 ? 1.0 : 0.3);
      run.descend(rows, rate, step);
    }
    ++summary.restarts_run;
    if (std::isfinite(best) && (!summary.best_max_error || best < *summary.best_max_error))
      summary.best_max_error = best;
    if (!success) continue;
    HeuristicProposal proposal;
    proposal.seed = seed;
    proposal.iterations = used_iterations;
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
