// Built-in models: rank1-mean (L1), dense softmax (L5), product realisation (L6).
#include "kernelrank/models/builtin_models.hpp"

#include "kernelrank/core/errors.hpp"

#include <gmp.h>

namespace kernelrank {
namespace {

void require_width(const Token& token, int m) {
  if (token.width() != m)
    throw ModelDomainError("token " + token.to_string() + " has width " +
                           std::to_string(token.width()) +
                           ", the model expects m=" + std::to_string(m));
}

Rational power_of_inverse(const Rational& base, int exponent) {
  Rational result = 1;
  Rational factor = 1 / base;
  for (int e = exponent; e > 0; e >>= 1) {
    if (e & 1) result *= factor;
    factor *= factor;
  }
  return result;
}

class Rank1MeanForm : public OverlapForm {
 public:
  explicit Rank1MeanForm(int n) : n_(n) {}
  Rational kernel(int, int) const override { return 1; }
  Rational readout(int query_weight, int overlap) const override {
    if (n_ == 1) return overlap;
    // In rationals: n * overlap overflows int for n from a model file or --n.
    return (Rational(n_) * overlap - query_weight) / (n_ - 1);
  }

 private:
  int n_;
};

class Rank1MeanModel : public Model {
 public:
  Rank1MeanModel(int m, int n) : m_(m), n_(n), form_(n) {}
  std::string description() const override {
    return "rank1-mean (phi = 1, v(z) = z, readout for n=" + std::to_string(n_) + ")";
  }
  int width() const override { return m_; }
  std::optional<int> feature_count() const override { return 1; }
  Rational kernel(const Token& q, const Token& z, int, int) const override {
    require_width(q, m_);
    require_width(z, m_);
    return 1;
  }
  Rational readout(const Token& q, const Token& z, int, int) const override {
    require_width(q, m_);
    return form_.readout(q.weight(), inner(q, z));
  }
  const OverlapForm* overlap_form() const override { return &form_; }
  Classification classify() const override {
    return {ModelClass::PositiveFeatures, "phi_Q = phi_K = 1 (one nonnegative feature)"};
  }

 private:
  int m_, n_;
  Rank1MeanForm form_;
};

class SoftmaxForm : public OverlapForm {
 public:
  explicit SoftmaxForm(Rational base) : base_(std::move(base)) {}
  Rational kernel(int, int overlap) const override { return power_of_inverse(base_, overlap); }
  Rational readout(int, int overlap) const override { return overlap; }

 private:
  Rational base_;
};

class SoftmaxModel : public Model {
 public:
  SoftmaxModel(int m, Rational base) : m_(m), base_(base), form_(std::move(base)) {}
  std::string description() const override {
    return "dense softmax base " + to_string(base_) + " (alpha = B^-<q,z>, F_q(z) = <q,z>)";
  }
  int width() const override { return m_; }
  Rational kernel(const Token& q, const Token& z, int, int) const override {
    require_width(q, m_);
    require_width(z, m_);
    return form_.kernel(q.weight(), inner(q, z));
  }
  Rational readout(const Token& q, const Token& z, int, int) const override {
    require_width(q, m_);
    require_width(z, m_);
    return inner(q, z);
  }
  const OverlapForm* overlap_form() const override { return &form_; }
  Classification classify() const override {
    return {ModelClass::NonnegativeKernel,
            "alpha = B^-<q,z> > 0 (dense scores; the product model realises it with 2^m "
            "nonnegative features)"};
  }

