// Tests for the structured codes behind the bound table's rows past the random-row ceiling
// (docs/bounds.md, "Past the ceiling").
//
// The expected values come from the literature, not from the code under test:
// * RM(r,v) has dimension sum_{i<=r} C(v,i) and minimum distance 2^(v-r); the weight
//   enumerator of RM(2,5) is A0 = A32 = 1, A8 = A24 = 620, A12 = A20 = 13888, A16 = 36518
//   (MacWilliams and Sloane, ch. 15 Sec. 2; Sloane and Berlekamp 1970).
// * The dual of the double-error-correcting BCH code of length 32 is [32,11,12] with weights
//   12, 16, 20 and A12 = A20 = 496, A16 = 1054 (MacWilliams and Sloane, ch. 15, Fig. 15.3).
// * The extended QR code of length 24 is the Golay code (1/759/2576/759/1); of length 32 it
//   is a doubly-even self-dual [32,16,8] code (same enumerator as RM(2,5), Gleason); of length
//   48 it is [48,24,12] with A12 = 17296, A16 = 535095, A20 = 3995376, A24 = 7681680
//   (Houghten, Lam, Thiel and Parker 2003; MacWilliams and Sloane, ch. 16).
// The enumerations are recomputed here independently: RM codewords by evaluating every
// Boolean polynomial at every point, QR codewords from the span of the cyclic shifts of the
// idempotent (not from the generator polynomial the library uses).
#include "kernelrank/core/structured_codes.hpp"

#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

using namespace kernelrank;

namespace {

std::map<int, std::uint64_t> nonzero(const std::vector<std::uint64_t>& a) {
  std::map<int, std::uint64_t> out;
  for (std::size_t w = 0; w < a.size(); ++w)
    if (a[w] != 0) out[static_cast<int>(w)] = a[w];
  return out;
}

// Row-reduces `rows` over GF(2) into a basis (independent of gf2_rank).
std::vector<std::uint64_t> basis_of(std::vector<std::uint64_t> rows) {
  std::vector<std::uint64_t> basis;
  for (std::uint64_t r : rows) {
    for (std::uint64_t b : basis) r = std::min(r, r ^ b);
    if (r != 0) {
      basis.push_back(r);
      std::sort(basis.rbegin(), basis.rend());
    }
  }
  return basis;
}

// All 2^k combinations of a basis, by plain binary counting (not a Gray code).
std::vector<std::uint64_t> all_combinations(const std::vector<std::uint64_t>& basis) {
  std::vector<std::uint64_t> words;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << basis.size()); ++mask) {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < basis.size(); ++i)
      if ((mask >> i) & 1U) w ^= basis[i];
    words.push_back(w);
  }
  std::sort(words.begin(), words.end());
  return words;
}

std::map<int, std::uint64_t> enumerator_of(const std::vector<std::uint64_t>& words) {
  std::map<int, std::uint64_t> out;
  for (std::uint64_t w : words) ++out[std::popcount(w)];
  return out;
}

// The extended QR code of length p + 1 from the span of the p cyclic shifts of the
// idempotent e(x) = sum of x^r over the nonzero squares r (plus the all-ones word), each
// extended by its parity bit.
std::vector<std::uint64_t> qr_from_idempotent(int p) {
  std::uint64_t e = 0;
  for (int r = 1; r < p; ++r) e |= std::uint64_t{1} << (r * r % p);
  const std::uint64_t all = (std::uint64_t{1} << p) - 1;
  std::vector<std::uint64_t> rows;
  for (int s = 0; s < p; ++s) rows.push_back(((e << s) | (e >> (p - s))) & all);
  rows.push_back(all);
  for (std::uint64_t& r : rows)
    if (std::popcount(r) % 2 != 0) r |= std::uint64_t{1} << p;
  return basis_of(rows);
}

}  // namespace

