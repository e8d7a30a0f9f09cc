// Constant-weight codes: the Johnson scheme, greedy lexicodes, seeded random
// greedy codes, the code text format and exact pairwise statistics.
//
// The rank bounds of theory.md L4 only need a list of weight-w words with a
// known minimum distance, so every construction here is exact and
// deterministic. Widths up to 64 run on single uint64_t masks (distance =
// popcount of xor); wider words use the same loops over packed 64-bit words.
// Mask bit p is coordinate p, exactly as in Token::words().
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/binomial.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/portable_random.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/core/text_input.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace kernelrank {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

void check_width_and_weight(const std::string& who, int m, int w) {
  if (m < 1 || m > kMaxTokenWidth)
    throw UsageError(who + ": the width m must be in 1.." + std::to_string(kMaxTokenWidth) +
                     ", got m=" + std::to_string(m));
  if (w < 0 || w > m)
    throw UsageError(who + ": the weight w must be in 0..m=" + std::to_string(m) +
                     ", got w=" + std::to_string(w));
}

// Distances between words of width m lie in 0..m, so d > m can only be a mistake.
void check_distance(const std::string& who, int m, int d) {
  if (d < 1 || d > m)
    throw UsageError(who + ": the minimum distance d must be in 1..m=" + std::to_string(m) +
                     ", got d=" + std::to_string(d));
}

std::string count_text(std::uint64_t count) {
  return count == kSaturated ? std::string("more than 1.8e19") : std::to_string(count);
}

void check_enumeration_limit(const std::string& who, int m, int w, std::uint64_t limit) {
  const std::uint64_t count = binomial_saturating(m, w);
  if (count > limit)
    throw ResourceError(who + ": C(" + std::to_string(m) + "," + std::to_string(w) + ") = " +
                        count_text(count) + " words exceeds the limit of " + std::to_string(limit) +
                        "; use the random greedy construction for large widths");
}

// The weight-w words of width m in increasing order of their 0/1 strings read
// as binary numbers. A word is held as the sorted bit significances of its
// ones (significance s = coordinate m-1-s); the successor is the next
// combination in colexicographic order, which is the next larger integer.
class WeightedWordWalker {
 public:
  WeightedWordWalker(int m, int w) : m_(m), significance_(static_cast<std::size_t>(w)) {
    std::iota(significance_.begin(), significance_.end(), 0);
  }

  // Advances to the next word; false after the last one.
  bool advance() {
    const std::size_t w = significance_.size();
    std::size_t j = 0;
    while (j < w) {
      const int ceiling = (j + 1 < w) ? significance_[j + 1] : m_;
      if (significance_[j] + 1 < ceiling) break;
      ++j;
    }
    if (j == w) return false;
    ++significance_[j];
    for (std::size_t i = 0; i < j; ++i) significance_[i] = static_cast<int>(i);
    return true;
  }

  // Packs the word into `words` (ceil(m/64) entries, coordinate p at bit p%64).
  void pack(std::uint64_t* words, std::size_t stride) const {
    std::fill(words, words + stride, std::uint64_t{0});
    for (int s : significance_) {
      const int p = m_ - 1 - s;
      words[p / 64] |= std::uint64_t{1} << (p % 64);
    }
  }

 private:
  int m_;
  std::vector<int> significance_;
};

std::size_t stride_of(int m) { return (static_cast<std::size_t>(m) + 63) / 64; }

Token token_from_packed(int m, const std::uint64_t* words) {
  Token token(m);
  for (std::size_t i = 0; i < stride_of(m); ++i) {
    std::uint64_t word = words[i];
    while (word != 0) {
      token.set(static_cast<int>(i * 64) + std::countr_zero(word), true);
      word &= word - 1;
    }
  }
  return token;
}

// Baseline x86-64 has no popcount instruction, and std::popcount then costs a
// dozen instructions; the hot loops below are cloned for CPUs that have one
// (the clone is chosen once at load time). Results are the same either way.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KERNELRANK_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define KERNELRANK_POPCNT_CLONES
#endif

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

int packed_distance(const std::uint64_t* a, const std::uint64_t* b, std::size_t stride) {
  int total = 0;
  for (std::size_t i = 0; i < stride; ++i) total += std::popcount(a[i] ^ b[i]);
  return total;
}

// The index of a kept word at distance < d from the candidate, or kNone. The
// word at `hint` (the previous blocker) is tried first because neighbouring
// candidates tend to share a blocker; the order never changes the answer.
KERNELRANK_POPCNT_CLONES
std::size_t find_blocker(const std::uint64_t* kept, std::size_t count, std::size_t stride,
                         const std::uint64_t* candidate, int d, std::size_t hint) {
  if (stride == 1) {
    const std::uint64_t word = candidate[0];
    if (hint < count && std::popcount(kept[hint] ^ word) < d) return hint;
    for (std::size_t i = count; i-- > 0;)
      if (std::popcount(kept[i] ^ word) < d) return i;
    return kNone;
  }
  if (hint < count && packed_distance(kept + hint * stride, candidate, stride) < d) return hint;
  for (std::size_t i = count; i-- > 0;)
    if (packed_distance(kept + i * stride, candidate, stride) < d) return i;
  return kNone;
}

// Adds the distance of every pair i < j to pairs_at[distance].
KERNELRANK_POPCNT_CLONES
void count_pair_distances(const std::uint64_t* words, std::size_t n, std::size_t stride,
                          std::vector<std::uint64_t>& pairs_at, Progress& progress) {
  std::uint64_t done = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (stride == 1) {
      const std::uint64_t a = words[i];
      for (std::size_t j = i + 1; j < n; ++j)
        ++pairs_at[static_cast<std::size_t>(std::popcount(a ^ words[j]))];
    } else {
      for (std::size_t j = i + 1; j < n; ++j)
        ++pairs_at[static_cast<std::size_t>(
            packed_distance(words + i * stride, words + j * stride, stride))];
    }
    done += n - 1 - i;
    progress.update(done);
  }
}

