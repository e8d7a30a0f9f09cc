// Certified bounds from products of constant-weight codes (rule trace-product, format 3).
//
// The rows are all concatenations of one word per block, complement queries; gaps add over
// blocks, so the number of row pairs at each gap is a coefficient of the product of the
// blocks' pair polynomials and theory.md L4's trace bound
// T = N^2 / (N + sum_g count_g R_n(g)^-2) follows without listing a row (docs/bounds.md,
// "Products of codes"). Blocks are explicit codes (the 14 weight-4 words of the extended
// Hamming code, the 2576 Golay dodecads; the 36,518 weight-16 words of RM(2,5) would make a
// 1.4 MB certificate, and checksum classes beat them) or
// Graham-Sloane checksum classes GS(L, W, a), whose pair polynomial has a closed form.
#pragma once

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/rational.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

inline constexpr int kMaxProductWidth = 100000;  // the checker's limit for rule trace-product

struct ProductBlock {
  std::string name;       // "Golay dodecads", "GS(161,80,0)", ...
  int length = 0;         // L
  int weight = 0;         // W
  bool checksum = false;  // GS(L, W, residue); otherwise `words`
  int residue = 0;
  std::vector<std::string> words;  // explicit blocks: 0/1 strings of length L
  std::uint64_t copies = 1;
};

// The producer tries Hadamard powers k = 2..kMaxProducerPower of the bounding matrix
// (theory.md L4') up to this width.
inline constexpr int kMaxHadamardPowerWidth = 64;
inline constexpr int kMaxProducerPower = 3;

struct ProductBound {
  std::vector<ProductBlock> blocks;
  Integer rows;    // N
  int power = 1;   // k: T is T_2k, with R_n(g)^-2k
  Rational value;  // T
  int precision = 32;
  Integer sum;    // floor(2^precision T)
  Integer bound;  // floor(T) + 1; for k > 1 the smallest r with C(r + k - 1, k) > floor(T)
  std::string description() const;
};

// Ordered pairs of GS(length, weight, a) (any a; gcd(weight, length) = 1) at each gap
// k = 0..weight, by the closed form of docs/bounds.md.
std::vector<Integer> checksum_pair_counts(int length, int weight);

// Ordered pairs of an explicit constant-weight block at each gap (all pairs counted).
std::vector<Integer> explicit_pair_counts(const std::vector<std::string>& words);

// T (T_2k for power k) and the bound of a product for sequence length n.
ProductBound evaluate_product(std::vector<ProductBlock> blocks, int n, int precision = 32,
                              int power = 1);

// The explicit codes the producer knows.
std::vector<std::string> hamming8_weight4_words();
std::vector<std::string> golay_dodecad_words();

// Every product construction tried for width m (m >= 2), evaluated, best first.
std::vector<ProductBound> product_candidates(int m, int n);

// The certificate text (format 3, rule trace-product); a pure function of its inputs.
std::string product_certificate(const CertificateTask& task, const ProductBound& bound);

}  // namespace kernelrank
