// The explicit model forms: tables, per-token features, and parametric maps.
//
// All three answer kernel(q, z) and readout(q, z) exactly. Tables and feature
// lists are defined only on the tokens they list, so asking about any other
// token (or a token of another width, or a position beyond the declared length)
// is a ModelDomainError rather than a silent default. Classification (PF / NK /
// signed) is decided from the data the form actually gives.
#include "kernelrank/models/model_forms.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/declared_class.hpp"

#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace kernelrank {
namespace {

std::string position_suffix(int positions) {
  return positions > 0 ? ", position-dependent, n=" + std::to_string(positions) : "";
}

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

void check_width(const Token& token, int m) {
  if (token.width() != m)
    throw ModelDomainError("token " + token.to_string() + " has width " +
                           std::to_string(token.width()) + ", the model expects width " +
                           std::to_string(m));
}

// 0-based position -> slot in a per-position table (always 0 when the model is
// position independent, where positions are ignored).
std::size_t slot_of(int position, int positions, const char* role) {
  if (positions == 0) return 0;
  if (position < 0 || position >= positions)
    throw ModelDomainError(std::string(role) + " position " + std::to_string(position + 1) +
                           " is outside 1.." + std::to_string(positions) +
                           " of this position-dependent model");
  return static_cast<std::size_t>(position);
}

Rational dot(const RationalVector& a, const RationalVector& b) {
  Rational sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

void check_square(const RationalMatrix& table, std::size_t size, const char* what) {
  require(table.size() == size, std::string(what) + " table must have one row per token");
  for (const RationalVector& row : table)
    require(row.size() == size, std::string(what) + " table must have one column per token");
}

std::unordered_map<Token, std::size_t, TokenHash> index_tokens(const std::vector<Token>& tokens,
                                                               int m) {
  std::unordered_map<Token, std::size_t, TokenHash> index;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    require(tokens[i].width() == m,
            "token " + tokens[i].to_string() + " does not have width " + std::to_string(m));
    require(index.emplace(tokens[i], i).second, "token " + tokens[i].to_string() + " listed twice");
  }
  return index;
}

std::size_t lookup(const std::unordered_map<Token, std::size_t, TokenHash>& index,
                   const Token& token, int m) {
  check_width(token, m);
  const auto it = index.find(token);
  if (it == index.end())
    throw ModelDomainError("token " + token.to_string() + " is not listed by the model");
  return it->second;
}

}  // namespace

// ---- AffineMap ------------------------------------------------------------------

RationalVector AffineMap::apply(const Token& x) const {
  if (bias.size() != weight.size())
    throw std::invalid_argument("affine map: bias length differs from the number of rows");
  for (const RationalVector& row : weight)
    if (row.size() != static_cast<std::size_t>(x.width()))
      throw ModelDomainError("affine map has " + std::to_string(row.size()) +
                             " columns, token has width " + std::to_string(x.width()));
  RationalVector result = bias;
  // x is 0/1, so W x is the sum of the columns at the set coordinates.
  const auto& words = x.words();
  for (std::size_t w = 0; w < words.size(); ++w) {
    std::uint64_t bits = words[w];
    while (bits != 0) {
      const std::size_t column = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      bits &= bits - 1;
      for (std::size_t row = 0; row < weight.size(); ++row) result[row] += weight[row][column];
    }
  }
  return result;
}

// ---- TabularModel ---------------------------------------------------------------

TabularModel::TabularModel(int m, std::vector<Token> tokens, RationalMatrix kernel,
                           RationalMatrix readout)
    : m_(m), tokens_(std::move(tokens)), index_(index_tokens(tokens_, m)) {
  check_square(kernel, tokens_.size(), "kernel");
  check_square(readout, tokens_.size(), "readout");
  kernels_.assign(1, std::vector<RationalMatrix>(1));
  readouts_.assign(1, std::vector<RationalMatrix>(1));
  kernels_[0][0] = std::move(kernel);
  readouts_[0][0] = std::move(readout);
}

