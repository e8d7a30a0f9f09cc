// Generated rows, the conflict pre-pass, the pair pass and the bound; see generated_bound.hpp.
#include "kernelrank/bounds/generated_bound.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <numeric>
#include <utility>

// The pair pass is popcounts of ANDs. Baseline x86-64 has no popcount instruction, so the
// kernel is compiled three times (AVX-512 vector popcount, scalar popcnt, baseline) and one
// is picked at run time from the CPU's features; all three compute the same integers.
#if defined(__GNUC__) && defined(__x86_64__)
#define KR_PAIR_DISPATCH 1
#endif

namespace kernelrank {
namespace {

std::size_t words_per_row(int m) { return static_cast<std::size_t>((m + 63) / 64); }

// SplitMix64 as docs/certificate-format.md specifies it (one stream for all words).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, b): the lowest 2^64 mod b draws are rejected.
  std::uint64_t below(std::uint64_t b) {
    const std::uint64_t threshold = (std::uint64_t{0} - b) % b;
    for (;;) {
      const std::uint64_t x = next();
      if (x >= threshold) return x % b;
    }
  }

 private:
  std::uint64_t state_;
};

// Zobrist keys: H(x) = XOR of z[c] over the ones c of x, so the key of x with one one c
// removed is H(x) ^ z[c] (collisions are re-checked exactly).
std::vector<std::uint64_t> zobrist_table(int m) {
  SplitMix64 rng(0x5A0B1257ULL);
  std::vector<std::uint64_t> z(static_cast<std::size_t>(m));
  for (auto& v : z) v = rng.next();
  return z;
}

int intersection(const std::uint64_t* a, const std::uint64_t* b, std::size_t words) {
  int total = 0;
  for (std::size_t k = 0; k < words; ++k) total += std::popcount(a[k] & b[k]);
  return total;
}

constexpr std::size_t kBlock = 1024;  // rows per tile side
constexpr std::size_t kLanes = 4;     // histogram copies, so that a hot bin is not one chain

// Kept rows in structure-of-arrays tiles: word k of row t of block b at
// data[(b * words + k) * kBlock + t], so the kernel's inner loops run over contiguous rows.
struct TiledRows {
  std::size_t words = 0;
  std::size_t rows = 0;
  std::size_t blocks = 0;
  std::vector<std::uint64_t> data;
  const std::uint64_t* column(std::size_t block, std::size_t k) const {
    return data.data() + (block * words + k) * kBlock;
  }
  std::size_t block_rows(std::size_t block) const {
    return std::min(kBlock, rows - block * kBlock);
  }
};

TiledRows tile_rows(const std::vector<std::uint64_t>& words, std::size_t per_row,
                    const std::vector<std::uint64_t>& kept) {
  TiledRows tiled;
  tiled.words = per_row;
  tiled.rows = kept.size();
  tiled.blocks = (kept.size() + kBlock - 1) / kBlock;
  tiled.data.assign(tiled.blocks * per_row * kBlock, 0);
  for (std::size_t r = 0; r < kept.size(); ++r) {
    const std::size_t b = r / kBlock, t = r % kBlock;
    for (std::size_t k = 0; k < per_row; ++k)
      tiled.data[(b * per_row + k) * kBlock + t] = words[kept[r] * per_row + k];
  }
  return tiled;
}

// counts[t] = |x AND row t| for t in [first, last) of one block. Word counts 1..4 (m up to
// 256) get their own instances, whose inner loop over the words is unrolled so that the
// loop over rows vectorises without storing partial counts.
template <std::size_t W>
inline void intersect_fixed(const std::uint64_t* x, const TiledRows& tiled, std::size_t block,
                            std::size_t first, std::size_t last, std::uint64_t* counts) {
  const std::uint64_t* col[W];
  std::uint64_t xs[W];
  for (std::size_t k = 0; k < W; ++k) {
    col[k] = tiled.column(block, k);
    xs[k] = x[k];
  }
  for (std::size_t t = first; t < last; ++t) {
    std::uint64_t c = 0;
    for (std::size_t k = 0; k < W; ++k)
      c += static_cast<std::uint64_t>(std::popcount(xs[k] & col[k][t]));
    counts[t] = c;
  }
}

inline void intersect_any(const std::uint64_t* x, const TiledRows& tiled, std::size_t block,
                          std::size_t first, std::size_t last, std::uint64_t* counts) {
  switch (tiled.words) {
    case 1:
      return intersect_fixed<1>(x, tiled, block, first, last, counts);
    case 2:
      return intersect_fixed<2>(x, tiled, block, first, last, counts);
    case 3:
      return intersect_fixed<3>(x, tiled, block, first, last, counts);
    case 4:
      return intersect_fixed<4>(x, tiled, block, first, last, counts);
    default:
      break;
  }
  const std::uint64_t* col = tiled.column(block, 0);
  for (std::size_t t = first; t < last; ++t)
    counts[t] = static_cast<std::uint64_t>(std::popcount(x[0] & col[t]));
  for (std::size_t k = 1; k < tiled.words; ++k) {
    col = tiled.column(block, k);
    for (std::size_t t = first; t < last; ++t)
      counts[t] += static_cast<std::uint64_t>(std::popcount(x[k] & col[t]));
  }
}

using IntersectKernel = void (*)(const std::uint64_t*, const TiledRows&, std::size_t, std::size_t,
                                 std::size_t, std::uint64_t*);

void intersect_baseline(const std::uint64_t* x, const TiledRows& tiled, std::size_t block,
                        std::size_t first, std::size_t last, std::uint64_t* counts) {
  intersect_any(x, tiled, block, first, last, counts);
}

#ifdef KR_PAIR_DISPATCH
__attribute__((target("popcnt"), flatten)) void intersect_popcnt(
    const std::uint64_t* x, const TiledRows& tiled, std::size_t block, std::size_t first,
    std::size_t last, std::uint64_t* counts) {
  intersect_any(x, tiled, block, first, last, counts);
}

__attribute__((target("avx512f,avx512vpopcntdq,popcnt"), flatten)) void intersect_avx512(
    const std::uint64_t* x, const TiledRows& tiled, std::size_t block, std::size_t first,
    std::size_t last, std::uint64_t* counts) {
  intersect_any(x, tiled, block, first, last, counts);
}
#endif

IntersectKernel pick_kernel() {
#ifdef KR_PAIR_DISPATCH
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512f"))
    return intersect_avx512;
  if (__builtin_cpu_supports("popcnt")) return intersect_popcnt;
#endif
  return intersect_baseline;
}

// One tile (bi <= bj): every pair of a row of block bi with a row of block bj, each
// unordered pair once (on the diagonal tile only t > r).
void count_tile(IntersectKernel intersect, const TiledRows& tiled, std::size_t bi, std::size_t bj,
                std::size_t bins, std::uint64_t* histogram /* kLanes * bins */) {
  std::array<std::uint64_t, kBlock> counts;
  std::vector<std::uint64_t> x(tiled.words);
  const std::size_t rows_i = tiled.block_rows(bi), rows_j = tiled.block_rows(bj);
  for (std::size_t r = 0; r < rows_i; ++r) {
    for (std::size_t k = 0; k < tiled.words; ++k) x[k] = tiled.column(bi, k)[r];
    const std::size_t first = bi == bj ? r + 1 : 0;
    if (first >= rows_j) continue;
    intersect(x.data(), tiled, bj, first, rows_j, counts.data());
    std::size_t t = first;
    for (; t + kLanes <= rows_j; t += kLanes)
      for (std::size_t lane = 0; lane < kLanes; ++lane) ++histogram[lane * bins + counts[t + lane]];
    for (; t < rows_j; ++t) ++histogram[counts[t]];
  }
}

}  // namespace