// Greedy acceptance: a candidate is kept when no kept word is within distance
// < d. Words are packed `stride` 64-bit words each (one for widths up to 64).
class Greedy {
 public:
  Greedy(int d, std::size_t stride) : d_(d), stride_(stride) {}

  bool offer(const std::uint64_t* candidate) {
    const std::size_t blocker =
        find_blocker(kept_.data(), size(), stride_, candidate, d_, last_blocker_);
    if (blocker != kNone) {
      last_blocker_ = blocker;
      return false;
    }
    kept_.insert(kept_.end(), candidate, candidate + stride_);
    return true;
  }
  std::size_t size() const { return kept_.size() / stride_; }
  const std::uint64_t* at(std::size_t i) const { return kept_.data() + i * stride_; }

 private:
  int d_;
  std::size_t stride_;
  std::vector<std::uint64_t> kept_;
  std::size_t last_blocker_ = kNone;
};

// Uniformly random weight-w subsets by a partial Fisher-Yates shuffle of the
// coordinates. Only min(w, m-w) positions are drawn (the complement of a
// uniform (m-w)-subset is a uniform w-subset). The shuffled array carries over
// between draws; any starting arrangement gives a uniform subset. The draws
// come from PortableUniform (std::mt19937_64 raw outputs with rejection, never
// std::uniform_int_distribution), so a seed gives the same code on every platform.
class RandomWordSource {
 public:
  RandomWordSource(int m, int w, std::uint64_t seed)
      : uniform_(seed),
        coordinates_(static_cast<std::size_t>(m)),
        drawn_(std::min(w, m - w)),
        complement_(w > m - w) {
    std::iota(coordinates_.begin(), coordinates_.end(), 0);
  }

  // Fills `words` (stride entries) with the next random word.
  void next(std::uint64_t* words, std::size_t stride) {
    const std::size_t m = coordinates_.size();
    for (std::size_t i = 0; i < static_cast<std::size_t>(drawn_); ++i) {
      const std::size_t j = i + static_cast<std::size_t>(uniform_.below(m - i));
      std::swap(coordinates_[i], coordinates_[j]);
    }
    std::fill(words, words + stride, std::uint64_t{0});
    for (std::size_t i = 0; i < static_cast<std::size_t>(drawn_); ++i) {
      const int p = coordinates_[i];
      words[p / 64] |= std::uint64_t{1} << (p % 64);
    }
    if (complement_) {
      for (std::size_t i = 0; i < stride; ++i) words[i] = ~words[i];
      if (m % 64 != 0) words[stride - 1] &= (std::uint64_t{1} << (m % 64)) - 1;
    }
  }

 private:
  PortableUniform uniform_;
  std::vector<int> coordinates_;
  int drawn_;
  bool complement_;
};

}  // namespace

Code johnson_code(int m, int w, std::uint64_t limit) {
  check_width_and_weight("johnson", m, w);
  check_enumeration_limit("johnson", m, w, limit);
  Code code;
  code.m = m;
  code.construction = "johnson m=" + std::to_string(m) + " w=" + std::to_string(w);
  code.words.reserve(static_cast<std::size_t>(binomial_saturating(m, w)));
  WeightedWordWalker walker(m, w);
  std::vector<std::uint64_t> packed(stride_of(m));
  do {
    walker.pack(packed.data(), packed.size());
    code.words.push_back(token_from_packed(m, packed.data()));
  } while (walker.advance());
  return code;
}

