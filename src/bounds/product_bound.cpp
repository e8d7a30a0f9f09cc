// Products of codes: the explicit codes, the constructions tried per width, T and the
// certificate; see product_bound.hpp.
#include "kernelrank/bounds/product_bound.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <mutex>
#include <numeric>
#include <optional>

namespace kernelrank {
namespace {

using Polynomial = std::vector<Integer>;

// a * b below degree `size`.
Polynomial times(const Polynomial& a, const Polynomial& b, std::size_t size) {
  Polynomial out(std::min(size, a.size() + b.size() - 1), Integer(0));
  for (std::size_t i = 0; i < a.size() && i < out.size(); ++i)
    if (a[i] != 0)
      for (std::size_t j = 0; j < b.size() && i + j < out.size(); ++j)
        if (b[j] != 0) out[i + j] += a[i] * b[j];
  return out;
}

// base^exponent below degree `size`, by squaring.
Polynomial raised(Polynomial base, std::uint64_t exponent, std::size_t size) {
  Polynomial out{Integer(1)};
  for (; exponent > 0; exponent /= 2) {
    if (exponent % 2 == 1) out = times(out, base, size);
    if (exponent > 1) base = times(base, base, size);
  }
  return out;
}

std::string bits(std::uint64_t word, int length) {
  std::string text;
  for (int k = 0; k < length; ++k) text += (word >> k & 1U) != 0 ? '1' : '0';
  return text;
}

// All words of weight `weight` in the span of `generators` (bit k = coordinate k).
std::vector<std::string> span_words(const std::vector<std::uint64_t>& generators, int length,
                                    int weight) {
  std::vector<std::string> out;
  for (std::uint64_t message = 0; message < (std::uint64_t{1} << generators.size()); ++message) {
    std::uint64_t word = 0;
    for (std::size_t g = 0; g < generators.size(); ++g)
      if ((message >> g & 1U) != 0) word ^= generators[g];
    if (std::popcount(word) == weight) out.push_back(bits(word, length));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The weight nearest L/2 (from below first) that is coprime to L.
int checksum_weight(int length) {
  for (int offset = 0;; ++offset)
    for (const int w : {length / 2 + offset, length / 2 - offset})
      if (w >= 1 && w < length && std::gcd(w, length) == 1) return w;
}

ProductBlock checksum_block(int length, std::uint64_t copies) {
  ProductBlock block;
  block.checksum = true;
  block.length = length;
  block.weight = checksum_weight(length);
  block.copies = copies;
  block.name = "GS(" + std::to_string(length) + "," + std::to_string(block.weight) + ",0)";
  return block;
}

ProductBlock explicit_block(const std::string& name, std::vector<std::string> words,
                            std::uint64_t copies) {
  ProductBlock block;
  block.name = name;
  block.length = static_cast<int>(words.front().size());
  block.weight = static_cast<int>(std::count(words.front().begin(), words.front().end(), '1'));
  block.words = std::move(words);
  block.copies = copies;
  return block;
}

// Fills `rest` coordinates: one checksum class, or a single zero coordinate.
void add_remainder(std::vector<ProductBlock>& blocks, int rest) {
  if (rest >= 2) blocks.push_back(checksum_block(rest, 1));
  if (rest == 1) blocks.push_back(explicit_block("one zero coordinate", {"0"}, 1));
}

}  // namespace

std::vector<std::string> hamming8_weight4_words() {
  return span_words({0x0F, 0x33, 0x55, 0xFF}, 8, 4);
}

std::vector<std::string> golay_dodecad_words() {
  // The cyclic [23,12,7] Golay code (generator x^11+x^10+x^6+x^5+x^4+x^2+1), extended by
  // a parity bit: 2576 words of weight 12, distances 8, 12, 16, 24.
  std::vector<std::uint64_t> generators;
  for (int shift = 0; shift < 12; ++shift) {
    std::uint64_t word = std::uint64_t{0b110001110101} << shift;
    word |= static_cast<std::uint64_t>(std::popcount(word) & 1) << 23;
    generators.push_back(word);
  }
  return span_words(generators, 24, 12);
}

namespace {

// A block's pair polynomial, remembered: the candidates share their blocks, and the Golay
// dodecads alone are 6.6 million pairs.
const Polynomial& block_counts(const ProductBlock& block) {
  static std::mutex mutex;
  static std::map<std::string, Polynomial> known;
  const std::string key =
      block.checksum ? block.name : block.name + "/" + std::to_string(block.words.size());
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = known.find(key);
  if (found == known.end())
    found = known
                .emplace(key, block.checksum ? checksum_pair_counts(block.length, block.weight)
                                             : explicit_pair_counts(block.words))
                .first;
  return found->second;
}

}  // namespace

std::string ProductBound::description() const {
  std::string text;
  for (const ProductBlock& b : blocks) {
    if (!text.empty()) text += " x ";
    text += b.name + (b.checksum ? "" : " (" + std::to_string(b.words.size()) + " words)") +
            (b.copies > 1 ? "^" + std::to_string(b.copies) : "");
  }
  return "product of codes " + text + ", " + rows.str() + " rows" +
         (power > 1 ? ", Hadamard power k = " + std::to_string(power) : "");
}

namespace {

// The smallest r with C(r + power - 1, power) > floor_t (theory.md L4'); r = floor_t + 1 for
// power 1.
Integer hadamard_bound(const Integer& floor_t, int power) {
  const auto binomial = [power](const Integer& r) {
    Integer value = 1;
    for (int i = 1; i <= power; ++i) value = value * (r + (power - i)) / i;
    return value;
  };
  Integer low = 1;
  Integer high = floor_t + 1;  // C(high + power - 1, power) >= high > floor_t
  while (low < high) {
    const Integer mid = (low + high) / 2;
    if (binomial(mid) > floor_t)
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

}  // namespace

namespace {

// From `start` on, w(g) = R_n(g)^(2 power) is geometric: w(g + period) = ratio * w(g).
struct GeometricWeights {
  int start = 0;
  int period = 1;
  Integer ratio;
};

// A part g >= 7 of a chain never beats the parts 3 and g - 3 ((n-2)^2 2 (g-4) >= (n-2)(g-1)),
// so R(G) for G >= 6 is a maximum over R(G-6..G-2): six consecutive values equal to q times
// the six `period` earlier make every later value q times its predecessor by `period`.
std::optional<GeometricWeights> geometric_weights(const AmplificationTable& table, int power) {
  for (int last = 7; last <= table.max_gap(); ++last)
    for (int period = 1; period <= 6; ++period) {
      const int start = last - period - 5;
      if (start < 2) continue;
      const Integer& early = table.at(start)->factor;
      const Integer& late = table.at(start + period)->factor;
      if (late % early != 0) continue;
      const Integer q = late / early;
      int i = 1;
      while (i <= 5 && table.at(start + period + i)->factor == q * table.at(start + i)->factor) ++i;
      if (i > 5) return GeometricWeights{start, period, Integer(pow(q, 2U * power))};
    }
  return std::nullopt;
}

// Residues modulo y^period - ratio.
struct Cyclic {
  std::size_t period;
  Integer ratio;

  Polynomial times(const Polynomial& a, const Polynomial& b) const {
    Polynomial out(period, Integer(0)), wrap(period, Integer(0));
    for (std::size_t i = 0; i < period; ++i)
      for (std::size_t j = 0; j < period; ++j) {
        const std::size_t k = i + j;
        if (k < period)
          out[k] += a[i] * b[j];
        else
          wrap[k - period] += a[i] * b[j];
      }
    for (std::size_t k = 0; k < period; ++k) out[k] += wrap[k] * ratio;
    return out;
  }
  Polynomial raised(Polynomial base, std::uint64_t exponent) const {
    Polynomial out(period, Integer(0));
    out[0] = 1;
    for (; exponent > 0; exponent /= 2) {
      if (exponent % 2 == 1) out = times(out, base);
      if (exponent > 1) base = times(base, base);
    }
    return out;
  }
  // sum_g counts[g] y^(degree - g), degree = counts.size() - 1.
  Polynomial reflected(const Polynomial& counts) const {
    Polynomial out(period, Integer(0));
    const std::size_t degree = counts.size() - 1;
    Integer scale = 1;                           // ratio^((degree - g) div period)
    for (std::size_t j = 0; j <= degree; ++j) {  // j = degree - g
      if (j > 0 && j % period == 0) scale *= ratio;
      out[j % period] += counts[degree - j] * scale;
    }
    return out;
  }
};

// A table large enough to find the geometric tail of every n (parts of 2..6 settle fast).
constexpr int kTailSearch = 128;

}  // namespace

ProductBound evaluate_product(std::vector<ProductBlock> blocks, int n, int precision, int power) {
  ProductBound bound;
  bound.rows = 1;
  std::size_t degree = 0;  // of the product polynomial (at most)
  std::vector<const Polynomial*> counts;
  for (const ProductBlock& block : blocks) {
    counts.push_back(&block_counts(block));
    const Polynomial& c = *counts.back();
    if (c.size() > 1 && c[1] != 0) throw InternalError(block.name + " has gap-1 pairs");
    bound.rows *= Integer(pow(c[0], static_cast<unsigned>(block.copies)));
    degree += (c.size() - 1) * block.copies;
  }
  // Sigma = sum_g count_g / w(g): the gaps below the geometric tail one by one, from the
  // product truncated there; the tail by residue classes mod the period, from the product of
  // the reflected polynomials modulo y^period - ratio (docs/bounds.md, "Large widths").
  std::optional<AmplificationTable> table(
      std::in_place, n, static_cast<int>(std::min<std::size_t>(degree, kTailSearch)));
  const std::optional<GeometricWeights> tail = geometric_weights(*table, power);
  if (!tail && degree > kTailSearch) table.emplace(n, static_cast<int>(degree));
  const std::size_t cut = tail ? static_cast<std::size_t>(tail->start) : degree + 1;
  const auto weight = [&](std::size_t g) {  // R_n(g)^(2 power)
    return Integer(pow(table->at(static_cast<int>(g))->factor, static_cast<unsigned>(2 * power)));
  };
  Polynomial head{Integer(1)};
  for (std::size_t b = 0; b < blocks.size(); ++b)
    head = times(head, raised(*counts[b], blocks[b].copies, cut), cut);
  const std::size_t last = tail ? cut + static_cast<std::size_t>(tail->period) : head.size();
  Integer common = 1;
  for (std::size_t g = 2; g < last; ++g) common = lcm(common, weight(g));
  Integer denominator = common;
  Integer numerator_sum = 0;
  if (tail) {
    const Cyclic ring{static_cast<std::size_t>(tail->period), tail->ratio};
    Polynomial folded(ring.period, Integer(0));
    folded[0] = 1;
    for (std::size_t b = 0; b < blocks.size(); ++b)
      folded = ring.times(folded, ring.raised(ring.reflected(*counts[b]), blocks[b].copies));
    for (std::size_t g = 0; g < head.size(); ++g)  // leave the gaps below the tail out
      folded[(degree - g) % ring.period] -=
          head[g] * Integer(pow(ring.ratio, static_cast<unsigned>((degree - g) / ring.period)));
    // The gaps cut + r + period * a sit in folded[(span - r) % period], weighted by
    // ratio^((span - r) div period - a); their weight is w(cut + r) ratio^a.
    const std::size_t span = degree - cut;
    const auto top = static_cast<unsigned>(span / ring.period);
    denominator = common * Integer(pow(ring.ratio, top));
    for (std::size_t r = 0; r < ring.period && r <= span; ++r)
      numerator_sum +=
          folded[(span - r) % ring.period] * (common / weight(cut + r)) *
          Integer(pow(ring.ratio, top - static_cast<unsigned>((span - r) / ring.period)));
  }
  for (std::size_t g = 2; g < head.size(); ++g)
    if (head[g] != 0) numerator_sum += head[g] * (denominator / weight(g));
  bound.blocks = std::move(blocks);
  bound.power = power;
  // T = N^2 / (N + Sigma), over one denominator; one gcd when it becomes a Rational.
  const Integer t_numerator = bound.rows * bound.rows * denominator;
  const Integer t_denominator = bound.rows * denominator + numerator_sum;
  bound.value = Rational(t_numerator, t_denominator);
  bound.precision = precision;
  bound.sum = (Integer(1) << precision) * t_numerator / t_denominator;
  bound.bound =
      bound.rows >= 2 ? hadamard_bound(Integer(bound.sum >> precision), power) : Integer(1);
  return bound;
}

std::vector<ProductBound> product_candidates(int m, int n) {
  std::vector<std::vector<ProductBlock>> options;
  const std::vector<std::pair<std::string, std::vector<std::string>>> codes = {
      {"Hamming (8,4,4) weight-4 words", hamming8_weight4_words()},
      {"Golay dodecads", golay_dodecad_words()}};
  // Past m = 2400 the checksum classes win and the powers of small codes get slow.
  for (const auto& [name, words] : codes) {
    if (m > 2400) break;
    const int length = static_cast<int>(words.front().size());
    for (int copies = m / length; copies >= std::max(1, m / length - 1); --copies) {
      std::vector<ProductBlock> blocks{
          explicit_block(name, words, static_cast<std::uint64_t>(copies))};
      add_remainder(blocks, m - copies * length);
      options.push_back(std::move(blocks));
    }
  }
  // Checksum classes: B blocks of nearly equal length (the closed form costs about
  // L^2 big-integer products per divisor of L, so a block stays below 1500 coordinates).
  const int fewest = std::max(1, (m + 1499) / 1500);
  for (int count = fewest; count <= fewest + 1 && 2 * count <= m; ++count) {
    const int base = m / count;
    const int longer = m % count;  // blocks of length base + 1
    std::vector<ProductBlock> blocks;
    if (longer > 0) blocks.push_back(checksum_block(base + 1, static_cast<std::uint64_t>(longer)));
    blocks.push_back(checksum_block(base, static_cast<std::uint64_t>(count - longer)));
    options.push_back(std::move(blocks));
  }
  // Hadamard powers (L4') help only at small widths (at n = 3 k = 1 wins from m = 48 on,
  // docs/bounds.md), and T_2k of a wide product is a large exact computation.
  const int max_power = m <= kMaxHadamardPowerWidth ? kMaxProducerPower : 1;
  std::vector<ProductBound> out;
  for (const auto& blocks : options)
    for (int power = 1; power <= max_power; ++power)
      out.push_back(evaluate_product(blocks, n, 32, power));
  // Best bound first; on ties the plain rule (smaller k), then the larger T.
  std::stable_sort(out.begin(), out.end(), [](const ProductBound& a, const ProductBound& b) {
    if (a.bound != b.bound) return a.bound > b.bound;
    if (a.power != b.power) return a.power < b.power;
    return a.value > b.value;
  });
  return out;
}

std::string product_certificate(const CertificateTask& task, const ProductBound& bound) {
  std::string text = "kernelrank-certificate 3\n" + task_line(task, "cube") + "\n";
  text += "construction " + single_line(bound.description() + ", complement queries") + "\n";
  text += "rule trace-product precision=" + std::to_string(bound.precision) +
          (bound.power > 1 ? " power=" + std::to_string(bound.power) : "") + "\n";
  text += "blocks " + std::to_string(bound.blocks.size()) + "\n";
  for (const ProductBlock& b : bound.blocks) {
    if (b.checksum) {
      text += "block checksum length=" + std::to_string(b.length) +
              " weight=" + std::to_string(b.weight) + " residue=" + std::to_string(b.residue) +
              " copies=" + std::to_string(b.copies) + "\n";
      continue;
    }
    text += "block explicit length=" + std::to_string(b.length) +
            " copies=" + std::to_string(b.copies) + " words=" + std::to_string(b.words.size()) +
            "\n";
    for (const std::string& w : b.words) text += "word " + w + "\n";
  }
  text += "sum " + bound.sum.str() + "\nclaim r >= " + bound.bound.str() + "\nend\n";
  return text;
}

}  // namespace kernelrank