TEST_CASE("structured codes: RM(2,5) is [32,16,8] with the published weight enumerator") {
  const LinearCode rm = reed_muller_code(2, 5);
  CHECK(rm.m == 32);
  CHECK(rm.dimension() == 16);
  CHECK(minimum_distance(rm) == 8);
  const std::map<int, std::uint64_t> expected{{0, 1},      {8, 620},  {12, 13888}, {16, 36518},
                                              {20, 13888}, {24, 620}, {32, 1}};
  CHECK(nonzero(weight_distribution(rm)) == expected);

  // Independently: evaluate all 2^16 polynomials sum a_S prod_{k in S} x_k, |S| <= 2.
  std::vector<std::uint32_t> monomials;
  for (std::uint32_t s = 0; s < 32; ++s)
    if (std::popcount(s) <= 2) monomials.push_back(s);
  REQUIRE(monomials.size() == 16);
  std::vector<std::uint64_t> words;
  for (std::uint32_t coefficients = 0; coefficients < (1U << 16); ++coefficients) {
    std::uint64_t word = 0;
    for (std::uint32_t x = 0; x < 32; ++x) {
      int value = 0;
      for (std::size_t i = 0; i < 16; ++i)
        if ((coefficients >> i) & 1U) value ^= (x & monomials[i]) == monomials[i] ? 1 : 0;
      if (value) word |= std::uint64_t{1} << x;
    }
    words.push_back(word);
  }
  std::sort(words.begin(), words.end());
  CHECK(words == codewords_of_weight(rm, -1));
  CHECK(enumerator_of(words) == expected);
  const std::vector<std::uint64_t> w16 = codewords_of_weight(rm, 16);
  CHECK(w16.size() == 36518);
  CHECK(std::is_sorted(w16.begin(), w16.end()));
}

TEST_CASE(
    "structured codes: RM(r,v) dimensions and distances; RM(1,5) is the Sylvester Hadamard code") {
  const int binomial[7][7] = {{1},
                              {1, 1},
                              {1, 2, 1},
                              {1, 3, 3, 1},
                              {1, 4, 6, 4, 1},
                              {1, 5, 10, 10, 5, 1},
                              {1, 6, 15, 20, 15, 6, 1}};
  for (int v = 1; v <= 6; ++v)
    for (int r = 0; r <= v; ++r) {
      const LinearCode code = reed_muller_code(r, v);
      int k = 0;
      for (int i = 0; i <= r; ++i) k += binomial[v][i];
      CHECK(code.dimension() == k);
      if (k <= 26) CHECK(minimum_distance(code) == (1 << (v - r)));  // beyond: dimension only
    }
  const std::map<int, std::uint64_t> hadamard{{0, 1}, {16, 62}, {32, 1}};
  CHECK(nonzero(weight_distribution(reed_muller_code(1, 5))) == hadamard);
  CHECK_THROWS_AS(reed_muller_code(2, 7), UsageError);
  CHECK_THROWS_AS(reed_muller_code(3, 2), UsageError);
}

TEST_CASE("structured codes: the dual BCH code of length 32 is [32,11,12], weights 12/16/20") {
  const LinearCode bch = dual_bch_code(5);
  CHECK(bch.m == 32);
  CHECK(bch.dimension() == 11);
  const std::map<int, std::uint64_t> expected{{0, 1}, {12, 496}, {16, 1054}, {20, 496}, {32, 1}};
  CHECK(nonzero(weight_distribution(bch)) == expected);
  // It is a subcode of RM(2,5): Tr(a x^3 + b x) is a quadratic Boolean function.
  const LinearCode rm = reed_muller_code(2, 5);
  std::vector<std::uint64_t> both = rm.generators;
  both.insert(both.end(), bch.generators.begin(), bch.generators.end());
  CHECK(gf2_rank(both) == 16);
  CHECK(dual_bch_code(3).dimension() == 7);
  CHECK_THROWS_AS(dual_bch_code(4), UsageError);
}

TEST_CASE("structured codes: extended QR codes of length 8, 18, 24, 32, 42, 48") {
  for (int p : {7, 17, 23, 31, 41, 47}) {
    CAPTURE(p);
    const LinearCode qr = extended_qr_code(p);
    CHECK(qr.m == p + 1);
    CHECK(qr.dimension() == (p + 1) / 2);
    if (p <= 31) CHECK(codewords_of_weight(qr, -1) == all_combinations(qr_from_idempotent(p)));
  }
  CHECK(minimum_distance(extended_qr_code(7)) == 4);
  CHECK(minimum_distance(extended_qr_code(17)) == 6);
  CHECK(minimum_distance(extended_qr_code(41)) == 10);
  const std::map<int, std::uint64_t> golay{{0, 1}, {8, 759}, {12, 2576}, {16, 759}, {24, 1}};
  CHECK(nonzero(weight_distribution(extended_qr_code(23))) == golay);
  std::vector<std::uint64_t> golay_masks;
  for (const Token& t : golay_codewords()) golay_masks.push_back(t.words()[0]);
  std::sort(golay_masks.begin(), golay_masks.end());
  CHECK(golay_masks == codewords_of_weight(extended_qr_code(23), -1));
  const std::map<int, std::uint64_t> qr32{{0, 1},      {8, 620},  {12, 13888}, {16, 36518},
                                          {20, 13888}, {24, 620}, {32, 1}};
  CHECK(nonzero(weight_distribution(extended_qr_code(31))) == qr32);
  CHECK_THROWS_AS(extended_qr_code(13), UsageError);  // 13 = 5 mod 8
  CHECK_THROWS_AS(extended_qr_code(71), UsageError);  // length 72 > 64
}

