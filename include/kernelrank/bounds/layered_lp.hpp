// The exact LP that decides a layer set (docs/upper-bounds.md): for layers J, is there a
// kernel K(u) = sum_{j in J} c_j C(u, j) of the class and a readout correction g(u) such that
// every profile (w, {a, b}) of T(m,3) has error < 1/2?
//
// With h(u) = K(u) g(u) the error of profile (a, b), 0 <= a <= b <= w, is N / D with
//     N = h(0) + h(a) + h(b) + b K(0) + (b - a) K(a),   D = K(0) + K(a) + K(b),
// and w does not enter (only through a, b <= w), so the weight-m profiles are the hardest and
// one correction serves every w. The LP maximises t subject to |N| + t <= D / 2 for every
// weight-m profile, normalised by K(m) <= 1 (PF, where K increases with u) or K(0) <= 1 (NK),
// with c_j >= 0 (PF) or K(u) >= 0 for u = 0..m (NK). A positive optimum gives a head; an
// optimum of 0 is a refutation, proved by the LP's dual multipliers (checked exactly here).
//
// The profile rows are added lazily: the LP is solved on a subset, every profile is then
// checked exactly at its solution, and the violated ones join the subset until none is.
#pragma once

#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/layered_head.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace kernelrank {

struct LayerSetAnswer {
  std::vector<int> layers;
  ModelClass model_class = ModelClass::PositiveFeatures;
  // The exact LP optimum t (normalised as above): > 0 exactly when the set is feasible.
  Rational margin;
  std::optional<LayeredHead> head;  // when feasible: c_j and g_w(u) = h(u) / K(u)
  // When infeasible: the dual multipliers were checked to prove t <= 0 on the profile rows
  // used (a subset of all), so no head with these layers exists.
  bool refuted = false;
  std::size_t rounds = 0, rows = 0, pivots = 0;
};

// layers: strictly increasing, starting with 0, within 0..m; model_class PF or NK.
LayerSetAnswer solve_layer_set(int m, const std::vector<int>& layers, ModelClass model_class);

}  // namespace kernelrank
