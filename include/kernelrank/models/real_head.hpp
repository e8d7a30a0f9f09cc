// A single head with exact (rational) weights and any of the feature maps that
// linear-attention libraries use, some of them transcendental (docs/model-format.md §12).
//
//   u(q) = WQ q + bQ, w(z) = WK z + bK                 (dk entries, exact)
//   alpha(q, z) = kernel of u(q) and w(z), by feature map:
//     relu, square, identity: <act(u), act(w)>          (rational)
//     taylor2:  1 + <u,w> + <u,w>^2 / 2                 (rational; Based's 2nd-order map)
//     elu1:     <elu(u) + 1, elu(w) + 1>                (exp of a negative entry)
//     exp:      sum_j exp(o_j.su - |su|^2/2) exp(o_j.sw - |sw|^2/2), s = scale^(1/4)
//               (positive random features; o_j the rows of the projection, r of them)
//     softmax:  exp(tau <u,w>)                          (dense softmax; tau = `temperature`)
//   F_q(z) = <C q + c0, V z + v0> + E q + e0           (exact)
//   y = sum_j alpha(q, x_j) F_q(x_j) / sum_j alpha(q, x_j)
// Every quantity before the feature map is exact, so the transcendental functions are only
// ever applied to exact rationals (ball_eval.hpp encloses them).
#pragma once

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <memory>
#include <string>

namespace kernelrank {

struct RealHead {
  int m = 0;
  FeatureMap map = FeatureMap::Relu;
  AffineMap query, key;        // dk x m each
  RationalMatrix projection;   // exp only: r x dk (the random features)
  Rational scale = 1;          // exp only: s^4 (performer: 1 / dk, so s = dk^(-1/4))
  Rational temperature = 1;    // softmax only: multiplies the scores
  AffineMap value, readout_c;  // d x m each
  AffineMap readout_e;         // 1 x m
  std::string description;     // one line, e.g. "fast-transformers head, elu1, dk = 4, d = 3"

  int key_width() const { return static_cast<int>(query.bias.size()); }
  int value_width() const { return static_cast<int>(value.bias.size()); }
  // Features of the head: dk, r for exp, 1 + dk + dk^2 for taylor2, none for softmax.
  std::optional<int> feature_count() const;
};

// Checks sizes against m, dk, d (and the projection against dk), temperature and scale;
// throws std::invalid_argument with a message naming the part.
void validate(const RealHead& head);

// The exact model of a head with a rational feature map (is_rational(head.map)); throws
// UsageError for the others.
std::unique_ptr<Model> exact_model(const RealHead& head);

}  // namespace kernelrank
