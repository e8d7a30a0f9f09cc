// Rule trace-product (format 3): the trace rule over a product of constant-weight codes,
// computed from the blocks' pair polynomials, without a row being listed.
//
// The rows are all concatenations x = (c_1, ..., c_B) with c_b from block b (a block with
// copies=C stands for C consecutive blocks, each choosing its word independently), and the
// query of a row is its complement. Every block b has constant weight W_b, so a row has
// weight W = sum W_b and the gap of rows x != y is
//   G(x, y) = <not x, y> - <not x, x> = W - |x AND y| = sum_b (W_b - |x_b AND y_b|),
// the sum of the blocks' gaps. The checker establishes for each block that its distinct
// words have gap >= 2 (explicit words: every pair is counted; a checksum class: by its
// definition, see checksum_code.hpp). Two distinct rows differ in some block, where their
// gap is >= 2, and the other blocks add gaps >= 0: every distinct pair of rows has G >= 2,
// which is all that theory.md L4 asks. Since gaps add, the number of ordered pairs of rows
// at gap g is the coefficient of z^g in prod_b P_b(z)^(C_b), with
// P_b(z) = sum over ordered pairs (c, d) of block b of z^(W_b - |c AND d|); its z^0
// coefficient is the number of rows N (the pairs x = y) and its z^1 coefficient is 0.
// L4 with uniform weights then gives r > T = N^2 / (N + sum_{g >= 2} count_g R_n(g)^-2),
// exactly as rule trace-uniform, and the claim may be floor(T) + 1 (N >= 2), 1 (N = 1).
// `sum` states floor(2^P T). The checker computes N and Sigma exactly (GMP; see product_sums) and
// trusts no number of the certificate but the block definitions.
//
// With `power=k` (theory.md L4', Hadamard powers): if the bounding matrix M has rank r, its
// entrywise k-th power has rank at most C(r + k - 1, k) (it is a sum of products of k rank-1
// terms, spanned by the degree-k symmetric tensors of an r-dimensional space), and its
// normalised off-diagonal entries are below R^-k. The trace rule on it gives
// C(r + k - 1, k) > T_2k = N^2 / (N + sum_g count_g R_n(g)^-2k), so r is at least the smallest
// r with C(r + k - 1, k) > floor(T_2k). k = 1 is the plain rule.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

// counts[g], g = 0..W: the ordered pairs of the explicit block at gap g. Throws CheckError
// (not verified) when the words differ in weight or two of them have gap < 2.
std::vector<BigInt> explicit_pair_counts(const Certificate& cert, const ProductBlock& block);

// A block's pair polynomial (counts[g], g = 0..W) and how often the block repeats.
struct BlockCounts {
  std::vector<BigInt> counts;
  std::uint64_t copies = 1;
};

// What the rule needs of prod_b P_b(z)^(C_b), without expanding it (at m = 100,000 its
// coefficients would fill gigabytes): the z^0 coefficient N, the sum of the others, the
// least gap that occurs (0 if none), and
// Sigma = sum_{g >= 2} count_g / R_n(g)^(2 power) = sigma_numerator / sigma_denominator
// (not in lowest terms).
struct ProductSums {
  BigInt rows;
  BigInt pairs;
  int smallest = 0;
  BigInt sigma_numerator;
  BigInt sigma_denominator;
};
ProductSums product_sums(const std::vector<BlockCounts>& blocks, int n, int power = 1);

// The whole rule: the counts, T, the sum and the claim. Returns the bound.
BigInt check_trace_product(const Certificate& cert, std::ostream& out);

// The smallest r >= 1 with C(r + power - 1, power) > floor_t.
BigInt hadamard_rank(const BigInt& floor_t, int power);

}  // namespace krcheck
