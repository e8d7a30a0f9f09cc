// Layered symmetric heads (docs/upper-bounds.md, model-format.md §14): a kernel that depends
// only on u = |q \ z| = |q| - <q,z>,
//
//     K(u) = sum_{j in J} c_j C(u, j),
//
// realised with one feature per subset S of the coordinates with |S| in J
// (phiQ(q)_S = c_|S| [S in q], phiK(z)_S = [S and z disjoint]), so r = sum_{j in J} C(m, j);
// and a readout F_q(z) = <q,z> + g_|q|(u) with one exact correction value per (w, u),
// 0 <= u <= w <= m (realised with one-hot values v(z) = e_z and c(q)_z = F_q(z): d = 2^m,
// which does not count toward r). PF when every c_j >= 0; NK when K(u) >= 0 for u = 0..m.
// Both need K(0) > 0, so the query's own term keeps every denominator positive.
#pragma once

#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/model.hpp"

#include <memory>
#include <string>
#include <vector>

namespace kernelrank {

struct LayeredHead {
  int m = 0;
  ModelClass model_class = ModelClass::PositiveFeatures;  // PF or NK
  std::vector<int> layers;                                // strictly increasing, layers[0] = 0
  std::vector<Rational> coefficients;                     // c_j, one per layer
  std::vector<std::vector<Rational>> correction;          // correction[w][u], u = 0..w

  Integer feature_count() const;                // sum_{j in J} C(m, j), exactly
  Rational kernel(int u) const;                 // K(u)
  std::vector<Rational> kernel_values() const;  // K(0..m)
  Rational readout(int w, int u) const { return (w - u) + correction[w][u]; }
};

// The largest width a layered head may have (the profile reduction is O(m^3)).
constexpr int kMaxLayeredWidth = 4096;

// Why `head` is not a valid head of its declared class, or "" when it is: a layer outside
// 0..m, layers not strictly increasing from 0, a negative c_j in PF, K(u) < 0 in NK,
// K(0) <= 0, a missing correction value.
std::string layered_head_problem(const LayeredHead& head);

// The head as a Model (kernel and readout on tokens, and its overlap form for the profile
// evaluator). Throws std::invalid_argument when layered_head_problem is not empty.
std::unique_ptr<Model> make_layered_model(LayeredHead head);
// The head behind a model made by make_layered_model (or read from a kind=layered file);
// nullptr for any other model.
const LayeredHead* layered_head_of(const Model& model);

// The same head as an explicit kind=features model over all 2^m tokens (m <= 10): one
// feature per subset with |S| in J and one-hot values; for cross-checks through the generic
// evaluator. Throws std::invalid_argument for m > 10.
std::unique_ptr<Model> expand_layered_features(const LayeredHead& head);

// The canonical text (model-format.md §14), with `comment` lines first (each prefixed "# ").
std::string layered_head_text(const LayeredHead& head, const std::vector<std::string>& comment);

}  // namespace kernelrank