TabularModel::TabularModel(int m, std::vector<Token> tokens, int positions,
                           std::vector<std::vector<RationalMatrix>> kernels,
                           std::vector<std::vector<RationalMatrix>> readouts)
    : m_(m),
      tokens_(std::move(tokens)),
      index_(index_tokens(tokens_, m)),
      positions_(positions),
      kernels_(std::move(kernels)),
      readouts_(std::move(readouts)) {
  require(positions >= 1, "a position-dependent tabular model needs positions >= 1");
  const auto n = static_cast<std::size_t>(positions);
  require(kernels_.size() == n && readouts_.size() == n,
          "one block row per query position is required");
  for (std::size_t p = 0; p < n; ++p) {
    require(kernels_[p].size() == n && readouts_[p].size() == n,
            "one block per key position is required");
    for (std::size_t k = 0; k < n; ++k) {
      check_square(kernels_[p][k], tokens_.size(), "kernel");
      check_square(readouts_[p][k], tokens_.size(), "readout");
    }
  }
}

std::string TabularModel::description() const {
  return "tabular model over " + std::to_string(tokens_.size()) +
         " tokens (m=" + std::to_string(m_) + ")" + position_suffix(positions_);
}

std::size_t TabularModel::index_of(const Token& token) const { return lookup(index_, token, m_); }

const RationalMatrix& TabularModel::kernel_table(int qpos, int kpos) const {
  return kernels_[slot_of(qpos, positions_, "query")][slot_of(kpos, positions_, "key")];
}

const RationalMatrix& TabularModel::readout_table(int qpos, int kpos) const {
  return readouts_[slot_of(qpos, positions_, "query")][slot_of(kpos, positions_, "key")];
}

Rational TabularModel::kernel(const Token& q, const Token& z, int qpos, int kpos) const {
  const RationalMatrix& table = kernel_table(qpos, kpos);
  return table[index_of(q)][index_of(z)];
}

Rational TabularModel::readout(const Token& q, const Token& z, int qpos, int kpos) const {
  const RationalMatrix& table = readout_table(qpos, kpos);
  return table[index_of(q)][index_of(z)];
}

Classification TabularModel::classify() const {
  const std::size_t blocks = positions_ > 0 ? static_cast<std::size_t>(positions_) : 1;
  for (std::size_t p = 0; p < blocks; ++p)
    for (std::size_t k = 0; k < blocks; ++k) {
      const RationalMatrix& table = kernels_[p][k];
      for (std::size_t i = 0; i < tokens_.size(); ++i)
        for (std::size_t j = 0; j < tokens_.size(); ++j) {
          if (table[i][j] >= 0) continue;
          std::string detail = "alpha(" + tokens_[i].to_string() + ", " + tokens_[j].to_string() +
                               ") = " + to_string(table[i][j]) + " < 0";
          if (positions_ > 0)
            detail += " at query position " + std::to_string(p + 1) + ", key position " +
                      std::to_string(k + 1);
          return {ModelClass::Signed, detail};
        }
    }
  return {ModelClass::NonnegativeKernel,
          "kernel table is entrywise >= 0 (features not given; a nonnegative table is "
          "trivially PF with one feature per token, the rank question is separate)"};
}

// ---- FeatureModel ---------------------------------------------------------------

FeatureModel::FeatureModel(int m, int r, int d, int positions, std::vector<Token> tokens,
                           std::vector<TokenFeatures> features)
    : m_(m),
      r_(r),
      d_(d),
      positions_(positions),
      tokens_(std::move(tokens)),
      features_(std::move(features)),
      index_(index_tokens(tokens_, m)) {
  require(r >= 1 && d >= 0 && positions >= 0, "feature model needs r >= 1, d >= 0, positions >= 0");
  require(features_.size() == tokens_.size(), "one feature record per token is required");
  const auto slots = static_cast<std::size_t>(positions > 0 ? positions : 1);
  const auto rr = static_cast<std::size_t>(r);
  const auto dd = static_cast<std::size_t>(d);
  for (const TokenFeatures& f : features_) {
    require(f.phi_q.size() == slots && f.phi_k.size() == slots && f.value.size() == slots &&
                f.readout_c.size() == slots && f.readout_e.size() == slots,
            "every token needs one feature set per position");
    for (std::size_t p = 0; p < slots; ++p)
      require(f.phi_q[p].size() == rr && f.phi_k[p].size() == rr && f.value[p].size() == dd &&
                  f.readout_c[p].size() == dd,
              "feature vectors must have r (phiQ, phiK) or d (v, c) entries");
  }
}