TEST_CASE(
    "structured codes: the extended QR code of length 48 is [48,24,12], 7,681,680 words of weight "
    "24") {
  const LinearCode qr = extended_qr_code(47);
  const std::map<int, std::uint64_t> expected{{0, 1},        {12, 17296},   {16, 535095},
                                              {20, 3995376}, {24, 7681680}, {28, 3995376},
                                              {32, 535095},  {36, 17296},   {48, 1}};
  CHECK(nonzero(weight_distribution(qr)) == expected);
  // The same code from the idempotent's cyclic shifts: equal bases span equal codes.
  std::vector<std::uint64_t> both = qr.generators;
  const std::vector<std::uint64_t> other = qr_from_idempotent(47);
  CHECK(other.size() == 24);
  both.insert(both.end(), other.begin(), other.end());
  CHECK(gf2_rank(both) == 24);
}

TEST_CASE("structured codes: Paley Hadamard words are equidistant") {
  for (int q : {3, 7, 11, 19, 23, 31, 43, 47}) {
    CAPTURE(q);
    const std::vector<std::uint64_t> words = paley_hadamard_words(q);
    CHECK(words.size() == static_cast<std::size_t>(2 * q));
    for (std::size_t i = 0; i < words.size(); ++i) {
      CHECK(std::popcount(words[i]) == (q + 1) / 2);
      for (std::size_t j = i + 1; j < words.size(); ++j) {
        const int d = std::popcount(words[i] ^ words[j]);
        CHECK((d == (q + 1) / 2 || d == q + 1));
      }
    }
  }
  CHECK_THROWS_AS(paley_hadamard_words(13), UsageError);
}

TEST_CASE(
    "structured codes: restricting to a pattern keeps distances and deletes the fixed "
    "coordinates") {
  const std::vector<std::uint64_t> words = codewords_of_weight(reed_muller_code(2, 5), 16);
  const std::uint64_t fixed = 0b1111, pattern = 0b0011;
  const std::vector<std::uint64_t> kept = restrict_words(words, 32, fixed, pattern);
  std::vector<std::uint64_t> expected;
  for (std::uint64_t x : words)
    if ((x & fixed) == pattern) expected.push_back(x >> 4);
  std::sort(expected.begin(), expected.end());
  CHECK(kept == expected);
  for (std::uint64_t x : kept) CHECK(std::popcount(x) == 14);
  CHECK_THROWS_AS(restrict_words(words, 32, 0b1, 0b10), UsageError);
  const std::vector<std::uint64_t> spread = evenly_spread_subset(words, 100);
  REQUIRE(spread.size() == 100);
  CHECK(spread.front() == words.front());
  CHECK(spread[50] == words[50 * words.size() / 100]);
  CHECK(evenly_spread_subset(words, 0) == words);
}

