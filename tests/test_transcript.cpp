// The transcript bound (theory.md L7): answer-vector counts of the cube against brute force
// written here, hand-derived cases, hand-worked families and the shipped witness family.
#include "kernelrank/bounds/transcript.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"
#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace kernelrank;

namespace {

// D(m,n) by the definition, with nothing from the library: every multiset of n-1 token
// indices (nondecreasing tuples), its answer vector over all 2^m queries, a set of them.
std::uint64_t answer_vectors_by_definition(int m, int n) {
  const std::uint32_t tokens = std::uint32_t{1} << m;
  std::set<std::vector<int>> vectors;
  std::vector<std::uint32_t> keys(n - 1, 0);
  for (;;) {
    std::vector<int> row;
    for (std::uint32_t q = 0; q < tokens; ++q) {
      int t = std::popcount(q);
      for (std::uint32_t x : keys) t = std::min(t, std::popcount(q & x));
      row.push_back(t);
    }
    vectors.insert(row);
    int i = n - 2;
    while (i >= 0 && keys[i] == tokens - 1) --i;
    if (i < 0) break;
    ++keys[i];
    for (int j = i + 1; j < n - 1; ++j) keys[j] = keys[i];
  }
  return vectors.size();
}

// n = 3: K = {a,b}. With c = a AND b, a' = a - c, b' = b - c, the answer is
// |q c| + min(|q a'|, |q b'|); singletons give c, and when a', b' are both nonempty the
// pairs {i,j} answering 1 beyond c form the complete bipartite graph a' x b', which gives
// {a',b'}. When one is empty the answer is <q,c>. Distinct vectors: 2^m (a' or b' empty)
// plus the unordered disjoint nonempty pairs with c disjoint from both,
// (4^m - 2*3^m + 2^m)/2, so D = (4^m - 2*3^m + 3*2^m)/2.
Integer hand_formula_n3(int m) {
  using boost::multiprecision::pow;
  return (pow(Integer(4), m) - 2 * pow(Integer(3), m) + 3 * pow(Integer(2), m)) / 2;
}

Family family_from_text(const std::string& text) { return parse_family("test.family", text); }

}  // namespace

TEST_CASE("transcript: the cube count T(m,3) matches a brute force written here, m = 1..4") {
  const std::uint64_t expected[] = {0, 2, 5, 17, 71};  // also the hand formula below
  for (int m = 1; m <= 4; ++m) {
    CAPTURE(m);
    const std::uint64_t by_definition = answer_vectors_by_definition(m, 3);
    CHECK(by_definition == expected[m]);
    CHECK(hand_formula_n3(m) == by_definition);
    const CubeTranscriptResult result = cube_transcript_bound(m, 3);
    CHECK(result.answer_vectors == by_definition);
    CHECK(cube_answer_vectors_brute_force(m, 3) == by_definition);
    CHECK(cube_answer_vectors_antichains(m, 3) == by_definition);
    CHECK(result.contexts == (std::uint64_t{1} << m) * ((std::uint64_t{1} << m) + 1) / 2);
  }
}

TEST_CASE("transcript: the cube count at n = 4 and 5 matches the brute force written here") {
  for (int n = 4; n <= 5; ++n)
    for (int m = 1; m <= 3; ++m) {
      CAPTURE(m);
      CAPTURE(n);
      const std::uint64_t by_definition = answer_vectors_by_definition(m, n);
      CHECK(cube_answer_vectors_antichains(m, n) == by_definition);
      CHECK(cube_answer_vectors_brute_force(m, n) == by_definition);
    }
}

TEST_CASE("transcript: hand-derived cube cases n = 1 and n = 2") {
  for (int m = 1; m <= 7; ++m) {
    CAPTURE(m);
    // n = 1: no key besides the query, every answer is |q|: one vector, zero bits.
    const CubeTranscriptResult one = cube_transcript_bound(m, 1);
    CHECK(one.answer_vectors == 1);
    CHECK(one.bits.floor == 0);
    CHECK(one.bits.ceil == 0);
    CHECK(one.independent.product == 1);
    CHECK(cube_answer_vectors_brute_force(m, 1) == 1);
    // n = 2: q -> <q,x> gives x back (read it on the singletons), so D = 2^m, m bits.
    const CubeTranscriptResult two = cube_transcript_bound(m, 2);
    CHECK(two.answer_vectors == (std::uint64_t{1} << m));
    CHECK(cube_answer_vectors_brute_force(m, 2) == (std::uint64_t{1} << m));
    CHECK(two.bits.floor == static_cast<std::uint64_t>(m));
    CHECK(two.bits.ceil == static_cast<std::uint64_t>(m));
    // m singleton queries answer the m bits of x independently: 2^m, equal to D here.
    CHECK(two.independent.product == two.answer_vectors);
  }
}

