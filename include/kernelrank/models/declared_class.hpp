// Declared model classes (docs/model-format.md, "Declared class"): a model file may declare
// class=PF, class=NK or class=signed, and the reader checks the declaration against the data
// before it accepts the file. Also the classification of identity (signed, affine) features
// over the cube, which parametric models and safetensors heads share, and the class line
// that reports print.
#pragma once

#include "kernelrank/models/model.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kernelrank {

// Why `model` is not of the declared class, or nullopt when the declaration holds:
//   PF      every feature entry is >= 0: feature lists name the first negative phiQ/phiK
//           entry; a kernel table must be entrywise >= 0 (then it is trivially PF, one
//           feature per token); parametric relu/square features are >= 0 by construction,
//           identity features are checked by each row's least value over the cube;
//   NK      classify() finds no negative kernel value (it names the pair when it does);
//   signed  always holds (any data).
// May throw what classify() throws (ResourceError for a large signed-feature list).
std::optional<std::string> declared_class_violation(const Model& model, ModelClass declared);

// The class a report prints. Without a declaration, classify(). With one, the declared
// class, and the detail says what the data shows: "declared; the kernel has negative
// values: alpha(110, 110) = -1 < 0", or "declared; <classify's reason>".
Classification reported_class(const Model& model);

// Identity features phi_Q(x) = WQ x + bQ, phi_K(x) = WK x + bK on the whole cube {0,1}^m,
// one (query map, key map) pair per position (one pair when position independent):
//   PF      when every feature row's least value over the cube, b_i + sum_j min(W_ij, 0),
//           is >= 0;
//   NK      when the kernel is checked >= 0 on all 4^m token pairs (and position pairs),
//           which is done only while that takes at most kMaxIdentityCheckWork
//           multiply-adds;
//   signed  otherwise: with the negative pair, or "(identity features; the kernel is not
//           checked on the cube)" when the check was too large (conservative).
Classification classify_identity_features(
    int m, const std::vector<std::pair<const AffineMap*, const AffineMap*>>& maps,
    bool position_dependent);
inline constexpr unsigned long long kMaxIdentityCheckWork = 1ULL << 24;

}  // namespace kernelrank
