// The layer-set LP; see layered_lp.hpp. Variables (all >= 0 for the simplex): c_j (PF) or
// c_j = c+_j - c-_j (NK); h(u) = h+(u) - h-(u) for u = 0..m; the margin t. Each profile
// (a, b) gives two rows, +-2N - D + 2t <= 0 (doubled to keep integer coefficients).
#include "kernelrank/bounds/layered_lp.hpp"

#include "kernelrank/core/binomial.hpp"
#include "kernelrank/core/exact_lp.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace kernelrank {
namespace {

struct Profile {
  int a, b;
};

class LayerSetLp {
 public:
  LayerSetLp(int m, std::vector<int> layers, ModelClass model_class)
      : m_(m), layers_(std::move(layers)), nk_(model_class == ModelClass::NonnegativeKernel) {
    for (int u = 0; u <= m_; ++u) {
      std::vector<Integer> row;
      for (const int j : layers_)
        row.push_back(binomial(Integer(u), static_cast<std::uint64_t>(j)));
      choose_.push_back(std::move(row));
    }
    const std::size_t coefficient_vars = layers_.size() * (nk_ ? 2 : 1);
    h_first_ = coefficient_vars;
    t_index_ = h_first_ + 2 * (static_cast<std::size_t>(m_) + 1);
    variables_ = t_index_ + 1;
    std::vector<Rational> objective(variables_, Rational(0));
    objective[t_index_] = 1;
    solver_ = std::make_unique<IncrementalExactLp>(variables_, std::move(objective));
    add_normalisation();
  }

  void add_profile(const Profile& p) {
    for (const int sign : {1, -1}) {
      std::vector<Rational> row(variables_, Rational(0));
      // Kernel part of sign * 2N - D, layer by layer.
      for (std::size_t i = 0; i < layers_.size(); ++i) {
        const Integer k0 = choose_[0][i], ka = choose_[static_cast<std::size_t>(p.a)][i],
                      kb = choose_[static_cast<std::size_t>(p.b)][i];
        const Integer numerator_part = Integer(p.b) * k0 + Integer(p.b - p.a) * ka;
        set_coefficient(row, i, Rational(2 * sign * numerator_part - (k0 + ka + kb)));
      }
      for (const int u : {0, p.a, p.b}) {
        row[h_first_ + 2 * static_cast<std::size_t>(u)] += 2 * sign;
        row[h_first_ + 2 * static_cast<std::size_t>(u) + 1] -= 2 * sign;
      }
      row[t_index_] = 2;
      solver_->add_row(row, Rational(0));
    }
  }

  IncrementalExactLp& solver() { return *solver_; }

  std::vector<Rational> coefficients(const std::vector<Rational>& x) const {
    std::vector<Rational> c;
    for (std::size_t i = 0; i < layers_.size(); ++i)
      c.push_back(nk_ ? x[2 * i] - x[2 * i + 1] : x[i]);
    return c;
  }
  std::vector<Rational> h_values(const std::vector<Rational>& x) const {
    std::vector<Rational> h;
    for (int u = 0; u <= m_; ++u)
      h.push_back(x[h_first_ + 2 * static_cast<std::size_t>(u)] -
                  x[h_first_ + 2 * static_cast<std::size_t>(u) + 1]);
    return h;
  }
  std::vector<Rational> kernel(const std::vector<Rational>& c) const {
    std::vector<Rational> values;
    for (int u = 0; u <= m_; ++u) {
      Rational total = 0;
      for (std::size_t i = 0; i < layers_.size(); ++i)
        total += c[i] * Rational(choose_[static_cast<std::size_t>(u)][i]);
      values.push_back(total);
    }
    return values;
  }

 private:
  void set_coefficient(std::vector<Rational>& row, std::size_t layer, const Rational& value) const {
    if (nk_) {
      row[2 * layer] = value;
      row[2 * layer + 1] = -value;
    } else {
      row[layer] = value;
    }
  }

  void add_normalisation() {
    // PF: K(m) <= 1. NK: K(0) <= 1 and -K(u) <= 0 for u = 1..m.
    std::vector<Rational> row(variables_, Rational(0));
    const std::size_t at = nk_ ? 0 : static_cast<std::size_t>(m_);
    for (std::size_t i = 0; i < layers_.size(); ++i)
      set_coefficient(row, i, Rational(choose_[at][i]));
    solver_->add_row(row, Rational(1));
    if (!nk_) return;
    for (int u = 1; u <= m_; ++u) {
      std::vector<Rational> nonnegative(variables_, Rational(0));
      for (std::size_t i = 0; i < layers_.size(); ++i)
        set_coefficient(nonnegative, i, -Rational(choose_[static_cast<std::size_t>(u)][i]));
      solver_->add_row(nonnegative, Rational(0));
    }
  }

