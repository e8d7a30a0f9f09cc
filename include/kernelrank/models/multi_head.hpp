// Multi-head models (theory.md §6): H >= 1 normalized single heads whose outputs are added,
//   y = sum_h y_h,  y_h = sum_j alpha_h(q, x_j) F_h,q(x_j) / sum_j alpha_h(q, x_j).
// Each head is any single-head Model (tabular, features, parametric, built-in; PF, NK or
// signed); the shared affine term e(q) of theory.md §6 is absorbed into the heads' readouts,
// since each head's weights sum to 1. If any head's denominator is zero the output is
// undefined (a failure). The model's rank is its total number of features: the sum over the
// heads of the declared feature count, or else of the exact rank of the head's kernel table.
#pragma once

#include "kernelrank/models/model.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kernelrank {

// Largest number of heads a model (or a model file) may have.
inline constexpr std::size_t kMaxHeads = 64;

// Features of one head: the head's own feature_count(), or the exact rank of its kernel
// table over its token universe (for position-dependent tables, the rank of the block matrix
// with rows (query position, q) and columns (key position, z), which is the least r of
// position-dependent feature maps realising every block).
struct HeadFeatures {
  std::size_t count = 0;
  bool declared = false;  // true: feature_count(); false: exact rank of the kernel table
};

class MultiHeadModel {
 public:
  // Throws std::invalid_argument on no heads, a null head, more than kMaxHeads heads or
  // heads of different widths.
  explicit MultiHeadModel(std::vector<std::shared_ptr<const Model>> heads);

  int width() const { return m_; }
  std::size_t head_count() const { return heads_.size(); }
  const Model& head(std::size_t h) const;  // 0-based; std::out_of_range beyond
  const std::vector<std::shared_ptr<const Model>>& heads() const { return heads_; }
  bool position_dependent() const;  // any head
  // "2 heads (m=3): [1] tabular model over 8 tokens; [2] feature model r=1 ..."
  std::string description() const;
  // Each head's PF / NK / signed class (Model::classify).
  std::vector<Classification> classify() const;

  // Per head, as HeadFeatures says. A head without a feature count and without a token
  // universe (a built-in on the whole cube) is ranked over {0,1}^m, which is refused with
  // ResourceError beyond m = kMaxRankedCubeWidth.
  std::vector<HeadFeatures> head_features() const;
  static constexpr int kMaxRankedCubeWidth = 8;

 private:
  std::vector<std::shared_ptr<const Model>> heads_;
  int m_ = 0;
};

// The sum of the counts.
std::size_t total_features(const std::vector<HeadFeatures>& features);
// "2 + 1 = 3" (a single head: "2").
std::string features_text(const std::vector<HeadFeatures>& features);

}  // namespace kernelrank
