// Checks and the exact model of a head with a rational map (real_head.hpp).
#include "kernelrank/models/real_head.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/declared_class.hpp"

#include <stdexcept>
#include <utility>

namespace kernelrank {
namespace {

void check_affine(const AffineMap& map, std::size_t rows, int m, const std::string& part) {
  if (map.bias.size() != rows)
    throw std::invalid_argument(part + ": bias has " + std::to_string(map.bias.size()) +
                                " entries, expected " + std::to_string(rows));
  if (map.weight.size() != rows)
    throw std::invalid_argument(part + ": weight has " + std::to_string(map.weight.size()) +
                                " rows, expected " + std::to_string(rows));
  for (const RationalVector& row : map.weight)
    if (row.size() != static_cast<std::size_t>(m))
      throw std::invalid_argument(part + ": a weight row has " + std::to_string(row.size()) +
                                  " entries, expected m = " + std::to_string(m));
}

Rational dot(const RationalVector& a, const RationalVector& b) {
  Rational sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

Rational activate(FeatureMap map, const Rational& x) {
  if (map == FeatureMap::Relu) return x > 0 ? x : Rational(0);
  if (map == FeatureMap::Square) return x * x;
  return x;  // identity
}

// The exact head: features are recomputed per call (no cache), so one object may be
// evaluated from several threads at once.
class RationalHeadModel : public Model {
 public:
  explicit RationalHeadModel(RealHead head) : head_(std::move(head)) {}
  std::string description() const override { return head_.description; }
  int width() const override { return head_.m; }
  std::optional<int> feature_count() const override { return head_.feature_count(); }
  Rational kernel(const Token& q, const Token& z, int, int) const override {
    const RationalVector u = head_.query.apply(q), w = head_.key.apply(z);
    if (head_.map == FeatureMap::Taylor2) {
      const Rational s = dot(u, w);
      return 1 + s + s * s / 2;
    }
    Rational sum = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
      sum += activate(head_.map, u[i]) * activate(head_.map, w[i]);
    return sum;
  }
  Rational readout(const Token& q, const Token& z, int, int) const override {
    return dot(head_.readout_c.apply(q), head_.value.apply(z)) + head_.readout_e.apply(q)[0];
  }
  Classification classify() const override {
    switch (head_.map) {
      case FeatureMap::Relu:
      case FeatureMap::Square:
        return {ModelClass::PositiveFeatures, "relu/square features are >= 0"};
      case FeatureMap::Taylor2:
        return {ModelClass::NonnegativeKernel, "1 + s + s^2/2 = ((s + 1)^2 + 1)/2 > 0"};
      case FeatureMap::Identity:
        return classify_identity_features(head_.m, {{&head_.query, &head_.key}}, false);
      default:
        return {ModelClass::Signed, to_string(head_.map) + " features are not classified"};
    }
  }

 private:
  RealHead head_;
};

}  // namespace

std::optional<int> RealHead::feature_count() const {
  const int dk = key_width();
  if (map == FeatureMap::Softmax) return std::nullopt;
  if (map == FeatureMap::Exp) return static_cast<int>(projection.size());
  if (map == FeatureMap::Taylor2) return 1 + dk + dk * dk;
  return dk;
}

void validate(const RealHead& head) {
  if (head.m < 1) throw std::invalid_argument("m must be at least 1");
  const std::size_t dk = head.query.bias.size(), d = head.value.bias.size();
  if (dk == 0 && head.map != FeatureMap::Softmax)
    throw std::invalid_argument("query: no features (dk = 0)");
  check_affine(head.query, dk, head.m, "query");
  check_affine(head.key, dk, head.m, "key");
  check_affine(head.value, d, head.m, "value");
  check_affine(head.readout_c, d, head.m, "readout_c");
  check_affine(head.readout_e, 1, head.m, "readout_e");
  if (head.map == FeatureMap::Exp) {
    if (head.projection.empty())
      throw std::invalid_argument("projection: exp features need at least one row");
    for (const RationalVector& row : head.projection)
      if (row.size() != dk)
        throw std::invalid_argument("projection: a row has " + std::to_string(row.size()) +
                                    " entries, expected dk = " + std::to_string(dk));
    if (head.scale <= 0) throw std::invalid_argument("scale must be positive");
  } else if (!head.projection.empty()) {
    throw std::invalid_argument("projection: only exp features have one");
  }
}

std::unique_ptr<Model> exact_model(const RealHead& head) {
  if (!is_rational(head.map))
    throw UsageError("the " + to_string(head.map) +
                     " feature map is not rational: use the ball evaluation");
  validate(head);
  return std::make_unique<RationalHeadModel>(head);
}

}  // namespace kernelrank
