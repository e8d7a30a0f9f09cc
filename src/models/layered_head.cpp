// Layered symmetric heads; see layered_head.hpp. The Model here answers through u = |q| -
// <q,z> only, so the profile evaluator decides it at any width; expand_layered_features
// builds the same head feature by feature, so that small widths can be cross-checked by the
// generic evaluator on an independent representation.
#include "kernelrank/models/layered_head.hpp"

#include "kernelrank/core/binomial.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <stdexcept>

namespace kernelrank {
namespace {

class LayeredForm : public OverlapForm {
 public:
  explicit LayeredForm(const LayeredHead& head) : head_(head), kernel_(head.kernel_values()) {}
  Rational kernel(int query_weight, int overlap) const override {
    return kernel_.at(static_cast<std::size_t>(query_weight - overlap));
  }
  Rational readout(int query_weight, int overlap) const override {
    return head_.readout(query_weight, query_weight - overlap);
  }

 private:
  const LayeredHead& head_;
  std::vector<Rational> kernel_;
};

class LayeredModel : public Model {
 public:
  explicit LayeredModel(LayeredHead head) : head_(std::move(head)), form_(head_) {
    set_declared_class(head_.model_class);
  }
  std::string description() const override {
    std::string layers;
    for (const int j : head_.layers) layers += (layers.empty() ? "" : ", ") + std::to_string(j);
    return "layered head, layers {" + layers + "}, r = " + to_string(head_.feature_count());
  }
  int width() const override { return head_.m; }
  std::optional<int> feature_count() const override {
    const Integer r = head_.feature_count();
    if (r > std::numeric_limits<int>::max()) return std::nullopt;
    return static_cast<int>(r);
  }
  Rational kernel(const Token& q, const Token& z, int, int) const override {
    require_width(q, head_.m);
    require_width(z, head_.m);
    return form_.kernel(q.weight(), inner(q, z));
  }
  Rational readout(const Token& q, const Token& z, int, int) const override {
    require_width(q, head_.m);
    require_width(z, head_.m);
    return form_.readout(q.weight(), inner(q, z));
  }
  const OverlapForm* overlap_form() const override { return &form_; }
  Classification classify() const override {
    if (head_.model_class == ModelClass::PositiveFeatures)
      return {ModelClass::PositiveFeatures,
              "layered: every c_j >= 0, so phiQ(q)_S = c_|S| [S in q] and phiK(z)_S = "
              "[S and z disjoint] are >= 0"};
    return {ModelClass::NonnegativeKernel,
            "layered: alpha(q,z) = K(|q \\ z|) and K(u) >= 0 for u = 0..m (signed c_j)"};
  }
  const LayeredHead& head() const { return head_; }

