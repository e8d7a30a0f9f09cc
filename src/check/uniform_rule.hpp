// Rule trace-uniform (docs/certificate-format.md, "Generated rows"): the pair pass over the
// regenerated words and the conclusion.
//
// Every word has weight W and every query is the complement of its word, so
// G_ij = <q_i, c_j> - <q_i, c_i> = |c_j| - |c_i AND c_j| - 0 = W - |c_i AND c_j|, the same
// for (i, j) and (j, i). The pass therefore counts each unordered pair of kept rows once,
// into a histogram by overlap |c_i AND c_j| = 0..W; Sigma doubles it. The exact arithmetic
// then costs one rational term per overlap value, never per pair.
//
// The pair triangle is cut into tile pairs: tiles of kTileRows consecutive kept rows, tile
// pair (a, b) for a <= b, numbered 0, 1, 2, ... in the order (0,0), (0,1), ..., (0,T-1),
// (1,1), (1,2), ... Shard k of K takes the tile pairs t with t % K == k - 1; threads take
// a shard's tile pairs from a shared counter. Counts are sums of integers, and the pair
// named on a gap below 2 is the smallest in (i, j) order, so nothing depends on the threads
// or the shards.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

inline constexpr std::uint64_t kTileRows = 2048;

// A kept pair with gap < 2: generated indices (1-based) first < second and the overlap.
struct SmallGap {
  std::uint64_t first = 0;
  std::uint64_t second = 0;
  int overlap = 0;
  bool operator<(const SmallGap& other) const {
    return first != other.first ? first < other.first : second < other.second;
  }
};

struct OverlapHistogram {
  std::vector<std::uint64_t> counts;  // counts[o]: unordered kept pairs with overlap o = 0..W
  std::optional<SmallGap> smallest;   // the smallest pair with overlap >= W - 1, if any
  std::uint64_t pairs() const;
};

// The number of unordered pairs of `kept` rows in the tile pairs of shard `index` of `count`.
std::uint64_t shard_pair_count(std::uint64_t kept, std::uint64_t index, std::uint64_t count);

// Regenerates the words of `cert` (rule trace-uniform), drops the dropped rows and counts
// the pairs of shard `shard_index` (1-based) of `shard_count` on `threads` workers.
OverlapHistogram count_overlaps(const Certificate& cert, int threads, std::uint64_t shard_index = 1,
                                std::uint64_t shard_count = 1);

// Not verified: names the pair and its gap, at the `generated` line.
[[noreturn]] void fail_small_gap(const Certificate& cert, const SmallGap& pair);

// From the histogram of all pairs: throws CheckError (not verified) naming the smallest pair
// with gap < 2, else prints Sigma's summary, T and the bound, compares the `sum` and the
// claim (conclusion.hpp) and returns the bound.
BigInt conclude_trace_uniform(const Certificate& cert, const OverlapHistogram& histogram,
                              std::ostream& out);

}  // namespace krcheck
