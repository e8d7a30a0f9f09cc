// The transcript bound of theory.md L7 (see include/kernelrank/bounds/transcript.hpp and
// docs/transcript.md): how many different messages the keys' side of any finite-alphabet
// model must be able to send so that the query side can read every Min-IP answer.
//
// Cube: D = the number of distinct answer vectors over all contexts, by brute force or by
// counting antichains (the two are cross-checked where both run); families are in
// transcript_family.cpp. Every "independent answers" figure is checked on the queries and
// contexts it names before it is reported.
#include "kernelrank/bounds/transcript.hpp"
#include "kernelrank/core/binomial.hpp"

#include "kernelrank/core/errors.hpp"

#include <boost/multiprecision/integer.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kernelrank {
namespace {

constexpr int kMaxCubeLength = 1000;  // the checker's longest sequence
// Cube independence claims with at most this many combinations are checked one by one.
constexpr std::uint64_t kMaxEnumeratedCombinations = std::uint64_t{1} << 16;

void require_cube_parameters(int m, int n) {
  if (m < 1) throw DomainError("{m} must be at least 1, found " + std::to_string(m));
  if (m > kMaxTranscriptCubeWidth)
    throw DomainError("{m} must be at most " + std::to_string(kMaxTranscriptCubeWidth) +
                      ", found " + std::to_string(m));
  if (n < 1) throw DomainError("{n} must be at least 1, found " + std::to_string(n));
  if (n > kMaxCubeLength)
    throw DomainError("{n} must be at most " + std::to_string(kMaxCubeLength) + ", found " +
                      std::to_string(n));
}

// The largest antichain of {0,1}^m has C(m, floor(m/2)) members (Sperner).
Integer lattice_width(int m) { return binomial(Integer(m), static_cast<std::uint64_t>(m / 2)); }

// Number of k-antichains of {0,1}^m for 2 <= k <= kMaxAntichainCountSize. Write an
// ordered k-tuple of sets as m columns p in {0,1}^k (p_s = 1: the coordinate is in set s).
// Set s is not inside set t iff some column has p_s = 1, p_t = 0. Inclusion-exclusion
// over the set E of ordered pairs (s,t) for which no such column exists: the columns
// allowed are those with p_s <= p_t on E, N(E) of them, so the ordered count is
// sum_E (-1)^|E| N(E)^m. Pairwise incomparable sets are distinct, so divide by k!.
Integer antichains_of_size(int m, int k) {
  std::vector<std::pair<int, int>> ordered_pairs;
  for (int s = 0; s < k; ++s)
    for (int t = 0; t < k; ++t)
      if (s != t) ordered_pairs.push_back({s, t});
  const int pair_count = static_cast<int>(ordered_pairs.size());
  const int patterns = 1 << k;
  std::vector<std::uint32_t> violated(patterns, 0);  // pairs (s,t) with p_s = 1, p_t = 0
  for (int p = 0; p < patterns; ++p)
    for (int e = 0; e < pair_count; ++e)
      if ((p >> ordered_pairs[e].first & 1) && !(p >> ordered_pairs[e].second & 1))
        violated[p] |= std::uint32_t{1} << e;
  std::vector<std::int64_t> coefficient(patterns + 1, 0);  // by N(E)
  for (std::uint32_t subset = 0; subset < (std::uint32_t{1} << pair_count); ++subset) {
    int allowed = 0;
    for (int p = 0; p < patterns; ++p) allowed += (violated[p] & subset) == 0;
    coefficient[allowed] += std::popcount(subset) % 2 == 0 ? 1 : -1;
  }
  Integer ordered = 0;
  for (int allowed = 0; allowed <= patterns; ++allowed)
    if (coefficient[allowed] != 0)
      ordered +=
          Integer(coefficient[allowed]) * integer_power(static_cast<std::uint64_t>(allowed), m);
  Integer factorial = 1;
  for (int i = 2; i <= k; ++i) factorial *= i;
  if (ordered < 0 || ordered % factorial != 0)
    throw InternalError("antichain count: the ordered count " + ordered.str() +
                        " is not a nonnegative multiple of " + factorial.str());
  return ordered / factorial;
}

// ---- independent answers in the cube ---------------------------------------------

// t(q,K) = min(|q|, <q,key>) for K = n-1 >= 1 copies of `key`.
int answer_against_copies(const Token& query, const Token& key) {
  return std::min(query.weight(), inner(query, key));
}

Token block_prefix(int m, int block, int weight, int ones) {
  Token token(m);
  for (int i = 0; i < ones; ++i) token.set(block * weight + i, true);
  return token;
}

IndependentAnswers cube_independent_answers(int m, int n) {
  IndependentAnswers result;
  if (n == 1) {
    // One context (no key besides the query): every answer is |q|, a single value.
    result.verified = "enumerated";
    return result;
  }
  // q = floor(m/w) disjoint blocks of weight w, answers 0..w: the best w.
  int best_weight = 1;
  Integer best = 0;
  for (int w = 1; w <= m; ++w) {
    const Integer product =
        integer_power(static_cast<std::uint64_t>(w + 1), static_cast<std::uint64_t>(m / w));
    if (product > best) {
      best = product;
      best_weight = w;
    }
  }
  const int w = best_weight;
  const int blocks = m / w;
  result.queries = blocks;
  result.values = w + 1;
  result.product = best;
  result.block_weight = w;
  for (int b = 0; b < blocks; ++b) result.query_tokens.push_back(block_prefix(m, b, w, w));
  result.value_sets.assign(blocks, std::vector<int>(w + 1));
  for (auto& values : result.value_sets) std::iota(values.begin(), values.end(), 0);

  if (best <= kMaxEnumeratedCombinations) {
    // Build every combination's context (n-1 copies of one token) and read its answers.
    std::vector<int> digits(blocks, 0);
    std::uint64_t realised = 0;
    while (true) {
      Token key(m);
      for (int b = 0; b < blocks; ++b)
        for (int i = 0; i < digits[b]; ++i) key.set(b * w + i, true);
      for (int b = 0; b < blocks; ++b)
        if (answer_against_copies(result.query_tokens[b], key) != digits[b])
          throw InternalError("transcript: a cube combination is not realised at block " +
                              std::to_string(b + 1));
      ++realised;
      int b = blocks - 1;
      while (b >= 0 && digits[b] == w) digits[b--] = 0;
      if (b < 0) break;
      ++digits[b];
    }
    if (Integer(realised) != best) throw InternalError("transcript: combination count mismatch");
    result.verified = "enumerated";
    return result;
  }
  // Blockwise: the blocks are pairwise disjoint, and for each block and value v the witness
  // part (the first v coordinates of the block) lies inside the block and meets its query in
  // v coordinates. <q_b, .> is additive over disjoint parts, so the union of one part per
  // block answers v_b at every query q_b, for every combination, at any n >= 2.
  std::vector<char> covered(m, 0);
  for (int b = 0; b < blocks; ++b) {
    const Token& query = result.query_tokens[b];
    for (int i = 0; i < m; ++i)
      if (query.get(i)) {
        if (covered[i]) throw InternalError("transcript: cube blocks overlap");
        covered[i] = 1;
      }
    const Token outside = query.complement();
    for (int v = 0; v <= w; ++v) {
      const Token part = block_prefix(m, b, w, v);
      if (inner(part, query) != v || inner(part, outside) != 0 ||
          answer_against_copies(query, part) != v)
        throw InternalError("transcript: a cube block witness fails at block " +
                            std::to_string(b + 1));
    }
  }
  result.verified = "blockwise";
  return result;
}

}  // namespace

