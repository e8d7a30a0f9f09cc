// Structured binary codes from their definitions; see structured_codes.hpp.
//
// Every construction here is a short computation from the textbook definition (MacWilliams
// and Sloane, The Theory of Error-Correcting Codes: Reed-Muller codes ch. 13, the dual BCH
// code ch. 15, quadratic-residue codes ch. 16, Paley's Hadamard matrices ch. 2). The tests
// (tests/test_structured_codes.cpp) check dimensions, minimum distances and weight
// enumerators against the published values with independent brute-force counts.
#include "kernelrank/core/structured_codes.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {
namespace {

std::uint64_t low_mask(int m) { return m >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << m) - 1; }

// ---- GF(2^v), elements as bit patterns in the polynomial basis --------------------------

class BinaryField {
 public:
  explicit BinaryField(int v) : v_(v), size_(1U << v) {
    // The first polynomial x^v + ... + 1 (ascending as an integer) for which x has order
    // 2^v - 1; such a polynomial is irreducible and primitive.
    for (std::uint32_t poly = (1U << v) | 1U; poly < (2U << v); poly += 2) {
      modulus_ = poly;
      if (order_of_x() == size_ - 1) return;
    }
    throw InternalError("GF(2^" + std::to_string(v) + "): no primitive polynomial found");
  }

  std::uint32_t size() const { return size_; }
  std::uint32_t modulus() const { return modulus_; }

  std::uint32_t multiply(std::uint32_t a, std::uint32_t b) const {
    std::uint32_t product = 0;
    while (b != 0) {
      if (b & 1U) product ^= a;
      b >>= 1;
      a <<= 1;
      if (a & size_) a ^= modulus_;
    }
    return product;
  }

  // Tr(y) = y + y^2 + ... + y^(2^(v-1)), an element of GF(2) = {0, 1}.
  int trace(std::uint32_t y) const {
    std::uint32_t total = 0;
    for (int i = 0; i < v_; ++i) {
      total ^= y;
      y = multiply(y, y);
    }
    if (total > 1) throw InternalError("GF(2^v): a trace outside GF(2)");
    return static_cast<int>(total);
  }

 private:
  std::uint32_t order_of_x() const {
    std::uint32_t power = 2, order = 1;  // x^1
    while (power != 1) {
      power = multiply(power, 2);
      if (++order > size_) return 0;  // x is not invertible: reducible modulus
    }
    return order;
  }

  int v_;
  std::uint32_t size_;
  std::uint32_t modulus_ = 0;
};

// ---- GF(2)[x] as bit masks -----------------------------------------------------------------

int degree(std::uint64_t p) { return p == 0 ? -1 : 63 - std::countl_zero(p); }

std::uint64_t poly_remainder(std::uint64_t a, std::uint64_t b) {
  const int db = degree(b);
  for (int da = degree(a); da >= db; da = degree(a)) a ^= b << (da - db);
  return a;
}

std::uint64_t poly_gcd(std::uint64_t a, std::uint64_t b) {
  while (b != 0) {
    const std::uint64_t r = poly_remainder(a, b);
    a = b;
    b = r;
  }
  return a;
}

bool is_prime(int p) {
  if (p < 2) return false;
  for (int d = 2; d * d <= p; ++d)
    if (p % d == 0) return false;
  return true;
}

int quadratic_character(int a, int q) {
  a %= q;
  if (a < 0) a += q;
  if (a == 0) return 0;
  for (int x = 1; x < q; ++x)
    if (x * x % q == a) return 1;
  return -1;
}

LinearCode checked(LinearCode code) {
  if (gf2_rank(code.generators) != code.dimension())
    throw InternalError(code.name + ": the generator rows are linearly dependent");
  return code;
}

}  // namespace

int gf2_rank(std::vector<std::uint64_t> rows) {
  int rank = 0;
  for (int bit = 63; bit >= 0; --bit) {
    const std::uint64_t b = std::uint64_t{1} << bit;
    auto pivot = std::find_if(rows.begin() + rank, rows.end(),
                              [b](std::uint64_t r) { return (r & b) != 0; });
    if (pivot == rows.end()) continue;
    std::iter_swap(rows.begin() + rank, pivot);
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (static_cast<int>(i) != rank && (rows[i] & b) != 0)
        rows[i] ^= rows[static_cast<std::size_t>(rank)];
    ++rank;
  }
  return rank;
}

