// The pair pass of rule trace-uniform and its conclusion; see uniform_rule.hpp.
#include "check/uniform_rule.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <utility>

#include "check/amplification.hpp"
#include "check/conclusion.hpp"
#include "check/generated_rows.hpp"
#include "check/parallel.hpp"
#include "check/status.hpp"
#include "check/tokens.hpp"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define KRCHECK_X86_DISPATCH 1
#define KRCHECK_ALWAYS_INLINE __attribute__((always_inline)) inline
#define KRCHECK_UNROLL_LANES _Pragma("GCC unroll 32")
#else
#define KRCHECK_X86_DISPATCH 0
#define KRCHECK_ALWAYS_INLINE inline
#define KRCHECK_UNROLL_LANES
#endif

namespace krcheck {
namespace {

// Layout, chosen for the inner loop (measured: about 1.3e9 pairs/s per thread of CPU time
// at m = 64 and at m = 256, 3.6e8 at m = 1024, on an AVX-512 Xeon; up to m = 256 the
// histogram update, not the popcounts, is what costs).
// * Words in structure-of-arrays order per tile: word w of the tile's row r is at
//   tile[w * kTileRows + r]. For one row i, kLanes consecutive rows j are then kLanes
//   consecutive words in memory, so `overlap[l] += popcount(x_w & column[l])` is a vector
//   AND, a vector popcount (vpopcntq with AVX512-VPOPCNTDQ) and a vector add per word w.
// * kLanes = 32: four 512-bit accumulators per chunk keep the popcount pipeline busy; 16
//   lanes made GCC fall back to scalar popcounts at one word.
// * The rows j are walked in chunks of about 16 KiB of words (kChunkWords words), which
//   stay in the L1 cache while every row i of the other tile passes over them.
// * The histogram is bumped once per pair, a load-add-store (two instructions per pair
//   after the vector part). Eight copies of each bin,
//   interleaved (slot = overlap * kCopies + lane % kCopies, one cache line per bin), let
//   lanes that hit the same overlap (the common case: overlaps cluster around W^2/m) write
//   different addresses, so no increment waits for the previous one's store to forward.
constexpr std::size_t kLanes = 32;
constexpr std::size_t kCopies = 8;
constexpr std::size_t kChunkWords = 2048;
constexpr std::size_t kMaxWords = (kMaxWidth + 63) / 64;
static_assert(kTileRows % kLanes == 0, "tiles hold whole lane groups");

// The kept words, tile after tile, each tile in structure-of-arrays order (see above);
// rows past the last kept row are zero and never counted.
struct TiledWords {
  std::size_t words = 0;
  std::uint64_t rows = 0;
  std::uint64_t tiles = 0;
  std::vector<std::uint64_t> data;

