// The three explicit model forms of the model file format (docs/model-format.md):
// tabular (kernel and readout tables over a token list), features (per-token
// phi_Q, phi_K, v, c, e) and parametric (phi(x) = act(W x + b) for any width).
// Each is optionally position dependent: one block per query/key position.
// Constructors check that the data is consistent (sizes, distinct tokens of
// width m) and throw std::invalid_argument otherwise; lookups of a token the
// model does not define, or of a position out of range, throw ModelDomainError.
#pragma once

#include "kernelrank/models/feature_map.hpp"
#include "kernelrank/models/model.hpp"

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace kernelrank {

using RationalMatrix = std::vector<std::vector<Rational>>;
using RationalVector = std::vector<Rational>;

// Kernel table A[i][j] = alpha(token i, token j) and readout table
// F[i][j] = F_{token i}(token j) over a list of distinct tokens.
// Position-dependent: one (A, F) pair per (query position, key position),
// indexed [qpos][kpos] (0-based), for a fixed length n.
class TabularModel : public Model {
 public:
  TabularModel(int m, std::vector<Token> tokens, RationalMatrix kernel, RationalMatrix readout);
  TabularModel(int m, std::vector<Token> tokens, int positions,
               std::vector<std::vector<RationalMatrix>> kernels,
               std::vector<std::vector<RationalMatrix>> readouts);

  std::string description() const override;
  int width() const override { return m_; }
  bool position_dependent() const override { return positions_ > 0; }
  Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const override;
  Rational readout(const Token& q, const Token& z, int qpos, int kpos) const override;
  const std::vector<Token>* token_universe() const override { return &tokens_; }
  Classification classify() const override;

  // Index of a token in the list (throws ModelDomainError if absent).
  std::size_t index_of(const Token& token) const;
  const std::vector<Token>& tokens() const { return tokens_; }
  int positions() const { return positions_; }  // 0 when position independent
  const RationalMatrix& kernel_table(int qpos = 0, int kpos = 0) const;
  const RationalMatrix& readout_table(int qpos = 0, int kpos = 0) const;

 private:
  int m_;
  std::vector<Token> tokens_;
  std::unordered_map<Token, std::size_t, TokenHash> index_;
  int positions_ = 0;
  std::vector<std::vector<RationalMatrix>> kernels_;  // [qpos][kpos] ([0][0] if independent)
  std::vector<std::vector<RationalMatrix>> readouts_;
};

// Per-token features. alpha(q,z) = <phiQ(q), phiK(z)>, F_q(z) = <c(q), v(z)> + e(q).
// Position dependent: phiQ, c, e indexed by query position; phiK, v by key position.
struct TokenFeatures {
  std::vector<RationalVector> phi_q;  // [position] -> r entries (one entry if independent)
  std::vector<RationalVector> phi_k;
  std::vector<RationalVector> value;  // d entries
  std::vector<RationalVector> readout_c;
  std::vector<Rational> readout_e;
};

class FeatureModel : public Model {
 public:
  // positions = 0 for a position-independent model (then each vector above has one entry).
  FeatureModel(int m, int r, int d, int positions, std::vector<Token> tokens,
               std::vector<TokenFeatures> features);

  std::string description() const override;
  int width() const override { return m_; }
  std::optional<int> feature_count() const override { return r_; }
  bool position_dependent() const override { return positions_ > 0; }
  Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const override;
  Rational readout(const Token& q, const Token& z, int qpos, int kpos) const override;
  const std::vector<Token>* token_universe() const override { return &tokens_; }
  // Checks the kernel on all K^2 listed pairs (and all position pairs) when the
  // features are signed; throws ResourceError if that exceeds kMaxClassifyWork.
  Classification classify() const override;

  // Bound on pairs x r multiply-adds spent by classify() on signed features.
  static constexpr unsigned long long kMaxClassifyWork = 1ULL << 32;

  const std::vector<Token>& tokens() const { return tokens_; }
  const std::vector<TokenFeatures>& features() const { return features_; }  // in token order

 private:
  const TokenFeatures& features_of(const Token& token) const;

  int m_, r_, d_, positions_;
  std::vector<Token> tokens_;
  std::vector<TokenFeatures> features_;
  std::unordered_map<Token, std::size_t, TokenHash> index_;
};

// An affine map x -> W x + b from {0,1}^m to Q^rows; W is rows x m.
struct AffineMap {
  RationalMatrix weight;
  RationalVector bias;
  RationalVector apply(const Token& x) const;
};

// phi_Q(x) = act(WQ x + bQ), phi_K(x) = act(WK x + bK) (entrywise, r features),
// v(x) = V x + v0 (d entries), c(x) = C x + c0 (d entries), e(x) = E x + e0.
// PF by construction with relu and square (both >= 0); identity features are signed
// (declared_class.hpp classifies them). Position dependent: one map per position for each
// of WQ/C/E (query position) and WK/V (key position).
struct ParametricMaps {
  AffineMap query, key, value, readout_c, readout_e;
};

// Parametric models handle any width m: nothing is tabulated over tokens, but
// the per-token vectors are cached (bounded) since an evaluation asks about the
// same few tokens many times. Not thread safe (the cache is mutable).
class ParametricModel : public Model {
 public:
  ParametricModel(int m, FeatureMap activation, std::vector<ParametricMaps> maps_by_position,
                  bool position_dependent);

  std::string description() const override;
  int width() const override { return m_; }
  std::optional<int> feature_count() const override;
  bool position_dependent() const override { return position_dependent_; }
  Rational kernel(const Token& q, const Token& z, int qpos, int kpos) const override;
  Rational readout(const Token& q, const Token& z, int qpos, int kpos) const override;
  Classification classify() const override;

  FeatureMap activation() const { return activation_; }
  // One set of maps, or one per position 1..n (index 0 = position 1).
  const std::vector<ParametricMaps>& maps_by_position() const { return maps_; }
  int value_width() const { return d_; }

 private:
  enum MapKind : int { kQuery, kKey, kValue, kReadoutC, kReadoutE, kMapKinds };

  const ParametricMaps& maps(int position) const;
  // The map of the given kind at a position applied to x (with the activation
  // for the feature maps), from the cache when present.
  const RationalVector& features(MapKind kind, int position, const Token& x) const;
  // Empties the cache when it has grown too large; called at the start of a
  // lookup so that references handed out within one lookup stay valid.
  void bound_cache() const;

  int m_;
  FeatureMap activation_;
  std::vector<ParametricMaps> maps_;
  bool position_dependent_;
  int r_ = 0;
  int d_ = 0;
  mutable std::vector<std::unordered_map<Token, RationalVector, TokenHash>> cache_;
  mutable std::size_t cached_bytes_ = 0;  // rough estimate
};

}  // namespace kernelrank