namespace {

double binomial(int n, int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// Blocks of a t-(v,k,lambda) design with b blocks meeting an s-set S exactly in a j-subset
// (s <= t): sum_l (-1)^l C(s-j,l) lambda_{j+l}, lambda_i = b C(k,i)/C(v,i).
std::uint64_t design_count(double b, int v, int k, int s, int j) {
  double total = 0;
  for (int l = 0; l <= s - j; ++l)
    total +=
        (l % 2 == 0 ? 1 : -1) * binomial(s - j, l) * b * binomial(k, j + l) / binomial(v, j + l);
  return static_cast<std::uint64_t>(total + 0.5);
}

std::vector<std::uint64_t> masks_of(const Code& code) {
  std::vector<std::uint64_t> out;
  for (const Token& t : code.words) out.push_back(t.words()[0]);
  return out;
}

int min_gap(const std::vector<std::uint64_t>& words) {
  int best = 64;
  for (std::size_t i = 0; i < words.size(); ++i)
    for (std::size_t j = 0; j < words.size(); ++j)
      if (i != j) best = std::min(best, std::popcount(words[j] & ~words[i]));
  return best;
}

const StructuredCode* find_code(const std::vector<StructuredCode>& codes,
                                const std::string& prefix) {
  for (const StructuredCode& c : codes)
    if (c.construction.rfind(prefix, 0) == 0) return &c;
  return nullptr;
}

}  // namespace

TEST_CASE(
    "structured codes: the shortened codes of the bound search have the design-theoretic sizes" *
    doctest::test_suite("slow")) {
  // RM(2,5)'s weight-16 words form a 3-design (AGL(5,2) is 3-transitive), the QR(48) code's
  // weight-24 words a 5-design (Assmus-Mattson), so for s <= 3 resp. 5 fixed coordinates the
  // number of words with a given pattern follows from b alone.
  for (int s = 1; s <= 3; ++s) {
    CAPTURE(s);
    const std::vector<StructuredCode> codes = structured_bound_codes(32 - s, 0);
    const StructuredCode* rm =
        find_code(codes, "RM(2,5) [32,16,8] weight-16 words with coordinates");
    REQUIRE(rm != nullptr);
    CHECK(rm->code.m == 32 - s);
    CHECK(rm->code.words.size() == design_count(36518, 32, 16, s, s / 2));
    for (const Token& t : rm->code.words) CHECK(t.weight() == 16 - s / 2);
  }
  for (int s = 1; s <= 5; ++s) {
    CAPTURE(s);
    const std::vector<StructuredCode> codes = structured_bound_codes(48 - s, 0);
    const StructuredCode* qr =
        find_code(codes, "QR(48) [48,24,12] weight-24 words with coordinates");
    REQUIRE(qr != nullptr);
    CHECK(qr->code.words.size() == design_count(7681680, 48, 24, s, s / 2));
  }
  // Caps keep an evenly spread subset and say so.
  const std::vector<StructuredCode> capped = structured_bound_codes(48, 1000);
  const StructuredCode* qr48 = find_code(capped, "QR(48) [48,24,12] weight-24 words");
  REQUIRE(qr48 != nullptr);
  CHECK(qr48->code.words.size() == 1000);
  CHECK(qr48->construction == "QR(48) [48,24,12] weight-24 words, 1000 evenly spread of 7681680");
  CHECK(structured_bound_codes(49, 0).empty());
  CHECK(structured_bound_codes(23, 0).empty());
}

TEST_CASE("structured codes: the bound search's small codes keep their parent's gaps" *
          doctest::test_suite("slow")) {
  // Shortened RM(2,5): gaps >= 4 (distance >= 8); shortened QR(48): gaps >= 6 (distance >= 12);
  // the RM(2,5) extensions: gaps >= 4 (the parent part alone gives them).
  for (int m : {26, 27, 28}) {
    const std::vector<StructuredCode> codes = structured_bound_codes(m, 0);
    const StructuredCode* rm = find_code(codes, "RM(2,5) [32,16,8]");
    REQUIRE(rm != nullptr);
    CHECK(min_gap(masks_of(rm->code)) == 4);
  }
  for (int m : {33, 34, 35, 36, 37}) {
    const std::vector<StructuredCode> codes = structured_bound_codes(m, 0);
    const StructuredCode* qr = find_code(codes, "QR(48)");
    REQUIRE(qr != nullptr);
    CHECK(min_gap(masks_of(qr->code)) == 6);
    for (const Token& t : qr->code.words) CHECK(t.weight() == 24 - (48 - m) / 2);
  }
  for (int m : {33, 34, 35}) {
    const std::vector<StructuredCode> codes = structured_bound_codes(m, 2000);
    const StructuredCode* ext = find_code(codes, "RM(2,5) weight-16 words x +");
    REQUIRE(ext != nullptr);
    const std::vector<std::uint64_t> words = masks_of(ext->code);
    CHECK(min_gap(words) >= 4);
    for (std::uint64_t w : words) CHECK(std::popcount(w & 0xFFFFFFFFULL) == 16);
  }
  const std::vector<StructuredCode> codes44 = structured_bound_codes(44, 0);
  const StructuredCode* paley = find_code(codes44, "paley hadamard q=43");
  REQUIRE(paley != nullptr);
  CHECK(paley->code.words.size() == 86);
  CHECK(min_gap(masks_of(paley->code)) == 11);
}
