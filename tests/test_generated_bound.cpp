// Generated rows: the generator, the gap-below-2 pre-pass and the tiled pair pass, each
// against a naive version written here; threads and shards against the whole run.
#include <doctest/doctest.h>

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/generated_bound.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <bit>
#include <set>

using namespace kernelrank;

namespace {

std::size_t per_row(int m) { return static_cast<std::size_t>((m + 63) / 64); }

int naive_intersection(const std::vector<std::uint64_t>& words, int m, std::uint64_t i,
                       std::uint64_t j) {
  int total = 0;
  for (std::size_t k = 0; k < per_row(m); ++k)
    total += std::popcount(words[i * per_row(m) + k] & words[j * per_row(m) + k]);
  return total;
}

std::vector<std::uint64_t> naive_counts(const GeneratedRows& rows,
                                        const std::vector<std::uint64_t>& words,
                                        const std::vector<std::uint64_t>& drops) {
  const std::set<std::uint64_t> dropped(drops.begin(), drops.end());
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(rows.weight) + 1, 0);
  for (std::uint64_t i = 0; i < rows.count; ++i)
    for (std::uint64_t j = i + 1; j < rows.count; ++j)
      if (dropped.count(i) == 0 && dropped.count(j) == 0)
        ++counts[static_cast<std::size_t>(naive_intersection(words, rows.m, i, j))];
  return counts;
}

}  // namespace

TEST_CASE(
    "SplitMix64 words: published test vectors of the generator drive a partial Fisher-Yates") {
  // SplitMix64 from seed 0 starts with 0xE220A8397B1DCDAF; below(2^32) of that draw is its
  // low 32 bits (no rejection: the threshold is 0). With m = 2^32 impossible here, check
  // the sampler's shape instead: every word has exactly `weight` ones inside the width.
  for (int m : {8, 63, 64, 65, 130, 256, 300}) {
    GeneratedRows rows{m, 3, 7, 200, m / 3 + 1};
    const auto words = generate_words(rows);
    REQUIRE(words.size() == rows.count * per_row(m));
    for (std::uint64_t i = 0; i < rows.count; ++i) {
      int ones = 0;
      for (std::size_t k = 0; k < per_row(m); ++k) ones += std::popcount(words[i * per_row(m) + k]);
      CHECK(ones == rows.weight);
      if (m % 64 != 0) CHECK((words[i * per_row(m) + per_row(m) - 1] >> (m % 64)) == 0);
    }
  }
  // Different seeds give different words; the same seed the same words.
  GeneratedRows a{64, 3, 1, 50, 32}, b{64, 3, 2, 50, 32};
  CHECK(generate_words(a) == generate_words(a));
  CHECK(generate_words(a) != generate_words(b));
}

TEST_CASE("SplitMix64 words: the first word of seed 0 follows from the generator's first outputs") {
  // m = 2, weight 1: t = 0, j = below(2) of the first output 0xE220A8397B1DCDAF (odd, so
  // j = 1): perm becomes [1, 0] and the word is coordinate 1, i.e. bit 1.
  GeneratedRows rows{2, 3, 0, 2, 1};
  const auto words = generate_words(rows);
  CHECK(words[0] == 2);
  // The second output of seed 0 is 0x6E789E6AA1B965F4 (even): the second word is bit 0.
  CHECK(words[1] == 1);
}

TEST_CASE("pair pass: tiled counts equal the naive double loop at every word count") {
  for (int m : {16, 64, 100, 128, 192, 256, 320}) {
    GeneratedRows rows{m, 3, 11, 2500, m / 2};
    const auto words = generate_words(rows);
    const auto drops = conflict_drops(rows, words);
    const PairCounts counts = count_pairs(rows, words, drops, 1, Shard{}, "");
    CHECK(counts.by_intersection == naive_counts(rows, words, drops));
  }
}

TEST_CASE("pair pass: threads and shards add up to the whole run") {
  GeneratedRows rows{96, 3, 5, 3000, 48};  // three tiles per side
  const auto words = generate_words(rows);
  const auto drops = conflict_drops(rows, words);
  const PairCounts whole = count_pairs(rows, words, drops, 1, Shard{}, "");
  for (int threads : {2, 3, 8})
    CHECK(count_pairs(rows, words, drops, threads, Shard{}, "").by_intersection ==
          whole.by_intersection);
  for (std::uint64_t shards : {2ULL, 3ULL, 5ULL}) {  // 3000 rows: 3 blocks, 6 tiles
    PairCounts sum;
    for (std::uint64_t k = 1; k <= shards; ++k) {
      const PairCounts part = count_pairs(rows, words, drops, 2, Shard{k, shards}, "");
      if (shards == 5 && k == 5) CHECK(part.pairs() > 0);  // tile 4 only
      add_counts(sum, part);
    }
    CHECK(sum.by_intersection == whole.by_intersection);
  }
}

