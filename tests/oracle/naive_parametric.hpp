// An independent, deliberately naive oracle for parametric heads (docs/model-format.md §6,
// theory.md §1-2), written from the definitions alone. It does not call ParametricModel,
// AffineMap::apply, evaluate_instance, evaluate_family, min_ip_target or inner(): tests use it
// to cross-check those. Everything is exact (kernelrank::Rational); there is no floating point.
//
//   phi_Q(x) = act(WQ x + bQ), phi_K(z) = act(WK z + bK), alpha(q, z) = <phi_Q(q), phi_K(z)>,
//   v(z) = V z + v0, c(q) = C q + c0, e(q) = E q + e0,
//   y = sum_j alpha(x_i, x_j) <c(x_i), v(x_j)> / sum_j alpha(x_i, x_j) + e(x_i)   (query i),
//   undefined when the denominator is 0; target t_i = min_j popcount(x_i AND x_j).
//
// `maps` holds one ParametricMaps (position independent) or one per position (`maps[p]` for
// 0-based position p; then maps.size() must equal the instance length). WQ, C, E are taken at
// the query position, WK, V at each key position.
//
// Derivatives are exact, by forward-mode dual numbers over Rational. The activations are
// differentiated with relu'(t) = 1 for t > 0 and 0 for t <= 0 (PyTorch's relu gradient, which
// is 0 at t = 0), and square'(t) = 2t.
//
// Parameter order (flatten_parameters, gradients, parameter_index): for each position slot
// p = 0, 1, ... in order, for each map in the order query, key, value, readout_c, readout_e:
// its weight row-major (rows x m), then its bias (rows entries). A slot holds
// (2r + 2d + 1)(m + 1) parameters.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <cstddef>
#include <optional>
#include <vector>

namespace kernelrank::oracle {

struct NaiveOutcome {
  std::optional<Rational> output;  // nullopt: zero denominator
  int target = 0;
  bool fails = true;  // undefined, or |y - t| >= 1/2
};

// Sizes of a list of maps: token width m, r features, d values, number of position slots.
struct ParametricShape {
  int m = 0;
  int r = 0;
  int d = 0;
  int slots = 1;
  friend bool operator==(const ParametricShape&, const ParametricShape&) = default;
};

// The five maps of a slot, in parameter order.
enum class MapRole { Query = 0, Key = 1, Value = 2, ReadoutC = 3, ReadoutE = 4 };

// Checks that every slot has the sizes of slot 0 (WQ, WK: r x m; V, C: d x m; E: 1 x m; biases
// of matching length) and returns them; throws std::invalid_argument otherwise.
ParametricShape shape_of(const std::vector<ParametricMaps>& maps);
std::size_t parameter_count(const ParametricShape& shape);
// Flat index of weight (row, col) of a map at a slot; col == m names the bias entry `row`.
std::size_t parameter_index(const ParametricShape& shape, int slot, MapRole role, int row, int col);

std::vector<Rational> flatten_parameters(const std::vector<ParametricMaps>& maps);
// Inverse of flatten_parameters (throws std::invalid_argument on a size mismatch).
std::vector<ParametricMaps> maps_from_flat(const std::vector<Rational>& flat,
                                           const ParametricShape& shape);

// Exact output and target of one instance (throws std::invalid_argument when the sizes of the
// maps, the number of slots or the token widths do not fit).
NaiveOutcome naive_evaluate(const std::vector<ParametricMaps>& maps, FeatureMap act,
                            const Instance& inst);

// dy/dtheta for every parameter, in parameter order. Throws std::domain_error when the output
// is undefined.
std::vector<Rational> naive_output_gradient(const std::vector<ParametricMaps>& maps, FeatureMap act,
                                            const Instance& inst);

// Mean-squared error L = (1/N) sum_k (y_k - t_k)^2 over the instances (N >= 1, else
// std::invalid_argument) and its exact gradient in parameter order, differentiated as one
// dual-number expression. Both throw std::domain_error when some output is undefined.
Rational naive_loss(const std::vector<ParametricMaps>& maps, FeatureMap act,
                    const std::vector<Instance>& instances);
std::vector<Rational> naive_loss_gradient(const std::vector<ParametricMaps>& maps, FeatureMap act,
                                          const std::vector<Instance>& instances);

}  // namespace kernelrank::oracle