void validate(const GeneratedRows& rows) {
  if (rows.m < 2 || rows.m > 4096) throw DomainError("{m} must be in 2..4096 for generated rows");
  if (rows.n < 3 || rows.n > 1000) throw DomainError("{n} must be in 3..1000");
  if (rows.weight < 1 || rows.weight >= rows.m)
    throw DomainError("{weight} must be in 1..m-1 = 1.." + std::to_string(rows.m - 1) + ", not " +
                      std::to_string(rows.weight));
  if (rows.count < 2 || rows.count > kMaxGeneratedRows)
    throw DomainError("{words} must be in 2.." + std::to_string(kMaxGeneratedRows) + ", not " +
                      std::to_string(rows.count));
  const double bytes =
      static_cast<double>(rows.count) * static_cast<double>(words_per_row(rows.m)) * 8.0;
  if (bytes > 4.0 * 1024 * 1024 * 1024)
    throw DomainError("{words} " + std::to_string(rows.count) +
                      " at m = " + std::to_string(rows.m) +
                      " needs more than 4 GiB for the words; use fewer words");
}

std::vector<std::uint64_t> generate_words(const GeneratedRows& rows) {
  validate(rows);
  const std::size_t per_row = words_per_row(rows.m);
  std::vector<std::uint64_t> words(rows.count * per_row, 0);
  std::vector<int> perm(static_cast<std::size_t>(rows.m));
  SplitMix64 rng(rows.seed);
  for (std::uint64_t i = 0; i < rows.count; ++i) {
    std::iota(perm.begin(), perm.end(), 0);
    std::uint64_t* row = words.data() + i * per_row;
    for (int t = 0; t < rows.weight; ++t) {
      const auto j =
          static_cast<std::size_t>(t) + rng.below(static_cast<std::uint64_t>(rows.m - t));
      std::swap(perm[static_cast<std::size_t>(t)], perm[j]);
      const int c = perm[static_cast<std::size_t>(t)];
      row[c / 64] |= std::uint64_t{1} << (c % 64);
    }
  }
  return words;
}