std::string FeatureModel::description() const {
  return "feature model r=" + std::to_string(r_) + " d=" + std::to_string(d_) + " over " +
         std::to_string(tokens_.size()) + " tokens (m=" + std::to_string(m_) + ")" +
         position_suffix(positions_);
}

const TokenFeatures& FeatureModel::features_of(const Token& token) const {
  return features_[lookup(index_, token, m_)];
}

Rational FeatureModel::kernel(const Token& q, const Token& z, int qpos, int kpos) const {
  const std::size_t qs = slot_of(qpos, positions_, "query");
  const std::size_t ks = slot_of(kpos, positions_, "key");
  return dot(features_of(q).phi_q[qs], features_of(z).phi_k[ks]);
}

Rational FeatureModel::readout(const Token& q, const Token& z, int qpos, int kpos) const {
  const std::size_t qs = slot_of(qpos, positions_, "query");
  const std::size_t ks = slot_of(kpos, positions_, "key");
  const TokenFeatures& fq = features_of(q);
  return dot(fq.readout_c[qs], features_of(z).value[ks]) + fq.readout_e[qs];
}

Classification FeatureModel::classify() const {
  bool all_nonnegative = true;
  for (const TokenFeatures& f : features_) {
    for (const auto* vectors : {&f.phi_q, &f.phi_k})
      for (const RationalVector& v : *vectors)
        for (const Rational& x : v) all_nonnegative = all_nonnegative && x >= 0;
  }
  if (all_nonnegative)
    return {ModelClass::PositiveFeatures, "all phi_Q and phi_K entries are >= 0"};

  // Signed features: NK holds only if the kernel is >= 0 wherever it can be
  // used, i.e. on every listed pair at every position pair.
  const auto slots = static_cast<unsigned long long>(positions_ > 0 ? positions_ : 1);
  const auto k = static_cast<unsigned long long>(tokens_.size());
  const unsigned long long pairs = k * k * slots * slots;
  if (pairs > kMaxClassifyWork / static_cast<unsigned long long>(r_))
    throw ResourceError("classifying this signed-feature model needs " + std::to_string(pairs) +
                        " kernel evaluations with r=" + std::to_string(r_) +
                        "; give nonnegative features or a smaller token list");
  for (std::size_t p = 0; p < slots; ++p)
    for (std::size_t s = 0; s < slots; ++s)
      for (std::size_t i = 0; i < tokens_.size(); ++i)
        for (std::size_t j = 0; j < tokens_.size(); ++j) {
          const Rational value = dot(features_[i].phi_q[p], features_[j].phi_k[s]);
          if (value >= 0) continue;
          std::string detail = "alpha(" + tokens_[i].to_string() + ", " + tokens_[j].to_string() +
                               ") = " + to_string(value) + " < 0";
          if (positions_ > 0)
            detail += " at query position " + std::to_string(p + 1) + ", key position " +
                      std::to_string(s + 1);
          return {ModelClass::Signed, detail};
        }
  std::string detail =
      "signed features, kernel >= 0 on all " + std::to_string(k) + "^2 listed token pairs";
  if (positions_ > 0) detail += " and all " + std::to_string(slots) + "^2 position pairs";
  return {ModelClass::NonnegativeKernel, detail};
}

// ---- ParametricModel ------------------------------------------------------------

namespace {

// Bound on the per-token cache, estimated as 64 bytes per rational (value and
// limbs) plus the token's words and the hash node.
constexpr std::size_t kMaxCachedBytes = std::size_t{64} << 20;

void check_affine(const AffineMap& map, std::size_t rows, int m, const char* what) {
  require(map.weight.size() == rows && map.bias.size() == rows,
          std::string(what) + " has the wrong number of rows");
  for (const RationalVector& row : map.weight)
    require(row.size() == static_cast<std::size_t>(m),
            std::string(what) + " rows must have m weights");
}

}  // namespace