Code lexicode(int m, int w, int d, std::uint64_t limit) {
  check_width_and_weight("lexicode", m, w);
  check_distance("lexicode", m, d);
  check_enumeration_limit("lexicode", m, w, limit);
  Code code;
  code.m = m;
  code.construction =
      "lexicode m=" + std::to_string(m) + " w=" + std::to_string(w) + " d=" + std::to_string(d);
  Progress progress("lexicode", binomial_saturating(m, w));
  std::uint64_t scanned = 0;
  const std::size_t stride = stride_of(m);
  Greedy greedy(d, stride);
  std::vector<std::uint64_t> candidate(stride);
  WeightedWordWalker walker(m, w);
  do {
    walker.pack(candidate.data(), stride);
    greedy.offer(candidate.data());
    progress.update(++scanned);
  } while (walker.advance());
  progress.finish();
  for (std::size_t i = 0; i < greedy.size(); ++i)
    code.words.push_back(token_from_packed(m, greedy.at(i)));
  return code;
}

Code random_greedy_code(int m, int w, int d, std::uint64_t seed, int max_failures,
                        std::size_t max_words) {
  check_width_and_weight("random greedy", m, w);
  check_distance("random greedy", m, d);
  if (max_failures < 1)
    throw UsageError("random greedy: max_failures must be at least 1, got " +
                     std::to_string(max_failures));
  if (max_words < 1) throw UsageError("random greedy: max_words must be at least 1, got 0");
  Code code;
  code.m = m;
  code.construction = "random greedy m=" + std::to_string(m) + " w=" + std::to_string(w) +
                      " d=" + std::to_string(d) + " seed=" + std::to_string(seed) +
                      " max_failures=" + std::to_string(max_failures) +
                      " max_words=" + std::to_string(max_words);
  RandomWordSource source(m, w, seed);
  const std::size_t stride = stride_of(m);
  Greedy greedy(d, stride);
  std::vector<std::uint64_t> candidate(stride);
  int failures = 0;
  while (failures < max_failures && greedy.size() < max_words) {
    source.next(candidate.data(), stride);
    failures = greedy.offer(candidate.data()) ? 0 : failures + 1;
  }
  // Kept order, so a prefix is the code a smaller max_words would have given.
  for (std::size_t i = 0; i < greedy.size(); ++i)
    code.words.push_back(token_from_packed(m, greedy.at(i)));
  return code;
}

Code parse_code(const std::string& name, const std::string& contents) {
  TextReader reader(name, contents);
  Code code;
  code.construction = "file " + name;
  while (auto line = reader.next()) {
    if (line->fields.size() != 1)
      reader.fail(line->number, "expected one 0/1 code word per line, found " +
                                    std::to_string(line->fields.size()) + " fields");
    const int width = code.words.empty() ? -1 : code.m;
    code.words.push_back(reader.token_field(*line, 0, width, "a 0/1 code word"));
    code.m = code.words.back().width();
  }
  if (code.words.empty())
    throw InputError(name, 0, "expected at least one 0/1 code word, found none");
  return code;
}

Code read_code(const std::string& path) { return parse_code(path, read_file_checked(path)); }

std::string code_to_text(const Code& code) {
  std::string label = code.construction;
  std::replace(label.begin(), label.end(), '\n', ' ');
  std::replace(label.begin(), label.end(), '\r', ' ');
  std::string text = "# " + label + "\n";
  text.reserve(text.size() + code.words.size() * (static_cast<std::size_t>(code.m) + 1));
  for (const Token& word : code.words) {
    text += word.to_string();
    text += '\n';
  }
  return text;
}

CodeStatistics code_statistics(const Code& code) {
  CodeStatistics stats;
  stats.size = code.words.size();
  stats.m = code.m;
  for (const Token& word : code.words)
    if (word.width() != code.m)
      throw UsageError("code statistics: a word has width " + std::to_string(word.width()) +
                       " but the code has width m=" + std::to_string(code.m));
  if (code.words.empty()) return stats;

  stats.min_weight = code.m;
  for (const Token& word : code.words) {
    stats.min_weight = std::min(stats.min_weight, word.weight());
    stats.max_weight = std::max(stats.max_weight, word.weight());
  }
  stats.constant_weight = stats.min_weight == stats.max_weight;

  // Pair counts per distance 0..m, over a flat packed copy of the words.
  const std::size_t n = code.words.size();
  const std::size_t stride = stride_of(code.m);
  std::vector<std::uint64_t> packed;
  packed.reserve(n * stride);
  for (const Token& word : code.words)
    packed.insert(packed.end(), word.words().begin(), word.words().end());
  std::vector<std::uint64_t> pairs_at(static_cast<std::size_t>(code.m) + 1, 0);
  const std::uint64_t total_pairs = static_cast<std::uint64_t>(n) * (n - 1) / 2;
  Progress progress("code pairs", total_pairs);
  count_pair_distances(packed.data(), n, stride, pairs_at, progress);
  progress.finish();

  for (std::size_t distance_value = 0; distance_value < pairs_at.size(); ++distance_value)
    if (pairs_at[distance_value] != 0)
      stats.distance_distribution[static_cast<int>(distance_value)] = pairs_at[distance_value];
  stats.has_duplicates = pairs_at[0] != 0;
  stats.min_distance =
      stats.distance_distribution.empty() ? 0 : stats.distance_distribution.begin()->first;
  return stats;
}

}  // namespace kernelrank
