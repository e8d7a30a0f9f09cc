// Certified rank bounds from generated rows: C random constant-weight words from a named
// PRNG (SplitMix64), complement queries, and theory.md L4's trace bound with uniform
// weights, T = K^2 / (K + sum_{i != j} R_n(G_ij)^-2) over the K kept rows.
//
// The certificate states the generator (seed, count, weight) instead of listing a million
// tokens; the checker regenerates the words with its own code and recomputes every pair.
// For constant weight w and complement queries the gap is G_ij = w - |c_i AND c_j|, so it
// is symmetric and the pair pass counts each unordered pair once, into a histogram of
// intersection sizes: integer counts, which add up the same on any number of threads,
// shards or MPI ranks.
#pragma once

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/rational.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

struct GeneratedRows {
  int m = 64;
  int n = 3;
  std::uint64_t seed = 1;
  std::uint64_t count = 0;  // C words generated
  int weight = 32;          // w
};

inline constexpr std::uint64_t kMaxGeneratedRows = 10'000'000;

// Throws UsageError naming the option when a parameter is impossible or the words would
// not fit in memory (count * ceil(m/64) * 8 bytes above 4 GiB).
void validate(const GeneratedRows& rows);

// The C words, ceil(m/64) 64-bit words each, row after row (bit k%64 of word k/64 is
// coordinate k, 0-based).
std::vector<std::uint64_t> generate_words(const GeneratedRows& rows);

// Rows (0-based) to drop so that no two kept rows have gap < 2, i.e. intersect in w - 1 or
// w coordinates. Found without the pair pass: such words share a (w-1)-subset, so it
// suffices to bucket every word by each of its w one-removed subsets. For each
// conflicting pair (i < j) in lexicographic order, j is dropped unless i or j already is.
std::vector<std::uint64_t> conflict_drops(const GeneratedRows& rows,
                                          const std::vector<std::uint64_t>& words);

// Unordered pairs of kept rows by intersection size (index 0..w).
struct PairCounts {
  std::vector<std::uint64_t> by_intersection;
  std::uint64_t pairs() const;
};

// The pair pass over the kept rows, on `threads` workers, restricted to the tiles of
// `shard`. `progress` (may be empty) is shown on stderr when it is a terminal.
PairCounts count_pairs(const GeneratedRows& rows, const std::vector<std::uint64_t>& words,
                       const std::vector<std::uint64_t>& drops, int threads, const Shard& shard,
                       const std::string& progress_label);

struct GeneratedBound {
  GeneratedRows rows;
  std::vector<std::uint64_t> drops;  // 0-based
  PairCounts counts;
  std::uint64_t kept = 0;
  Rational sigma;  // sum over ordered pairs of R_n(G)^-2
  Rational value;  // T
  int precision = 32;
  Integer sum;    // floor(2^precision T)
  Integer bound;  // floor(T) + 1 (1 for a single kept row)
};

GeneratedBound conclude_generated(const GeneratedRows& rows, std::vector<std::uint64_t> drops,
                                  PairCounts counts, int precision = 32);

// The certificate text (format 2, rule trace-uniform); a pure function of its inputs.
std::string generated_certificate(const CertificateTask& task, const GeneratedBound& bound);

// Summing the counts of shards; throws UsageError when the sizes differ.
void add_counts(PairCounts& into, const PairCounts& part);

}  // namespace kernelrank