ParametricModel::ParametricModel(int m, FeatureMap activation,
                                 std::vector<ParametricMaps> maps_by_position,
                                 bool position_dependent)
    : m_(m),
      activation_(activation),
      maps_(std::move(maps_by_position)),
      position_dependent_(position_dependent) {
  require(m >= 1, "parametric model needs m >= 1");
  require(
      is_entrywise(activation),
      "a parametric model's activation is relu, square or identity, not " + to_string(activation));
  require(!maps_.empty(), "parametric model needs maps");
  require(position_dependent || maps_.size() == 1,
          "a position-independent parametric model has exactly one set of maps");
  r_ = static_cast<int>(maps_[0].query.weight.size());
  d_ = static_cast<int>(maps_[0].value.weight.size());
  require(r_ >= 1, "parametric model needs r >= 1");
  const auto r = static_cast<std::size_t>(r_);
  const auto d = static_cast<std::size_t>(d_);
  for (const ParametricMaps& p : maps_) {
    check_affine(p.query, r, m, "WQ");
    check_affine(p.key, r, m, "WK");
    check_affine(p.value, d, m, "V");
    check_affine(p.readout_c, d, m, "C");
    check_affine(p.readout_e, 1, m, "E");
  }
  cache_.resize(maps_.size() * kMapKinds);
}

std::string ParametricModel::description() const {
  return "parametric " + to_string(activation_) + " model m=" + std::to_string(m_) +
         " r=" + std::to_string(r_) + " d=" + std::to_string(d_) +
         position_suffix(position_dependent_ ? static_cast<int>(maps_.size()) : 0);
}

std::optional<int> ParametricModel::feature_count() const { return r_; }

const ParametricMaps& ParametricModel::maps(int position) const {
  return maps_[slot_of(position, position_dependent_ ? static_cast<int>(maps_.size()) : 0,
                       "token")];
}

void ParametricModel::bound_cache() const {
  if (cached_bytes_ <= kMaxCachedBytes) return;
  for (auto& entries : cache_) entries.clear();
  cached_bytes_ = 0;
}

const RationalVector& ParametricModel::features(MapKind kind, int position, const Token& x) const {
  check_width(x, m_);
  const ParametricMaps& set = maps(position);
  const std::size_t slot = position_dependent_ ? static_cast<std::size_t>(position) : 0;
  auto& entries = cache_[slot * kMapKinds + kind];
  const auto found = entries.find(x);
  if (found != entries.end()) return found->second;

  RationalVector result;
  switch (kind) {
    case kQuery:
    case kKey:
      result = (kind == kQuery ? set.query : set.key).apply(x);
      for (Rational& t : result) {
        if (activation_ == FeatureMap::Relu) {
          if (t < 0) t = 0;
        } else if (activation_ == FeatureMap::Square) {
          t = t * t;
        }  // identity: t as it is
      }
      break;
    case kValue:
      result = set.value.apply(x);
      break;
    case kReadoutC:
      result = set.readout_c.apply(x);
      break;
    case kReadoutE:
    case kMapKinds:
      result = set.readout_e.apply(x);
      break;
  }
  cached_bytes_ += 64 * (result.size() + 2) + 8 * x.words().size();
  return entries.emplace(x, std::move(result)).first->second;
}

Rational ParametricModel::kernel(const Token& q, const Token& z, int qpos, int kpos) const {
  bound_cache();
  return dot(features(kQuery, qpos, q), features(kKey, kpos, z));
}

Rational ParametricModel::readout(const Token& q, const Token& z, int qpos, int kpos) const {
  bound_cache();
  const RationalVector& c = features(kReadoutC, qpos, q);
  const RationalVector& v = features(kValue, kpos, z);
  return dot(c, v) + features(kReadoutE, qpos, q)[0];
}

Classification ParametricModel::classify() const {
  if (activation_ != FeatureMap::Identity)
    return {ModelClass::PositiveFeatures, "relu/square features are >= 0"};
  std::vector<std::pair<const AffineMap*, const AffineMap*>> feature_maps;
  for (const ParametricMaps& p : maps_) feature_maps.emplace_back(&p.query, &p.key);
  return classify_identity_features(m_, feature_maps, position_dependent_);
}

}  // namespace kernelrank