Log2Interval log2_interval(const Integer& value) {
  if (value < 1) throw InternalError("log2 of a number below 1");
  const std::uint64_t low = boost::multiprecision::msb(value);
  const bool power_of_two = boost::multiprecision::lsb(value) == low;
  return {low, power_of_two ? low : low + 1};
}

CubeCountMethod parse_cube_count_method(const std::string& text) {
  if (text == "auto") return CubeCountMethod::Auto;
  if (text == "brute-force") return CubeCountMethod::BruteForce;
  if (text == "antichains") return CubeCountMethod::Antichains;
  throw DomainError("{method} must be auto, brute-force or antichains, found '" +
                    ParameterMessage::literal(text) + "'");
}

Integer cube_context_count(int m, int n) {
  require_cube_parameters(m, n);
  const Integer tokens = Integer(1) << m;
  return binomial(tokens + (n - 2), static_cast<std::uint64_t>(n - 1));
}

bool cube_brute_force_feasible(int m, int n) {
  if (m < 1 || m > 24 || n < 1 || n > kMaxCubeLength) return false;
  return cube_context_count(m, n) * (Integer(1) << m) <= kMaxTranscriptCells;
}

bool cube_antichain_count_feasible(int m, int n) {
  if (m < 1 || m > kMaxTranscriptCubeWidth || n < 1 || n > kMaxCubeLength) return false;
  return n - 1 <= kMaxAntichainCountSize || lattice_width(m) <= kMaxAntichainCountSize;
}

