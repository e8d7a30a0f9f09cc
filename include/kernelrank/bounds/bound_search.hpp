// Search for the best certified rank bound on T(m,n) over code constructions.
//
// Candidates: the Golay octads and dodecads (m = 24), greedy lexicodes, seeded
// randomised greedy codes, subsets of the Johnson scheme (all weight-w words),
// the structured codes of structured_codes.hpp (m = 24..48) and a user's code. Each pool of own
// tokens gets complement queries, a row subset chosen by a heuristic local search (double precision
// is fine there: it only proposes), and an exact certification of the chosen rows.
#pragma once

#include "kernelrank/bounds/rank_bound.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct BoundCandidate {
  std::string construction;
  std::vector<BoundRow> rows;
};

struct BoundSearchOptions {
  int m = 24;
  int n = 3;
  std::string code_file;   // when set, only this code (and its subsets) is tried
  std::uint64_t seed = 1;  // first seed of the randomised constructions
  int effort = 1;          // seeds per randomised construction
  bool subset_search = true;
  std::function<void(const std::string&)> log;  // progress messages, may be empty
};

// The options of `bound --m M --n N` given nothing else (the member defaults above: seed 1,
// effort 1, subset search on, no code file), so that a caller showing bound's number (the
// lower side of `transition`) searches exactly as bound does.
BoundSearchOptions default_bound_search_options(int m, int n);

struct BoundSearchEntry {
  std::string construction;
  std::size_t pool = 0;  // words in the construction
  std::size_t rows = 0;  // rows kept by the subset search
  RankBoundResult bound;
};

struct BoundSearchResult {
  BoundCandidate best;
  RankBoundResult bound;
  std::vector<BoundSearchEntry> tried;
};

// The best certified bound over the constructions, or nullopt when none gives one (then
// `why_not`, when given, says so). DomainError when m is outside 2..4096, n outside 3..1000
// or the code file has another width.
std::optional<BoundSearchResult> find_rank_bound(const BoundSearchOptions& options,
                                                 std::string* why_not = nullptr);
// find_rank_bound for callers that need a bound: UsageError when no construction gives one.
BoundSearchResult search_rank_bound(const BoundSearchOptions& options);

// Certifies one pool of own tokens (complement queries), with the subset search
// when enabled; the entry's bound is exact.
BoundSearchEntry certify_pool(const std::string& construction, const std::vector<Token>& pool,
                              int n, bool subset_search, BoundCandidate* rows_out = nullptr,
                              bool swaps = false);

// Heuristic subset: indices into `rows` with no pair of gap < 2 and a large
// sum_j 1/(1 + c_j). Pools above `max_pool` rows are returned whole (conflicts
// included: such pools must be conflict-free). With `swaps`, the local search
// also replaces a member by a non-member it alone blocks (e.g. another suffix of
// the same word), after the batched removals and additions stall.
std::vector<std::size_t> optimise_row_subset(const std::vector<BoundRow>& rows, int n,
                                             std::size_t max_pool = 12'000, bool swaps = false);

}  // namespace kernelrank
