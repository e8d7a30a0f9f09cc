// Feature-map names, written once (feature_map.hpp).
#include "kernelrank/models/feature_map.hpp"

#include "kernelrank/core/errors.hpp"

#include <array>
#include <utility>

namespace kernelrank {
namespace {

constexpr std::array<std::pair<FeatureMap, std::string_view>, 7> kNames = {{
    {FeatureMap::Relu, "relu"},
    {FeatureMap::Square, "square"},
    {FeatureMap::Identity, "identity"},
    {FeatureMap::Taylor2, "taylor2"},
    {FeatureMap::Elu1, "elu1"},
    {FeatureMap::Exp, "exp"},
    {FeatureMap::Softmax, "softmax"},
}};

}  // namespace

std::string to_string(FeatureMap map) {
  for (const auto& [value, text] : kNames)
    if (value == map) return std::string(text);
  return "?";
}

std::optional<FeatureMap> feature_map_named(std::string_view name) {
  for (const auto& [map, text] : kNames)
    if (name == text) return map;
  return std::nullopt;
}

FeatureMap parse_feature_map(const std::string& name) {
  if (const std::optional<FeatureMap> map = feature_map_named(name)) return *map;
  throw UsageError(
      "feature map must be relu, square, identity, taylor2, elu1, exp or softmax, not '" + name +
      "'");
}

bool is_rational(FeatureMap map) { return is_entrywise(map) || map == FeatureMap::Taylor2; }

bool is_entrywise(FeatureMap map) {
  return map == FeatureMap::Relu || map == FeatureMap::Square || map == FeatureMap::Identity;
}

bool is_trainable(FeatureMap map) {
  return map == FeatureMap::Relu || map == FeatureMap::Square || map == FeatureMap::Softmax;
}

std::optional<FeatureMap> parse_activation(std::string_view name) {
  const std::optional<FeatureMap> map = feature_map_named(name);
  if (map && is_entrywise(*map)) return map;
  return std::nullopt;
}

}  // namespace kernelrank
