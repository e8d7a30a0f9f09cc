// Branch and bound over layer sets; see layered_search.hpp.
#include "kernelrank/bounds/layered_search.hpp"

#include "kernelrank/core/binomial.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace kernelrank {
namespace {

class LayerSetSearch {
 public:
  explicit LayerSetSearch(const LayeredSearchOptions& options) : options_(options) {
    for (int j = 0; j <= options.m; ++j)
      cost_.push_back(binomial(Integer(options.m), static_cast<std::uint64_t>(j)));
    for (int j = 1; j <= options.m; ++j) order_.push_back(j);
    // Cheapest first; equal costs (C(m, j) = C(m, m - j)) in increasing j.
    std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
      return cost_[static_cast<std::size_t>(a)] < cost_[static_cast<std::size_t>(b)];
    });
  }

  LayeredSearchResult run() {
    branch({0}, cost_[0], order_.size());
    result_.optimal = result_.best.has_value() && !out_of_budget_ && !unproven_;
    return std::move(result_);
  }

 private:
  // The sets required + S, S a subset of order_[0, universe_end).
  void branch(const std::vector<int>& required, const Integer& required_cost,
              std::size_t universe_end) {
    if (out_of_budget_ || (result_.best && required_cost >= best_cost_)) return;
    if (feasible(required)) return;  // the cheapest set of this branch: nothing here beats it
    for (std::size_t i = 0; i < universe_end && !out_of_budget_; ++i) {
      const int layer = order_[i];
      const Integer cost = required_cost + cost_[static_cast<std::size_t>(layer)];
      if (result_.best && cost >= best_cost_) break;  // later layers cost at least as much
      std::vector<int> with_layer = required;
      with_layer.push_back(layer);
      std::vector<int> largest = with_layer;
      largest.insert(largest.end(), order_.begin(), order_.begin() + static_cast<long>(i));
      // One LP on the largest set whose most expensive layer is `layer` decides them all.
      if (!feasible(largest)) continue;
      branch(with_layer, cost, i);
    }
  }

  bool feasible(std::vector<int> layers) {
    std::sort(layers.begin(), layers.end());
    const auto known = memo_.find(layers);
    if (known != memo_.end()) return known->second;
    if (result_.lps >= options_.lp_budget) {
      out_of_budget_ = true;
      return false;
    }
    LayerSetAnswer answer = solve_layer_set(options_.m, layers, options_.model_class);
    ++result_.lps;
    const bool found = answer.head.has_value();
    if (!found) ++result_.refuted;
    // An LP point that is no head (NK: h(u) != 0 where K(u) = 0) refutes nothing.
    if (!found && !answer.refuted) unproven_ = true;
    memo_.emplace(layers, found);
    Integer cost = 0;
    for (const int j : layers) cost += cost_[static_cast<std::size_t>(j)];
    if (options_.progress)
      options_.progress("LP " + std::to_string(result_.lps) + ": r = " + to_string(cost) +
                        (found ? " feasible" : " refuted") +
                        (result_.best ? ", best r = " + to_string(best_cost_) : ""));
    if (found && (!result_.best || cost < best_cost_)) {
      best_cost_ = cost;
      result_.best = std::move(answer);
    }
    return found;
  }

  const LayeredSearchOptions& options_;
  std::vector<Integer> cost_;  // C(m, j)
  std::vector<int> order_;     // layers 1..m by cost
  std::map<std::vector<int>, bool> memo_;
  LayeredSearchResult result_;
  Integer best_cost_ = 0;
  bool out_of_budget_ = false;
  bool unproven_ = false;
};

}  // namespace

LayeredSearchResult search_layer_sets(const LayeredSearchOptions& options) {
  if (options.m < 1 || options.m > kMaxLayeredSearchWidth)
    throw std::invalid_argument("layer-set search: m = " + std::to_string(options.m) +
                                " is outside 1.." + std::to_string(kMaxLayeredSearchWidth));
  if (options.model_class == ModelClass::Signed)
    throw std::invalid_argument("layer-set search: the class is PF or NK");
  return LayerSetSearch(options).run();
}

}  // namespace kernelrank
