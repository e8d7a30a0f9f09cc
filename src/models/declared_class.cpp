// Declared model classes and the classification of identity features (declared_class.hpp).
#include "kernelrank/models/declared_class.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace kernelrank {
namespace {

std::string position_text(bool position_dependent, std::size_t slot) {
  return position_dependent ? " at position " + std::to_string(slot + 1) : "";
}

// The first feature row of an identity map whose least value over the cube is negative:
// "phi_Q feature 2 = -3/2 < 0 at x = 010"; nullopt when every row is >= 0 on the cube.
std::optional<std::string> negative_affine_row(const AffineMap& map, int m, const char* name) {
  for (std::size_t i = 0; i < map.weight.size(); ++i) {
    Rational least = map.bias[i];
    Token x(m);
    for (int j = 0; j < m; ++j)
      if (map.weight[i][static_cast<std::size_t>(j)] < 0) {
        least += map.weight[i][static_cast<std::size_t>(j)];
        x.set(j, true);
      }
    if (least < 0)
      return std::string(name) + " feature " + std::to_string(i + 1) + " = " + to_string(least) +
             " < 0 at x = " + x.to_string();
  }
  return std::nullopt;
}

std::optional<std::string> negative_identity_feature(
    int m, const std::vector<std::pair<const AffineMap*, const AffineMap*>>& maps,
    bool position_dependent) {
  for (std::size_t slot = 0; slot < maps.size(); ++slot)
    for (int role = 0; role < 2; ++role) {
      const AffineMap& map = role == 0 ? *maps[slot].first : *maps[slot].second;
      if (auto found = negative_affine_row(map, m, role == 0 ? "phi_Q" : "phi_K"))
        return *found + position_text(position_dependent, slot);
    }
  return std::nullopt;
}

// The first negative phiQ/phiK entry of a feature list, named by token and position.
std::optional<std::string> negative_feature_entry(const FeatureModel& model) {
  const bool by_position = model.position_dependent();
  for (std::size_t t = 0; t < model.tokens().size(); ++t) {
    const TokenFeatures& f = model.features()[t];
    for (int role = 0; role < 2; ++role) {
      const std::vector<RationalVector>& vectors = role == 0 ? f.phi_q : f.phi_k;
      for (std::size_t slot = 0; slot < vectors.size(); ++slot)
        for (std::size_t i = 0; i < vectors[slot].size(); ++i)
          if (vectors[slot][i] < 0)
            return std::string(role == 0 ? "phiQ" : "phiK") + " entry " + std::to_string(i + 1) +
                   " of token " + model.tokens()[t].to_string() + " is " +
                   to_string(vectors[slot][i]) + " < 0" + position_text(by_position, slot);
    }
  }
  return std::nullopt;
}

std::optional<std::string> pf_violation(const Model& model) {
  if (const auto* features = dynamic_cast<const FeatureModel*>(&model))
    return negative_feature_entry(*features);
  if (const auto* parametric = dynamic_cast<const ParametricModel*>(&model)) {
    if (parametric->activation() != FeatureMap::Identity) return std::nullopt;
    std::vector<std::pair<const AffineMap*, const AffineMap*>> maps;
    for (const ParametricMaps& p : parametric->maps_by_position())
      maps.emplace_back(&p.query, &p.key);
    return negative_identity_feature(parametric->width(), maps, parametric->position_dependent());
  }
  // Tables (trivially PF when entrywise >= 0) and every other form: by classify().
  const Classification cls = model.classify();
  if (cls.model_class == ModelClass::PositiveFeatures) return std::nullopt;
  if (cls.model_class == ModelClass::Signed) return "a negative kernel value: " + cls.detail;
  if (dynamic_cast<const TabularModel*>(&model)) return std::nullopt;
  return "the model is " + to_string(cls.model_class) + " only: " + cls.detail;
}

}  // namespace

std::optional<std::string> declared_class_violation(const Model& model, ModelClass declared) {
  switch (declared) {
    case ModelClass::Signed:
      return std::nullopt;
    case ModelClass::PositiveFeatures:
      return pf_violation(model);
    case ModelClass::NonnegativeKernel: {
      const Classification cls = model.classify();
      if (cls.model_class != ModelClass::Signed) return std::nullopt;
      return cls.detail;
    }
  }
  return "unknown model class";
}

Classification reported_class(const Model& model) {
  Classification found = model.classify();
  const std::optional<ModelClass> declared = model.declared_class();
  if (!declared) return found;
  std::string detail = "declared; ";
  // A named negative value reads "alpha(q, z) = v < 0".
  if (found.model_class == ModelClass::Signed && found.detail.rfind("alpha(", 0) == 0)
    detail += "the kernel has negative values: " + found.detail;
  else if (found.model_class == *declared)
    detail += found.detail;
  else
    detail += "the data is " + to_string(found.model_class) + ": " + found.detail;
  return {*declared, detail};
}

Classification classify_identity_features(
    int m, const std::vector<std::pair<const AffineMap*, const AffineMap*>>& maps,
    bool position_dependent) {
  if (!negative_identity_feature(m, maps, position_dependent))
    return {ModelClass::PositiveFeatures,
            "identity features, each >= 0 on the whole cube (b_i + the sum of row i's negative "
            "weights >= 0)"};
  const std::size_t r = maps.empty() ? 0 : maps[0].first->weight.size();
  const auto slots = static_cast<unsigned long long>(maps.size());
  const unsigned long long pairs =
      m <= 20 ? (1ULL << (2 * m)) * slots * slots : ~0ULL;  // 4^m token pairs
  if (m > 20 || pairs > kMaxIdentityCheckWork / std::max<unsigned long long>(r, 1))
    return {ModelClass::Signed, "identity features; the kernel is not checked on the cube"};
  // Every feature vector of the cube, then every pair.
  const std::uint64_t size = std::uint64_t{1} << m;
  std::vector<std::vector<RationalVector>> query(maps.size()), key(maps.size());
  for (std::size_t slot = 0; slot < maps.size(); ++slot)
    for (std::uint64_t x = 0; x < size; ++x) {
      query[slot].push_back(maps[slot].first->apply(Token::from_index(m, x)));
      key[slot].push_back(maps[slot].second->apply(Token::from_index(m, x)));
    }
  for (std::size_t p = 0; p < maps.size(); ++p)
    for (std::size_t k = 0; k < maps.size(); ++k)
      for (std::uint64_t q = 0; q < size; ++q)
        for (std::uint64_t z = 0; z < size; ++z) {
          Rational value = 0;
          for (std::size_t i = 0; i < r; ++i) value += query[p][q][i] * key[k][z][i];
          if (value >= 0) continue;
          std::string detail = "alpha(" + Token::from_index(m, q).to_string() + ", " +
                               Token::from_index(m, z).to_string() + ") = " + to_string(value) +
                               " < 0";
          if (position_dependent)
            detail += " at query position " + std::to_string(p + 1) + ", key position " +
                      std::to_string(k + 1);
          return {ModelClass::Signed, detail};
        }
  return {ModelClass::NonnegativeKernel, "identity features are signed, kernel >= 0 on all " +
                                             std::to_string(size) + "^2 token pairs of the cube"};
}

}  // namespace kernelrank