std::vector<std::uint64_t> conflict_drops(const GeneratedRows& rows,
                                          const std::vector<std::uint64_t>& words) {
  const std::size_t per_row = words_per_row(rows.m);
  const std::uint64_t keys = rows.count * static_cast<std::uint64_t>(rows.weight);
  // Passes over the high bits of the key keep the bucket array under 512 MiB.
  int pass_bits = 0;
  while (pass_bits < 12 && (keys >> pass_bits) > (std::uint64_t{1} << 25)) ++pass_bits;
  constexpr std::uint64_t kMaxConflicts = 1'000'000;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> conflicts;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> bucket;  // (key, row)
  const std::vector<std::uint64_t> zobrist = zobrist_table(rows.m);
  std::vector<std::uint64_t> full(rows.count, 0);
  for (std::uint64_t i = 0; i < rows.count; ++i) {
    const std::uint64_t* row = words.data() + i * per_row;
    for (std::size_t k = 0; k < per_row; ++k)
      for (std::uint64_t bits = row[k]; bits != 0; bits &= bits - 1)
        full[i] ^= zobrist[k * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
  }
  for (std::uint64_t pass = 0; pass < (std::uint64_t{1} << pass_bits); ++pass) {
    bucket.clear();
    for (std::uint64_t i = 0; i < rows.count; ++i) {
      const std::uint64_t* row = words.data() + i * per_row;
      for (std::size_t k = 0; k < per_row; ++k)
        for (std::uint64_t bits = row[k]; bits != 0; bits &= bits - 1) {
          const std::uint64_t key =
              full[i] ^ zobrist[k * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
          if (pass_bits == 0 || (key >> (64 - pass_bits)) == pass) bucket.emplace_back(key, i);
        }
    }
    std::sort(bucket.begin(), bucket.end());
    for (std::size_t a = 0; a < bucket.size();) {
      std::size_t b = a + 1;
      while (b < bucket.size() && bucket[b].first == bucket[a].first) ++b;
      if (b - a > 4096)
        throw DomainError("too many near-duplicate words (" + std::to_string(b - a) +
                          " share a subset): use fewer {words} or a larger {m}");
      for (std::size_t p = a; p < b; ++p)
        for (std::size_t q = p + 1; q < b; ++q) {
          const std::uint64_t i = bucket[p].second, j = bucket[q].second;
          if (i == j) continue;
          if (intersection(words.data() + i * per_row, words.data() + j * per_row, per_row) >=
              rows.weight - 1)
            conflicts.emplace_back(std::min(i, j), std::max(i, j));
        }
      if (conflicts.size() > kMaxConflicts)
        throw DomainError("more than " + std::to_string(kMaxConflicts) +
                          " pairs of words with gap < 2: use fewer {words} or a larger {m}");
      a = b;
    }
  }
  std::sort(conflicts.begin(), conflicts.end());
  conflicts.erase(std::unique(conflicts.begin(), conflicts.end()), conflicts.end());
  std::vector<bool> dropped(rows.count, false);
  std::vector<std::uint64_t> drops;
  for (const auto& [i, j] : conflicts) {
    if (dropped[i] || dropped[j]) continue;
    dropped[j] = true;
    drops.push_back(j);
  }
  std::sort(drops.begin(), drops.end());
  return drops;
}

std::uint64_t PairCounts::pairs() const {
  return std::accumulate(by_intersection.begin(), by_intersection.end(), std::uint64_t{0});
}

PairCounts count_pairs(const GeneratedRows& rows, const std::vector<std::uint64_t>& words,
                       const std::vector<std::uint64_t>& drops, int threads, const Shard& shard,
                       const std::string& progress_label) {
  const std::size_t per_row = words_per_row(rows.m);
  std::vector<std::uint64_t> kept;
  kept.reserve(rows.count - drops.size());
  for (std::uint64_t i = 0, d = 0; i < rows.count; ++i) {
    if (d < drops.size() && drops[d] == i) {
      ++d;
      continue;
    }
    kept.push_back(i);
  }
  const TiledRows tiled = tile_rows(words, per_row, kept);
  // Tiles (bi, bj), bi <= bj, numbered row by row; the shard owns every K-th.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tiles;
  std::size_t number = 0;
  for (std::size_t bi = 0; bi < tiled.blocks; ++bi)
    for (std::size_t bj = bi; bj < tiled.blocks; ++bj, ++number)
      if (shard.owns(number))
        tiles.emplace_back(static_cast<std::uint32_t>(bi), static_cast<std::uint32_t>(bj));
  const std::size_t bins = static_cast<std::size_t>(rows.m) + 1;
  const int workers =
      std::max(1, std::min<int>(threads, static_cast<int>(std::max<std::size_t>(tiles.size(), 1))));
  std::vector<std::vector<std::uint64_t>> histograms(static_cast<std::size_t>(workers),
                                                     std::vector<std::uint64_t>(kLanes * bins, 0));
  Progress progress(progress_label, tiles.size());
  std::atomic<std::uint64_t> done{0};
  const IntersectKernel intersect = pick_kernel();
  parallel_for(tiles.size(), workers, [&](std::size_t task, int worker) {
    count_tile(intersect, tiled, tiles[task].first, tiles[task].second, bins,
               histograms[static_cast<std::size_t>(worker)].data());
    const std::uint64_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
    if (worker == 0) progress.update(finished);
  });
  progress.complete();
  PairCounts counts;
  counts.by_intersection.assign(static_cast<std::size_t>(rows.weight) + 1, 0);
  for (const auto& histogram : histograms)
    for (std::size_t lane = 0; lane < kLanes; ++lane)
      for (std::size_t x = 0; x < bins; ++x) {
        const std::uint64_t c = histogram[lane * bins + x];
        if (c == 0) continue;
        if (x > static_cast<std::size_t>(rows.weight))
          throw InternalError("pair pass: an intersection larger than the weight");
        counts.by_intersection[x] += c;
      }
  return counts;
}

void add_counts(PairCounts& into, const PairCounts& part) {
  if (into.by_intersection.empty()) into.by_intersection.assign(part.by_intersection.size(), 0);
  if (into.by_intersection.size() != part.by_intersection.size())
    throw UsageError("partial results with different weights cannot be merged");
  for (std::size_t x = 0; x < part.by_intersection.size(); ++x)
    into.by_intersection[x] += part.by_intersection[x];
}

GeneratedBound conclude_generated(const GeneratedRows& rows, std::vector<std::uint64_t> drops,
                                  PairCounts counts, int precision) {
  GeneratedBound result;
  result.rows = rows;
  result.kept = rows.count - drops.size();
  result.drops = std::move(drops);
  result.counts = std::move(counts);
  result.precision = precision;
  const std::uint64_t expected = result.kept * (result.kept - 1) / 2;
  if (result.counts.pairs() != expected)
    throw InternalError("pair pass counted " + std::to_string(result.counts.pairs()) +
                        " pairs, expected " + std::to_string(expected));
  const int w = rows.weight;
  AmplificationTable table(rows.n, w);
  result.sigma = 0;
  for (int x = 0; x <= w; ++x) {
    const std::uint64_t c = result.counts.by_intersection[static_cast<std::size_t>(x)];
    if (c == 0) continue;
    const int gap = w - x;
    if (gap < 2) throw InternalError("a kept pair has gap " + std::to_string(gap) + " < 2");
    const Integer& factor = table.at(gap)->factor;
    result.sigma += Rational(Integer(2) * Integer(c), factor * factor);
  }
  const Integer k = Integer(result.kept);
  result.value = Rational(k * k) / (Rational(k) + result.sigma);
  result.sum = floor_of(result.value * Rational(Integer(1) << precision));
  result.bound = result.kept >= 2 ? floor_of(result.value) + 1 : Integer(1);
  return result;
}

std::string generated_certificate(const CertificateTask& task, const GeneratedBound& bound) {
  const GeneratedRows& rows = bound.rows;
  std::string text = "kernelrank-certificate 2\n";
  text += task_line(task, "cube") + "\n";
  text += "construction " +
          single_line(std::to_string(rows.count) + " random weight-" + std::to_string(rows.weight) +
                      " words (SplitMix64, seed " + std::to_string(rows.seed) +
                      "), complement queries, " + std::to_string(bound.drops.size()) +
                      " dropped for a gap below 2") +
          "\n";
  text += "rule trace-uniform precision=" + std::to_string(bound.precision) + "\n";
  text += "generated splitmix64 seed=" + std::to_string(rows.seed) +
          " count=" + std::to_string(rows.count) + " weight=" + std::to_string(rows.weight) +
          " queries=complement\n";
  text += "drops " + std::to_string(bound.drops.size()) + "\n";
  for (std::uint64_t d : bound.drops) text += "drop " + std::to_string(d + 1) + "\n";
  text += "sum " + bound.sum.str() + "\n";
  text += "claim r >= " + bound.bound.str() + "\n";
  return text + "end\n";
}

}  // namespace kernelrank