 protected:
  int m_;
  Rational base_;
  SoftmaxForm form_;
};

// Tensor-product features, coordinate 1 most significant (as Token::to_index).
std::vector<Rational> tensor_features(const Token& x, const Rational& zero_entry_second,
                                      const Rational& one_entry_first,
                                      const Rational& one_entry_second) {
  std::vector<Rational> features{1};
  for (int i = 0; i < x.width(); ++i) {
    const Rational first = x.get(i) ? one_entry_first : Rational(1);
    const Rational second = x.get(i) ? one_entry_second : zero_entry_second;
    std::vector<Rational> next;
    next.reserve(features.size() * 2);
    for (const Rational& f : features) {
      next.push_back(f * first);
      next.push_back(f * second);
    }
    features = std::move(next);
  }
  return features;
}

// Same readout and overlap form as softmax; the kernel is an explicit dot
// product of the 2^m-entry tensor features. The Kronecker identity
// <f(q), g(z)> = B^-<q,z> (tested for small m) is what lets the profile
// evaluator treat the product model like softmax.
class ProductModel : public SoftmaxModel {
 public:
  using SoftmaxModel::SoftmaxModel;
  std::string description() const override {
    return "product realisation of softmax base " + to_string(base_) + " with 2^" +
           std::to_string(m_) + " nonnegative features";
  }
  std::optional<int> feature_count() const override { return 1 << m_; }
  Rational kernel(const Token& q, const Token& z, int, int) const override {
    require_width(q, m_);
    require_width(z, m_);
    const std::vector<Rational> f = product_query_features(q);
    const std::vector<Rational> g = product_key_features(z, base_);
    Rational dot = 0;
    for (std::size_t i = 0; i < f.size(); ++i)
      if (f[i] != 0) dot += f[i] * g[i];
    return dot;
  }
  Classification classify() const override {
    return {ModelClass::PositiveFeatures,
            "tensor-product features with entries 0, 1 and 1/B >= 0 (2^m features)"};
  }
};

Rational positive_base(const std::map<std::string, std::string>& params, std::string_view name) {
  const auto it = params.find("base");
  if (it == params.end()) throw UsageError(std::string(name) + " needs a base (base=<B>)");
  Rational base;
  try {
    base = parse_rational(it->second);
  } catch (const RationalParseError& e) {
    throw UsageError("base '" + it->second + "' is not an exact number: " + e.what());
  }
  if (base <= 0) throw UsageError("base must be positive, not " + it->second);
  return base;
}

// Kernel values B^-s (s <= m) are exact rationals of about m * bits(B) bits. A short
// base such as 1e100000 would make each one hundreds of megabytes at m = 4096, so the
// size is refused up front.
constexpr unsigned long long kMaxKernelBits = 1ULL << 22;

void require_modest_base(const Rational& base, int m, std::string_view name) {
  const unsigned long long base_bits = mpz_sizeinbase(mpq_numref(base.backend().data()), 2) +
                                       mpz_sizeinbase(mpq_denref(base.backend().data()), 2);
  const unsigned long long needed = base_bits * static_cast<unsigned long long>(m);
  if (needed > kMaxKernelBits)
    throw ResourceError(
        std::string(name) + " base " +
        (base_bits > 64 ? "with " + std::to_string(base_bits) + " bits" : to_string(base)) +
        " at m=" + std::to_string(m) + ": kernel values B^-<q,z> would need up to " +
        std::to_string(needed) + " bits each (limit " + std::to_string(kMaxKernelBits) +
        "); use a base with a shorter numerator and denominator or a smaller m");
}

void require_width_parameter(int m) {
  if (m < 1 || m > kMaxTokenWidth)
    throw UsageError("m must be in 1.." + std::to_string(kMaxTokenWidth) + ", not " +
                     std::to_string(m));
}

}  // namespace

std::vector<Rational> product_query_features(const Token& q) {
  return tensor_features(q, Rational(0), Rational(0), Rational(1));
}

std::vector<Rational> product_key_features(const Token& z, const Rational& base) {
  return tensor_features(z, Rational(1), Rational(1), 1 / base);
}

std::unique_ptr<Model> make_rank1_mean(int m, int n) {
  require_width_parameter(m);
  if (n < 1) throw UsageError("rank1-mean needs a length n >= 1, not " + std::to_string(n));
  return std::make_unique<Rank1MeanModel>(m, n);
}

std::unique_ptr<Model> make_softmax(int m, const Rational& base) {
  require_width_parameter(m);
  if (base <= 0) throw UsageError("softmax base must be positive");
  require_modest_base(base, m, "softmax");
  return std::make_unique<SoftmaxModel>(m, base);
}

std::unique_ptr<Model> make_product(int m, const Rational& base) {
  require_width_parameter(m);
  if (m > kMaxProductWidth)
    throw ResourceError("the product model has 2^m features; m=" + std::to_string(m) + " exceeds " +
                        std::to_string(kMaxProductWidth) +
                        " (use the softmax built-in, which has the same kernel)");
  if (base <= 0) throw UsageError("product base must be positive");
  require_modest_base(base, m, "product");
  return std::make_unique<ProductModel>(m, base);
}

std::unique_ptr<Model> make_builtin_model(std::string_view name, int m,
                                          const std::map<std::string, std::string>& params) {
  auto reject_unknown = [&](std::initializer_list<std::string_view> allowed) {
    for (const auto& [key, value] : params) {
      bool ok = false;
      for (std::string_view a : allowed) ok = ok || key == a;
      if (!ok)
        throw UsageError("unknown parameter '" + key + "' for built-in model " + std::string(name));
    }
  };
  if (name == "rank1-mean") {
    reject_unknown({"n"});
    const auto it = params.find("n");
    if (it == params.end()) throw UsageError("rank1-mean needs the length n (n=<n>)");
    int n = 0;
    try {
      std::size_t used = 0;
      n = std::stoi(it->second, &used);
      if (used != it->second.size()) throw std::invalid_argument("junk");
    } catch (const std::exception&) {
      throw UsageError("rank1-mean: n must be an integer, not '" + it->second + "'");
    }
    return make_rank1_mean(m, n);
  }
  if (name == "softmax") {
    reject_unknown({"base"});
    return make_softmax(m, positive_base(params, name));
  }
  if (name == "product") {
    reject_unknown({"base"});
    return make_product(m, positive_base(params, name));
  }
  throw UsageError("unknown built-in model '" + std::string(name) +
                   "' (expected rank1-mean, softmax or product)");
}

}  // namespace kernelrank