 private:
  static void require_width(const Token& x, int m) {
    if (x.width() != m)
      throw ModelDomainError("token of width " + std::to_string(x.width()) +
                             " given to a layered head of width " + std::to_string(m));
  }
  LayeredHead head_;
  LayeredForm form_;
};

}  // namespace

Integer LayeredHead::feature_count() const {
  Integer total = 0;
  for (const int j : layers) total += binomial(Integer(m), static_cast<std::uint64_t>(j));
  return total;
}

Rational LayeredHead::kernel(int u) const {
  Rational total = 0;
  for (std::size_t i = 0; i < layers.size(); ++i)
    if (layers[i] <= u)
      total += coefficients[i] * binomial(Integer(u), static_cast<std::uint64_t>(layers[i]));
  return total;
}

std::vector<Rational> LayeredHead::kernel_values() const {
  std::vector<Rational> values;
  values.reserve(static_cast<std::size_t>(m) + 1);
  for (int u = 0; u <= m; ++u) values.push_back(kernel(u));
  return values;
}

std::string layered_head_problem(const LayeredHead& head) {
  if (head.m < 1 || head.m > kMaxLayeredWidth)
    return "m = " + std::to_string(head.m) + " is outside 1.." + std::to_string(kMaxLayeredWidth);
  if (head.model_class != ModelClass::PositiveFeatures &&
      head.model_class != ModelClass::NonnegativeKernel)
    return "a layered head is of class PF or NK";
  if (head.layers.empty() || head.layers.size() != head.coefficients.size())
    return "a layered head needs at least one layer, each with one coefficient";
  if (head.layers[0] != 0) return "the first layer must be 0 (K(0) = c_0)";
  for (std::size_t i = 0; i < head.layers.size(); ++i) {
    const int j = head.layers[i];
    if (j < 0 || j > head.m)
      return "layer " + std::to_string(j) + " is outside 0.." + std::to_string(head.m);
    if (i > 0 && j <= head.layers[i - 1]) return "layers must be strictly increasing";
    if (head.model_class == ModelClass::PositiveFeatures && head.coefficients[i] < 0)
      return "class PF with a negative coefficient c_" + std::to_string(j) + " = " +
             to_string(head.coefficients[i]);
  }
  const std::vector<Rational> kernel = head.kernel_values();
  if (kernel[0] <= 0) return "K(0) = " + to_string(kernel[0]) + " is not > 0";
  for (int u = 1; u <= head.m; ++u)
    if (kernel[static_cast<std::size_t>(u)] < 0)
      return "K(" + std::to_string(u) + ") = " + to_string(kernel[static_cast<std::size_t>(u)]) +
             " < 0";
  if (head.correction.size() != static_cast<std::size_t>(head.m) + 1)
    return "the correction needs one row for each w = 0.." + std::to_string(head.m);
  for (int w = 0; w <= head.m; ++w)
    if (head.correction[static_cast<std::size_t>(w)].size() != static_cast<std::size_t>(w) + 1)
      return "the correction row w = " + std::to_string(w) + " needs " + std::to_string(w + 1) +
             " values";
  return "";
}

std::unique_ptr<Model> make_layered_model(LayeredHead head) {
  const std::string problem = layered_head_problem(head);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return std::make_unique<LayeredModel>(std::move(head));
}

const LayeredHead* layered_head_of(const Model& model) {
  const auto* layered = dynamic_cast<const LayeredModel*>(&model);
  return layered == nullptr ? nullptr : &layered->head();
}

std::unique_ptr<Model> expand_layered_features(const LayeredHead& head) {
  if (head.m > 10) throw std::invalid_argument("feature expansion is for m <= 10");
  const std::string problem = layered_head_problem(head);
  if (!problem.empty()) throw std::invalid_argument(problem);
  const int m = head.m;
  const std::size_t cube = std::size_t{1} << m;
  // The feature subsets S, as bit masks over the token's coordinates, layer by layer.
  std::vector<std::uint64_t> subsets;
  std::vector<Rational> subset_coefficient;
  for (std::size_t i = 0; i < head.layers.size(); ++i)
    for (std::uint64_t mask = 0; mask < cube; ++mask)
      if (__builtin_popcountll(mask) == head.layers[i]) {
        subsets.push_back(mask);
        subset_coefficient.push_back(head.coefficients[i]);
      }
  std::vector<Token> tokens;
  std::vector<std::uint64_t> masks;
  for (std::uint64_t index = 0; index < cube; ++index) {
    tokens.push_back(Token::from_index(m, index));
    std::uint64_t mask = 0;
    for (int i = 0; i < m; ++i)
      if (tokens.back().get(i)) mask |= std::uint64_t{1} << i;
    masks.push_back(mask);
  }
  std::vector<TokenFeatures> features(cube);
  for (std::size_t x = 0; x < cube; ++x) {
    RationalVector phi_q(subsets.size(), Rational(0)), phi_k(subsets.size(), Rational(0));
    for (std::size_t f = 0; f < subsets.size(); ++f) {
      if ((subsets[f] & ~masks[x]) == 0) phi_q[f] = subset_coefficient[f];
      if ((subsets[f] & masks[x]) == 0) phi_k[f] = 1;
    }
    // One-hot values: c(q)_z = F_q(z) reads the correction table directly.
    RationalVector value(cube, Rational(0)), readout(cube, Rational(0));
    value[x] = 1;
    const int w = __builtin_popcountll(masks[x]);
    for (std::size_t z = 0; z < cube; ++z) {
      const int s = __builtin_popcountll(masks[x] & masks[z]);
      readout[z] = head.readout(w, w - s);
    }
    features[x].phi_q = {std::move(phi_q)};
    features[x].phi_k = {std::move(phi_k)};
    features[x].value = {std::move(value)};
    features[x].readout_c = {std::move(readout)};
    features[x].readout_e = {Rational(0)};
  }
  auto model =
      std::make_unique<FeatureModel>(m, static_cast<int>(subsets.size()), static_cast<int>(cube), 0,
                                     std::move(tokens), std::move(features));
  return model;
}

std::string layered_head_text(const LayeredHead& head, const std::vector<std::string>& comment) {
  std::string out;
  for (const std::string& line : comment) out += "# " + line + "\n";
  out += "kernelrank-model 1 kind=layered m=" + std::to_string(head.m) +
         " r=" + to_string(head.feature_count()) + " class=" + to_string(head.model_class) + "\n";
  for (std::size_t i = 0; i < head.layers.size(); ++i)
    out += "layer " + std::to_string(head.layers[i]) + " " + to_string(head.coefficients[i]) + "\n";
  for (int w = 0; w <= head.m; ++w) {
    out += "correction " + std::to_string(w);
    for (const Rational& value : head.correction[static_cast<std::size_t>(w)])
      out += " " + to_string(value);
    out += "\n";
  }
  return out;
}

}  // namespace kernelrank