  int m_;
  std::vector<int> layers_;
  bool nk_;
  std::vector<std::vector<Integer>> choose_;  // C(u, layers[i])
  std::size_t h_first_ = 0, t_index_ = 0, variables_ = 0;
  std::unique_ptr<IncrementalExactLp> solver_;
};

// 2|N| + 2t - D for profile (a, b): > 0 when the profile's rows are violated.
Rational violation(const std::vector<Rational>& kernel, const std::vector<Rational>& h,
                   const Rational& t, const Profile& p) {
  const auto a = static_cast<std::size_t>(p.a), b = static_cast<std::size_t>(p.b);
  const Rational numerator = h[0] + h[a] + h[b] + p.b * kernel[0] + (p.b - p.a) * kernel[a];
  return 2 * abs_of(numerator) + 2 * t - (kernel[0] + kernel[a] + kernel[b]);
}

void check_arguments(int m, const std::vector<int>& layers, ModelClass model_class) {
  if (m < 1 || m > kMaxLayeredWidth)
    throw std::invalid_argument("layer-set LP: m = " + std::to_string(m) + " is outside 1.." +
                                std::to_string(kMaxLayeredWidth));
  if (model_class == ModelClass::Signed)
    throw std::invalid_argument("layer-set LP: the class is PF or NK");
  if (layers.empty() || layers[0] != 0)
    throw std::invalid_argument("layer-set LP: the layers start with 0");
  for (std::size_t i = 1; i < layers.size(); ++i)
    if (layers[i] <= layers[i - 1] || layers[i] > m)
      throw std::invalid_argument("layer-set LP: layers strictly increasing within 0..m");
}

}  // namespace

LayerSetAnswer solve_layer_set(int m, const std::vector<int>& layers, ModelClass model_class) {
  check_arguments(m, layers, model_class);
  LayerSetAnswer answer;
  answer.layers = layers;
  answer.model_class = model_class;

  std::vector<Profile> all;
  for (int b = 0; b <= m; ++b)
    for (int a = 0; a <= b; ++a) all.push_back({a, b});
  LayerSetLp problem(m, layers, model_class);
  std::vector<bool> used(all.size(), false);
  // A first subset: the profiles with a = 0, a = b or b = m (the extremes of the overlaps).
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].a == 0 || all[i].a == all[i].b || all[i].b == m) {
      used[i] = true;
      problem.add_profile(all[i]);
    }

  for (;;) {
    ++answer.rounds;
    const ExactLpResult result = problem.solver().solve();
    answer.pivots += result.pivots;
    if (result.unbounded)  // cannot happen: t <= D(0,0)/2 <= 3/2 by the normalisation
      throw std::logic_error("layer-set LP: unbounded margin");
    answer.margin = result.value;
    answer.rows = problem.solver().problem().rows.size();
    if (result.value <= 0) {
      // No positive margin even on a subset of the rows: the duals prove it.
      answer.refuted = dual_bounds_objective(problem.solver().problem(), result.dual, Rational(0));
      if (!answer.refuted) throw std::logic_error("layer-set LP: dual certificate rejected");
      return answer;
    }
    const std::vector<Rational> c = problem.coefficients(result.x);
    const std::vector<Rational> h = problem.h_values(result.x);
    const std::vector<Rational> kernel = problem.kernel(c);
    std::vector<std::pair<Rational, std::size_t>> violated;
    // Every profile is checked, also those already in the LP: the solver is not trusted.
    for (std::size_t i = 0; i < all.size(); ++i) {
      Rational excess = violation(kernel, h, result.value, all[i]);
      if (excess <= 0) continue;
      if (used[i])
        throw std::logic_error("layer-set LP: the solver's point violates a row it holds");
      violated.emplace_back(std::move(excess), i);
    }
    if (violated.empty()) {
      LayeredHead head;
      head.m = m;
      head.model_class = model_class;
      head.layers = layers;
      head.coefficients = c;
      std::vector<Rational> g;
      for (int u = 0; u <= m; ++u) {
        const auto index = static_cast<std::size_t>(u);
        // K(u) = 0 only in NK; then the term K(u) F(u) vanishes and g(u) is free, but h(u)
        // must vanish too for the LP's point to be a head.
        if (kernel[index] == 0) {
          if (h[index] != 0) return answer;  // not realisable: reported as not found
          g.emplace_back(0);
        } else {
          g.push_back(h[index] / kernel[index]);
        }
      }
      for (int w = 0; w <= m; ++w) head.correction.emplace_back(g.begin(), g.begin() + w + 1);
      answer.head = std::move(head);
      return answer;
    }
    std::sort(violated.begin(), violated.end(), [](const auto& x, const auto& y) {
      return x.first > y.first || (x.first == y.first && x.second < y.second);
    });
    const std::size_t take = std::min(violated.size(), static_cast<std::size_t>(m) + 1);
    for (std::size_t k = 0; k < take; ++k) {
      used[violated[k].second] = true;
      problem.add_profile(all[violated[k].second]);
    }
  }
}

}  // namespace kernelrank