  const std::uint64_t* tile(std::uint64_t t) const {
    return data.data() + static_cast<std::size_t>(t) * words * kTileRows;
  }
  std::size_t tile_rows(std::uint64_t t) const {
    return static_cast<std::size_t>(std::min<std::uint64_t>(kTileRows, rows - t * kTileRows));
  }
};

TiledWords generate_kept(const Certificate& cert) {
  TiledWords tiled;
  tiled.words = words_for_width(static_cast<std::size_t>(cert.m));
  tiled.rows = cert.kept_count();
  tiled.tiles = (tiled.rows + kTileRows - 1) / kTileRows;
  tiled.data.assign(static_cast<std::size_t>(tiled.tiles) * tiled.words * kTileRows, 0);
  WordGenerator generator(cert.seed, cert.m, cert.weight);
  std::vector<std::uint64_t> word(tiled.words);
  auto drop = cert.drops.begin();
  std::uint64_t kept = 0;
  for (std::uint64_t index = 1; index <= cert.generated_count; ++index) {
    generator.next(word.data());  // dropped rows are drawn too: one stream for all
    if (drop != cert.drops.end() && *drop == index) {
      ++drop;
      continue;
    }
    std::uint64_t* const base =
        tiled.data.data() + static_cast<std::size_t>(kept / kTileRows) * tiled.words * kTileRows +
        static_cast<std::size_t>(kept % kTileRows);
    for (std::size_t w = 0; w < tiled.words; ++w) base[w * kTileRows] = word[w];
    ++kept;
  }
  return tiled;
}

struct BlockTask {
  const std::uint64_t* rows_a = nullptr;  // tile a
  std::size_t count_a = 0;
  const std::uint64_t* rows_b = nullptr;  // tile b >= a
  std::size_t count_b = 0;
  bool diagonal = false;  // a == b: only the pairs i < j
  std::size_t words = 0;
  std::uint64_t* histogram = nullptr;  // kCopies interleaved copies of bins 0..W + 1
  std::size_t trash = 0;               // bin W + 1 takes the lanes that are no pair
};

// Counts the pairs of one tile pair into task.histogram (see the layout notes above).
template <std::size_t Words>
KRCHECK_ALWAYS_INLINE void count_block_words(const BlockTask& task) {
  const std::size_t words = Words != 0 ? Words : task.words;
  const std::size_t chunk = std::max(kLanes, kChunkWords / words / kLanes * kLanes);
  std::uint64_t* const histogram = task.histogram;
  for (std::size_t j0 = 0; j0 < task.count_b; j0 += chunk) {
    const std::size_t j1 = std::min(task.count_b, j0 + chunk);
    const std::size_t i_end = task.diagonal ? std::min(task.count_a, j1) : task.count_a;
    for (std::size_t i = 0; i < i_end; ++i) {
      std::uint64_t x[kMaxWords];
      for (std::size_t w = 0; w < words; ++w) x[w] = task.rows_a[w * kTileRows + i];
      const std::size_t first = task.diagonal ? std::max(i + 1, j0) : j0;
      for (std::size_t jb = first / kLanes * kLanes; jb < j1; jb += kLanes) {
        alignas(64) std::uint64_t overlap[kLanes] = {};
        for (std::size_t w = 0; w < words; ++w) {
          const std::uint64_t xw = x[w];
          const std::uint64_t* const column = task.rows_b + w * kTileRows + jb;
          for (std::size_t l = 0; l < kLanes; ++l)
            overlap[l] += static_cast<std::uint64_t>(std::popcount(xw & column[l]));
        }
        alignas(64) std::uint64_t slot[kLanes];  // aligned: each vector store forwards to the loads
        if (jb >= first && jb + kLanes <= j1) {
          for (std::size_t l = 0; l < kLanes; ++l) slot[l] = overlap[l] * kCopies + l % kCopies;
        } else {  // the first lanes of a diagonal row, or past the last row
          for (std::size_t l = 0; l < kLanes; ++l) {
            const bool pair = jb + l >= first && jb + l < j1;
            slot[l] = (pair ? overlap[l] : task.trash) * kCopies + l % kCopies;
          }
        }
        KRCHECK_UNROLL_LANES
        for (std::size_t l = 0; l < kLanes; ++l) ++histogram[slot[l]];
      }
    }
  }
}

KRCHECK_ALWAYS_INLINE void count_block_any(const BlockTask& task) {
  switch (task.words) {
    case 1:
      return count_block_words<1>(task);
    case 2:
      return count_block_words<2>(task);
    case 3:
      return count_block_words<3>(task);
    case 4:
      return count_block_words<4>(task);
    default:
      return count_block_words<0>(task);
  }
}

// The same loop compiled three times and picked at run time. (GCC 12's target_clones, as
// used in cube_rule.cpp, cannot dispatch on avx512vpopcntdq, hence the explicit choice.)
using BlockKernel = void (*)(const BlockTask&);

void count_block_default(const BlockTask& task) { count_block_any(task); }

#if KRCHECK_X86_DISPATCH
__attribute__((target("avx512vpopcntdq,avx512vl,prefer-vector-width=512"))) void
count_block_vpopcnt(const BlockTask& task) {
  count_block_any(task);
}

__attribute__((target("popcnt"))) void count_block_popcnt(const BlockTask& task) {
  count_block_any(task);
}
#endif

BlockKernel block_kernel() {
#if KRCHECK_X86_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512vl"))
    return count_block_vpopcnt;
  if (__builtin_cpu_supports("popcnt")) return count_block_popcnt;
#endif
  return count_block_default;
}

std::uint64_t small_gap_pairs(const std::vector<std::uint64_t>& histogram, int weight) {
  std::uint64_t total = 0;
  for (int o = std::max(0, weight - 1); o <= weight; ++o)
    for (std::size_t copy = 0; copy < kCopies; ++copy)
      total += histogram[static_cast<std::size_t>(o) * kCopies + copy];
  return total;
}

// A pair by kept positions (0-based), before translation to generated indices.
struct KeptPair {
  std::uint64_t i = 0;
  std::uint64_t j = 0;
  int overlap = 0;
  bool operator<(const KeptPair& other) const { return i != other.i ? i < other.i : j < other.j; }
};

// The first pair (i, j) of tile pair (a, b) with overlap >= W - 1, known to exist. Runs
// only on certificates that fail, so it is plain scalar code.
KeptPair first_small_gap(const TiledWords& tiled, std::uint64_t a, std::uint64_t b, int weight) {
  const std::uint64_t* const rows_a = tiled.tile(a);
  const std::uint64_t* const rows_b = tiled.tile(b);
  for (std::size_t i = 0; i < tiled.tile_rows(a); ++i)
    for (std::size_t j = a == b ? i + 1 : 0; j < tiled.tile_rows(b); ++j) {
      int overlap = 0;
      for (std::size_t w = 0; w < tiled.words; ++w)
        overlap += std::popcount(rows_a[w * kTileRows + i] & rows_b[w * kTileRows + j]);
      if (overlap >= weight - 1) return {a * kTileRows + i, b * kTileRows + j, overlap};
    }
  throw std::logic_error("a gap below 2 was counted but not found again");
}

// Tile pair number t of `tiles` tiles: row a holds the tiles - a pairs (a, a..tiles-1).
std::pair<std::uint64_t, std::uint64_t> tile_pair(std::uint64_t t, std::uint64_t tiles) {
  // a * (a - 1) wraps for a = 0 but is 0 all the same.
  const auto offset = [tiles](std::uint64_t a) { return a * tiles - a * (a - 1) / 2; };
  std::uint64_t low = 0;
  std::uint64_t high = tiles - 1;  // the largest a with offset(a) <= t
  while (low < high) {
    const std::uint64_t mid = low + (high - low + 1) / 2;
    if (offset(mid) <= t)
      low = mid;
    else
      high = mid - 1;
  }
  return {low, low + (t - offset(low))};
}

// The generated index (1-based) of kept position p (0-based): the smallest g with
// g - #{drops <= g} = p + 1.
std::uint64_t generated_index(const Certificate& cert, std::uint64_t p) {
  std::uint64_t low = p + 1;
  std::uint64_t high = cert.generated_count;
  while (low < high) {
    const std::uint64_t mid = low + (high - low) / 2;
    const auto dropped = static_cast<std::uint64_t>(
        std::upper_bound(cert.drops.begin(), cert.drops.end(), mid) - cert.drops.begin());
    if (mid - dropped >= p + 1)
      high = mid;
    else
      low = mid + 1;
  }
  return low;
}

std::uint64_t tile_count(std::uint64_t kept) { return (kept + kTileRows - 1) / kTileRows; }

// The number of tile pairs of shard `index` of `count`: t = index - 1, index - 1 + count, ...
std::uint64_t shard_tile_pairs(std::uint64_t tiles, std::uint64_t index, std::uint64_t count) {
  const std::uint64_t total = tiles * (tiles + 1) / 2;
  return total >= index ? (total - index) / count + 1 : 0;
}

}  // namespace

std::uint64_t OverlapHistogram::pairs() const {
  std::uint64_t total = 0;
  for (const auto count : counts) total += count;
  return total;
}

std::uint64_t shard_pair_count(std::uint64_t kept, std::uint64_t index, std::uint64_t count) {
  const std::uint64_t tiles = tile_count(kept);
  const auto rows = [&](std::uint64_t t) { return std::min(kTileRows, kept - t * kTileRows); };
  std::uint64_t pairs = 0;
  const std::uint64_t mine = shard_tile_pairs(tiles, index, count);
  for (std::uint64_t s = 0; s < mine; ++s) {
    const auto [a, b] = tile_pair(s * count + index - 1, tiles);
    pairs += a == b ? rows(a) * (rows(a) - 1) / 2 : rows(a) * rows(b);
  }
  return pairs;
}

OverlapHistogram count_overlaps(const Certificate& cert, int threads, std::uint64_t shard_index,
                                std::uint64_t shard_count) {
  if (shard_count < 1 || shard_index < 1 || shard_index > shard_count)
    throw std::logic_error("a shard k/K needs 1 <= k <= K");
  const TiledWords tiled = generate_kept(cert);
  const int weight = cert.weight;
  const std::size_t slots = static_cast<std::size_t>(weight + 2) * kCopies;
  const std::uint64_t mine = shard_tile_pairs(tiled.tiles, shard_index, shard_count);
  const int workers = static_cast<int>(std::min<std::uint64_t>(
      static_cast<std::uint64_t>(resolve_threads(threads)), std::max<std::uint64_t>(mine, 1)));
  std::vector<std::vector<std::uint64_t>> histograms(static_cast<std::size_t>(workers));
  std::vector<std::optional<KeptPair>> smallest(static_cast<std::size_t>(workers));
  std::atomic<std::uint64_t> next{0};
  const BlockKernel kernel = block_kernel();
  run_workers(workers, [&](int worker) {
    auto& histogram = histograms[static_cast<std::size_t>(worker)];
    auto& best = smallest[static_cast<std::size_t>(worker)];
    histogram.assign(slots, 0);
    while (true) {
      const std::uint64_t s = next.fetch_add(1, std::memory_order_relaxed);
      if (s >= mine) break;
      const auto [a, b] = tile_pair(s * shard_count + shard_index - 1, tiled.tiles);
      BlockTask task;
      task.rows_a = tiled.tile(a);
      task.count_a = tiled.tile_rows(a);
      task.rows_b = tiled.tile(b);
      task.count_b = tiled.tile_rows(b);
      task.diagonal = a == b;
      task.words = tiled.words;
      task.histogram = histogram.data();
      task.trash = static_cast<std::size_t>(weight) + 1;
      const std::uint64_t before = small_gap_pairs(histogram, weight);
      kernel(task);
      if (small_gap_pairs(histogram, weight) != before) {
        const KeptPair found = first_small_gap(tiled, a, b, weight);
        if (!best || found < *best) best = found;
      }
    }
  });
  OverlapHistogram result;
  result.counts.assign(static_cast<std::size_t>(weight) + 1, 0);
  std::optional<KeptPair> best;
  for (std::size_t worker = 0; worker < histograms.size(); ++worker) {
    const auto& histogram = histograms[worker];
    if (histogram.empty()) continue;  // a worker whose thread did not start
    for (std::size_t o = 0; o < result.counts.size(); ++o)
      for (std::size_t copy = 0; copy < kCopies; ++copy)
        result.counts[o] += histogram[o * kCopies + copy];
    if (smallest[worker] && (!best || *smallest[worker] < *best)) best = smallest[worker];
  }
  if (result.pairs() != shard_pair_count(tiled.rows, shard_index, shard_count))
    throw std::logic_error("the pair pass missed pairs");
  if (best)
    result.smallest =
        SmallGap{generated_index(cert, best->i), generated_index(cert, best->j), best->overlap};
  return result;
}

void fail_small_gap(const Certificate& cert, const SmallGap& pair) {
  const int weight = cert.weight;
  fail_check(
      cert.file, cert.generated_line,
      "generated rows " + std::to_string(pair.first) + " and " + std::to_string(pair.second) +
          ": gap G = W - |c_i AND c_j| = " + std::to_string(weight) + " - " +
          std::to_string(pair.overlap) + " = " + std::to_string(weight - pair.overlap) + " < 2");
}

BigInt conclude_trace_uniform(const Certificate& cert, const OverlapHistogram& histogram,
                              std::ostream& out) {
  const int weight = cert.weight;
  const std::uint64_t kept = cert.kept_count();
  const std::uint64_t pairs = histogram.pairs();
  out << "c pairs: " << pairs << " unordered pairs of kept rows (" << BigInt(pairs) * 2
      << " ordered), counted by overlap |c_i AND c_j|\n";
  if (histogram.smallest) fail_small_gap(cert, *histogram.smallest);
  AmplificationTable amplification(cert.n);
  Rational sigma = 0;
  int smallest_gap = 0;
  int largest_gap = 0;
  for (int o = weight - 2; o >= 0; --o) {  // gaps 2, 3, ..., W
    const std::uint64_t count = histogram.counts[static_cast<std::size_t>(o)];
    if (count == 0) continue;
    const int gap = weight - o;
    if (smallest_gap == 0) smallest_gap = gap;
    largest_gap = gap;
    sigma += Rational(BigInt(count) * 2, amplification.factor_squared(gap));
  }
  if (pairs == 0)
    out << "c gaps: none (a single kept row)\n";
  else
    out << "c gaps G = W - |c_i AND c_j|: every one >= 2, from " << smallest_gap << " to "
        << largest_gap << "\n";
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  out << "c Sigma = sum over ordered pairs of R_N(G)^-2 = "
      << truncated_decimal(numerator(sigma), denominator(sigma), 6) << " (truncated)\n";
  const BigInt k = BigInt(kept);
  const Rational t = Rational(k * k) / (Rational(k) + sigma);
  const BigInt computed = scale * numerator(t) / denominator(t);  // floor: both positive
  out << "c computed sum: " << computed << " = floor(2^" << cert.precision
      << " * T), T = K'^2 / (K' + Sigma) = " << truncated_decimal(numerator(t), denominator(t), 6)
      << " (truncated)\n";
  if (Rational(computed) != cert.stated_sum)
    fail_check(
        cert.file, cert.sum_line,
        "sum " + to_text(cert.stated_sum) + " differs from the recomputed sum " + computed.str());
  const BigInt bound = kept >= 2 ? computed / scale + 1 : BigInt(1);
  check_claim(
      cert, bound,
      kept >= 2 ? "trace-uniform rule: floor(T) + 1" : "trace-uniform rule, single kept row", out);
  return bound;
}

}  // namespace krcheck