LinearCode reed_muller_code(int r, int v) {
  if (v < 1 || v > 6) throw UsageError("RM(r,v): v must be in 1..6 (length 2^v <= 64)");
  if (r < 0 || r > v) throw UsageError("RM(r,v): r must be in 0..v");
  LinearCode code;
  code.m = 1 << v;
  code.name = "RM(" + std::to_string(r) + "," + std::to_string(v) + ")";
  // Monomials by degree, then by their variable set as a bit mask.
  for (int d = 0; d <= r; ++d)
    for (std::uint32_t vars = 0; vars < (1U << v); ++vars) {
      if (std::popcount(vars) != d) continue;
      std::uint64_t row = 0;
      for (std::uint32_t x = 0; x < (1U << v); ++x)
        if ((x & vars) == vars) row |= std::uint64_t{1} << x;
      code.generators.push_back(row);
    }
  return checked(std::move(code));
}

LinearCode dual_bch_code(int v) {
  if (v != 3 && v != 5) throw UsageError("dual BCH: v must be 3 or 5 (odd, length 2^v <= 64)");
  const BinaryField field(v);
  LinearCode code;
  code.m = 1 << v;
  code.name = "dual-BCH(" + std::to_string(code.m) + ")";
  auto evaluations = [&](auto f) {
    std::uint64_t row = 0;
    for (std::uint32_t x = 0; x < field.size(); ++x)
      if (f(x) != 0) row |= std::uint64_t{1} << x;
    return row;
  };
  code.generators.push_back(evaluations([](std::uint32_t) { return 1; }));
  for (int k = 0; k < v; ++k) {
    const std::uint32_t b = 1U << k;
    code.generators.push_back(
        evaluations([&](std::uint32_t x) { return field.trace(field.multiply(b, x)); }));
    code.generators.push_back(evaluations([&](std::uint32_t x) {
      return field.trace(field.multiply(b, field.multiply(x, field.multiply(x, x))));
    }));
  }
  return checked(std::move(code));
}

LinearCode extended_qr_code(int p) {
  if (!is_prime(p) || p + 1 > 64 || (p % 8 != 1 && p % 8 != 7))
    throw UsageError("extended QR code: p must be a prime = +-1 mod 8 with p + 1 <= 64, got " +
                     std::to_string(p));
  std::uint64_t idempotent = 0;
  for (int r = 1; r < p; ++r) idempotent |= std::uint64_t{1} << (r * r % p);
  const std::uint64_t x_p_minus_1 = (std::uint64_t{1} << p) | 1U;
  const std::uint64_t generator = poly_gcd(x_p_minus_1, idempotent);
  const int k = p - degree(generator);
  const int dimension = (p + 1) / 2;
  std::vector<std::uint64_t> cyclic;
  for (int i = 0; i < k; ++i) cyclic.push_back(generator << i);
  if (k == dimension - 1) {
    cyclic.push_back(low_mask(p));  // the even-like code plus the all-ones word
  } else if (k != dimension) {
    throw InternalError("extended QR code: the generator has degree " +
                        std::to_string(degree(generator)));
  }
  LinearCode code;
  code.m = p + 1;
  code.name = "QR(" + std::to_string(p + 1) + ")";
  for (std::uint64_t row : cyclic)
    code.generators.push_back(std::popcount(row) % 2 != 0 ? row | (std::uint64_t{1} << p) : row);
  return checked(std::move(code));
}

