// Shared pieces of the floating-point proposal searches (see proposal_descent.hpp).
#include "search/proposal_descent.hpp"

#include <cmath>

namespace kernelrank::proposal {
namespace {
constexpr double kBeta1 = 0.9;
constexpr double kBeta2 = 0.999;
}  // namespace

void AdamState::step(std::vector<double>& params, const std::vector<double>& grad, double rate,
                     int t, bool log_space) {
  const double c1 = 1.0 - std::pow(kBeta1, t), c2 = 1.0 - std::pow(kBeta2, t);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const double g = log_space ? grad[i] * params[i] : grad[i];
    first[i] = kBeta1 * first[i] + (1 - kBeta1) * g;
    second[i] = kBeta2 * second[i] + (1 - kBeta2) * g * g;
    const double move = rate * (first[i] / c1) / (std::sqrt(second[i] / c2) + 1e-12);
    if (log_space)
      params[i] = std::max(params[i] * std::exp(-move), 1e-12);
    else
      params[i] -= move;
  }
}

Pairs used_pairs(const RankTask& task, const std::vector<std::uint32_t>& rows) {
  const auto used = task.used_keys();
  Pairs pairs;
  for (std::uint32_t q : rows)
    for (std::uint32_t z : used[q]) pairs.emplace_back(q, z);
  return pairs;
}

FactoredHead::FactoredHead(std::size_t tokens, std::size_t features)
    : size(tokens),
      r(features),
      U(tokens * features, 0.0),
      V(tokens * features, 0.0),
      F(tokens * tokens, 0.0),
      A(tokens * tokens, 0.0),
      gU(U.size(), 0.0),
      gV(V.size(), 0.0),
      gF(F.size(), 0.0),
      gA(A.size(), 0.0),
      sU(U.size()),
      sV(V.size()),
      sF(F.size()) {}

void FactoredHead::compute_kernel(const Pairs& pairs) {
  for (const auto& [q, z] : pairs) {
    double s = 0;
    for (std::size_t k = 0; k < r; ++k) s += U[q * r + k] * V[z * r + k];
    A[q * size + z] = s;
  }
  std::fill(gA.begin(), gA.end(), 0.0);
  std::fill(gF.begin(), gF.end(), 0.0);
}

void FactoredHead::step(const Pairs& pairs, double rate, int t, bool positive) {
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
  sU.step(U, gU, rate, t, positive);
  sV.step(V, gV, rate, t, positive);
  sF.step(F, gF, rate, t, false);
}

void FactoredHead::normalise_rows(const std::vector<std::uint32_t>& rows, bool absolute,
                                  double floor) {
  for (std::uint32_t q : rows) {
    double s = 0;
    for (std::size_t k = 0; k < r; ++k) s += U[q * r + k] * V[q * r + k];
    if (absolute) s = std::fabs(s);
    if (s > floor)
      for (std::size_t k = 0; k < r; ++k) U[q * r + k] /= s;
  }
}

}  // namespace kernelrank::proposal
