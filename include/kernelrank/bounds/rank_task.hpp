// The question "does a rank-r model of class NK / PF solve this task?" in the
// form the rank search works with (docs/search.md).
//
// Without position dependence an instance is fully described by its query token
// and the multiset of its n tokens (theory.md §2), so a task is deduplicated to
// "row instances": a query index, the sorted key multiset (which contains the
// query itself) and the target. T(m,3) has 2^(3m) ordered instances but only
// 2^m * (2^m + 1) * 2^m / 2 row instances (16,896 at m = 5), and the query
// mode does not matter for the cube: every (query, multiset containing it)
// arises in every mode.
//
// The exact side of the search sits next to it: rank_model.hpp assembles a candidate
// (U, V, F) and re-verifies it exactly; order_argument.hpp refutes r <= 2 without a solver.
#pragma once

#include "kernelrank/core/instance.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// Signed: kernels of any sign (docs/open-questions.md). Only the Z3 encodings and the exact
// re-verification know it; no exact refutation argument applies to it.
enum class SearchClass { NK, PF, Signed };
SearchClass parse_search_class(const std::string& text);  // "NK" | "PF"
std::string to_string(SearchClass search_class);

struct RankInstance {
  std::uint32_t query = 0;          // index into RankTask::tokens
  std::vector<std::uint32_t> keys;  // sorted multiset of all n tokens (query included)
  int target = 0;
  friend bool operator==(const RankInstance&, const RankInstance&) = default;
};

struct RankTask {
  int m = 0;
  int n = 3;
  QueryMode mode = QueryMode::First;
  bool cube = false;                    // the whole cube task T(m,n)
  std::vector<Token> tokens;            // cube: index i is Token::from_index(m, i)
  std::vector<RankInstance> instances;  // deduplicated, sorted by (query, keys)
  std::optional<Family> family;         // the original family (for exact re-verification)
  std::string description;              // "T(5,3)" or "family f.txt (120 instances)"
  // The family's file, when the task came from one: certificates name it by its digest.
  std::string family_file;
  std::string family_file_bytes;

  // Rows with at least one instance, in increasing order.
  std::vector<std::uint32_t> rows() const;
  // Keys used by row q (the union of its instances' keys), sorted.
  std::vector<std::vector<std::uint32_t>> used_keys() const;
};

// T(m,n) over the whole cube (1 <= m <= 8, 1 <= n <= 4, at most 2^22 row instances).
RankTask cube_rank_task(int m, int n = 3);
// A family: every token of every instance becomes a task token (sorted), and
// instances with the same query token and key multiset are merged.
RankTask family_rank_task(const Family& family, const std::string& name);
// The row instances of a subset, as an ordinary family (query first), for exact
// evaluation of partial models.
Family subset_family(const RankTask& task, const std::vector<std::size_t>& instance_ids);

}  // namespace kernelrank