TEST_CASE("gap-below-2 pre-pass: the drops are the greedy choice over all conflicting pairs") {
  for (int m : {8, 10, 12}) {
    GeneratedRows rows{m, 3, 3, 120, m / 2};
    const auto words = generate_words(rows);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> conflicts;
    for (std::uint64_t i = 0; i < rows.count; ++i)
      for (std::uint64_t j = i + 1; j < rows.count; ++j)
        if (naive_intersection(words, m, i, j) >= rows.weight - 1) conflicts.emplace_back(i, j);
    REQUIRE(!conflicts.empty());
    std::set<std::uint64_t> expected;
    for (const auto& [i, j] : conflicts)
      if (expected.count(i) == 0 && expected.count(j) == 0) expected.insert(j);
    const auto drops = conflict_drops(rows, words);
    CHECK(std::vector<std::uint64_t>(expected.begin(), expected.end()) == drops);
    const auto counts = naive_counts(rows, words, drops);
    CHECK(counts[static_cast<std::size_t>(rows.weight)] == 0);
    CHECK(counts[static_cast<std::size_t>(rows.weight - 1)] == 0);
  }
}

TEST_CASE("generated bound: T = K^2 / (K + Sigma) from the histogram, claim floor(T) + 1") {
  GeneratedRows rows{40, 3, 9, 400, 20};
  const auto words = generate_words(rows);
  const auto drops = conflict_drops(rows, words);
  const GeneratedBound bound =
      conclude_generated(rows, drops, count_pairs(rows, words, drops, 2, Shard{}, ""));
  // Sigma recomputed pair by pair with R_3 from the amplification table.
  const AmplificationTable table(3, 20);
  Rational sigma = 0;
  const std::set<std::uint64_t> dropped(drops.begin(), drops.end());
  std::uint64_t kept = 0;
  for (std::uint64_t i = 0; i < rows.count; ++i) {
    if (dropped.count(i) != 0) continue;
    ++kept;
    for (std::uint64_t j = 0; j < rows.count; ++j) {
      if (i == j || dropped.count(j) != 0) continue;
      const Integer& r = table.at(20 - naive_intersection(words, 40, i, j))->factor;
      sigma += Rational(Integer(1), r * r);
    }
  }
  CHECK(bound.kept == kept);
  CHECK(bound.sigma == sigma);
  const Rational t = Rational(Integer(kept * kept)) / (Rational(Integer(kept)) + sigma);
  CHECK(bound.value == t);
  CHECK(bound.bound == floor_of(t) + 1);
  CHECK(bound.sum == floor_of(t * Rational(Integer(1) << 32)));
}

TEST_CASE("generated rows: impossible parameters are refused with the parameter named") {
  // The library names its parameter (words, weight, n); a front end renders the pattern's
  // {name} its own way, the CLI as the flag --name.
  const auto refusal = [](const GeneratedRows& rows) -> std::string {
    try {
      validate(rows);
    } catch (const DomainError& e) {
      CHECK(std::string(e.what()) == ParameterMessage::plain(e.pattern()));
      return e.pattern();
    }
    return "no DomainError";
  };
  CHECK(refusal(GeneratedRows{64, 3, 1, 1, 32}).rfind("{words} must be in 2..", 0) == 0);
  CHECK(refusal(GeneratedRows{64, 3, 1, 100, 64}) == "{weight} must be in 1..m-1 = 1..63, not 64");
  CHECK(refusal(GeneratedRows{64, 2, 1, 100, 32}) == "{n} must be in 3..1000");
  CHECK_THROWS_WITH_AS(validate(GeneratedRows{4096, 3, 1, 9'000'000, 100}),
                       doctest::Contains("4 GiB"), UsageError);
  CHECK_THROWS_WITH_AS(validate(GeneratedRows{64, 2, 1, 100, 32}), "n must be in 3..1000",
                       UsageError);
}

TEST_CASE("parameter messages: {name} is the front end's, '{{' a literal brace") {
  const ParameterMessage message("{m} and {max-base}; {0,1}^m, {Upper}, {{x}, a {b");
  CHECK(ParameterMessage::plain(message.pattern()) ==
        "m and max-base; {0,1}^m, {Upper}, {x}, a {b");
  CHECK(message.render([](const std::string& p) { return "--" + p; }) ==
        "--m and --max-base; {0,1}^m, {Upper}, {x}, a {b");
  CHECK(ParameterMessage::literal("out{x}.json") == "out{{x}.json");
  CHECK(ParameterMessage::plain(ParameterMessage::literal("a{b}c")) == "a{b}c");
}

TEST_CASE("generated rows: more near-duplicates than the pre-pass allows is a clear error") {
  GeneratedRows rows{6, 3, 1, 200000, 3};  // only 20 distinct words
  const auto words = generate_words(rows);
  CHECK_THROWS_AS(conflict_drops(rows, words), UsageError);
}