TEST_CASE("transcript: brute force and the antichain count agree wherever both run") {
  int compared = 0;
  for (int n = 1; n <= 8; ++n)
    for (int m = 1; m <= 6; ++m) {
      if (!cube_brute_force_feasible(m, n) || !cube_antichain_count_feasible(m, n)) continue;
      CAPTURE(m);
      CAPTURE(n);
      const CubeTranscriptResult result = cube_transcript_bound(m, n, CubeCountMethod::Auto, true);
      CHECK(result.cross_checked);
      ++compared;
    }
  CHECK(compared >= 30);
  // m <= 3 has no antichain of more than 3 members, so D stops growing at n = 4.
  CHECK(cube_answer_vectors_antichains(3, 8) == cube_answer_vectors_antichains(3, 4));
  CHECK(cube_answer_vectors_antichains(3, 8) == cube_answer_vectors_brute_force(3, 8));
}

TEST_CASE("transcript: large cubes by the antichain count, independent answers blockwise") {
  for (int m : {24, 100}) {
    CAPTURE(m);
    const CubeTranscriptResult result = cube_transcript_bound(m, 3);
    CHECK(result.answer_vectors == hand_formula_n3(m));
    CHECK(result.method == "antichain count");
    // Weight-1 blocks are best ((w+1)^(m/w) <= 2^m): m binary answers, 2^m.
    CHECK(result.independent.block_weight == 1);
    CHECK(result.independent.queries == m);
    CHECK(result.independent.values == 2);
    CHECK(result.independent.product == Integer(1) << m);
    CHECK(result.independent.verified == "blockwise");
    CHECK(result.independent_bits.ceil == static_cast<std::uint64_t>(m));
    // D is about 4^m / 2: log2 D lies in [2m - 2, 2m - 1].
    CHECK(result.bits.floor == static_cast<std::uint64_t>(2 * m - 2));
    CHECK(result.bits.ceil == static_cast<std::uint64_t>(2 * m - 1));
  }
  const CubeTranscriptResult small = cube_transcript_bound(5, 3);
  CHECK(small.answer_vectors == 317);
  CHECK(small.independent.verified == "enumerated");
  CHECK(small.independent.product == 32);
}

TEST_CASE("transcript: log2 intervals are exact") {
  CHECK(log2_interval(1).floor == 0);
  CHECK(log2_interval(1).ceil == 0);
  CHECK(log2_interval(2).ceil == 1);
  CHECK(log2_interval(5).floor == 2);
  CHECK(log2_interval(5).ceil == 3);
  CHECK(log2_interval(8).floor == 3);
  CHECK(log2_interval(8).ceil == 3);
  CHECK(log2_interval(Integer(1) << 200).ceil == 200);
  CHECK(log2_interval((Integer(1) << 200) + 1).ceil == 201);
}

TEST_CASE("transcript: impossible cube parameters and refused sizes") {
  CHECK_THROWS_AS(cube_transcript_bound(0, 3), UsageError);
  CHECK_THROWS_AS(cube_transcript_bound(3, 0), UsageError);
  CHECK_THROWS_AS(cube_transcript_bound(5000, 3), UsageError);
  CHECK_THROWS_AS(parse_cube_count_method("fast"), UsageError);
  CHECK_THROWS_AS(cube_transcript_bound(10, 3, CubeCountMethod::BruteForce), ResourceError);
  CHECK_THROWS_AS(cube_transcript_bound(5, 8, CubeCountMethod::Antichains), ResourceError);
  CHECK(cube_brute_force_feasible(9, 3));
  CHECK_FALSE(cube_brute_force_feasible(10, 3));
}

TEST_CASE("transcript: a hand-written grid family gives D exactly") {
  // Queries A = 10 and B = 01, contexts (the two tokens besides the query):
  //   K1 = {11,11}: A -> min(1,1,1) = 1, B -> 1           row (1,1)
  //   K2 = {10,11}: A -> min(1,1,1) = 1, B -> min(1,0,1) = 0   row (1,0)
  //   K3 = {01,01}: A -> 0, B -> 1                         row (0,1)
  //   K4 = {10,01}: A -> 0, B -> 0                         row (0,0)
  //   K5 = {00,11}: A -> 0, B -> 0                         row (0,0), as K4
  // Every context meets both queries: a grid with 4 distinct rows, D = 4, 2 bits.
  // A and B take values {0,1} in all four combinations: 2^2 = 4 <= D.
  // Query positions vary and context tokens come in any order.
  const Family family = family_from_text(
      "kernelrank-family 1 m=2 n=3\n"
      "1 10 11 11\n2 11 01 11\n"
      "3 11 10 10\n1 01 11 10\n"
      "1 10 01 01\n3 01 01 01\n"
      "2 10 10 01\n1 01 01 10\n"
      "1 10 00 11\n1 01 11 00\n"
      "1 10 11 11\n");  // a repeated instance changes nothing
  const FamilyTranscriptResult r = family_transcript_bound(family);
  CHECK(r.instances == 11);
  CHECK(r.contexts == 5);
  CHECK(r.queries == 2);
  CHECK(r.pairs == 10);
  CHECK(r.grid);
  CHECK(r.exact);
  CHECK(r.answer_vectors == 4);
  CHECK(r.transcripts_upper == 4);
  CHECK(r.bits.ceil == 2);
  CHECK(r.independent.queries == 2);
  CHECK(r.independent.values == 2);
  CHECK(r.independent.product == 4);
}

