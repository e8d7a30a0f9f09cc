// The finite-precision transcript bound (theory.md L7), in its communication form.
//
// A position-independent instance is a query token q and its context K, the multiset of
// the other n-1 tokens; its answer is t(q,K) = min(|q|, min_{x in K} <q,x>). Whatever a
// model does, if its cross-token channels carry symbols from a finite alphabet, the keys'
// side sends the query side a transcript from which every answer is read, so two contexts
// that some shared query answers differently need different transcripts. The number D of
// transcripts needed, and log2 D bits, bound every such model from below.
//
// * Cube T(m,n): every query meets every context, so D is exactly the number of distinct
//   answer vectors (t(q,K))_{q in {0,1}^m}. It is counted by brute force (small m) or by
//   the antichain count: the answer vector of K determines, and is determined by, the set
//   of inclusion-minimal tokens of K, so D = #antichains of {0,1}^m with 1..n-1 members
//   (docs/transcript.md has the proof).
// * Family: contexts and queries are read off the instances. On a grid (every context
//   meets the same queries) D = the number of distinct rows, exactly. In general the least
//   number of transcripts is the chromatic number of the conflict graph on contexts; a
//   greedy clique bounds it from below and a greedy colouring from above.
// * Independent answers: q queries and contexts realising all (s+1)^q combinations of
//   s+1 answer values each give (s+1)^q <= D, i.e. q log2(s+1) bits (the L7 statement).
//   Every figure reported here is checked on the exhibited queries and contexts.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

// floor(log2 x) and ceil(log2 x) for an integer x >= 1; ceil is the least number of bits
// b with 2^b >= x (the shortest fixed-length transcript for x messages).
struct Log2Interval {
  std::uint64_t floor = 0;
  std::uint64_t ceil = 0;
};
Log2Interval log2_interval(const Integer& value);

// q answers, each taking `values` = s+1 values, realised in every combination.
struct IndependentAnswers {
  int queries = 0;      // q
  int values = 1;       // s + 1
  Integer product = 1;  // (s+1)^q
  // Family: the chosen queries, the s+1 answer values of each, and for every combination
  // (odometer order, first query slowest) the index of a context realising it.
  std::vector<Token> query_tokens;
  std::vector<std::vector<int>> value_sets;
  std::vector<std::size_t> witness_contexts;
  // Cube: the queries are `queries` disjoint blocks of `block_weight` coordinates.
  int block_weight = 0;
  // How the claim was checked: "enumerated" (every combination built and its answers
  // computed) or "blockwise" (cube only, too many combinations to list: each block's
  // witness tokens lie inside the block and give each value; blocks are disjoint).
  std::string verified;
};

// ---- cube T(m,n) ---------------------------------------------------------------

enum class CubeCountMethod { Auto, BruteForce, Antichains };
CubeCountMethod parse_cube_count_method(const std::string& text);  // auto|brute-force|antichains

// Brute force visits contexts x 2^m answer cells; above this it is refused (ResourceError).
// T(9,3) needs 6.7e7 cells (about a second), T(10,3) 5.4e8.
inline constexpr std::uint64_t kMaxTranscriptCells = std::uint64_t{1} << 27;
// Widths of the cube accepted at all (the antichain count and the blockwise check are
// polynomial in m; 4096 is the checker's widest token).
inline constexpr int kMaxTranscriptCubeWidth = 4096;
// The antichain count enumerates the 2^(k(k-1)) sets of ordered pairs of a k-antichain:
// k <= 5 (n <= 6), or any k above the width C(m, floor(m/2)) of the lattice (count 0).
inline constexpr int kMaxAntichainCountSize = 5;

// Number of multisets of n-1 tokens of {0,1}^m: C(2^m + n - 2, n - 1).
Integer cube_context_count(int m, int n);
// D by enumerating every context and hashing its answer vector.
Integer cube_answer_vectors_brute_force(int m, int n);
// D as the number of antichains of {0,1}^m with 1..n-1 members (1 when n = 1).
Integer cube_answer_vectors_antichains(int m, int n);
// Whether each method can run at these parameters (without throwing).
bool cube_brute_force_feasible(int m, int n);
bool cube_antichain_count_feasible(int m, int n);

struct CubeTranscriptResult {
  int m = 0;
  int n = 0;
  Integer contexts;
  Integer queries;         // 2^m
  Integer answer_vectors;  // D, exact
  Log2Interval bits;
  std::string method;          // "brute force" or "antichain count"
  bool cross_checked = false;  // both methods ran and agreed
  IndependentAnswers independent;
  Log2Interval independent_bits;
};

// Throws UsageError for impossible parameters and ResourceError when the chosen method
// cannot run; `cross_check` runs both methods and throws InternalError if they differ.
CubeTranscriptResult cube_transcript_bound(int m, int n,
                                           CubeCountMethod method = CubeCountMethod::Auto,
                                           bool cross_check = false);

// ---- explicit family -------------------------------------------------------------

// Comparing every pair of contexts (the conflict graph) costs (contexts - 1) x the number
// of distinct (query, context) pairs; above this the non-grid bound is refused.
inline constexpr double kMaxConflictWork = 2e9;

struct FamilyTranscriptResult {
  int m = 0;
  int n = 0;
  std::uint64_t instances = 0;
  std::uint64_t contexts = 0;
  std::uint64_t queries = 0;
  std::uint64_t pairs = 0;  // distinct (query, context) pairs
  bool grid = false;        // every context meets the same set of queries
  // D, the least number of transcripts. Grid: exactly the number of distinct rows.
  // Otherwise the size of the clique below, a lower bound; `exact` when a colouring with
  // that many classes was found as well.
  Integer answer_vectors;
  bool exact = false;
  std::vector<std::size_t> clique;  // non-grid: pairwise-conflicting contexts (indices)
  std::string clique_source;        // "greedy" or "independent answers, extended greedily"
  // An upper bound on D: the classes of a greedy colouring of the conflict graph (each class
  // can share one transcript); equal to D on a grid.
  std::uint64_t transcripts_upper = 0;
  Log2Interval bits;  // of answer_vectors (0 and 0 when it is 0)
  IndependentAnswers independent;
  Log2Interval independent_bits;
  // Context i in first-appearance order, as its n-1 tokens sorted.
  std::vector<std::vector<Token>> context_tokens;
};

FamilyTranscriptResult family_transcript_bound(const Family& family);

}  // namespace kernelrank
