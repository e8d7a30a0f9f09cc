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

}  // namespace

HeuristicSummary heuristic_rank_search(
    const RankTask& task, const HeuristicOptions& options,
    const std::function<bool(const HeuristicProposal&)>& accept) {
  HeuristicSummary summary;
  const std::size_t size = task.tokens.size();
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
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> U(size * r), V(size * r), F(size * size), A(size * size, 0.0);
    for (double& x : U) x = std::exp(2 * uniform(rng) - 1);
    for (double& x : V) x = std::exp(4 * uniform(rng) - 2);
    for (std::size_t q = 0; q < size; ++q)
      for (std::size_t z = 0; z < size; ++z)
        F[q * size + z] = inner(task.tokens[q], task.tokens[z]);
    std::vector<double> gU(U.size()), gV(V.size()), gF(F.size()), gA(A.size());
    AdamBlock sU(U.size()), sV(V.size()), sF(F.size());
    double best = 1e300;
    int used_iterations = 0;
    bool success = false;
    for (int step = 1; step <= options.iterations; ++step) {
      used_iterations = step;
      if ((step & 63) == 0 && options.should_stop && options.should_stop()) break;
      for (const auto& [q, z] : pairs) {
        double s = 0;
        for (std::size_t k = 0; k < r; ++k) s += U[q * r + k] * V[z * r + k];
        A[q * size + z] = s;
      }
      std::fill(gA.begin(), gA.end(), 0.0);
      std::fill(gF.begin(), gF.end(), 0.0);
      double max_error = 0;
      for (std::size_t i = 0; i < task.instances.size(); ++i) {
        const RankInstance& inst = task.instances[i];
        const std::size_t row = inst.query * size;
        double den = 0, num = 0;
        for (std::uint32_t z : inst.keys) {
          den += A[row + z];
          num += A[row + z] * F[row + z];
        }
        const double y = num / den, e = y - targets[i];
        max_error = std::max(max_error, std::fabs(e));
        const double excess = std::fabs(e) - (0.5 - options.margin);
        if (excess <= 0) continue;
        const double dy = 2 * excess * (e > 0 ? 1.0 : -1.0);
        for (std::uint32_t z : inst.keys) {
          gF[row + z] += dy * A[row + z] / den;
          gA[row + z] += dy * (F[row + z] - y) / den;
        }
      }
      best = std::min(best, max_error);
      if (max_error < 0.5 - options.margin / 2) {
        success = true;
        break;
      }
      std::fill(gU.begin(), gU.end(), 0.0);
      std::fill(gV.begin(), gV.end(), 0.0);
      for (const auto& [q, z] : pairs) {
        const double g = gA[q * size + z];
        if (g == 0) continue;
        for (std::size_t k = 0; k < r; ++k) {
          gU[q * r + k] += g * V[z * r + k];
          gV[z * r + k] += g * U[q * r + k];
        }
      }
      const double rate = options.learning_rate * (step < options.iterations / 2 ? 1.0 : 0.3);
      adam_step(U, gU, sU, rate, step, true);
      adam_step(V, gV, sV, rate, step, true);
      adam_step(F, gF, sF, rate, step, false);
      // Row scaling leaves outputs unchanged; keep alpha(q,q) near 1 for conditioning.
      for (std::uint32_t q : rows) {
        double s = 0;
        for (std::size_t k = 0; k < r; ++k) s += U[q * r + k] * V[q * r + k];
        if (s > 0)
          for (std::size_t k = 0; k < r; ++k) U[q * r + k] /= s;
      }
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
    proposal.query_features.assign(size, std::vector<double>(r));
    proposal.key_features.assign(size, std::vector<double>(r));
    proposal.readout.assign(size, std::vector<double>(size));
    for (std::size_t i = 0; i < size; ++i) {
      for (std::size_t k = 0; k < r; ++k) {
        proposal.query_features[i][k] = U[i * r + k];
        proposal.key_features[i][k] = V[i * r + k];
      }
      for (std::size_t j = 0; j < size; ++j) proposal.readout[i][j] = F[i * size + j];
    }
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
