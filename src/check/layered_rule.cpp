// The layered-head checks; see layered_rule.hpp.
#include "check/layered_rule.hpp"

#include <array>
#include <cstdint>
#include <string>

#include "check/status.hpp"

namespace krcheck {
namespace {

std::string layer_list(const LayeredHead& head) {
  std::string text;
  for (const auto& layer : head.layers)
    text += (text.empty() ? "{" : ", ") + std::to_string(layer.size);
  return text + "}";
}

std::string profile_text(int w, int a, int b) {
  return "(w=" + std::to_string(w) + ", u1=" + std::to_string(a) + ", u2=" + std::to_string(b) +
         ")";
}

// The values times their least common denominator, and that denominator.
std::vector<BigInt> over_common_denominator(const std::vector<Rational>& values, BigInt& scale) {
  scale = 1;
  for (const Rational& value : values) scale = lcm(scale, denominator(value));
  std::vector<BigInt> scaled;
  for (const Rational& value : values)
    scaled.push_back(numerator(value) * (scale / denominator(value)));
  return scaled;
}

}  // namespace

std::vector<Rational> layered_kernel(const LayeredHead& head, BigInt& features) {
  const auto m = static_cast<std::size_t>(head.m);
  std::vector<BigInt> row(m + 1, BigInt(0));  // row[j] = C(u, j)
  row[0] = 1;
  std::vector<Rational> kernel;
  for (std::size_t u = 0; u <= m; ++u) {
    for (std::size_t j = u; j >= 1; --j) row[j] += row[j - 1];
    Rational value = 0;
    for (const auto& layer : head.layers)
      value += layer.coefficient * row[static_cast<std::size_t>(layer.size)];
    kernel.push_back(value);
  }
  features = 0;  // row is now C(m, .)
  for (const auto& layer : head.layers) features += row[static_cast<std::size_t>(layer.size)];
  return kernel;
}

BigInt check_layered_head(const LayeredHead& head, std::ostream& out) {
  const bool pf = head.model_class == ModelClass::PF;
  out << "c layered head: m=" << head.m << ", class " << (pf ? "PF" : "NK") << ", layers "
      << layer_list(head) << "\n";
  BigInt features;
  const std::vector<Rational> kernel = layered_kernel(head, features);
  if (kernel[0] <= 0)  // K(0) = c_0, the first layer being j = 0
    fail_check(head.file, head.layers.front().line,
               "K(0) = c_0 = " + to_text(kernel[0]) +
                   " is not > 0: the instance (q, q, q) would have no positive denominator");
  for (const auto& layer : head.layers)
    if (pf && layer.coefficient < 0)
      fail_check(head.file, layer.line,
                 "class=PF needs every c_j >= 0 (phiQ entries), but c_" +
                     std::to_string(layer.size) + " = " + to_text(layer.coefficient));
  for (std::size_t u = 0; u < kernel.size(); ++u)
    if (!pf && kernel[u] < 0)
      fail_check(head.file, head.header_line,
                 "class=NK needs K(u) >= 0 for u = 0.." + std::to_string(head.m) + ", but K(" +
                     std::to_string(u) + ") = " + to_text(kernel[u]) + " < 0");
  out << "c kernel: K(0) = " << to_text(kernel[0]) << " > 0, "
      << (pf ? "every c_j >= 0" : "K(u) >= 0 for every u") << "\n";
  if (features != head.declared_features)
    fail_check(head.file, head.header_line,
               "r=" + head.declared_features.str() + ", but the layers " + layer_list(head) +
                   " at m=" + std::to_string(head.m) + " have sum_j C(m, j) = " + features.str() +
                   " features");
  out << "c features: r = sum over the layers of C(" << head.m << ", j) = " << features << "\n";

  // y - target = num / (den * scale) with integers k(u) = K(u) L_K, scale = L_w and
  // product(u) = k(u) L_w F_w(u): num = sum k(x) (L_w F_w(x) - L_w target), den = sum k(x).
  BigInt kernel_scale;
  const std::vector<BigInt> k = over_common_denominator(kernel, kernel_scale);
  std::uint64_t profiles = 0;
  // The largest error so far, |num| / (den * scale), and the first profile with it; the first
  // profile, (0, 0, 0), stands for every profile when all errors are 0.
  BigInt worst_size = 0;
  BigInt worst_below = 1;
  std::array<int, 3> worst_at{};
  for (int w = 0; w <= head.m; ++w) {
    const auto& correction = head.corrections[static_cast<std::size_t>(w)];
    std::vector<Rational> readout;  // F_w(u) = (w - u) + g_w(u)
    for (int u = 0; u <= w; ++u)
      readout.push_back(Rational(w - u) + correction.values[static_cast<std::size_t>(u)]);
    BigInt scale;
    const std::vector<BigInt> f = over_common_denominator(readout, scale);
    std::vector<BigInt> product;
    for (std::size_t u = 0; u < f.size(); ++u) product.push_back(k[u] * f[u]);
    for (int a = 0; a <= w; ++a) {
      const auto ua = static_cast<std::size_t>(a);
      for (int b = a; b <= w; ++b) {
        const auto ub = static_cast<std::size_t>(b);
        const BigInt den = k[0] + k[ua] + k[ub];
        const BigInt num = product[0] + product[ua] + product[ub] - (w - b) * scale * den;
        const BigInt size = abs(num);
        const BigInt below = den * scale;
        ++profiles;
        if (2 * size >= below)  // also when den <= 0, which K(0) > 0 and K >= 0 exclude
          fail_check(head.file, correction.line,
                     "profile " + profile_text(w, a, b) +
                         (den <= 0 ? ": denominator K(0) + K(u1) + K(u2) = " +
                                         to_text(Rational(den, kernel_scale)) + " is not > 0"
                                   : ": y = " + to_text(Rational(w - b) + Rational(num, below)) +
                                         ", target " + std::to_string(w - b) + ", error " +
                                         to_text(Rational(size, below)) + " >= 1/2"));
        if (size * worst_below > worst_size * below) {
          worst_size = size;
          worst_below = below;
          worst_at = {w, a, b};
        }
      }
    }
  }
  out << "c profiles: " << profiles << " checked, max error "
      << to_text(Rational(worst_size, worst_below)) << " at "
      << profile_text(worst_at[0], worst_at[1], worst_at[2]) << "\n";
  out << "c upper: r <= " << features << "\n";
  return features;
}

}  // namespace krcheck