std::vector<std::uint64_t> codewords_of_weight(const LinearCode& code, int w) {
  const int k = code.dimension();
  if (k > 32) throw ResourceError(code.name + ": more than 2^32 codewords to enumerate");
  std::vector<std::uint64_t> out;
  std::uint64_t word = 0;
  if (w <= 0) out.push_back(0);
  const std::uint64_t count = std::uint64_t{1} << k;
  for (std::uint64_t i = 1; i < count; ++i) {
    word ^= code.generators[static_cast<std::size_t>(std::countr_zero(i))];
    if (w < 0 || std::popcount(word) == w) out.push_back(word);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> weight_distribution(const LinearCode& code) {
  std::vector<std::uint64_t> a(static_cast<std::size_t>(code.m) + 1, 0);
  const int k = code.dimension();
  if (k > 32) throw ResourceError(code.name + ": more than 2^32 codewords to enumerate");
  std::uint64_t word = 0;
  a[0] = 1;
  for (std::uint64_t i = 1; i < (std::uint64_t{1} << k); ++i) {
    word ^= code.generators[static_cast<std::size_t>(std::countr_zero(i))];
    ++a[static_cast<std::size_t>(std::popcount(word))];
  }
  return a;
}

int minimum_distance(const LinearCode& code) {
  const std::vector<std::uint64_t> a = weight_distribution(code);
  for (std::size_t w = 1; w < a.size(); ++w)
    if (a[w] != 0) return static_cast<int>(w);
  return 0;
}

std::vector<std::uint64_t> paley_hadamard_words(int q) {
  if (!is_prime(q) || q % 4 != 3 || q + 1 > 64)
    throw UsageError("Paley Hadamard: q must be a prime = 3 mod 4 with q + 1 <= 64, got " +
                     std::to_string(q));
  const int n = q + 1;
  // Index 0 is the extra point, 1..q are the elements 0..q-1 of GF(q).
  std::vector<std::vector<int>> h(static_cast<std::size_t>(n),
                                  std::vector<int>(static_cast<std::size_t>(n), 0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      int s = 0;
      if (i == 0 && j > 0) s = 1;
      if (i > 0 && j == 0) s = -1;
      if (i > 0 && j > 0) s = quadratic_character(j - i, q);
      h[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = s + (i == j ? 1 : 0);
    }
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k) {
      int dot = 0;
      for (int j = 0; j < n; ++j)
        dot += h[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] *
               h[static_cast<std::size_t>(k)][static_cast<std::size_t>(j)];
      if (dot != (i == k ? n : 0)) throw InternalError("Paley Hadamard: H H^T != nI");
    }
  std::vector<std::uint64_t> words;
  for (int i = 1; i < n; ++i) {
    std::uint64_t word = 0;
    for (int j = 0; j < n; ++j) {
      const int signed_entry = h[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] *
                               h[0][static_cast<std::size_t>(j)];
      if (signed_entry < 0) word |= std::uint64_t{1} << j;
    }
    words.push_back(word);
    words.push_back(~word & low_mask(n));
  }
  std::sort(words.begin(), words.end());
  return words;
}

std::vector<Token> tokens_of_masks(int m, const std::vector<std::uint64_t>& masks) {
  std::vector<Token> tokens;
  tokens.reserve(masks.size());
  for (std::uint64_t mask : masks) {
    Token token(m);
    for (std::uint64_t rest = mask; rest != 0; rest &= rest - 1)
      token.set(std::countr_zero(rest), true);
    tokens.push_back(std::move(token));
  }
  return tokens;
}

std::vector<std::uint64_t> restrict_words(const std::vector<std::uint64_t>& words, int m,
                                          std::uint64_t fixed, std::uint64_t pattern) {
  if ((pattern & ~fixed) != 0)
    throw UsageError("restrict_words: the pattern lies outside the fixed coordinates");
  std::vector<int> kept;
  for (int p = 0; p < m; ++p)
    if (((fixed >> p) & 1U) == 0) kept.push_back(p);
  std::vector<std::uint64_t> out;
  for (std::uint64_t x : words) {
    if ((x & fixed) != pattern) continue;
    std::uint64_t y = 0;
    for (std::size_t i = 0; i < kept.size(); ++i)
      if ((x >> kept[i]) & 1U) y |= std::uint64_t{1} << i;
    out.push_back(y);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> extend_by_parity_table(const std::vector<std::uint64_t>& words, int m,
                                                  const std::vector<std::uint64_t>& masks,
                                                  const std::vector<int>& table, int t) {
  if (t < 0 || m + t > 64) throw UsageError("extend_by_parity_table: more than 64 coordinates");
  if (masks.size() > 16 || table.size() != (std::size_t{1} << masks.size()))
    throw UsageError("extend_by_parity_table: the table needs 2^(number of masks) entries");
  for (int entry : table)
    if (entry < 0 || entry >= (1 << t))
      throw UsageError("extend_by_parity_table: a table entry has more than t bits");
  std::vector<std::uint64_t> out;
  out.reserve(words.size());
  for (std::uint64_t x : words) {
    std::size_t cell = 0;
    for (std::size_t k = 0; k < masks.size(); ++k)
      cell |= static_cast<std::size_t>(std::popcount(x & masks[k]) & 1) << k;
    out.push_back(x | static_cast<std::uint64_t>(table[cell]) << m);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> evenly_spread_subset(const std::vector<std::uint64_t>& words,
                                                std::size_t subset) {
  if (subset == 0 || subset >= words.size()) return words;
  std::vector<std::uint64_t> out;
  out.reserve(subset);
  // floor(i * size / subset) = i q + floor(i r / subset) with size = q subset + r, which
  // stays within 64 bits for subset < 2^32.
  const std::size_t q = words.size() / subset, r = words.size() % subset;
  for (std::size_t i = 0; i < subset; ++i) out.push_back(words[i * q + i * r / subset]);
  return out;
}

namespace {

// The supports of the cubic Boolean functions x_i x_j x_k + x_a x_b x_c on GF(2)^5 that index
// the cells of the RM(2,5) extensions (a cubic is outside the self-dual RM(2,5), so its
// parity splits the code; quadratic masks would give constant bits).
std::uint64_t cubic_support(std::uint32_t first, std::uint32_t second) {
  std::uint64_t a = 0;
  for (std::uint32_t x = 0; x < 32; ++x) {
    const bool value = ((x & first) == first) != ((x & second) == second);
    if (value) a |= std::uint64_t{1} << x;
  }
  return a;
}

std::string monomial(std::uint32_t vars) {
  std::string s;
  for (int k = 0; k < 5; ++k)
    if ((vars >> k) & 1U) s += "x" + std::to_string(k);
  return s;
}

std::string join(const std::vector<int>& values) {
  std::string s;
  for (int v : values) s += (s.empty() ? "" : ",") + std::to_string(v);
  return s;
}

// The first s coordinates fixed to `ones` ones followed by zeros, then deleted.
std::vector<std::uint64_t> fix_leading(const std::vector<std::uint64_t>& words, int m, int s,
                                       int ones) {
  const std::uint64_t fixed = s >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << s) - 1;
  return restrict_words(words, m, fixed, (std::uint64_t{1} << ones) - 1);
}

std::string fixed_text(int s, int ones) {
  std::string pattern = std::string(static_cast<std::size_t>(ones), '1') +
                        std::string(static_cast<std::size_t>(s - ones), '0');
  return "coordinates 1.." + std::to_string(s) + " fixed to " + pattern + " and deleted";
}

}  // namespace

namespace {

// The codes as they are collected: each spread down to max_words (0 = all) if larger.
struct CodeList {
  std::size_t max_words;
  std::vector<StructuredCode> out;

  void add(std::string construction, int width, std::vector<std::uint64_t> words) {
    if (words.size() < 2) return;
    if (max_words != 0 && words.size() > max_words) {
      construction +=
          ", " + std::to_string(max_words) + " evenly spread of " + std::to_string(words.size());
      words = evenly_spread_subset(words, max_words);
    }
    StructuredCode s;
    s.construction = construction;
    s.code.m = width;
    s.code.construction = construction;
    s.code.words = tokens_of_masks(width, words);
    out.push_back(std::move(s));
  }
};

void add_golay_suffix_codes(CodeList& codes, int m) {
  if (m == 25 || m == 26) {
    // Every dodecad with every suffix: the row-subset search keeps (at most) one suffix per
    // dodecad (two suffixes of one dodecad have gap < 2 one way), i.e. it chooses the tokens.
    const int t = m - 24;
    std::vector<std::uint64_t> words;
    for (const Token& dodecad : golay_dodecads().words)
      for (std::uint64_t suffix = 0; suffix < (std::uint64_t{1} << t); ++suffix)
        words.push_back(dodecad.words()[0] | suffix << 24);
    codes.add("golay dodecads, each with every suffix in {0,1}^" + std::to_string(t) +
                  " at coordinates 25.." + std::to_string(m) +
                  " (the row-subset search picks one per dodecad)",
              m, words);
  }
}

void add_reed_muller_codes(CodeList& codes, int m) {
  if (m >= 25 && m <= 35) {
    const std::vector<std::uint64_t> rm16 = codewords_of_weight(reed_muller_code(2, 5), 16);
    if (m == 32) {
      codes.add("RM(2,5) [32,16,8] weight-16 words", 32, rm16);
      codes.add("dual BCH [32,11,12] weight-16 words", 32,
                codewords_of_weight(dual_bch_code(5), 16));
      codes.add("RM(1,5) weight-16 words (Sylvester Hadamard rows and complements)", 32,
                codewords_of_weight(reed_muller_code(1, 5), 16));
    } else if (m < 32) {
      // Shortening RM(2,5) at a balanced pattern keeps its gaps >= 4 and even.
      const int s = 32 - m, ones = s / 2;
      codes.add("RM(2,5) [32,16,8] weight-16 words with " + fixed_text(s, ones), m,
                fix_leading(rm16, 32, s, ones));
    } else {
      // RM(2,5) extended by t = m - 32 coordinates, a table of four cubic parities (the tables
      // were picked by hill climbing on the cell-averaged trace value; docs/bounds.md).
      const std::uint32_t pairs[4][2] = {{7, 28}, {14, 19}, {11, 21}, {13, 22}};
      std::vector<std::uint64_t> masks;
      std::string mask_text;
      for (const auto& pair : pairs) {
        masks.push_back(cubic_support(pair[0], pair[1]));
        mask_text += (mask_text.empty() ? "" : ", ") + monomial(pair[0]) + "+" + monomial(pair[1]);
      }
      const int t = m - 32;
      static const std::vector<int> tables[3] = {
          {0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0},
          {3, 3, 0, 3, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 3, 0},
          {1, 2, 1, 1, 7, 4, 7, 0, 4, 2, 1, 4, 4, 7, 2, 2},
      };
      const std::vector<int>& table = tables[t - 1];
      codes.add("RM(2,5) weight-16 words x + " + std::to_string(t) +
                    " coordinates F(k(x)), k(x) = parities of x against " + mask_text +
                    " (points of GF(2)^5 = coordinates 1..32 in binary), F = " + join(table),
                m, extend_by_parity_table(rm16, 32, masks, table, t));
    }
  }
}

void add_quadratic_residue_codes(CodeList& codes, int m) {
  if (m >= 33 && m <= 48) {
    const std::vector<std::uint64_t> qr24 = codewords_of_weight(extended_qr_code(47), 24);
    if (m == 48) {
      codes.add("QR(48) [48,24,12] weight-24 words", 48, qr24);
    } else {
      // Shortening the [48,24,12] code at a balanced pattern keeps its gaps >= 6 and even.
      const int s = 48 - m, ones = s / 2;
      codes.add("QR(48) [48,24,12] weight-24 words with " + fixed_text(s, ones), m,
                fix_leading(qr24, 48, s, ones));
    }
  }
}

}  // namespace

std::vector<StructuredCode> structured_bound_codes(int m, std::size_t max_words) {
  CodeList codes{max_words, {}};
  // Paley Hadamard codes: 2q equidistant words; far too few rows, tried because they are free.
  if (m >= 24 && m <= 48 && is_prime(m - 1) && (m - 1) % 4 == 3)
    codes.add("paley hadamard q=" + std::to_string(m - 1) + ": rows and complements", m,
              paley_hadamard_words(m - 1));
  add_golay_suffix_codes(codes, m);
  add_reed_muller_codes(codes, m);
  add_quadratic_residue_codes(codes, m);
  return std::move(codes.out);
}

}  // namespace kernelrank