TEST_CASE("transcript: a hand-written non-grid family gives a clique lower bound") {
  // Queries A = 10, B = 01; contexts and the queries they meet:
  //   K1 = {11,11}: A -> 1, B -> 1
  //   K2 = {01,01}: A -> 0           (no B)
  //   K3 = {10,10}:           B -> 0 (no A)
  //   K4 = {00,00}: A -> 0, B -> 0
  //   K5 = {11,01}: A -> min(1,1,0) = 0, B -> 1
  // Conflicts (a shared query answered differently): K1 with all others; K5 with K3, K4.
  // K2-K3 share nothing; K2-K4, K2-K5 (A: 0, 0) and K3-K4 (B: 0, 0) agree. Degrees
  // 4,1,2,2,3, so the greedy order is K1, K5, K3, K4, K2 and keeps {K1, K5, K3}: D >= 3.
  // The greedy colouring in that order: K1 | K5 | K3 (conflicts K1 and K5) | K4 joins K3 |
  // K2 joins K5: 3 classes, so D = 3 exactly although the family is not a grid.
  // Independent answers: A takes 0 and 1; B then has only one value (1) seen with both
  // values of A, so the best is 1 query x 2 values = 2 <= 3.
  const Family family = family_from_text(
      "kernelrank-family 1 m=2 n=3\n"
      "1 10 11 11\n1 01 11 11\n"
      "1 10 01 01\n"
      "1 01 10 10\n"
      "1 10 00 00\n1 01 00 00\n"
      "1 10 11 01\n1 01 01 11\n");
  const FamilyTranscriptResult r = family_transcript_bound(family);
  CHECK(r.contexts == 5);
  CHECK(r.queries == 2);
  CHECK(r.pairs == 8);
  CHECK_FALSE(r.grid);
  CHECK(r.exact);
  CHECK(r.transcripts_upper == 3);
  CHECK(r.answer_vectors == 3);
  CHECK(r.clique == std::vector<std::size_t>{0, 4, 2});
  CHECK(r.clique_source == "greedy");
  CHECK(r.bits.floor == 1);
  CHECK(r.bits.ceil == 2);
  CHECK(r.independent.queries == 1);
  CHECK(r.independent.product == 2);
}

TEST_CASE("transcript: the cube written as a family is a grid with the cube's D") {
  for (int m = 1; m <= 3; ++m) {
    CAPTURE(m);
    Family family;
    family.m = m;
    family.n = 3;
    for_each_sequence(std::uint64_t{1} << m, 3, QueryMode::All,
                      [&](const std::vector<std::uint32_t>& seq, int query) {
                        Instance instance;
                        instance.query = query;
                        for (std::uint32_t i : seq)
                          instance.tokens.push_back(Token::from_index(m, i));
                        family.instances.push_back(std::move(instance));
                        return true;
                      });
    const FamilyTranscriptResult r = family_transcript_bound(family);
    CHECK(r.grid);
    CHECK(r.answer_vectors == answer_vectors_by_definition(m, 3));
    CHECK(r.queries == (std::uint64_t{1} << m));
    // The greedy finds the m singleton queries, as the cube's construction does.
    CHECK(r.independent.product == (std::uint64_t{1} << m));
  }
}

TEST_CASE("transcript: an empty family needs no transcript") {
  const FamilyTranscriptResult r =
      family_transcript_bound(family_from_text("kernelrank-family 1 m=3 n=3\n"));
  CHECK(r.contexts == 0);
  CHECK(r.answer_vectors == 0);
  CHECK(r.independent.product == 1);
}

TEST_CASE("transcript: the shipped witness family") {
  const Family family =
      read_family(std::string(KERNELRANK_SOURCE_DIR) + "/instances/witness-m24.family");
  const FamilyTranscriptResult r = family_transcript_bound(family);
  CHECK(r.contexts == 380);  // counted separately with a script (docs/transcript.md)
  CHECK(r.queries == 24);
  CHECK_FALSE(r.grid);
  CHECK(r.answer_vectors >= 1);
  CHECK(r.answer_vectors <= r.contexts);
  CHECK(r.independent.product <= r.answer_vectors);
  CHECK(r.clique.size() == r.answer_vectors);
  CHECK(r.transcripts_upper >= r.clique.size());
  CHECK(r.transcripts_upper <= r.contexts);
  CHECK(r.independent.witness_contexts.size() == r.independent.product);
}