Integer cube_answer_vectors_brute_force(int m, int n) {
  require_cube_parameters(m, n);
  if (!cube_brute_force_feasible(m, n))
    throw DomainResourceError(
        "brute force over T(" + std::to_string(m) + "," + std::to_string(n) + ") visits " +
        cube_context_count(m, n).str() + " contexts x 2^" + std::to_string(m) + " queries, above " +
        std::to_string(kMaxTranscriptCells) +
        " answer cells; lower {m} or {n}, or use {method} antichains (n <= 6)");
  const std::uint32_t universe = std::uint32_t{1} << m;
  const int keys = n - 1;
  std::unordered_set<std::string> vectors;
  std::vector<std::uint32_t> context(keys, 0);  // nondecreasing token indices: a multiset
  std::string row(universe, '\0');
  while (true) {
    for (std::uint32_t q = 0; q < universe; ++q) {
      int answer = std::popcount(q);  // <q,q>: the query's own position
      for (std::uint32_t x : context) answer = std::min(answer, std::popcount(q & x));
      row[q] = static_cast<char>(answer);
    }
    vectors.insert(row);
    int i = keys - 1;
    while (i >= 0 && context[i] == universe - 1) --i;
    if (i < 0) break;
    ++context[i];
    for (int j = i + 1; j < keys; ++j) context[j] = context[i];
  }
  return Integer(vectors.size());
}

Integer cube_answer_vectors_antichains(int m, int n) {
  require_cube_parameters(m, n);
  if (!cube_antichain_count_feasible(m, n))
    throw DomainResourceError("the antichain count handles antichains of at most " +
                              std::to_string(kMaxAntichainCountSize) +
                              " members ({n} <= " + std::to_string(kMaxAntichainCountSize + 1) +
                              ") unless {m} <= 3; use " + "{method} brute-force or lower {n}");
  if (n == 1) return 1;  // no key besides the query: every answer is |q|
  const Integer width = lattice_width(m);
  Integer total = Integer(1) << m;  // antichains of one member: the single tokens
  for (int k = 2; k <= n - 1; ++k) {
    if (Integer(k) > width) break;  // no antichain is larger than the width
    total += antichains_of_size(m, k);
  }
  return total;
}

CubeTranscriptResult cube_transcript_bound(int m, int n, CubeCountMethod method, bool cross_check) {
  require_cube_parameters(m, n);
  CubeTranscriptResult result;
  result.m = m;
  result.n = n;
  result.contexts = cube_context_count(m, n);
  result.queries = Integer(1) << m;
  if (method == CubeCountMethod::Auto)
    method = cube_antichain_count_feasible(m, n) ? CubeCountMethod::Antichains
                                                 : CubeCountMethod::BruteForce;
  if (method == CubeCountMethod::Antichains) {
    result.answer_vectors = cube_answer_vectors_antichains(m, n);
    result.method = "antichain count";
  } else {
    result.answer_vectors = cube_answer_vectors_brute_force(m, n);
    result.method = "brute force";
  }
  if (cross_check) {
    if (!cube_brute_force_feasible(m, n) || !cube_antichain_count_feasible(m, n))
      throw DomainResourceError(
          "{cross-check} needs both brute force (at most " + std::to_string(kMaxTranscriptCells) +
          " answer cells) and the antichain count (n <= 6 or m <= 3) at T(" + std::to_string(m) +
          "," + std::to_string(n) + "); lower {m} or drop {cross-check}");
    const Integer other = method == CubeCountMethod::Antichains
                              ? cube_answer_vectors_brute_force(m, n)
                              : cube_answer_vectors_antichains(m, n);
    if (other != result.answer_vectors)
      throw InternalError("transcript: brute force and the antichain count disagree at T(" +
                          std::to_string(m) + "," + std::to_string(n) + ")");
    result.cross_checked = true;
  }
  result.bits = log2_interval(result.answer_vectors);
  result.independent = cube_independent_answers(m, n);
  if (result.independent.product > result.answer_vectors)
    throw InternalError("transcript: more independent combinations than answer vectors");
  result.independent_bits = log2_interval(result.independent.product);
  return result;
}

}  // namespace kernelrank
